// Which part of the window changed between two frames (ui/frame_damage.hpp): what the app draws
// again under software GL, everything else kept from the last frame.
#include <catch2/catch.hpp>

#include <string>

#include "headless.hpp"
#include "ui/frame_damage.hpp"

using namespace m2m;

namespace {

// A frame with a panel on the left (its text `left`) and a scene on the right (its text
// `right`), each a child window; returns the frame's draw lists.
std::vector<ui::DrawListCopy> frame(test::Headless& ui, const std::string& left, const std::string& right) {
    ui.frame([&] {
        ImGui::BeginChild("panel", ImVec2(400, 0), true);
        ImGui::TextUnformatted(left.c_str());
        ImGui::EndChild();
        ImGui::SameLine();
        ImGui::BeginChild("scene", ImVec2(0, 0), true);
        ImGui::TextUnformatted(right.c_str());
        ImGui::EndChild();
    });
    return ui::copy_draw_lists(*ImGui::GetDrawData());
}

const ImVec4 display(0, 0, 1920, 1080);

}  // namespace

TEST_CASE("only the window whose drawing changed is damaged; nothing when nothing changed") {
    test::Headless ui(1920, 1080);
    frame(ui, "controls", "scene 1");  // the first frames settle the layout
    const auto a = frame(ui, "controls", "scene 1");
    const auto same = frame(ui, "controls", "scene 1");
    CHECK(ui::rect_empty(ui::changed_rect(a, same, display)));
    const auto b = frame(ui, "controls", "scene 2");
    const ImVec4 d = ui::changed_rect(same, b, display);
    REQUIRE_FALSE(ui::rect_empty(d));
    // The scene child: right of the 400 px panel, the panel itself untouched.
    CHECK(d.x >= 400);
    CHECK(d.z <= 1920);
    const auto c = frame(ui, "controls!", "scene 2");
    const ImVec4 e = ui::changed_rect(b, c, display);
    CHECK(e.z <= 420);  // the panel only
}

TEST_CASE("a window that opens or closes damages the whole display") {
    test::Headless ui(1920, 1080);
    frame(ui, "controls", "scene");
    const auto a = frame(ui, "controls", "scene");
    ui.frame([&] {
        ImGui::BeginChild("panel", ImVec2(400, 0), true);
        ImGui::TextUnformatted("controls");
        ImGui::EndChild();
    });
    const auto fewer = ui::copy_draw_lists(*ImGui::GetDrawData());
    const ImVec4 d = ui::changed_rect(a, fewer, display);
    CHECK(d.x == 0);
    CHECK(d.y == 0);
    CHECK(d.z == 1920);
    CHECK(d.w == 1080);
}

TEST_CASE("a window that moved damages where it was too: what it drew last frame must be cleared") {
    ui::DrawListCopy before, after;
    before.owner = after.owner = "tip";
    before.box = ImVec4(100, 100, 200, 150);
    after.box = ImVec4(300, 100, 400, 150);
    ImDrawCmd was, is;
    was.ClipRect = before.box;
    is.ClipRect = after.box;
    before.cmds = {was};
    after.cmds = {is};
    const ImVec4 d = ui::changed_rect({before}, {after}, display);
    CHECK(d.x == 100);
    CHECK(d.z == 400);
}

TEST_CASE("a bar that grows damages the bar, not its window: the same drawing with its vertices moved") {
    test::Headless ui(1920, 1080);
    const auto with_bar = [&](float w) {
        ui.frame([&] {
            ImGui::TextUnformatted("a long sentence above the bar that does not change from frame to frame");
            ImDrawList* dl = ImGui::GetWindowDrawList();
            dl->AddRectFilled(ImVec2(100, 500), ImVec2(100 + w, 520), IM_COL32(200, 90, 0, 255));
            ImGui::TextUnformatted("and another below it");
        });
        return ui::copy_draw_lists(*ImGui::GetDrawData());
    };
    with_bar(300);
    const auto a = with_bar(300);
    const auto b = with_bar(340);
    const ImVec4 d = ui::changed_rect(a, b, display);
    REQUIRE_FALSE(ui::rect_empty(d));
    CHECK(d.x >= 98);   // the bar's triangles, old and new, with a pixel of margin
    CHECK(d.z <= 442);
    CHECK(d.y >= 498);
    CHECK(d.w <= 522);
    // The same bar again: nothing to draw.
    const auto c = with_bar(340);
    CHECK(ui::rect_empty(ui::changed_rect(b, c, display)));
}

TEST_CASE("a text that gains a glyph damages the text, not the window, though every later vertex moved in the buffer") {
    test::Headless ui(1920, 1080);
    const auto with_time = [&](const char* time) {
        ui.frame([&] {
            ImGui::TextUnformatted("a long sentence above that does not change from frame to frame");
            ImGui::SetCursorScreenPos(ImVec2(200, 400));
            ImGui::TextUnformatted(time);
            ImGui::SetCursorScreenPos(ImVec2(200, 700));
            ImGui::TextUnformatted("and a sentence below it, drawn after it");
        });
        return ui::copy_draw_lists(*ImGui::GetDrawData());
    };
    with_time("9.9 ms");
    const auto a = with_time("9.9 ms");
    const auto b = with_time("10.0 ms");
    REQUIRE(a[0].vtx.size() != b[0].vtx.size());
    const ImVec4 d = ui::changed_rect(a, b, display);
    REQUIRE_FALSE(ui::rect_empty(d));
    CHECK(d.y >= 395);
    CHECK(d.w <= 430);  // the sentence below (y 700) is not redrawn
    CHECK(d.x >= 195);
}

TEST_CASE("a text that gains a glyph and a bar that grows further down damage those two, not the shapes drawn between them") {
    // Lesson 2's step words change length while the sends bars' cursor moves: every vertex between
    // the two moved in the buffer, and the words and bars between were drawn again each frame.
    test::Headless ui(1920, 1080);
    const auto with = [&](const char* time, float bar_w) {
        ui.frame([&] {
            ImGui::SetCursorScreenPos(ImVec2(200, 100));
            ImGui::TextUnformatted(time);
            ImGui::SetCursorScreenPos(ImVec2(200, 400));
            ImGui::TextUnformatted("a sentence between them, drawn after the time and before the bar");
            ImDrawList* dl = ImGui::GetWindowDrawList();
            dl->AddRectFilled(ImVec2(200, 700), ImVec2(200 + bar_w, 720), IM_COL32(200, 90, 0, 255));
            ImGui::SetCursorScreenPos(ImVec2(200, 900));
            ImGui::TextUnformatted("and one after the bar");
        });
        return ui::copy_draw_lists(*ImGui::GetDrawData());
    };
    with("9.9 ms", 300);
    const auto a = with("9.9 ms", 300);
    const auto b = with("10.0 ms", 340);
    REQUIRE(a[0].vtx.size() != b[0].vtx.size());
    const ui::DamageRects d = ui::changed_rects(a, b, display);
    REQUIRE_FALSE(d.rects.empty());
    for (const ImVec4& r : d.rects) {
        INFO(r.x << " " << r.y << " " << r.z << " " << r.w);
        const bool time = r.y >= 95 && r.w <= 130, bar = r.y >= 698 && r.w <= 722;
        CHECK((time || bar));  // never the sentence between (y 400) or after (y 900)
    }
}
