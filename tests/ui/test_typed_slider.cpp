// The box a Ctrl+click opens on a slider whose inner value is not the one it shows: what a typed
// count comes to, and what is said about it.
#include <catch2/catch.hpp>

#include <vector>

#include "ui/typed_slider.hpp"

using m2m::ui::TypedSlider;

TEST_CASE("a typed count goes to the nearest the slider takes, and the note says where it went") {
    TypedSlider box;
    const std::vector<int> doubling = {8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096};
    const std::string why = " GPUs: the counts double, so the nearest, ";
    CHECK(box.take_count("1024", doubling, 8, why, "2048") == 1024);
    CHECK(box.note_text().empty());  // one the slider has: nothing to say
    CHECK(box.take_count("3,000", doubling, 8, why, "2048") == 2048);  // nearer 2,048 than 4,096
    CHECK(box.note_text() == "3,000 GPUs: the counts double, so the nearest, 2,048.");
    CHECK(box.take_count("1e9", doubling, 8, why, "2048") == 4096);
    CHECK(box.note_text() == "1e9 is past the slider's largest count: 4,096.");
    CHECK(box.take_count("-2", doubling, 8, why, "2048") == 8);
    CHECK(box.note_text() == "-2 is past the slider's smallest count: 8.");
    CHECK(box.take_count("lots", doubling, 512, why, "2048 or 2,048") == 512);  // kept
    CHECK(box.note_text() == "\"lots\" is not a count: type 2048 or 2,048.");
    box.clear_note();
    CHECK(box.note_text().empty());
}
