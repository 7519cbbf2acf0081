// Which part of the window changed between two frames, from ImGui's draw data: the app draws only
// that part again under software GL (app/damage.hpp). Each window's drawing (a draw list) is
// compared whole with the last frame's: vertices, indices and commands.
#pragma once

#include <imgui.h>

#include <string>
#include <vector>

namespace m2m::ui {

/// One window's drawing, kept to compare with the next frame's.
struct DrawListCopy {
    std::string owner;
    std::vector<ImDrawVert> vtx;
    std::vector<ImDrawIdx> idx;
    std::vector<ImDrawCmd> cmds;
    ImVec4 box{0, 0, 0, 0};  ///< the union of its commands' clip rectangles: all it can draw on
};

std::vector<DrawListCopy> copy_draw_lists(const ImDrawData& dd);

/// Rectangles (x0, y0, x1, y1) to draw again, at most `max_rects` of them: a rectangle that
/// touches another joins it; past the limit the two whose union adds the least area merge.
struct DamageRects {
    std::vector<ImVec4> rects;
    std::size_t max_rects = 4;
    void add(ImVec4 r);
    float total_area() const;
};

/// What differs between `before` and `now`: for a window drawn with the same commands (clip
/// rectangles, textures, callbacks), the triangles that moved, changed colour, came or went, where
/// they were and where they are (paired in drawing order from the start, then from the end, so a
/// text gaining a glyph does not damage what is drawn after it); for any other window that
/// changed, its old box and its new one; all of `display` when the windows themselves differ (one
/// opened, closed or moved in the order). Empty: nothing changed.
DamageRects changed_rects(const std::vector<DrawListCopy>& before, const std::vector<DrawListCopy>& now, ImVec4 display,
                          std::size_t max_rects = 4);

/// The rectangle (x0, y0, x1, y1) covering every window whose drawing differs between `before`
/// and `now`: the union of changed_rects; empty (x1 <= x0) when nothing changed.
ImVec4 changed_rect(const std::vector<DrawListCopy>& before, const std::vector<DrawListCopy>& now, ImVec4 display);

bool rect_empty(ImVec4 r);
ImVec4 rect_union(ImVec4 a, ImVec4 b);
ImVec4 rect_intersection(ImVec4 a, ImVec4 b);

}  // namespace m2m::ui
