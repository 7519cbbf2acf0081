// The rack drawing's geometry: where every rack, node, GPU, NIC and switch sits in a rectangle
// (the whole cluster, or zoomed when that is too small to read: rack_zoom.cpp), and each
// directed link as a polyline between them.
//
// [SECTION] layout   [SECTION] link geometry
#include "lessons/rack/rack_view.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "lessons/rack/rack_board.hpp"

namespace m2m::ui {

// [SECTION] layout ----------------------------------------------------------------------------

namespace rack_board {

namespace {

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

}  // namespace

Board choose_board(const BoardSpace& s, float bar_h, float label_w) {
    const float sw_plain = std::round(std::clamp(s.node_h * 0.2f, 6.0f, bar_h));
    const float sw_label = std::max(sw_plain, std::round(s.fs + 2));
    auto fits = [&](const Board& b) { return label_w > 0 && b.gw >= label_w + 4 && b.gh >= s.fs * 0.95f; };
    auto best = [&](float sw) {
        const Board one = board_with(s, 1, sw), two = board_with(s, 2, sw);
        if (s.per_node > 1 && fits(one) != fits(two)) return fits(two) ? two : one;  // the one whose numbers fit
        return s.per_node > 1 && std::min(two.gw, two.gh) >= std::min(one.gw, one.gh) ? two : one;
    };
    const Board bd = best(sw_label);
    return bd.gh < s.fs * 0.9f ? best(sw_plain) : bd;
}

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
    l.shown.assign(nodes, 1);
    l.summaries.assign(s.racks, Box{});
}

Frame rack_frame(RackLayout& l) {
    // Two racks: the spine between them, level with the leaves (it costs a little width, which a
    // wide window has, and no height, which it lacks). More: a row above.
    const float fs = ImGui::GetFontSize();
    Frame f{fs, std::round(fs * 1.3f), std::round(fs * 0.3f), std::round(ImGui::CalcTextSize("spine").x + fs * 1.2f), 0};
    l.spine_between = l.shape.racks == 2;
    f.rack_gap = l.spine_between ? f.spine_w + 2 * std::round(fs * 0.9f) : std::round(fs * 0.8f);
    return f;
}

float place_spine(RackLayout& l, const Frame& f, glm::vec2 a, glm::vec2 b, float first_w, float last_w) {
    if (l.spine_between) {
        const float cx = std::round(a.x + first_w + f.rack_gap * 0.5f);
        l.spine = {glm::vec2(cx - f.spine_w * 0.5f, a.y + f.pad), glm::vec2(cx + f.spine_w * 0.5f, a.y + f.pad + f.bar_h)};
        return a.y;
    }
    if (l.shape.racks > 1) {
        l.spine = {glm::vec2(a.x + first_w * 0.5f - f.fs * 3, a.y), glm::vec2(b.x - last_w * 0.5f + f.fs * 3, a.y + f.bar_h)};
        return a.y + f.bar_h + std::round(f.fs * 0.9f);
    }
    l.spine = {a, a};
    return a.y;
}

BoardSpace board_space(float fs, float node_w, float node_h, std::uint32_t per_node) {
    BoardSpace s{fs, node_w, node_h, 0, 2, 0, 0, std::round(fs * 2.2f), per_node, (per_node + 1) / 2};
    s.ip = std::max(2.0f, std::round(fs * 0.15f));
    s.nic_h = std::round(std::clamp(node_h * 0.07f, 4.0f, fs * 0.45f));
    s.gap = std::round(std::min(fs * 0.25f, node_w * 0.03f));
    return s;
}

void set_labels(RackLayout& l, const Board& bd) {
    // The widest number among the GPUs drawn must fit its box, a line high.
    core::GpuId widest = 0;
    for (core::GpuId g = 0; g < l.gpus.size(); ++g)
        if (l.gpu_shown(g)) widest = g;
    const float fs = ImGui::GetFontSize();
    l.gpu_labels = !l.gpus.empty() && bd.gh >= fs * 0.95f && bd.gw >= ImGui::CalcTextSize(std::to_string(widest).c_str()).x + 4;
    l.gpu_label_px = l.gpu_labels ? fs : 0.0f;
    l.readable = l.gpu_labels || (bd.gw >= fs * 1.6f && bd.gh >= fs * 0.95f);
    l.node_labels = bd.sw >= fs + 1;
}

}  // namespace rack_board

using namespace rack_board;

std::uint32_t RackLayout::hidden_in(std::uint32_t rack) const {
    std::uint32_t n = 0;
    for (std::uint32_t k = 0; k < shape.nodes_per_rack; ++k) n += shown[rack * shape.nodes_per_rack + k] ? 0 : 1;
    return n;
}

namespace {

RackLayout layout_full(const core::ClusterShape& shape, ImVec2 a_im, ImVec2 b_im) {
    const glm::vec2 a = to_glm(a_im), b = to_glm(b_im);
    RackLayout l;
    l.shape = shape;
    size_layout(l);
    const float fs = ImGui::GetFontSize();
    const std::uint32_t per_node = shape.gpus_per_node, per_rack = shape.nodes_per_rack, racks = shape.racks;

    const Frame f = rack_frame(l);
    const float rack_w = std::floor((b.x - a.x - f.rack_gap * static_cast<float>(racks - 1)) / static_cast<float>(racks));
    const float rack_top = place_spine(l, f, a, b, rack_w, rack_w), bar_h = f.bar_h, pad = f.pad, rack_gap = f.rack_gap;

    // The nodes sit in two columns either side of each rack's cable trunk.
    const float trunk_gap = std::round(fs * 0.7f), row_gap = std::round(fs * 0.45f);
    const std::uint32_t rows = (per_rack + 1) / 2;
    const float body_top = rack_top + pad + bar_h + std::round(fs * 0.6f), body_bottom = b.y - pad;
    const BoardSpace space = board_space(
        fs, std::floor((rack_w - 2 * pad - 2 * trunk_gap) * 0.5f),
        std::floor((body_bottom - body_top - row_gap * static_cast<float>(rows - 1)) / static_cast<float>(rows)), per_node);
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
    set_labels(l, bd);
    return l;
}

// The focus nodes, most important first, as a mask of the first `k`.
std::vector<std::uint8_t> first_of(const std::vector<std::uint32_t>& focus, std::size_t k, std::uint32_t nodes) {
    std::vector<std::uint8_t> shown(nodes, 0);
    for (std::size_t i = 0; i < k && i < focus.size(); ++i)
        if (focus[i] < nodes) shown[focus[i]] = 1;
    return shown;
}

}  // namespace

RackLayout layout_rack(const core::ClusterShape& shape, ImVec2 a, ImVec2 b, const std::vector<std::uint32_t>& focus) {
    RackLayout full = layout_full(shape, a, b);
    if (full.readable || focus.empty()) return full;
    // Too small to read: as many of the focus nodes as leave their GPUs their numbers (at least one).
    const std::uint32_t nodes = shape.nodes_per_rack * shape.racks;
    for (std::size_t k = focus.size(); k > 1; --k) {
        RackLayout z = layout_zoomed(shape, to_glm(a), to_glm(b), first_of(focus, k, nodes));
        if (z.gpu_labels) return z;
        // Two racks' boards too narrow side by side (a send to the other rack at 1024x768, 2x):
        // one above the other, each the whole width.
        if (shape.racks == 2 && k == 2 && focus[0] / shape.nodes_per_rack != focus[1] / shape.nodes_per_rack) {
            z = layout_zoomed(shape, to_glm(a), to_glm(b), first_of(focus, k, nodes), true);
            if (z.gpu_labels) return z;
        }
    }
    return layout_zoomed(shape, to_glm(a), to_glm(b), first_of(focus, 1, nodes));
}

// [SECTION] link geometry ---------------------------------------------------------------------

namespace {

// A link of a GPU inside its rack's summary box: the wires inside a node shrink to the point
// where the trunk meets the summary's top; the wire to the leaf runs up the trunk from there.
int summary_points(const RackLayout& l, const core::Cluster& c, const core::Link& k, glm::vec2 out[3]) {
    const std::uint32_t rack = c.rack_of(k.owner);
    const glm::vec2 foot(l.trunk_x[rack], l.compact(rack) ? l.summaries[rack].centre().y : l.summaries[rack].min.y);
    out[0] = out[1] = out[2] = foot;
    if ((k.role != core::LinkRole::nic_to_leaf && k.role != core::LinkRole::leaf_to_nic) || l.compact(rack)) return 2;
    out[2] = glm::vec2(foot.x, l.leaves[rack].max.y);
    if (k.role == core::LinkRole::leaf_to_nic) std::swap(out[0], out[2]);
    return 3;
}

}  // namespace

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
    if (!l.gpu_shown(g)) return summary_points(l, c, k, out);
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

}  // namespace m2m::ui
