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

TEST_CASE("a point's label stays inside its plot's frame, even where a short plot has no free place for it") {
    for (float scale : {1.0f, 1.5f})
        for (float height : {130.0f, 180.0f, 320.0f}) {
            INFO("scale " << scale << ", plot 520 x " << height);
            test::Headless ui(1024, 768, scale);
            const ImU32 roof = IM_COL32(0, 255, 0, 255), point = IM_COL32(255, 0, 255, 255);
            // Two roofs and six labelled points: a roofline, as Lesson 1 draws it at 1280x720.
            const std::vector<ui::PlotSeries> series{{{0.1, 10, 100}, {1e12, 1e14, 1e14}, roof},
                                                     {{0.1, 10, 100}, {5e10, 5e12, 5e12}, roof}};
            const std::vector<ui::PlotMarker> markers{{10, "GPU ridge", roof}, {9.8, "CPU ridge", roof}};
            std::vector<ui::PlotPoint> points;
            for (int i = 0; i < 6; ++i)
                points.push_back({0.33 + 0.02 * (i % 3), i < 3 ? 2e7 : 5e9, "L" + std::to_string(i % 3 + 1) + " launch-bound", point});
            std::optional<ui::LogLogFrame> f;
            ui.frame([&] {
                f = ui::log_log_plot(ui.context().view, "r", series, markers, "FLOPs per byte", "FLOP/s",
                                     ImVec2(520 * scale, height * scale), 0, points);
            });
            REQUIRE(f);
            const ImVec2 white = ImGui::GetIO().Fonts->TexUvWhitePixel;
            int glyph_vertices = 0, outside = 0;
            const ImDrawData* dd = ImGui::GetDrawData();
            for (int i = 0; i < dd->CmdListsCount; ++i)
                for (const ImDrawVert& v : dd->CmdLists[i]->VtxBuffer) {
                    if (v.col != point || (v.uv.x == white.x && v.uv.y == white.y)) continue;  // a point's label's glyphs
                    ++glyph_vertices;
                    if (v.pos.x < f->a.x - 1 || v.pos.x > f->b.x + 1 || v.pos.y < f->a.y - 1 || v.pos.y > f->b.y + 1) ++outside;
                }
            CHECK(glyph_vertices > 0);
            CHECK(outside == 0);
        }
}
