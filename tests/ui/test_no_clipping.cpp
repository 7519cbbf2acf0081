// No text is cut off at a projector's 1024x768 with the UI at 1.5x: every lesson and the home
// screen are drawn headless in the states a class sees, and the fixture's clipping check looks
// at every window and every letter. The check itself is shown to fail on text that is cut off.
#include <catch2/catch.hpp>

#include <functional>
#include <string>
#include <vector>

#include "headless.hpp"
#include "lessons/catalog.hpp"
#include "lessons/layers/layer_run_panel.hpp"
#include "lessons/rack/rack_panel.hpp"
#include "lessons/run_log.hpp"
#include "lessons/split/split_panel.hpp"
#include "lessons/home_screen.hpp"
#include "ui/view.hpp"

using namespace m2m;

namespace {

const char* too_long = "A sentence much too long for a window only two hundred pixels wide, left unwrapped.";

void frames(test::Headless& ui, const std::function<void()>& body, int n = 3) {
    for (int i = 0; i < n; ++i) ui.frame(body);
}

}  // namespace

TEST_CASE("the clipping check finds an unwrapped line cut off by its window, and a label drawn past a window's edge") {
    test::Headless ui(1024, 768, 1.5f);
    frames(ui, [] {
        ImGui::BeginChild("narrow", ImVec2(200, 100), true);
        ImGui::TextUnformatted(too_long);
        ImGui::EndChild();
    });
    // Found both ways: the window's items reach past its edge, and a letter is cut at the edge.
    REQUIRE(ui.clipped().size() == 2);
    CHECK_THAT(ui.clipped()[0].what, Catch::Contains("items in window") && Catch::Contains("narrow"));
    CHECK(ui.clipped()[0].overflow_px > 100.0f);
    CHECK_THAT(ui.clipped()[1].what, Catch::StartsWith("a glyph") && Catch::Contains("in draw list") && Catch::Contains("narrow"));

    frames(ui, [] {
        ImGui::BeginChild("label", ImVec2(200, 100), true);
        const ImVec2 p = ImGui::GetCursorScreenPos();
        ImGui::GetWindowDrawList()->AddText(ImVec2(p.x + 150, p.y), IM_COL32_WHITE, "a label");
        ImGui::EndChild();
    });
    REQUIRE(ui.clipped().size() == 1);
    CHECK_THAT(ui.clipped()[0].what, Catch::StartsWith("a glyph") && Catch::Contains("in draw list") && Catch::Contains("label"));

    // The same sentence wrapped, and the label moved inside: nothing is cut off.
    frames(ui, [] {
        ImGui::BeginChild("narrow", ImVec2(200, 300), true);
        ImGui::TextWrapped("%s", too_long);
        const ImVec2 p = ImGui::GetCursorScreenPos();
        ImGui::GetWindowDrawList()->AddText(ImVec2(p.x, p.y), IM_COL32_WHITE, "a label");
        ImGui::EndChild();
    });
    CHECK(ui.clipped().empty());
}

TEST_CASE("no text is clipped in any lesson at 1024x768 and scale 1.5") {
    test::Headless ui(1024, 768, 1.5f);
    // ImGui counts a multiline text box's content one frame padding past the box's edge; the box
    // scrolls its own text, and Explain it back wraps the answer to the box's width.
    ui.ignore_window("##answer");
    auto lessons = lessons::make_lessons(ui.context());
    auto check = [&](const std::string& what) {
        INFO(what << ": " << ui.clipped_text());
        CHECK(ui.clipped().empty());
    };

    frames(ui, [&] { lessons::draw_home(ui.context(), lessons, 0); });
    check("the home screen");

    for (auto& lesson : lessons) {
        const std::string id(lesson->id());
        auto draw = [&] { lesson->draw(1.0f / 60.0f); };
        // A guess before the run, so the end of the run shows it against the result.
        if (auto* l1 = dynamic_cast<lessons::LayerRunPanel*>(lesson.get())) l1->set_guess(4);
        if (auto* l2 = dynamic_cast<lessons::RackPanel*>(lesson.get())) {
            l2->pick(lessons::RackPanel::Pick::other_rack);
            l2->set_guess(core::SendGuess{core::LinkType::nvlink, 3});
        }
        if (auto* l3 = dynamic_cast<lessons::SplitPanel*>(lesson.get())) l3->set_guess(core::Strategy::pipeline);
        frames(ui, draw);
        check(id + ", as it opens");
        lesson->playback().play();
        frames(ui, draw, 20);
        check(id + ", mid-run");
        lesson->playback().set_speed(ui::Playback::max_speed);
        frames(ui, draw, 600);
        check(id + ", at the end of the run with the guess revealed");
        ui.context().view.presenter = true;
        frames(ui, draw);
        ui.context().view.presenter = false;
        check(id + ", in presenter view");
    }

    // The busiest set-ups: an all-reduce of 64 GPUs, and 3D parallel on 8 GPUs in two nodes.
    for (auto& lesson : lessons) {
        auto draw = [&] { lesson->draw(1.0f / 60.0f); };
        if (auto* l2 = dynamic_cast<lessons::RackPanel*>(lesson.get())) {
            l2->set_mode(lessons::RackPanel::Mode::all_reduce);
            l2->set_group(64);
            l2->playback().play();
            frames(ui, draw, 10);
            check("rack, all-reduce of 64 GPUs");
        }
        if (auto* l3 = dynamic_cast<lessons::SplitPanel*>(lesson.get())) {
            core::SplitSetup s = l3->setup();
            s.strategy = core::Strategy::three_d;
            s.gpus = 8;
            s.placement = core::Placement::two_nodes;
            l3->apply(s);
            l3->playback().play();
            frames(ui, draw, 10);
            check("split, 3D parallel on 8 GPUs in two nodes");
        }
    }
}

namespace {

// Each lesson as it opens, mid-run and in presenter view at 1024x768 and the largest common
// projector scale, 2.0.
void nothing_clipped_at_2x(const std::string& id) {
    test::Headless ui(1024, 768, 2.0f);
    ui.ignore_window("##answer");
    auto lessons = lessons::make_lessons(ui.context());
    for (auto& lesson : lessons) {
        if (lesson->id() != id) continue;
        auto draw = [&] { lesson->draw(1.0f / 60.0f); };
        frames(ui, draw);
        INFO(id << " as it opens at 2.0: " << ui.clipped_text());
        CHECK(ui.clipped().empty());
        lesson->playback().play();
        frames(ui, draw, 20);
        INFO(id << " mid-run at 2.0: " << ui.clipped_text());
        CHECK(ui.clipped().empty());
        ui.context().view.presenter = true;
        frames(ui, draw);
        INFO(id << " in presenter view at 2.0: " << ui.clipped_text());
        CHECK(ui.clipped().empty());
    }
}

}  // namespace

// Each lesson at 1024x768 and 2.0: long words that were wider than the control column there (the
// Predict tree node, Lesson 3's playback header, the Run button while it says Pause) now wrap or
// take a shorter form, and Lesson 3's step-time bar goes under the time when it would not fit.
TEST_CASE("no text is clipped in Lesson 1 at 1024x768 and scale 2.0") { nothing_clipped_at_2x("layers"); }
TEST_CASE("no text is clipped in Lesson 2 at 1024x768 and scale 2.0") { nothing_clipped_at_2x("rack"); }
TEST_CASE("no text is clipped in Lesson 3 at 1024x768 and scale 2.0") { nothing_clipped_at_2x("split"); }
TEST_CASE("no text is clipped in Explain it back at 1024x768 and scale 2.0") { nothing_clipped_at_2x("explain"); }
