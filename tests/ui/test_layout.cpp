// The layout rule, measured headless as issue 16 asks: at a projector's 1024x768 in the projector
// theme at 1.5x, each lesson's scene (what it sets as "scene" in the item registry, the skeleton's
// scene pane by default) covers at least half of the window, and three quarters in presenter view;
// no text is drawn below 14 px times the UI scale; folding the controls grows the scene. The
// app's own rows above the lesson (menu bar and lesson tabs, or presenter view's one-line hint)
// are reserved first, at the height ImGui gives them, so the share is the window's, not the
// lesson area's. One test case per lesson, so a lesson that slips is named.
#include <catch2/catch.hpp>

#include <cstring>
#include <functional>
#include <memory>
#include <string>

#include "headless.hpp"
#include "lessons/catalog.hpp"
#include "ui/fonts.hpp"
#include "ui/text_measure.hpp"
#include "ui/view.hpp"

using namespace m2m;

namespace {

struct Measured {
    float scene_share = 0;  // the scene's area over the window's
    float scene_w = 0;
    float text_min_px = 0;  // the smallest text the frame drew
};

// The rows the app draws above a lesson: the menu bar and the lesson tabs, or in presenter view
// the hint line (app/frame.cpp).
float app_rows_height(bool presenter) {
    const ImGuiStyle& s = ImGui::GetStyle();
    if (presenter) return ImGui::GetTextLineHeight() + s.ItemSpacing.y;
    return ImGui::GetFrameHeight() + (ImGui::GetFrameHeight() + s.ItemSpacing.y);
}

struct Room {
    test::Headless ui;
    std::vector<std::unique_ptr<lessons::Lesson>> lessons;
    Room(float w, float h, float scale, ui::ThemeKind theme) : ui(w, h, scale) {
        ui::apply_theme(ui.context().view, theme, scale);
        lessons = lessons::make_lessons(ui.context());
    }
    lessons::Lesson& find(const std::string& id) {
        for (auto& l : lessons)
            if (l->id() == id) return *l;
        FAIL("no lesson " << id);
        throw;
    }
    Measured measure(const std::string& id, int frames = 4) {
        lessons::Lesson& lesson = find(id);
        const bool presenter = ui.context().view.presenter;
        for (int i = 0; i < frames; ++i)
            ui.frame([&] {
                ImGui::Dummy(ImVec2(1, app_rows_height(presenter) - ImGui::GetStyle().ItemSpacing.y));
                lesson.draw(1.0f / 60.0f);
            });
        const auto scene = ui.context().items.rect("scene");  // none in Explain it back: no picture
        const ImVec2 d = ImGui::GetIO().DisplaySize;
        Measured m;
        if (scene) {
            m.scene_w = scene->z - scene->x;
            m.scene_share = m.scene_w * (scene->w - scene->y) / (d.x * d.y);
        }
        m.text_min_px = ui::smallest_text_px(ImGui::GetDrawData(), ImGui::GetIO().Fonts);
        return m;
    }
};

void scene_covers_the_window(const std::string& id) {
    Room room(1024, 768, 1.5f, ui::ThemeKind::projector);
    const Measured plain = room.measure(id);
    REQUIRE(plain.scene_w > 0);
    INFO(id << ": the scene covers " << plain.scene_share * 100 << "% of 1024x768 at 1.5x");
    CHECK(plain.scene_share >= 0.50f);
    room.ui.context().view.presenter = true;
    const Measured presenter = room.measure(id);
    INFO("and " << presenter.scene_share * 100 << "% in presenter view");
    CHECK(presenter.scene_share >= 0.75f);
    CHECK(presenter.scene_share > plain.scene_share);
}

void text_is_large_enough(const std::string& id) {
    for (float scale : {1.0f, 1.5f, 2.0f}) {
        Room room(scale == 1.0f ? 1920.0f : 1024.0f, scale == 1.0f ? 1080.0f : 768.0f, scale, ui::ThemeKind::projector);
        const Measured m = room.measure(id);
        INFO(id << " at scale " << scale << ": smallest text " << m.text_min_px << " px");
        CHECK(m.text_min_px > 0);
        CHECK(m.text_min_px >= 14.0f * scale - 0.5f);
    }
}

}  // namespace

TEST_CASE("the text measure finds the size text was drawn at, in widgets and in direct AddText calls") {
    test::Headless ui(800, 600, 1.0f);
    ui.frame([] { ImGui::TextUnformatted("body text"); });
    CHECK(ui::smallest_text_px(ImGui::GetDrawData(), ImGui::GetIO().Fonts) == Approx(ui::base_font_px).margin(0.2));
    ui.frame([] {
        ImGui::TextUnformatted("body text");
        ImGui::GetWindowDrawList()->AddText(ImGui::GetFont(), 9.0f, ImGui::GetCursorScreenPos(), IM_COL32_WHITE, "tiny");
    });
    CHECK(ui::smallest_text_px(ImGui::GetDrawData(), ImGui::GetIO().Fonts) == Approx(9.0).margin(0.2));
    ui.frame([] { ImGui::Dummy(ImVec2(10, 10)); });
    CHECK(ui::smallest_text_px(ImGui::GetDrawData(), ImGui::GetIO().Fonts) == 0);
}

// Known gaps (issue 16), kept as expected failures so that the day one is fixed, its test fails
// here and the tag must come off: outside presenter view, at 1024x768 and 1.5, the menu bar and the
// two rows of tabs leave Lesson 1's scene 47.1% of the window and Lesson 3's 49.3% (goal 50%).
// Catch's [!shouldfail] passes only while a check still fails; presenter view (89%) passes today.
TEST_CASE("Lesson 1's scene covers half the projector window at 1.5x, three quarters in presenter view") {
    scene_covers_the_window("layers");
}
TEST_CASE("Lesson 2's scene covers half the projector window at 1.5x, three quarters in presenter view") {
    scene_covers_the_window("rack");
}
TEST_CASE("Lesson 3's scene covers half the projector window at 1.5x, three quarters in presenter view") {
    scene_covers_the_window("split");
}

TEST_CASE("Lesson 1 draws no text below 14 px times the UI scale") { text_is_large_enough("layers"); }
TEST_CASE("Lesson 2 draws no text below 14 px times the UI scale") { text_is_large_enough("rack"); }
TEST_CASE("Lesson 3 draws no text below 14 px times the UI scale") { text_is_large_enough("split"); }
TEST_CASE("Explain it back draws no text below 14 px times the UI scale") { text_is_large_enough("explain"); }

TEST_CASE("folding the control panel, or narrowing it, gives the scene the room") {
    for (const char* id : {"layers", "rack", "split"}) {
        Room room(1024, 768, 1.5f, ui::ThemeKind::projector);
        const Measured open = room.measure(id);
        room.ui.context().view.controls_share = ui::View::min_controls_share;
        const Measured narrow = room.measure(id);
        room.ui.context().view.controls_collapsed = true;
        const Measured folded = room.measure(id);
        INFO(id << ": scene " << open.scene_w << " px wide, " << narrow.scene_w << " narrowed, " << folded.scene_w << " folded");
        CHECK(narrow.scene_w > open.scene_w);
        CHECK(folded.scene_w > narrow.scene_w);
        CHECK(folded.scene_w >= 1024.0f - ImGui::GetFrameHeight() * 3);
        CHECK(room.ui.context().items.rect("controls_expand").has_value());
    }
}

namespace {

// Clicks at `at` (press on one frame, release on the next) while `draw` runs.
void click(test::Headless& ui, ImVec2 at, const std::function<void()>& draw) {
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = at;
    ui.frame(draw);
    io.MouseDown[0] = true;
    ui.frame(draw);
    io.MouseDown[0] = false;
    ui.frame(draw);
    ui.frame(draw);
}

void label_click_gives_the_field_the_keyboard(const std::string& id, const char* field) {
    Room room(1920, 1080, 1.0f, ui::ThemeKind::dark);
    lessons::Lesson& lesson = room.find(id);
    auto draw = [&] { lesson.draw(1.0f / 60.0f); };
    for (int i = 0; i < 3; ++i) room.ui.frame(draw);
    const auto box = room.ui.context().items.rect(field);
    REQUIRE(box.has_value());
    CHECK_FALSE(ImGui::GetIO().WantTextInput);
    // The item's last few pixels on the right are its label: ImGui draws it beside the frame.
    const ImVec2 label(box->z - 4, (box->y + box->w) / 2);
    click(room.ui, label, draw);
    INFO(id << ": clicked the label of " << field << " at " << label.x << ", " << label.y);
    CHECK(ImGui::GetIO().WantTextInput);  // the app's shortcuts, digits included, are off
}

}  // namespace

TEST_CASE("a click on Lesson 1's guess label puts the keyboard in the guess box, so a digit typed next is no lesson switch") {
    label_click_gives_the_field_the_keyboard("layers", "guess_box");
}

TEST_CASE("Lesson 1's default network keeps neurons of at least 10 px radius at 1024x768, at 1.0 and on a projector at 1.5") {
    for (float scale : {1.0f, 1.5f}) {
        for (bool presenter : {false, true}) {
            Room room(1024, 768, scale, scale > 1.0f ? ui::ThemeKind::projector : ui::ThemeKind::dark);
            room.ui.context().view.presenter = presenter;
            room.measure("layers");
            const std::string status = room.find("layers").status();
            const auto at = status.find("neuron_radius_px=");
            REQUIRE(at != std::string::npos);
            const float r = std::stof(status.substr(at + std::strlen("neuron_radius_px=")));
            INFO("scale " << scale << (presenter ? ", presenter view" : "") << ": radius " << r << " px");
            CHECK(r >= 10.0f);
        }
    }
}

TEST_CASE("on a projector at 1.5x and 2.0x each lesson's Run button is in sight without scrolling the controls") {
    // At 1024x768 and 1.5x the controls overflow their pane and Run sat below its fold in Lessons 2
    // and 3: the playback rows are now pinned at the pane's foot while the rest scrolls. At 2.0 the
    // whole footer would fill the pane, so only the buttons are pinned (two rows) and the speed
    // scrolls with the controls; at 1920x1080 everything follows the controls.
    for (const float scale : {1.5f, 2.0f})
        for (const char* id : {"layers", "rack", "split"}) {
            Room room(1024, 768, scale, ui::ThemeKind::projector);
            room.measure(id);
            const auto pane = room.ui.context().items.rect("controls"), run = room.ui.context().items.rect("run_button");
            const auto reset = room.ui.context().items.rect("reset_button");
            REQUIRE(pane);
            REQUIRE(run);
            REQUIRE(reset);
            INFO(id << " at " << scale << ": Run at y " << run->y << " to " << run->w << ", Reset ends at " << reset->w
                    << ", the pane ends at " << pane->w);
            CHECK(run->y >= pane->y);
            CHECK(reset->w <= pane->w);
            const std::string measures = room.ui.context().items.measure_lines();
            CHECK_THAT(measures, Catch::Contains(scale < 2 ? "controls_footer_pinned 1.0" : "controls_buttons_pinned 1.0"));
            if (scale >= 2) CHECK(reset->w - run->y <= 2.5f * ImGui::GetFrameHeightWithSpacing());  // two rows of buttons
            // What of the controls still shows above the buttons: at least four lines of words.
            const auto scrolls = room.ui.context().items.rect("controls_scroll");
            REQUIRE(scrolls);
            CHECK(scrolls->w - scrolls->y >= 4 * ImGui::GetTextLineHeightWithSpacing());
        }
    Room room(1920, 1080, 1.0f, ui::ThemeKind::projector);
    room.measure("layers");
    CHECK_THAT(room.ui.context().items.measure_lines(),
               Catch::Contains("controls_buttons_pinned 0.0") && Catch::Contains("controls_footer_pinned 0.0"));
}

TEST_CASE("every lesson's layout holds still from one frame to the next on projector sizes and scales") {
    // A pane whose buttons took another row without its scrollbar than with it showed the scrollbar
    // every other frame at 1280x720 and 2.0 (the items never held still, so a test's click missed).
    for (const auto& [w, h] : {std::pair{1024.0f, 768.0f}, std::pair{1280.0f, 720.0f}})
        for (const float scale : {1.0f, 1.25f, 1.5f, 1.75f, 2.0f})
            for (const char* id : {"layers", "rack", "split"}) {
                Room room(w, h, scale, ui::ThemeKind::projector);
                room.measure(id, 8);
                const std::string before = room.ui.context().items.lines();
                room.measure(id, 1);
                INFO(id << " at " << w << "x" << h << " and " << scale);
                CHECK(room.ui.context().items.lines() == before);
            }
}
