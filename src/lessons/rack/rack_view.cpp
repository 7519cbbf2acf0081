// Drawing the rack with plain axis-aligned rectangles (4 vertices, 2 triangles each: no rounding,
// no anti-aliasing fringe) because llvmpipe pays for every triangle and every blended pixel. Positions, boxes and
// the points along a wire are glm::vec2 (ui/geometry.hpp); ImVec2 only where ImGui is called.
//
// [SECTION] drawing   (painting and wires: rack_paint.cpp; the buttons over the drawing:
// rack_input.cpp; layout and link geometry: rack_layout.cpp and rack_zoom.cpp)
#include "lessons/rack/rack_view.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "lessons/rack/rack_board.hpp"
#include "ui/theme.hpp"
#include "ui/widgets.hpp"

namespace m2m::ui {

using rack_board::length_of;

// [SECTION] drawing ---------------------------------------------------------------------------

namespace {

// Wire segments of one layer, gathered to be drawn once where they overlap (rack_board::merge_wires).
class SegmentLayer {
public:
    void add(glm::vec2 min, glm::vec2 max, ImU32 col) { m_rects.push_back({min, max, col}); }
    void draw(ImDrawList* dl) {
        for (const rack_board::WireRect& r : rack_board::merge_wires(std::move(m_rects))) dl->AddRectFilled(to_im(r.min), to_im(r.max), r.col);
        m_rects.clear();
    }

private:
    std::vector<rack_board::WireRect> m_rects;
};

// What draws the rack: plain rectangles (see the top of the file), and text that fits. With a
// layer, wire segments gather there to be drawn once (SegmentLayer::draw).
struct Painter {
    ImDrawList* dl;
    SegmentLayer* layer = nullptr;

    // A segment of an axis-aligned polyline as a rectangle `w` pixels thick.
    void seg(glm::vec2 p0, glm::vec2 p1, float w, ImU32 col) const {
        const glm::vec2 h(w * 0.5f), a = glm::min(p0, p1) - h, b = glm::max(p0, p1) + h;
        if (layer) layer->add(a, b, col);
        else dl->AddRectFilled(to_im(a), to_im(b), col);
    }
    // The stretch of an axis-aligned polyline from share f0 to share f1 of its length.
    void stretch(const glm::vec2* pts, int n, float f0, float f1, float w, ImU32 col) const {
        if (f1 <= f0) return;
        const float total = length_of(pts, n), d0 = f0 * total, d1 = f1 * total;
        float at = 0;
        for (int i = 1; i < n; ++i) {
            const float s = manhattan(pts[i] - pts[i - 1]);
            const float a = std::max(d0, at), b = std::min(d1, at + s);
            if (b > a && s > 0) seg(along(pts[i - 1], pts[i], (a - at) / s), along(pts[i - 1], pts[i], (b - at) / s), w, col);
            at += s;
        }
    }
    // Racks and boards are outlined, not filled: filled, they cost ~2 million blended pixels a
    // frame at 1080p, a third of the frame time under llvmpipe.
    void frame(const Box& k, ImU32 col) const {
        seg(k.min, glm::vec2(k.max.x, k.min.y), 1, col);
        seg(glm::vec2(k.min.x, k.max.y), k.max, 1, col);
        seg(k.min, glm::vec2(k.min.x, k.max.y), 1, col);
        seg(glm::vec2(k.max.x, k.min.y), k.max, 1, col);
    }
    void fill(const Box& k, ImU32 col) const { dl->AddRectFilled(to_im(k.min), to_im(k.max), col); }
    // `text` centred in `b` on whole pixels, when it fits; false when it does not.
    bool centred_text(const Box& b, const char* text, ImU32 col) const {
        const glm::vec2 ts = to_glm(ImGui::CalcTextSize(text));
        if (ts.x > b.width() - 4 || ts.y > b.height() + 2) return false;
        dl->AddText(to_im(glm::round(b.centre() - ts * 0.5f)), col, text);
        return true;
    }
    // Lines centred one under another in `b`, when they all fit; false when they do not.
    bool centred_lines(const Box& b, const std::vector<std::string>& lines, ImU32 col) const {
        const float line_h = ImGui::GetTextLineHeight(), h = line_h * static_cast<float>(lines.size());
        if (h > b.height() + 2) return false;
        for (const std::string& t : lines)
            if (ImGui::CalcTextSize(t.c_str()).x > b.width() - 4) return false;
        float y = b.centre().y - h * 0.5f;
        for (const std::string& t : lines) {
            const float w = ImGui::CalcTextSize(t.c_str()).x;
            dl->AddText(to_im(glm::round(glm::vec2(b.centre().x - w * 0.5f, y))), col, t.c_str());
            y += line_h;
        }
        return true;
    }
};

bool overlaps(const Box& a, const Box& b) { return a.min.x < b.max.x && b.min.x < a.max.x && a.min.y < b.max.y && b.min.y < a.max.y; }

// The link colours at rest, lit and on a switch that data is crossing.
struct RackColours {
    ImU32 ib, nv, switch_ib, switch_nv, busy_ib, busy_nv, ib_idle, nv_idle;
    explicit RackColours(const Theme& th)
        : ib(th.link(core::LinkType::infiniband)), nv(th.link(core::LinkType::nvlink)), switch_ib(fade(ib, 0.3f)),
          switch_nv(fade(nv, 0.35f)), busy_ib(fade(ib, 0.75f)), busy_nv(fade(nv, 0.8f)), ib_idle(fade(ib, 0.4f)),
          nv_idle(fade(nv, 0.45f)) {}
};

// A switch glows while data crosses it: any link into or out of it carrying data now.
struct BusySwitches {
    std::vector<std::uint8_t> node, leaf;
    bool spine = false;
};

BusySwitches busy_switches(const RackLayout& l, const core::Cluster& c, const RackPaint& p) {
    BusySwitches busy{std::vector<std::uint8_t>(l.nodes.size(), 0), std::vector<std::uint8_t>(l.racks.size(), 0), false};
    for (core::LinkId id = 0; id < p.lit_to.size(); ++id) {
        if (!(p.lit_to[id] > p.lit_from[id])) continue;
        const core::Link k = c.link(id);
        switch (k.type) {
        case core::LinkType::nvlink: busy.node[c.node_of(k.owner)] = 1; break;
        case core::LinkType::infiniband:
            if (k.role == core::LinkRole::leaf_to_spine || k.role == core::LinkRole::spine_to_leaf) {
                busy.spine = true;
                busy.leaf[k.owner] = 1;
            } else {
                busy.leaf[c.rack_of(k.owner)] = 1;
            }
            break;
        default: break;
        }
    }
    return busy;
}

// A "from 3" / "to 5" tag: its box (text plus padding) and words.
struct Tag {
    Box box;
    std::string text;
};

// Tags on the sender and the receiver, beside the GPU on the side the route does not use, each
// moved clear of those placed before it. Placed before anything is drawn, so labels avoid them.
std::vector<Tag> place_tags(const RackLayout& l, const core::Cluster& c, const RackPaint& p) {
    std::vector<Tag> tags;
    char buf[48];
    for (core::GpuId g = 0; g < l.gpus.size() && !p.gpu_mark.empty(); ++g) {
        const GpuMark mark = p.gpu_mark[g];
        if ((mark != GpuMark::from && mark != GpuMark::to) || !l.gpu_shown(g)) continue;
        std::snprintf(buf, sizeof buf, "%s %u", mark == GpuMark::from ? "from" : "to", g);
        const glm::vec2 size = to_glm(ImGui::CalcTextSize(buf)) + glm::vec2(6, 2);
        const Box& b = l.gpus[g];
        // Inside the GPU's node frame where it fits (held only inside the rack, "from 0" stuck out
        // left of node 0's frame at 1024x768 and 1.5), else inside the rack.
        const Box& node = l.nodes.size() > c.node_of(g) ? l.nodes[c.node_of(g)] : l.racks[c.rack_of(g)];
        const Box& within = node.width() >= size.x + 2 ? node : l.racks[c.rack_of(g)];
        const float x = std::round(std::max(within.min.x + 1, std::min(b.centre().x - size.x * 0.5f, within.max.x - size.x - 1)));
        const bool above = l.top_row(g) != p.tags_inward;
        glm::vec2 at(x, above ? b.min.y - size.y - 2 : b.max.y + 2);
        for (const Tag& o : tags)
            if (overlaps({at, at + size}, o.box)) at.y = above ? o.box.min.y - size.y - 2 : o.box.max.y + 1;  // beyond it, same way
        tags.push_back({{at, at + size}, buf});
    }
    return tags;
}

void draw_tags(const Painter& pt, const Theme& th, const std::vector<Tag>& tags) {
    for (const Tag& t : tags) {
        pt.fill(t.box, th.accent);
        pt.dl->AddText(to_im(t.box.min + glm::vec2(3, 1)), th.panel, t.text.c_str());
    }
}

// "NVSwitch · node 3" on its bar, or "node 3": centred, or at either end of the bar when a tag
// covers the middle; left out only when no place is clear.
void node_label(const Painter& pt, const Theme& th, const Box& bar, std::uint32_t n, const std::vector<Tag>& tags) {
    char full[48], shortened[24];
    std::snprintf(full, sizeof full, "NVSwitch \xc2\xb7 node %u", n);
    std::snprintf(shortened, sizeof shortened, "node %u", n);
    const float inset = std::max(2.0f, std::round(ImGui::GetFontSize() * 0.3f));
    for (const char* text : {full, shortened}) {
        const glm::vec2 ts = to_glm(ImGui::CalcTextSize(text));
        if (ts.x > bar.width() - 4 || ts.y > bar.height() + 2) continue;
        const float y = std::round(bar.centre().y - ts.y * 0.5f);
        for (const float x : {std::round(bar.centre().x - ts.x * 0.5f), bar.min.x + inset, bar.max.x - inset - ts.x}) {
            const Box spot{glm::vec2(x - 2, y), glm::vec2(x + ts.x + 2, y + ts.y)};
            if (std::none_of(tags.begin(), tags.end(), [&](const Tag& t) { return overlaps(t.box, spot); })) {
                pt.dl->AddText(to_im(glm::vec2(x, y)), th.text, text);
                return;
            }
        }
    }
}

// Racks, the spine, leaves and the trunks of cables up to them.
void draw_racks(const Painter& pt, const Theme& th, const RackColours& col, const RackLayout& l, const core::Cluster& c,
                const BusySwitches& busy) {
    const std::uint32_t racks = l.shape.racks;
    for (std::uint32_t r = 0; r < racks; ++r)
        if (!l.compact(r)) pt.frame(l.racks[r], th.grid);
    glm::vec2 pts[3];
    if (racks > 1) {
        for (std::uint32_t r = 0; r < racks; ++r) {
            link_points(l, c, c.rack_link(r, core::LinkRole::leaf_to_spine), pts);
            pt.seg(pts[0], pts[1], 3, col.ib_idle);
        }
        pt.fill(l.spine, busy.spine ? col.busy_ib : col.switch_ib);
        pt.centred_text(l.spine, "spine switch: joins the racks", th.text) || pt.centred_text(l.spine, "spine switch", th.text) ||
            pt.centred_text(l.spine, "spine", th.text);
    }
    char buf[48];
    for (std::uint32_t r = 0; r < racks; ++r) {
        if (l.compact(r)) continue;  // a box of its own (draw_summaries)
        float lowest = l.leaves[r].max.y;
        for (std::uint32_t k = 0; k < l.shape.nodes_per_rack; ++k) {
            const core::GpuId last = ((r * l.shape.nodes_per_rack + k) + 1) * l.shape.gpus_per_node - 1;
            lowest = std::max(lowest, l.rail_y[last]);
        }
        pt.seg(glm::vec2(l.trunk_x[r], l.leaves[r].max.y), glm::vec2(l.trunk_x[r], lowest), 3, col.ib_idle);
        pt.fill(l.leaves[r], busy.leaf[r] ? col.busy_ib : col.switch_ib);
        std::snprintf(buf, sizeof buf, "leaf switch \xc2\xb7 rack %u", r);
        if (!pt.centred_text(l.leaves[r], buf, th.text)) {
            std::snprintf(buf, sizeof buf, "leaf \xc2\xb7 rack %u", r);
            pt.centred_text(l.leaves[r], buf, th.text) || pt.centred_text(l.leaves[r], "leaf", th.text);
        }
    }
}

// Nodes: the board, its rails to the trunk (each row's runs from the NIC farthest from the
// trunk) and its NVSwitch.
void draw_nodes(const Painter& pt, const Theme& th, const RackColours& col, const RackLayout& l, const BusySwitches& busy,
                const std::vector<Tag>& tags) {
    const std::uint32_t per_node = l.shape.gpus_per_node;
    for (std::uint32_t n = 0; n < l.nodes.size(); ++n) {
        if (!l.node_shown(n)) continue;
        pt.frame(l.nodes[n], th.grid);
        const std::uint32_t rack = n / l.shape.nodes_per_rack;
        const core::GpuId first = n * per_node, last = first + per_node - 1;
        const bool left = l.nodes[n].max.x <= l.trunk_x[rack];
        core::GpuId far[2] = {first, first};  // [upper row, lower row]
        bool has[2] = {false, false};
        for (core::GpuId g = first; g <= last; ++g) {
            const int row = l.upper[g] ? 0 : 1;
            const bool farther = left ? l.nics[g].min.x < l.nics[far[row]].min.x : l.nics[g].min.x > l.nics[far[row]].min.x;
            if (!has[row] || farther) far[row] = g;
            has[row] = true;
        }
        for (int row = 0; row < 2; ++row)
            if (has[row])
                pt.seg(glm::vec2(l.nics[far[row]].centre().x, l.rail_y[far[row]]), glm::vec2(l.trunk_x[rack], l.rail_y[far[row]]),
                       2, col.ib_idle);
        pt.fill(l.nvswitches[n], busy.node[n] ? col.busy_nv : col.switch_nv);
        if (l.node_labels) node_label(pt, th, l.nvswitches[n], n, tags);
    }
}

GpuMark mark_of(const RackPaint& p, core::GpuId g) { return p.gpu_mark.empty() ? GpuMark::none : p.gpu_mark[g]; }

// GPUs with their NVLink stub, PCIe stub and NIC.
void draw_gpus(const Painter& pt, const Theme& th, const RackColours& col, const RackLayout& l, const core::Cluster& c,
               const RackPaint& p) {
    glm::vec2 pts[3];
    for (core::GpuId g = 0; g < l.gpus.size(); ++g) {
        if (!l.gpu_shown(g)) continue;
        link_points(l, c, c.gpu_link(g, core::LinkRole::gpu_to_nvswitch), pts);
        pt.seg(pts[0], pts[1], 3, col.nv_idle);
        link_points(l, c, c.gpu_link(g, core::LinkRole::gpu_to_nic), pts);
        pt.seg(pts[0], pts[1], 2, th.grid);
        pt.fill(l.nics[g], col.ib);
        const GpuMark mark = mark_of(p, g);
        const bool lit = mark != GpuMark::none;
        pt.fill(l.gpus[g], lit ? (mark == GpuMark::member ? fade(th.gpu, 0.75f) : th.gpu) : th.idle);
    }
}

// What the transfers are doing: the route ahead a thin bright line (idle wires are dim),
// stretches already crossed wider and dimmer, data in flight widest and bright.
void draw_routes(const Painter& pt, const Theme& th, const RackLayout& l, const core::Cluster& c, const RackPaint& p) {
    // Three layers, each drawn once over the one before: the wires passed, those ahead, and the
    // bytes in flight on top.
    SegmentLayer passed, ahead, in_flight;
    const Painter to_passed{pt.dl, &passed}, to_ahead{pt.dl, &ahead}, to_flight{pt.dl, &in_flight};
    glm::vec2 pts[3];
    for (core::LinkId id = 0; id < p.link_state.size(); ++id) {
        const bool flying = p.lit_to[id] > p.lit_from[id];
        if (!p.link_state[id] && !flying) continue;
        const ImU32 col = th.link(c.link(id).type);
        const int n = link_points(l, c, id, pts);
        if (p.link_state[id] & RackPaint::passed) to_passed.stretch(pts, n, 0, 1, 4, fade(col, 0.6f));
        else if (p.link_state[id] & RackPaint::ahead) to_ahead.stretch(pts, n, 0, 1, 2, col);
        if (flying) to_flight.stretch(pts, n, p.lit_from[id], p.lit_to[id], 6, col);
    }
    passed.draw(pt.dl);
    ahead.draw(pt.dl);
    in_flight.draw(pt.dl);
}

// The tensor itself: what each GPU holds, where its head is, and the bytes flowing.
void draw_tensor(const Painter& pt, const Theme& th, const RackLayout& l, const RackPaint& p) {
    char buf[48];
    for (core::GpuId g = 0; g < l.gpus.size(); ++g) {
        if (!l.gpu_shown(g)) continue;
        const Box& b = l.gpus[g];
        const GpuMark mark = mark_of(p, g);
        const float fill = p.gpu_fill.empty() ? -1.0f : p.gpu_fill[g];
        if (fill > 0) pt.fill({glm::vec2(b.min.x, b.max.y - b.height() * std::min(fill, 1.0f)), b.max}, th.accent);
        if (l.gpu_labels) {
            std::snprintf(buf, sizeof buf, "%u", g);
            const bool dark = mark == GpuMark::from || mark == GpuMark::to || fill > 0.5f;
            pt.centred_text(b, buf, dark ? th.panel : th.text);
        }
        if (mark == GpuMark::from || mark == GpuMark::to)
            pt.dl->AddRect(to_im(b.min - glm::vec2(2)), to_im(b.max + glm::vec2(2)), th.accent, 0, 0, 2.5f);
    }
    if (p.hovered >= 0 && static_cast<std::size_t>(p.hovered) < l.gpus.size() && l.gpu_shown(static_cast<core::GpuId>(p.hovered))) {
        const Box& b = l.gpus[static_cast<std::size_t>(p.hovered)];
        pt.dl->AddRect(to_im(b.min - glm::vec2(1)), to_im(b.max + glm::vec2(1)), th.text, 0, 0, 1.5f);
    }
    const float fs = ImGui::GetFontSize();
    const glm::vec2 head(std::round(fs * 0.5f) * 0.5f), pulse(std::max(3.0f, std::round(fs * 0.22f)) * 0.5f);
    for (const glm::vec2& q : p.pulses) pt.fill({q - pulse, q + pulse}, th.accent);
    for (const glm::vec2& q : p.heads) {
        pt.fill({q - head - glm::vec2(1), q + head + glm::vec2(1)}, th.panel);
        pt.fill({q - head, q + head}, th.accent);
    }
}

// "to 64" (or "from 64") centred in rack r's summary when a send's end is among its hidden GPUs and
// the tag fits there; false when there is none or it does not fit.
bool summary_tag(const Painter& pt, const Theme& th, const RackLayout& l, const RackPaint& p, std::uint32_t r) {
    const std::uint32_t per_rack = l.shape.nodes_per_rack, per_node = l.shape.gpus_per_node;
    for (core::GpuId g = r * per_rack * per_node; g < (r + 1) * per_rack * per_node && g < p.gpu_mark.size(); ++g) {
        const GpuMark mark = p.gpu_mark[g];
        if ((mark != GpuMark::from && mark != GpuMark::to) || l.gpu_shown(g)) continue;
        char buf[48];
        std::snprintf(buf, sizeof buf, "%s %u", mark == GpuMark::from ? "from" : "to", g);
        const Box& b = l.summaries[r];
        const glm::vec2 size = to_glm(ImGui::CalcTextSize(buf)) + glm::vec2(6, 2);
        if (size.x > b.width() - 2 || size.y > b.height()) return false;
        const glm::vec2 at = glm::round(b.centre() - size * 0.5f);
        draw_tags(pt, th, {Tag{{at, at + size}, buf}});
        return true;
    }
    return false;
}

// Each rack's nodes not shown: one box, lit while data crosses a node inside it, tinted when it
// holds members of the group, with the longest of its words that fit.
void draw_summaries(const Painter& pt, const Theme& th, const RackColours& col, const RackLayout& l, const RackPaint& p,
                    const BusySwitches& busy) {
    const std::uint32_t per_rack = l.shape.nodes_per_rack, per_node = l.shape.gpus_per_node;
    for (std::uint32_t r = 0; r < l.shape.racks; ++r) {
        if (l.hidden_in(r) == 0) continue;
        bool lit = false, member = false;
        for (std::uint32_t n = r * per_rack; n < (r + 1) * per_rack; ++n) {
            if (l.node_shown(n)) continue;
            lit |= busy.node[n] != 0;
            for (core::GpuId g = n * per_node; g < (n + 1) * per_node; ++g) member |= mark_of(p, g) != GpuMark::none;
        }
        const Box& b = l.summaries[r];
        if (l.compact(r)) {  // its leaf too: the switch's colour, lit while data crosses it
            pt.fill(b, busy.leaf[r] || lit ? col.busy_ib : col.switch_ib);
        } else {
            if (lit || member) pt.fill(b, lit ? col.busy_nv : fade(th.gpu, 0.75f));
            pt.frame(b, th.grid);
        }
        // A send's end inside the summary: its tag in the box, where the words would go.
        if (summary_tag(pt, th, l, p, r)) continue;
        for (const std::vector<std::string>& lines : rack_board::summary_words(l, r))
            if (pt.centred_lines(b, lines, th.text)) break;
    }
}

}  // namespace

void draw_rack(const Theme& th, const RackLayout& l, const core::Cluster& c, const RackPaint& p) {
    const Painter pt{ImGui::GetWindowDrawList()};
    const RackColours col(th);
    const BusySwitches busy = busy_switches(l, c, p);
    const std::vector<Tag> tags = place_tags(l, c, p);
    draw_racks(pt, th, col, l, c, busy);
    draw_summaries(pt, th, col, l, p, busy);
    draw_nodes(pt, th, col, l, busy, tags);
    draw_gpus(pt, th, col, l, c, p);
    draw_routes(pt, th, l, c, p);
    draw_tensor(pt, th, l, p);
    draw_tags(pt, th, tags);
}

}  // namespace m2m::ui
