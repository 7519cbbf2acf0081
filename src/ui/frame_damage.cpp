// Which part of the window changed between two frames (frame_damage.hpp).
#include "ui/frame_damage.hpp"

#include <algorithm>
#include <cstring>

namespace m2m::ui {

namespace {

bool same_cmd(const ImDrawCmd& a, const ImDrawCmd& b) {
    return a.ClipRect.x == b.ClipRect.x && a.ClipRect.y == b.ClipRect.y && a.ClipRect.z == b.ClipRect.z &&
           a.ClipRect.w == b.ClipRect.w && a.TextureId == b.TextureId && a.VtxOffset == b.VtxOffset &&
           a.IdxOffset == b.IdxOffset && a.ElemCount == b.ElemCount && a.UserCallback == b.UserCallback &&
           a.UserCallbackData == b.UserCallbackData;
}

template <class T>
bool same_bytes(const std::vector<T>& a, const std::vector<T>& b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

bool same_list(const DrawListCopy& a, const DrawListCopy& b) {
    if (a.cmds.size() != b.cmds.size() || !same_bytes(a.vtx, b.vtx) || !same_bytes(a.idx, b.idx)) return false;
    for (std::size_t i = 0; i < a.cmds.size(); ++i)
        if (!same_cmd(a.cmds[i], b.cmds[i])) return false;
    return true;
}

}  // namespace

bool rect_empty(ImVec4 r) { return !(r.z > r.x && r.w > r.y); }

ImVec4 rect_union(ImVec4 a, ImVec4 b) {
    if (rect_empty(a)) return b;
    if (rect_empty(b)) return a;
    return ImVec4(std::min(a.x, b.x), std::min(a.y, b.y), std::max(a.z, b.z), std::max(a.w, b.w));
}

ImVec4 rect_intersection(ImVec4 a, ImVec4 b) {
    return ImVec4(std::max(a.x, b.x), std::max(a.y, b.y), std::min(a.z, b.z), std::min(a.w, b.w));
}

std::vector<DrawListCopy> copy_draw_lists(const ImDrawData& dd) {
    std::vector<DrawListCopy> out;
    out.reserve(static_cast<std::size_t>(dd.CmdListsCount));
    for (int n = 0; n < dd.CmdListsCount; ++n) {
        const ImDrawList* cl = dd.CmdLists[n];
        DrawListCopy c;
        c.owner = cl->_OwnerName ? cl->_OwnerName : "";
        c.vtx.assign(cl->VtxBuffer.Data, cl->VtxBuffer.Data + cl->VtxBuffer.Size);
        c.idx.assign(cl->IdxBuffer.Data, cl->IdxBuffer.Data + cl->IdxBuffer.Size);
        c.cmds.assign(cl->CmdBuffer.Data, cl->CmdBuffer.Data + cl->CmdBuffer.Size);
        for (const ImDrawCmd& cmd : c.cmds)
            if (cmd.ElemCount > 0 || cmd.UserCallback) c.box = rect_union(c.box, cmd.ClipRect);
        out.push_back(std::move(c));
    }
    return out;
}

namespace {

bool same_vertex(const ImDrawVert& a, const ImDrawVert& b) { return std::memcmp(&a, &b, sizeof(ImDrawVert)) == 0; }

ImVec4 triangle_box(const DrawListCopy& l, const ImDrawCmd& cmd, unsigned i) {
    ImVec4 r(1e30f, 1e30f, -1e30f, -1e30f);
    for (unsigned k = 0; k < 3; ++k) {
        const ImVec2 p = l.vtx[l.idx[cmd.IdxOffset + i + k] + cmd.VtxOffset].pos;
        r = ImVec4(std::min(r.x, p.x), std::min(r.y, p.y), std::max(r.z, p.x), std::max(r.w, p.y));
    }
    // A pixel of margin: anti-aliased edges reach past the vertices' positions.
    return rect_intersection(ImVec4(r.x - 1, r.y - 1, r.z + 1, r.w + 1), cmd.ClipRect);
}

// A window drawn with the same commands and as many vertices as before, some of them moved or
// recoloured (a bar growing, a dot lit): only the triangles that differ, where they were and
// where they are. Empty when the structure differs (the caller takes the whole box then).
bool changed_triangles(const DrawListCopy& a, const DrawListCopy& b, ImVec4& out) {
    if (a.cmds.size() != b.cmds.size() || a.vtx.size() != b.vtx.size() || a.idx.size() != b.idx.size()) return false;
    for (std::size_t c = 0; c < a.cmds.size(); ++c)
        if (!same_cmd(a.cmds[c], b.cmds[c])) return false;
    for (const ImDrawCmd& cmd : b.cmds) {
        if (cmd.UserCallback) continue;  // same callback, same rectangle: nothing to redraw
        for (unsigned i = 0; i + 2 < cmd.ElemCount + 0u; i += 3) {
            bool same = true;
            for (unsigned k = 0; k < 3 && same; ++k) {
                const unsigned at = cmd.IdxOffset + i + k;
                same = a.idx[at] == b.idx[at] && same_vertex(a.vtx[a.idx[at] + cmd.VtxOffset], b.vtx[b.idx[at] + cmd.VtxOffset]);
            }
            if (!same) out = rect_union(out, rect_union(triangle_box(a, cmd, i), triangle_box(b, cmd, i)));
        }
    }
    return true;
}

}  // namespace

ImVec4 changed_rect(const std::vector<DrawListCopy>& before, const std::vector<DrawListCopy>& now, ImVec4 display) {
    if (before.size() != now.size()) return display;
    ImVec4 out(0, 0, 0, 0);
    for (std::size_t i = 0; i < now.size(); ++i) {
        if (before[i].owner != now[i].owner) return display;
        if (same_list(before[i], now[i])) continue;
        if (!changed_triangles(before[i], now[i], out)) out = rect_union(out, rect_union(before[i].box, now[i].box));
    }
    return rect_empty(out) ? out : rect_intersection(out, display);
}

}  // namespace m2m::ui
