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

float area(ImVec4 r) { return rect_empty(r) ? 0.0f : (r.z - r.x) * (r.w - r.y); }

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

// The same commands but for where each starts and how much it draws (a text grown by a digit):
// the same clip rectangles, textures and callbacks in the same order.
bool same_commands_but_counts(const DrawListCopy& a, const DrawListCopy& b) {
    if (a.cmds.size() != b.cmds.size()) return false;
    for (std::size_t c = 0; c < a.cmds.size(); ++c) {
        const ImDrawCmd &x = a.cmds[c], &y = b.cmds[c];
        if (x.ClipRect.x != y.ClipRect.x || x.ClipRect.y != y.ClipRect.y || x.ClipRect.z != y.ClipRect.z ||
            x.ClipRect.w != y.ClipRect.w || x.TextureId != y.TextureId || x.UserCallback != y.UserCallback ||
            x.UserCallbackData != y.UserCallbackData)
            return false;
    }
    return true;
}

// A triangle of a draw list: its command and where its three indices start.
struct Triangle {
    std::size_t cmd;
    unsigned at;
};

std::vector<Triangle> triangles_of(const DrawListCopy& l) {
    std::vector<Triangle> out;
    out.reserve(l.idx.size() / 3);
    for (std::size_t c = 0; c < l.cmds.size(); ++c) {
        const ImDrawCmd& cmd = l.cmds[c];
        if (cmd.UserCallback) continue;  // same callback, same rectangle: nothing to redraw
        for (unsigned i = 0; i + 2 < cmd.ElemCount + 0u; i += 3) out.push_back({c, cmd.IdxOffset + i});
    }
    return out;
}

const ImDrawVert& vertex_of(const DrawListCopy& l, Triangle t, unsigned k) {
    return l.vtx[l.idx[t.at + k] + l.cmds[t.cmd].VtxOffset];
}

// The same pixels: the same command (clip rectangle and texture) and the same three vertices.
bool same_triangle(const DrawListCopy& a, Triangle ta, const DrawListCopy& b, Triangle tb) {
    if (ta.cmd != tb.cmd) return false;
    for (unsigned k = 0; k < 3; ++k)
        if (!same_vertex(vertex_of(a, ta, k), vertex_of(b, tb, k))) return false;
    return true;
}

ImVec4 box_of(const DrawListCopy& l, Triangle t) {
    const ImDrawCmd& cmd = l.cmds[t.cmd];
    return triangle_box(l, cmd, t.at - cmd.IdxOffset);
}

// A window drawn with the same commands as before, some of its shapes moved, recoloured, grown
// or given more or fewer triangles (a bar growing, a dot lit, a time gaining a digit): only the
// triangles that differ, where they were and where they are. False when its commands themselves
// differ (the caller takes the whole window then).
//
// The triangles are paired in the order they are drawn: the same ones from the start, then each
// of `now`'s with the one as far from the end in `before` (a time that gained a glyph shifts every
// later triangle by two; a bar further down that grew is then the one pair that differs). A
// triangle left without its same partner is damaged, old place and new. Outside the damage every
// pixel is covered by paired triangles only, the same in both frames and in the same order, so it
// is the same pixel.
bool changed_triangles(const DrawListCopy& a, const DrawListCopy& b, DamageRects& out) {
    if (!same_commands_but_counts(a, b)) return false;
    const std::vector<Triangle> ta = triangles_of(a), tb = triangles_of(b);
    std::size_t head = 0;
    while (head < ta.size() && head < tb.size() && same_triangle(a, ta[head], b, tb[head])) ++head;
    const std::ptrdiff_t shift = static_cast<std::ptrdiff_t>(tb.size()) - static_cast<std::ptrdiff_t>(ta.size());
    std::vector<char> paired(ta.size(), 0);
    std::fill(paired.begin(), paired.begin() + static_cast<std::ptrdiff_t>(head), 1);
    for (std::size_t k = head; k < tb.size(); ++k) {
        const std::ptrdiff_t i = static_cast<std::ptrdiff_t>(k) - shift;
        if (i >= static_cast<std::ptrdiff_t>(head) && i < static_cast<std::ptrdiff_t>(ta.size()) &&
            same_triangle(a, ta[static_cast<std::size_t>(i)], b, tb[k]))
            paired[static_cast<std::size_t>(i)] = 1;
        else
            out.add(box_of(b, tb[k]));
    }
    for (std::size_t i = head; i < ta.size(); ++i)
        if (!paired[i]) out.add(box_of(a, ta[i]));
    return true;
}

}  // namespace

void DamageRects::add(ImVec4 r) {
    if (rect_empty(r)) return;
    // Joins a rectangle it touches (within a few pixels: the shapes of one widget), else stands
    // alone; past a handful, the two whose union wastes the least become one.
    constexpr float slack = 8;
    for (ImVec4& q : rects)
        if (r.x <= q.z + slack && q.x <= r.z + slack && r.y <= q.w + slack && q.y <= r.w + slack) {
            q = rect_union(q, r);
            return;
        }
    rects.push_back(r);
    while (rects.size() > max_rects) {
        std::size_t bi = 0, bj = 1;
        float best = 1e30f;
        for (std::size_t i = 0; i < rects.size(); ++i)
            for (std::size_t j = i + 1; j < rects.size(); ++j) {
                const float waste = area(rect_union(rects[i], rects[j])) - area(rects[i]) - area(rects[j]);
                if (waste < best) best = waste, bi = i, bj = j;
            }
        rects[bi] = rect_union(rects[bi], rects[bj]);
        rects.erase(rects.begin() + static_cast<std::ptrdiff_t>(bj));
    }
}

float DamageRects::total_area() const {
    float sum = 0;
    for (const ImVec4& r : rects) sum += area(r);
    return sum;
}

DamageRects changed_rects(const std::vector<DrawListCopy>& before, const std::vector<DrawListCopy>& now, ImVec4 display,
                          std::size_t max_rects) {
    DamageRects out;
    out.max_rects = max_rects;
    if (before.size() != now.size()) {
        out.rects = {display};
        return out;
    }
    for (std::size_t i = 0; i < now.size(); ++i) {
        if (before[i].owner != now[i].owner) {
            out.rects = {display};
            return out;
        }
        if (same_list(before[i], now[i])) continue;
        if (!changed_triangles(before[i], now[i], out)) out.add(rect_union(before[i].box, now[i].box));
    }
    for (ImVec4& r : out.rects) r = rect_intersection(r, display);
    out.rects.erase(std::remove_if(out.rects.begin(), out.rects.end(), rect_empty), out.rects.end());
    return out;
}

ImVec4 changed_rect(const std::vector<DrawListCopy>& before, const std::vector<DrawListCopy>& now, ImVec4 display) {
    ImVec4 all(0, 0, 0, 0);
    for (const ImVec4& r : changed_rects(before, now, display, 1).rects) all = rect_union(all, r);
    return all;
}

}  // namespace m2m::ui
