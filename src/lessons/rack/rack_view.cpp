// The rack drawing: layout, link geometry, painting a pipelined transfer, and drawing it all with
// plain axis-aligned rectangles (4 vertices, 2 triangles each: no rounding, no anti-aliasing
// fringe) because llvmpipe pays for every triangle and every blended pixel. Positions, boxes and
// the points along a wire are glm::vec2 (ui/geometry.hpp); ImVec2 only where ImGui is called.
//
// [SECTION] layout   [SECTION] link geometry   [SECTION] painting a transfer   [SECTION] drawing
#include "lessons/rack/rack_view.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "ui/theme.hpp"
#include "ui/widgets.hpp"

namespace m2m::ui {

namespace {

float length_of(const glm::vec2* pts, int n) {
    float len = 0;
    for (int i = 1; i < n; ++i) len += manhattan(pts[i] - pts[i - 1]);
    return len;
}

// The point at share f (0..1) of the way along an axis-aligned polyline.
glm::vec2 point_along(const glm::vec2* pts, int n, float f) {
    float left = glm::clamp(f, 0.0f, 1.0f) * length_of(pts, n);
    for (int i = 1; i < n; ++i) {
        const float seg = manhattan(pts[i] - pts[i - 1]);
        if (left <= seg || i + 1 == n) return along(pts[i - 1], pts[i], seg > 0 ? std::min(left / seg, 1.0f) : 0.0f);
        left -= seg;
    }
    return pts[0];
}

}  // namespace

// [SECTION] layout ----------------------------------------------------------------------------

namespace {

// Inside a board, top to bottom: NIC, GPU, NVLink stubs, NVSwitch (and, with two rows of GPUs,
// stubs, GPU, NIC again). What every board of a layout shares, and the sizes chosen from it.
struct BoardSpace {
    float fs, node_w, node_h;
    float ip, g1, nic_h, gap, max_gh;   // inner padding, GPU-to-NIC gap, NIC height, GPU gap, tallest GPU
    std::uint32_t per_node, top_count;  // GPUs on a board, and in its upper row when there are two
};
struct Board {
    int gpu_rows;
    std::uint32_t cols;
    float gw, gh, stub, sw;  // GPU width and height, NVLink stub length, NVSwitch bar height
    float content(const BoardSpace& s) const { return static_cast<float>(gpu_rows) * (s.nic_h + s.g1 + gh + stub) + sw; }
};

Board board_with(const BoardSpace& s, int gpu_rows, float sw) {
    Board bd{gpu_rows, gpu_rows == 2 ? s.top_count : s.per_node, 0, 0, 0, sw};
    bd.stub = std::round(std::clamp(s.node_h * 0.06f, 4.0f, s.fs * 0.6f));
    const float r = static_cast<float>(gpu_rows);
    bd.gh = (s.node_h - 2 * s.ip - r * (s.nic_h + s.g1 + bd.stub) - sw) / r;
    if (bd.gh > s.max_gh) {  // room to spare: longer NVLink stubs, then centre the contents
        bd.stub += std::min(bd.gh - s.max_gh, s.fs * 0.8f);
        bd.gh = s.max_gh;
    }
    bd.gh = std::floor(std::max(bd.gh, 3.0f));
    bd.gw = std::floor((s.node_w - 2 * s.ip - s.gap * static_cast<float>(bd.cols - 1)) / static_cast<float>(bd.cols));
    return bd;
}

// One or two rows of GPUs, whichever gives the bigger GPUs; the NVSwitch bar tall enough for its
// label when that still leaves GPUs a line high.
Board choose_board(const BoardSpace& s, float bar_h) {
    const float sw_plain = std::round(std::clamp(s.node_h * 0.2f, 6.0f, bar_h));
    const float sw_label = std::max(sw_plain, std::round(s.fs + 2));
    auto best = [&](float sw) {
        const Board one = board_with(s, 1, sw), two = board_with(s, 2, sw);
        return s.per_node > 1 && std::min(two.gw, two.gh) >= std::min(one.gw, one.gh) ? two : one;
    };
    const Board bd = best(sw_label);
    return bd.gh < s.fs * 0.9f ? best(sw_plain) : bd;
}

// Node `n`'s board with its top-left corner at `at`: its NVSwitch, and each GPU with its NIC on
// the board's outer edge, on the rail that leads to the trunk.
void place_node(RackLayout& l, std::uint32_t n, glm::vec2 at, const BoardSpace& s, const Board& bd) {
    l.nodes[n] = {at, at + glm::vec2(s.node_w, s.node_h)};
    const float top = std::round(at.y + (s.node_h - bd.content(s)) * 0.5f);
    const float gpu_top_y = top + s.nic_h + s.g1;
    const float sw_y = gpu_top_y + bd.gh + bd.stub;
    l.nvswitches[n] = {glm::vec2(at.x + s.ip, sw_y), glm::vec2(at.x + s.node_w - s.ip, sw_y + bd.sw)};
    for (std::uint32_t j = 0; j < s.per_node; ++j) {
        const core::GpuId g = n * s.per_node + j;
        const bool upper = bd.gpu_rows == 1 || j < s.top_count;
        const glm::vec2 gpu(at.x + s.ip + static_cast<float>(upper ? j : j - s.top_count) * (bd.gw + s.gap),
                            upper ? gpu_top_y : sw_y + bd.sw + bd.stub);
        l.upper[g] = upper ? 1 : 0;
        l.gpus[g] = {gpu, gpu + glm::vec2(bd.gw, bd.gh)};
        const float nic_w = std::round(std::min(bd.gw * 0.45f, s.fs));
        const float cx = std::round(gpu.x + bd.gw * 0.5f);
        const float y0 = upper ? gpu.y - s.g1 - s.nic_h : gpu.y + bd.gh + s.g1;
        l.nics[g] = {glm::vec2(cx - nic_w * 0.5f, y0), glm::vec2(cx + nic_w * 0.5f, y0 + s.nic_h)};
        l.rail_y[g] = std::round(y0 + s.nic_h * 0.5f);
    }
}

void size_layout(RackLayout& l) {
    const core::ClusterShape& s = l.shape;
    const std::uint32_t nodes = s.nodes_per_rack * s.racks, gpus = s.gpus_per_node * nodes;
    l.gpus.resize(gpus);
    l.nics.resize(gpus);
    l.rail_y.resize(gpus);
    l.upper.resize(gpus);
    l.nodes.resize(nodes);
    l.nvswitches.resize(nodes);
    l.racks.resize(s.racks);
    l.leaves.resize(s.racks);
    l.trunk_x.resize(s.racks);
}

}  // namespace

RackLayout layout_rack(const core::ClusterShape& shape, ImVec2 a_im, ImVec2 b_im) {
    const glm::vec2 a = to_glm(a_im), b = to_glm(b_im);
    RackLayout l;
    l.shape = shape;
    size_layout(l);
    const float fs = ImGui::GetFontSize();
    const std::uint32_t per_node = shape.gpus_per_node, per_rack = shape.nodes_per_rack, racks = shape.racks;

    // Racks side by side. Two racks: the spine between them, level with the leaves (it costs a
    // little width, which a wide window has, and no height, which it lacks). More: a row above.
    const float bar_h = std::round(fs * 1.3f);  // switch bars that carry a label
    const float pad = std::round(fs * 0.3f);
    l.spine_between = racks == 2;
    const float spine_w = std::round(ImGui::CalcTextSize("spine").x + fs * 1.2f);
    const float rack_gap = l.spine_between ? spine_w + 2 * std::round(fs * 0.9f) : std::round(fs * 0.8f);
    const float rack_w = std::floor((b.x - a.x - rack_gap * static_cast<float>(racks - 1)) / static_cast<float>(racks));
    float rack_top = a.y;
    if (l.spine_between) {
        const float cx = std::round(a.x + rack_w + rack_gap * 0.5f);
        l.spine = {glm::vec2(cx - spine_w * 0.5f, a.y + pad), glm::vec2(cx + spine_w * 0.5f, a.y + pad + bar_h)};
    } else if (racks > 1) {
        l.spine = {glm::vec2(a.x + rack_w * 0.5f - fs * 3, a.y), glm::vec2(b.x - rack_w * 0.5f + fs * 3, a.y + bar_h)};
        rack_top = a.y + bar_h + std::round(fs * 0.9f);
    } else {
        l.spine = {a, a};
    }

    // The nodes sit in two columns either side of each rack's cable trunk.
    const float trunk_gap = std::round(fs * 0.7f), row_gap = std::round(fs * 0.45f);
    const std::uint32_t rows = (per_rack + 1) / 2;
    BoardSpace space{fs, 0, 0, 0, 2, 0, 0, std::round(fs * 2.2f), per_node, (per_node + 1) / 2};
    space.node_w = std::floor((rack_w - 2 * pad - 2 * trunk_gap) * 0.5f);
    const float body_top = rack_top + pad + bar_h + std::round(fs * 0.6f), body_bottom = b.y - pad;
    space.node_h = std::floor((body_bottom - body_top - row_gap * static_cast<float>(rows - 1)) / static_cast<float>(rows));
    space.ip = std::max(2.0f, std::round(fs * 0.15f));
    space.nic_h = std::round(std::clamp(space.node_h * 0.07f, 4.0f, fs * 0.45f));
    space.gap = std::round(std::min(fs * 0.25f, space.node_w * 0.03f));
    const Board bd = choose_board(space, bar_h);

    for (std::uint32_t r = 0; r < racks; ++r) {
        const float x0 = a.x + static_cast<float>(r) * (rack_w + rack_gap);
        l.racks[r] = {glm::vec2(x0, rack_top), glm::vec2(x0 + rack_w, b.y)};
        l.leaves[r] = {glm::vec2(x0 + pad, rack_top + pad), glm::vec2(x0 + rack_w - pad, rack_top + pad + bar_h)};
        l.trunk_x[r] = std::round(x0 + rack_w * 0.5f);
        for (std::uint32_t k = 0; k < per_rack; ++k) {
            const float nx = (k % 2 == 0) ? x0 + pad : l.trunk_x[r] + trunk_gap;
            const float ny = body_top + static_cast<float>(k / 2) * (space.node_h + row_gap);
            place_node(l, r * per_rack + k, glm::vec2(nx, ny), space, bd);
        }
    }
    if (!l.gpus.empty()) {
        const std::string widest = std::to_string(l.gpus.size() - 1);
        l.gpu_labels = bd.gh >= fs * 0.95f && bd.gw >= ImGui::CalcTextSize(widest.c_str()).x + 4;
        l.node_labels = bd.sw >= fs + 1;
    }
    return l;
}

// [SECTION] link geometry ---------------------------------------------------------------------

int link_points(const RackLayout& l, const core::Cluster& c, core::LinkId id, glm::vec2 out[3]) {
    using Role = core::LinkRole;
    const core::Link k = c.link(id);
    auto reverse = [&](int n) {
        std::reverse(out, out + n);
        return n;
    };
    if (k.role == Role::leaf_to_spine || k.role == Role::spine_to_leaf) {
        const Box& leaf = l.leaves[k.owner];
        if (l.spine_between) {  // level: from the leaf's inner end to the spine's side
            const float y = std::round(leaf.centre().y);
            const bool left = leaf.max.x <= l.spine.min.x;
            out[0] = glm::vec2(left ? leaf.max.x : leaf.min.x, y);
            out[1] = glm::vec2(left ? l.spine.min.x : l.spine.max.x, y);
        } else {
            out[0] = glm::vec2(l.trunk_x[k.owner], leaf.min.y);
            out[1] = glm::vec2(l.trunk_x[k.owner], l.spine.max.y);
        }
        return k.role == Role::leaf_to_spine ? 2 : reverse(2);
    }
    const core::GpuId g = k.owner;
    const Box& gpu = l.gpus[g];
    const Box& nic = l.nics[g];
    const Box& sw = l.nvswitches[c.node_of(g)];
    const bool upper = l.top_row(g);
    const float cx = std::round(gpu.centre().x);
    switch (k.role) {
    case Role::gpu_to_nvswitch:
    case Role::nvswitch_to_gpu:
        out[0] = glm::vec2(cx, upper ? gpu.max.y : gpu.min.y);
        out[1] = glm::vec2(cx, upper ? sw.min.y : sw.max.y);
        return k.role == Role::gpu_to_nvswitch ? 2 : reverse(2);
    case Role::gpu_to_nic:
    case Role::nic_to_gpu:
        out[0] = glm::vec2(cx, upper ? gpu.min.y : gpu.max.y);
        out[1] = glm::vec2(cx, upper ? nic.max.y : nic.min.y);
        return k.role == Role::gpu_to_nic ? 2 : reverse(2);
    case Role::nic_to_leaf:
    case Role::leaf_to_nic: {
        const std::uint32_t rack = c.rack_of(g);
        out[0] = glm::vec2(cx, l.rail_y[g]);
        out[1] = glm::vec2(l.trunk_x[rack], l.rail_y[g]);
        out[2] = glm::vec2(l.trunk_x[rack], l.leaves[rack].max.y);
        return k.role == Role::nic_to_leaf ? 3 : reverse(3);
    }
    default: break;
    }
    return 0;
}

// [SECTION] painting a transfer ---------------------------------------------------------------

void RackPaint::reset(const core::Cluster& c) {
    link_state.assign(c.link_count(), 0);
    lit_from.assign(c.link_count(), 0.0f);
    lit_to.assign(c.link_count(), 0.0f);
    gpu_mark.assign(c.gpu_count(), GpuMark::none);
    gpu_fill.assign(c.gpu_count(), -1.0f);
    heads.clear();
    pulses.clear();
    hovered = -1;
    tags_inward = false;
}

void paint_transfer(RackPaint& p, const RackLayout& l, const core::Cluster& c, const core::Route& r, double t,
                    double bandwidth_s, bool pulses) {
    constexpr std::size_t max_hops = 8;
    const std::size_t hops = std::min(r.links.size(), max_hops);
    if (hops == 0) return;
    // Each hop's stretch of the route in "latency time": the head enters hop h at start[h].
    double start[max_hops], end[max_hops], latency = 0;
    for (std::size_t h = 0; h < hops; ++h) {
        start[h] = latency;
        latency += c.link(r.links[h]).latency_s;
        end[h] = latency;
    }
    const double head = std::min(t, latency), tail = t - bandwidth_s;
    const bool geometry = l.gpus.size() == c.gpu_count();  // heads and pulses need a layout
    auto reached = [&](double x, std::size_t h) {  // share of hop h that position x has passed
        if (end[h] <= start[h]) return x >= start[h] ? 1.0f : 0.0f;
        return static_cast<float>(std::clamp((x - start[h]) / (end[h] - start[h]), 0.0, 1.0));
    };
    glm::vec2 pts[max_hops][3];
    int npts[max_hops];
    float len[max_hops], total = 0;
    float front[max_hops], back[max_hops];
    bool head_drawn = false;
    for (std::size_t h = 0; h < hops; ++h) {
        const core::LinkId id = r.links[h];
        npts[h] = geometry ? link_points(l, c, id, pts[h]) : 0;
        len[h] = length_of(pts[h], npts[h]);
        total += len[h];
        front[h] = t > 0 ? reached(head, h) : 0.0f;
        back[h] = tail > 0 ? reached(tail, h) : 0.0f;
        if (back[h] >= 1.0f) {
            p.link_state[id] |= RackPaint::passed;
        } else if (front[h] <= 0.0f) {
            p.link_state[id] |= RackPaint::ahead;
        } else {
            const bool had = p.lit_to[id] > p.lit_from[id];
            p.lit_from[id] = had ? std::min(p.lit_from[id], back[h]) : back[h];
            p.lit_to[id] = had ? std::max(p.lit_to[id], front[h]) : front[h];
        }
        if (geometry && !head_drawn && t > 0 && t < latency && front[h] < 1.0f) {
            p.heads.push_back(point_along(pts[h], npts[h], front[h]));
            head_drawn = true;
        }
    }
    if (!geometry || !pulses || bandwidth_s <= 0 || t <= 0 || tail >= latency) return;
    // Marks one font-height apart that move ten spacings over the time the bytes take to leave:
    // on a link 8x slower they crawl 8x slower.
    const float spacing = ImGui::GetFontSize() * 1.2f;
    const double phase = std::fmod(t / bandwidth_s * 10.0, 1.0);
    float d = static_cast<float>(phase) * spacing, hop_start = 0;
    for (std::size_t h = 0; h < hops && d < total; ++h) {
        for (; d < hop_start + len[h]; d += spacing) {
            const float f = len[h] > 0 ? (d - hop_start) / len[h] : 0.0f;
            if (f >= back[h] && f <= front[h]) p.pulses.push_back(point_along(pts[h], npts[h], f));
        }
        hop_start += len[h];
    }
}

// [SECTION] drawing ---------------------------------------------------------------------------

namespace {

// What draws the rack: plain rectangles (see the top of the file), and text that fits.
struct Painter {
    ImDrawList* dl;

    // A segment of an axis-aligned polyline as a rectangle `w` pixels thick.
    void seg(glm::vec2 p0, glm::vec2 p1, float w, ImU32 col) const {
        const glm::vec2 h(w * 0.5f);
        dl->AddRectFilled(to_im(glm::min(p0, p1) - h), to_im(glm::max(p0, p1) + h), col);
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
};

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

// Racks, the spine, leaves and the trunks of cables up to them.
void draw_racks(const Painter& pt, const Theme& th, const RackColours& col, const RackLayout& l, const core::Cluster& c,
                const BusySwitches& busy) {
    const std::uint32_t racks = l.shape.racks;
    for (std::uint32_t r = 0; r < racks; ++r) pt.frame(l.racks[r], th.grid);
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
            pt.centred_text(l.leaves[r], buf, th.text);
        }
    }
}

// Nodes: the board, its rails to the trunk (each row's runs from the NIC farthest from the
// trunk) and its NVSwitch.
void draw_nodes(const Painter& pt, const Theme& th, const RackColours& col, const RackLayout& l, const BusySwitches& busy) {
    const std::uint32_t per_node = l.shape.gpus_per_node;
    char buf[48];
    for (std::uint32_t n = 0; n < l.nodes.size(); ++n) {
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
        if (l.node_labels) {
            std::snprintf(buf, sizeof buf, "NVSwitch \xc2\xb7 node %u", n);
            if (!pt.centred_text(l.nvswitches[n], buf, th.text)) {
                std::snprintf(buf, sizeof buf, "node %u", n);
                pt.centred_text(l.nvswitches[n], buf, th.text);
            }
        }
    }
}

GpuMark mark_of(const RackPaint& p, core::GpuId g) { return p.gpu_mark.empty() ? GpuMark::none : p.gpu_mark[g]; }

// GPUs with their NVLink stub, PCIe stub and NIC.
void draw_gpus(const Painter& pt, const Theme& th, const RackColours& col, const RackLayout& l, const core::Cluster& c,
               const RackPaint& p) {
    glm::vec2 pts[3];
    for (core::GpuId g = 0; g < l.gpus.size(); ++g) {
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
    glm::vec2 pts[3];
    for (core::LinkId id = 0; id < p.link_state.size(); ++id) {
        const bool in_flight = p.lit_to[id] > p.lit_from[id];
        if (!p.link_state[id] && !in_flight) continue;
        const ImU32 col = th.link(c.link(id).type);
        const int n = link_points(l, c, id, pts);
        if (p.link_state[id] & RackPaint::passed) pt.stretch(pts, n, 0, 1, 4, fade(col, 0.6f));
        else if (p.link_state[id] & RackPaint::ahead) pt.stretch(pts, n, 0, 1, 2, col);
        if (in_flight) pt.stretch(pts, n, p.lit_from[id], p.lit_to[id], 6, col);
    }
}

// The tensor itself: what each GPU holds, where its head is, and the bytes flowing.
void draw_tensor(const Painter& pt, const Theme& th, const RackLayout& l, const RackPaint& p) {
    char buf[48];
    for (core::GpuId g = 0; g < l.gpus.size(); ++g) {
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
    if (p.hovered >= 0 && static_cast<std::size_t>(p.hovered) < l.gpus.size()) {
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

// Tags on the sender and the receiver, beside the GPU on the side the route does not use.
void draw_tags(const Painter& pt, const Theme& th, const RackLayout& l, const core::Cluster& c, const RackPaint& p) {
    char buf[48];
    for (core::GpuId g = 0; g < l.gpus.size() && !p.gpu_mark.empty(); ++g) {
        const GpuMark mark = p.gpu_mark[g];
        if (mark != GpuMark::from && mark != GpuMark::to) continue;
        std::snprintf(buf, sizeof buf, "%s %u", mark == GpuMark::from ? "from" : "to", g);
        const glm::vec2 ts = to_glm(ImGui::CalcTextSize(buf));
        const Box& b = l.gpus[g];
        const Box& rack = l.racks[c.rack_of(g)];
        const float x = std::round(std::clamp(b.centre().x - ts.x * 0.5f - 3, rack.min.x + 1, rack.max.x - ts.x - 7));
        const bool above = l.top_row(g) != p.tags_inward;
        const glm::vec2 at(x, above ? b.min.y - ts.y - 4 : b.max.y + 2);
        pt.fill({at, at + ts + glm::vec2(6, 2)}, th.accent);
        pt.dl->AddText(to_im(at + glm::vec2(3, 1)), th.panel, buf);
    }
}

}  // namespace

void draw_rack(const Theme& th, const RackLayout& l, const core::Cluster& c, const RackPaint& p) {
    const Painter pt{ImGui::GetWindowDrawList()};
    const RackColours col(th);
    const BusySwitches busy = busy_switches(l, c, p);
    draw_racks(pt, th, col, l, c, busy);
    draw_nodes(pt, th, col, l, busy);
    draw_gpus(pt, th, col, l, c, p);
    draw_routes(pt, th, l, c, p);
    draw_tensor(pt, th, l, p);
    draw_tags(pt, th, l, c, p);
}

RackInput rack_buttons(ItemRegistry& items, const RackLayout& l, ImVec2 a, ImVec2 b) {
    RackInput in;
    char id[24];
    for (core::GpuId g = 0; g < l.gpus.size(); ++g) {
        const Box& box = l.gpus[g];
        ImGui::SetCursorScreenPos(to_im(box.min));
        std::snprintf(id, sizeof id, "gpu_%u", g);
        if (ImGui::InvisibleButton(id, to_im(glm::max(box.size(), glm::vec2(1.0f))))) in.clicked = g;
        items.note(id);
        if (ImGui::IsItemHovered()) in.hovered = g;
    }
    ImGui::SetCursorScreenPos(a);
    ImGui::Dummy(ImVec2(b.x - a.x, b.y - a.y));
    return in;
}

}  // namespace m2m::ui
