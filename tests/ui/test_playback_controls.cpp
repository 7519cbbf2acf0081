// The playback buttons every lesson shares, drawn headless.
#include <catch2/catch.hpp>

#include <algorithm>

#include "headless.hpp"
#include "ui/item_registry.hpp"
#include "ui/playback.hpp"
#include "ui/widgets.hpp"

using namespace m2m;

TEST_CASE("the speed slider's figure is never drawn under its grab, in a narrow column or a wide one, at any speed") {
    for (float scale : {1.0f, 1.5f})
        for (float column : {150.0f, 300.0f, 600.0f})
            for (double speed : {ui::Playback::min_speed, 0.5, 1.0, 4.0, 8.0, ui::Playback::max_speed}) {
                test::Headless ui(1024, 768, scale);
                ui::Playback pb;
                pb.set_speed(speed);
                ImVec2 frame_min, frame_max;
                ui.frame([&] {
                    ImGui::BeginChild("column", ImVec2(column * scale, 0));
                    ui::playback_controls(ui.context().items, pb);
                    frame_min = ImGui::GetItemRectMin();  // the slider, with its label
                    frame_max = ImGui::GetItemRectMax();
                    ImGui::EndChild();
                });
                // In the slider's row: the frame and the grab are the rectangles in their colours, the
                // figure the glyphs inside the frame (the label's are right of it).
                const ImU32 frame_col = ImGui::GetColorU32(ImGuiCol_FrameBg), grab_col = ImGui::GetColorU32(ImGuiCol_SliderGrab);
                const ImVec2 white = ImGui::GetIO().Fonts->TexUvWhitePixel;
                float frame_x0 = 1e9f, frame_x1 = -1e9f, grab_x0 = 1e9f, grab_x1 = -1e9f;
                const ImDrawData* dd = ImGui::GetDrawData();
                auto each_vertex = [&](auto f) {
                    for (int i = 0; i < dd->CmdListsCount; ++i)
                        for (const ImDrawVert& v : dd->CmdLists[i]->VtxBuffer)
                            if (v.pos.y >= frame_min.y && v.pos.y <= frame_max.y) f(v, v.uv.x != white.x || v.uv.y != white.y);
                };
                each_vertex([&](const ImDrawVert& v, bool glyph) {
                    if (glyph) return;
                    if (v.col == frame_col) frame_x0 = std::min(frame_x0, v.pos.x), frame_x1 = std::max(frame_x1, v.pos.x);
                    if (v.col == grab_col) grab_x0 = std::min(grab_x0, v.pos.x), grab_x1 = std::max(grab_x1, v.pos.x);
                });
                float text_x0 = 1e9f, text_x1 = -1e9f;
                each_vertex([&](const ImDrawVert& v, bool glyph) {
                    if (glyph && v.pos.x >= frame_x0 && v.pos.x <= frame_x1)
                        text_x0 = std::min(text_x0, v.pos.x), text_x1 = std::max(text_x1, v.pos.x);
                });
                INFO("scale " << scale << ", column " << column << ", speed " << speed);
                INFO("frame " << frame_x0 << "-" << frame_x1 << ", grab " << grab_x0 << "-" << grab_x1 << ", figure " << text_x0 << "-" << text_x1);
                REQUIRE(frame_x1 > frame_x0);
                REQUIRE(grab_x1 > grab_x0);
                REQUIRE(text_x1 > text_x0);
                CHECK((text_x0 >= grab_x1 || text_x1 <= grab_x0));
            }
}
