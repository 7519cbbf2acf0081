// The keyboard window: whole on a projector at any scale, scrolled by the keys that scroll a scene.
#include <catch2/catch.hpp>

#include <imgui.h>
#include <imgui_internal.h>  // the window's rectangle and scroll

#include "headless.hpp"
#include "lessons/key_help.hpp"

using namespace m2m;

TEST_CASE("the keyboard window fits the display at every scale, no word cut at its side, and Down scrolls it") {
    struct Size {
        float w, h, scale;
    };
    for (Size s : {Size{1920, 1080, 1}, Size{1280, 720, 1}, Size{1024, 768, 1.5f}, Size{1024, 768, 2}, Size{1024, 768, 3}}) {
        INFO(s.w << "x" << s.h << " at " << s.scale);
        test::Headless ui(s.w, s.h, s.scale);
        bool open = true;
        for (int i = 0; i < 3; ++i) ui.frame([&] { lessons::draw_key_help(&open, 0); });
        ImGuiWindow* w = ImGui::FindWindowByName("Keyboard shortcuts");
        REQUIRE(w);
        CHECK(w->Pos.x >= 0);
        CHECK(w->Pos.y >= 0);
        CHECK(w->Pos.x + w->Size.x <= s.w);
        CHECK(w->Pos.y + w->Size.y <= s.h);
        INFO(ui.clipped_text());
        CHECK(ui.clipped().empty());
        // Where the rows run past the window's foot, Down (or Page Down) brings the rest in sight,
        // Up takes it back; where they fit there is nothing to scroll.
        const float max_y = w->ScrollMax.y;
        ui.frame([&] { lessons::draw_key_help(&open, 1); });
        ui.frame([&] { lessons::draw_key_help(&open, 0); });
        if (s.scale >= 1.5f) {
            CHECK(max_y > 0);
            CHECK(w->Scroll.y > 0);
        } else {
            CHECK(max_y == 0);
        }
        for (int i = 0; i < 4; ++i) ui.frame([&] { lessons::draw_key_help(&open, -1); });
        CHECK(w->Scroll.y == 0);
    }
    // Closed, it draws nothing.
    test::Headless ui(1024, 768, 1.5f);
    bool open = false;
    ui.frame([&] { lessons::draw_key_help(&open, 0); });
    CHECK(ImGui::FindWindowByName("Keyboard shortcuts") == nullptr);
}
