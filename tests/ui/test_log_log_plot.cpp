// The log-log plot's words, drawn headless: the y axis's name never shares room with a curve, and
// a marker's label stays inside the frame on a narrow plot (1024x768 at 1.5x: Lesson 2's plot
// beside its key).
#include <catch2/catch.hpp>

#include <algorithm>
#include <optional>

#include "headless.hpp"
#include "ui/widgets.hpp"

using namespace m2m;

TEST_CASE("a log-log plot's y axis name is clear of its curves, and a marker's label inside its frame, at every size") {
    const ImU32 ceiling = IM_COL32(0, 255, 0, 255), rising = IM_COL32(0, 0, 255, 255), marker = IM_COL32(255, 0, 0, 255);
    for (float scale : {1.0f, 1.5f, 2.0f})
        for (ImVec2 size : {ImVec2(220, 200), ImVec2(340, 330), ImVec2(900, 260)}) {
            INFO("scale " << scale << ", plot " << size.x << " x " << size.y);
            test::Headless ui(1024, 768, scale);
            // A ceiling just under the top decade, across every size (it ran through the name
            // when the name sat in the top-left corner), and a curve rising to it.
            const std::vector<ui::PlotSeries> series{{{8, 1.6e10}, {370, 370}, ceiling}, {{8, 1e6, 1.6e10}, {1e-4, 30, 360}, rising}};
            const std::vector<ui::PlotMarker> markers{{1.6e7, "bandwidth-bound from 16.8 MB on", marker, "bandwidth-bound \xe2\x86\x92",
                                                       "bandwidth-\nbound \xe2\x86\x92"}};
            std::optional<ui::LogLogFrame> f;
            ui.frame([&] {
                f = ui::log_log_plot(ui.context().view, "p", series, markers, "message size (bytes)", "busbw (GB/s)",
                                     ImVec2(size.x * scale, size.y * scale));
            });
            REQUIRE(f);
            const ImVec2 white = ImGui::GetIO().Fonts->TexUvWhitePixel;  // glyphs (and anti-aliased lines) are textured
            const ImU32 dim = ui.context().view.theme.text_dim;         // the axes' names and numbers
            float name_x0 = 1e9f, name_x1 = -1e9f, name_y0 = 1e9f, name_y1 = -1e9f;
            int name_glyph_vertices = 0, marker_glyph_vertices = 0, marker_outside = 0;
            const ImDrawData* dd = ImGui::GetDrawData();
            for (int i = 0; i < dd->CmdListsCount; ++i)
                for (const ImDrawVert& v : dd->CmdLists[i]->VtxBuffer) {
                    if (v.uv.x == white.x && v.uv.y == white.y) continue;  // not a glyph
                    if (v.col == marker) {
                        ++marker_glyph_vertices;
                        if (v.pos.x < f->a.x - 1 || v.pos.x > f->b.x + 1 || v.pos.y < f->a.y - 1 || v.pos.y > f->b.y + 1) ++marker_outside;
                    } else if (v.col == dim && v.pos.y < f->a.y && v.pos.x >= f->a.x - 1) {  // above the frame, right of the numbers: the name
                        ++name_glyph_vertices;
                        name_x0 = std::min(name_x0, v.pos.x), name_x1 = std::max(name_x1, v.pos.x);
                        name_y0 = std::min(name_y0, v.pos.y), name_y1 = std::max(name_y1, v.pos.y);
                    }
                }
            CHECK(name_glyph_vertices > 0);
            CHECK(marker_glyph_vertices > 0);
            CHECK(marker_outside == 0);
            // No curve's vertex where the name's glyphs are.
            int curve_under_name = 0;
            for (int i = 0; i < dd->CmdListsCount; ++i)
                for (const ImDrawVert& v : dd->CmdLists[i]->VtxBuffer)
                    if ((v.col == ceiling || v.col == rising) && v.pos.x >= name_x0 && v.pos.x <= name_x1 && v.pos.y >= name_y0 &&
                        v.pos.y <= name_y1)
                        ++curve_under_name;
            CHECK(curve_under_name == 0);
        }
}
