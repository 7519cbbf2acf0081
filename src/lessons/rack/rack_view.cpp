// The rack drawing: layout, link geometry, painting a pipelined transfer, and drawing it all with
// plain axis-aligned rectangles (4 vertices, 2 triangles each: no rounding, no anti-aliasing
// fringe) because llvmpipe pays for every triangle and every blended pixel.
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

float length_of(const ImVec2* pts, int n) {
    float len = 0;
    for (int i = 1; i < n; ++i) len += std::abs(pts[i].x - pts[i - 1].x) + std::abs(pts[i].y - pts[i - 1].y);
    return len;
}

// The point at share f (0..1) of the way along an axis-aligned polyline.
ImVec2 point_along(const ImVec2* pts, int n, float f) {
    float left = std::clamp(f, 0.0f, 1.0f) * length_of(pts, n);
    for (int i = 1; i < n; ++i) {
        const float seg = std::abs(pts[i].x - pts[i - 1].x) + std::abs(pts[i].y - pts[i - 1].y);
        if (left <= seg || i + 1 == n) {
            const float s = seg > 0 ? std::min(left / seg, 1.0f) : 0.0f;
            return ImVec2(pts[i - 1].x + (pts[i].x - pts[i - 1].x) * s, pts[i - 1].y + (pts[i].y - pts[i - 1].y) * s);
        }
        left -= seg;
    }
    return pts[0];
}

}  // namespace

// [SECTION] layout ----------------------------------------------------------------------------

RackLayout layout_rack(const core::ClusterShape& shape, ImVec2 a, ImVec2 b) {
    RackLayout l;
    l.shape = shape;
    const float fs = ImGui::GetFontSize();
    const std::uint32_t per_node = shape.gpus_per_node, per_rack = shape.nodes_per_rack, racks = shape.racks;
    const std::uint32_t nodes = per_rack * racks, gpus = per_node * nodes;
    l.gpus.resize(gpus);
    l.nics.resize(gpus);
    l.rail_y.resize(gpus);
    l.upper.resize(gpus);
    l.nodes.resize(nodes);
    l.nvswitches.resize(nodes);
    l.racks.resize(racks);
    l.leaves.resize(racks);
    l.trunk_x.resize(racks);

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
        l.spine = {ImVec2(cx - spine_w * 0.5f, a.y + pad), ImVec2(cx + spine_w * 0.5f, a.y + pad + bar_h)};
    } else if (racks > 1) {
        l.spine = {ImVec2(a.x + rack_w * 0.5f - fs * 3, a.y), ImVec2(b.x - rack_w * 0.5f + fs * 3, a.y + bar_h)};
        rack_top = a.y + bar_h + std::round(fs * 0.9f);
    } else {
        l.spine = {a, a};
    }

    const float trunk_gap = std::round(fs * 0.7f), row_gap = std::round(fs * 0.45f);
    const std::uint32_t rows = (per_rack + 1) / 2;
    const std::uint32_t top_count = (per_node + 1) / 2;
    const float node_w = std::floor((rack_w - 2 * pad - 2 * trunk_gap) * 0.5f);
    const float body_top = rack_top + pad + bar_h + std::round(fs * 0.6f), body_bottom = b.y - pad;
    const float node_h = std::floor((body_bottom - body_top - row_gap * static_cast<float>(rows - 1)) / static_cast<float>(rows));

    // Inside a board, top to bottom: NIC, GPU, NVLink stubs, NVSwitch (and, with two rows of
    // GPUs, stubs, GPU, NIC again). Take whichever of one or two rows gives the bigger GPUs.
    const float ip = std::max(2.0f, std::round(fs * 0.15f)), g1 = 2;
    const float nic_h = std::round(std::clamp(node_h * 0.07f, 4.0f, fs * 0.45f));
    // The NVSwitch bar is tall enough for its label when that still leaves GPUs a line high.
    const float sw_plain = std::round(std::clamp(node_h * 0.2f, 6.0f, bar_h));
    const float sw_label = std::max(sw_plain, std::round(fs + 2));
    const float gap = std::round(std::min(fs * 0.25f, node_w * 0.03f));
    const float max_gh = std::round(fs * 2.2f);
    struct Board {
        int gpu_rows;
        std::uint32_t cols;
        float gw, gh, stub, sw;
    };
    auto board = [&](int gpu_rows, float sw) {
        Board bd{gpu_rows, gpu_rows == 2 ? top_count : per_node, 0, 0, 0, sw};
        bd.stub = std::round(std::clamp(node_h * 0.06f, 4.0f, fs * 0.6f));
        const float r = static_cast<float>(gpu_rows);
        bd.gh = (node_h - 2 * ip - r * (nic_h + g1 + bd.stub) - sw) / r;
        if (bd.gh > max_gh) {  // room to spare: longer NVLink stubs, then centre the contents
            bd.stub += std::min(bd.gh - max_gh, fs * 0.8f);
            bd.gh = max_gh;
        }
        bd.gh = std::floor(std::max(bd.gh, 3.0f));
        bd.gw = std::floor((node_w - 2 * ip - gap * static_cast<float>(bd.cols - 1)) / static_cast<float>(bd.cols));
        return bd;
    };
    auto best = [&](float sw) {
        const Board one = board(1, sw), two = board(2, sw);
        return per_node > 1 && std::min(two.gw, two.gh) >= std::min(one.gw, one.gh) ? two : one;
    };
    Board bd = best(sw_label);
    if (bd.gh < fs * 0.9f) bd = best(sw_plain);
    const float sw = bd.sw;
    const float content = static_cast<float>(bd.gpu_rows) * (nic_h + g1 + bd.gh + bd.stub) + sw;

    for (std::uint32_t r = 0; r < racks; ++r) {
        const float x0 = a.x + static_cast<float>(r) * (rack_w + rack_gap);
        l.racks[r] = {ImVec2(x0, rack_top), ImVec2(x0 + rack_w, b.y)};
        l.leaves[r] = {ImVec2(x0 + pad, rack_top + pad), ImVec2(x0 + rack_w - pad, rack_top + pad + bar_h)};
        l.trunk_x[r] = std::round(x0 + rack_w * 0.5f);
        for (std::uint32_t k = 0; k < per_rack; ++k) {
            const std::uint32_t n = r * per_rack + k;
            const float nx = (k % 2 == 0) ? x0 + pad : l.trunk_x[r] + trunk_gap;
            const float ny = body_top + static_cast<float>(k / 2) * (node_h + row_gap);
            l.nodes[n] = {ImVec2(nx, ny), ImVec2(nx + node_w, ny + node_h)};
            const float top = std::round(ny + (node_h - content) * 0.5f);
            const float gpu_top_y = top + nic_h + g1;
            const float sw_y = gpu_top_y + bd.gh + bd.stub;
            l.nvswitches[n] = {ImVec2(nx + ip, sw_y), ImVec2(nx + node_w - ip, sw_y + sw)};
            for (std::uint32_t j = 0; j < per_node; ++j) {
                const core::GpuId g = n * per_node + j;
                const bool upper = bd.gpu_rows == 1 || j < top_count;
                const float gx = nx + ip + static_cast<float>(upper ? j : j - top_count) * (bd.gw + gap);
                const float gy = upper ? gpu_top_y : sw_y + sw + bd.stub;
                l.upper[g] = upper ? 1 : 0;
                l.gpus[g] = {ImVec2(gx, gy), ImVec2(gx + bd.gw, gy + bd.gh)};
                const float nic_w = std::round(std::min(bd.gw * 0.45f, fs));
                const float cx = std::round(gx + bd.gw * 0.5f);
                const float y0 = upper ? gy - g1 - nic_h : gy + bd.gh + g1;
                l.nics[g] = {ImVec2(cx - nic_w * 0.5f, y0), ImVec2(cx + nic_w * 0.5f, y0 + nic_h)};
                l.rail_y[g] = std::round(y0 + nic_h * 0.5f);
            }
        }
    }
    if (gpus > 0) {
        const std::string widest = std::to_string(gpus - 1);
        l.gpu_labels = bd.gh >= fs * 0.95f && bd.gw >= ImGui::CalcTextSize(widest.c_str()).x + 4;
        l.node_labels = sw >= fs + 1;
    }
    return l;
}

// [SECTION] link geometry ---------------------------------------------------------------------

int link_points(const RackLayout& l, const core::Cluster& c, core::LinkId id, ImVec2 out[3]) {
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
            out[0] = ImVec2(left ? leaf.max.x : leaf.min.x, y);
            out[1] = ImVec2(left ? l.spine.min.x : l.spine.max.x, y);
        } else {
            out[0] = ImVec2(l.trunk_x[k.owner], leaf.min.y);
            out[1] = ImVec2(l.trunk_x[k.owner], l.spine.max.y);
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
        out[0] = ImVec2(cx, upper ? gpu.max.y : gpu.min.y);
        out[1] = ImVec2(cx, upper ? sw.min.y : sw.max.y);
        return k.role == Role::gpu_to_nvswitch ? 2 : reverse(2);
    case Role::gpu_to_nic:
    case Role::nic_to_gpu:
        out[0] = ImVec2(cx, upper ? gpu.min.y : gpu.max.y);
        out[1] = ImVec2(cx, upper ? nic.max.y : nic.min.y);
        return k.role == Role::gpu_to_nic ? 2 : reverse(2);
    case Role::nic_to_leaf:
    case Role::leaf_to_nic: {
        const std::uint32_t rack = c.rack_of(g);
        out[0] = ImVec2(cx, l.rail_y[g]);
        out[1] = ImVec2(l.trunk_x[rack], l.rail_y[g]);
        out[2] = ImVec2(l.trunk_x[rack], l.leaves[rack].max.y);
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
    ImVec2 pts[max_hops][3];
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

void draw_rack(const Theme& th, const RackLayout& l, const core::Cluster& c, const RackPaint& p) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float fs = ImGui::GetFontSize();
    const ImU32 ib = th.link(core::LinkType::infiniband), nv = th.link(core::LinkType::nvlink);
    const ImU32 switch_ib = fade(ib, 0.3f), switch_nv = fade(nv, 0.35f);
    const ImU32 busy_ib = fade(ib, 0.75f), busy_nv = fade(nv, 0.8f);
    // A switch glows while data crosses it: any link into or out of it carrying data now.
    std::vector<std::uint8_t> busy_node(l.nodes.size(), 0), busy_leaf(l.racks.size(), 0);
    bool busy_spine = false;
    for (core::LinkId id = 0; id < p.lit_to.size(); ++id) {
        if (!(p.lit_to[id] > p.lit_from[id])) continue;
        const core::Link k = c.link(id);
        switch (k.type) {
        case core::LinkType::nvlink: busy_node[c.node_of(k.owner)] = 1; break;
        case core::LinkType::infiniband:
            if (k.role == core::LinkRole::leaf_to_spine || k.role == core::LinkRole::spine_to_leaf) {
                busy_spine = true;
                busy_leaf[k.owner] = 1;
            } else {
                busy_leaf[c.rack_of(k.owner)] = 1;
            }
            break;
        default: break;
        }
    }
    const ImU32 ib_idle = fade(ib, 0.4f), nv_idle = fade(nv, 0.45f);
    const ImU32 board = th.grid;
    // A segment of an axis-aligned polyline as a plain rectangle `w` pixels thick.
    auto seg = [&](ImVec2 p0, ImVec2 p1, float w, ImU32 col) {
        const float h = w * 0.5f;
        dl->AddRectFilled(ImVec2(std::min(p0.x, p1.x) - h, std::min(p0.y, p1.y) - h),
                          ImVec2(std::max(p0.x, p1.x) + h, std::max(p0.y, p1.y) + h), col);
    };
    auto stretch = [&](const ImVec2* pts, int n, float f0, float f1, float w, ImU32 col) {
        if (f1 <= f0) return;
        const float total = length_of(pts, n), d0 = f0 * total, d1 = f1 * total;
        float at = 0;
        for (int i = 1; i < n; ++i) {
            const float s = std::abs(pts[i].x - pts[i - 1].x) + std::abs(pts[i].y - pts[i - 1].y);
            const float a = std::max(d0, at), b = std::min(d1, at + s);
            if (b > a && s > 0) {
                auto at_d = [&](float d) {
                    const float k = (d - at) / s;
                    return ImVec2(pts[i - 1].x + (pts[i].x - pts[i - 1].x) * k, pts[i - 1].y + (pts[i].y - pts[i - 1].y) * k);
                };
                seg(at_d(a), at_d(b), w, col);
            }
            at += s;
        }
    };
    // Racks and boards are outlined, not filled: filled, they cost ~2 million blended pixels a
    // frame at 1080p, a third of the frame time under llvmpipe.
    auto frame = [&](const Box& k, ImU32 col) {
        seg(k.min, ImVec2(k.max.x, k.min.y), 1, col);
        seg(ImVec2(k.min.x, k.max.y), k.max, 1, col);
        seg(k.min, ImVec2(k.min.x, k.max.y), 1, col);
        seg(ImVec2(k.max.x, k.min.y), k.max, 1, col);
    };
    auto centred_text = [&](const Box& b, const char* text, ImU32 col) {
        const ImVec2 ts = ImGui::CalcTextSize(text);
        if (ts.x > b.width() - 4 || ts.y > b.height() + 2) return false;
        dl->AddText(ImVec2(std::round(b.centre().x - ts.x * 0.5f), std::round(b.centre().y - ts.y * 0.5f)), col, text);
        return true;
    };
    char buf[48];

    // Racks, the spine, leaves and the trunks of cables up to them.
    const std::uint32_t racks = l.shape.racks;
    for (std::uint32_t r = 0; r < racks; ++r) {
        frame(l.racks[r], th.grid);
    }
    ImVec2 pts[3];
    if (racks > 1) {
        for (std::uint32_t r = 0; r < racks; ++r) {
            link_points(l, c, c.rack_link(r, core::LinkRole::leaf_to_spine), pts);
            seg(pts[0], pts[1], 3, ib_idle);
        }
        dl->AddRectFilled(l.spine.min, l.spine.max, busy_spine ? busy_ib : switch_ib);
        centred_text(l.spine, "spine switch: joins the racks", th.text) || centred_text(l.spine, "spine switch", th.text) ||
            centred_text(l.spine, "spine", th.text);
    }
    for (std::uint32_t r = 0; r < racks; ++r) {
        float lowest = l.leaves[r].max.y;
        for (std::uint32_t k = 0; k < l.shape.nodes_per_rack; ++k) {
            const core::GpuId last = ((r * l.shape.nodes_per_rack + k) + 1) * l.shape.gpus_per_node - 1;
            lowest = std::max(lowest, l.rail_y[last]);
        }
        seg(ImVec2(l.trunk_x[r], l.leaves[r].max.y), ImVec2(l.trunk_x[r], lowest), 3, ib_idle);
        dl->AddRectFilled(l.leaves[r].min, l.leaves[r].max, busy_leaf[r] ? busy_ib : switch_ib);
        std::snprintf(buf, sizeof buf, "leaf switch \xc2\xb7 rack %u", r);
        if (!centred_text(l.leaves[r], buf, th.text)) {
            std::snprintf(buf, sizeof buf, "leaf \xc2\xb7 rack %u", r);
            centred_text(l.leaves[r], buf, th.text);
        }
    }

    // Nodes: the board, its rails to the trunk and its NVSwitch.
    const std::uint32_t per_node = l.shape.gpus_per_node;
    for (std::uint32_t n = 0; n < l.nodes.size(); ++n) {
        frame(l.nodes[n], board);
        const std::uint32_t rack = n / l.shape.nodes_per_rack;
        const core::GpuId first = n * per_node, last = first + per_node - 1;
        // Each row's rail runs from the NIC farthest from the trunk to the trunk.
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
                seg(ImVec2(l.nics[far[row]].centre().x, l.rail_y[far[row]]), ImVec2(l.trunk_x[rack], l.rail_y[far[row]]), 2, ib_idle);
        dl->AddRectFilled(l.nvswitches[n].min, l.nvswitches[n].max, busy_node[n] ? busy_nv : switch_nv);
        if (l.node_labels) {
            std::snprintf(buf, sizeof buf, "NVSwitch \xc2\xb7 node %u", n);
            if (!centred_text(l.nvswitches[n], buf, th.text)) {
                std::snprintf(buf, sizeof buf, "node %u", n);
                centred_text(l.nvswitches[n], buf, th.text);
            }
        }
    }

    // GPUs with their NVLink stub, PCIe stub and NIC.
    for (core::GpuId g = 0; g < l.gpus.size(); ++g) {
        link_points(l, c, c.gpu_link(g, core::LinkRole::gpu_to_nvswitch), pts);
        seg(pts[0], pts[1], 3, nv_idle);
        link_points(l, c, c.gpu_link(g, core::LinkRole::gpu_to_nic), pts);
        seg(pts[0], pts[1], 2, th.grid);
        dl->AddRectFilled(l.nics[g].min, l.nics[g].max, ib);
        const GpuMark mark = p.gpu_mark.empty() ? GpuMark::none : p.gpu_mark[g];
        const bool lit = mark != GpuMark::none;
        dl->AddRectFilled(l.gpus[g].min, l.gpus[g].max, lit ? (mark == GpuMark::member ? fade(th.gpu, 0.75f) : th.gpu) : th.idle);
    }

    // What the transfers are doing: the route ahead a thin bright line (idle wires are dim),
    // stretches already crossed wider and dimmer, data in flight widest and bright.
    for (core::LinkId id = 0; id < p.link_state.size(); ++id) {
        const bool in_flight = p.lit_to[id] > p.lit_from[id];
        if (!p.link_state[id] && !in_flight) continue;
        const core::LinkType type = c.link(id).type;
        const ImU32 col = th.link(type);
        const int n = link_points(l, c, id, pts);
        if (p.link_state[id] & RackPaint::passed) stretch(pts, n, 0, 1, 4, fade(col, 0.6f));
        else if (p.link_state[id] & RackPaint::ahead) stretch(pts, n, 0, 1, 2, col);
        if (in_flight) stretch(pts, n, p.lit_from[id], p.lit_to[id], 6, col);
    }

    // The tensor itself: what each GPU holds, where its head is, and the bytes flowing.
    for (core::GpuId g = 0; g < l.gpus.size(); ++g) {
        const Box& b = l.gpus[g];
        const GpuMark mark = p.gpu_mark.empty() ? GpuMark::none : p.gpu_mark[g];
        const float fill = p.gpu_fill.empty() ? -1.0f : p.gpu_fill[g];
        if (fill > 0) dl->AddRectFilled(ImVec2(b.min.x, b.max.y - b.height() * std::min(fill, 1.0f)), b.max, th.accent);
        if (l.gpu_labels) {
            std::snprintf(buf, sizeof buf, "%u", g);
            const bool dark = mark == GpuMark::from || mark == GpuMark::to || fill > 0.5f;
            centred_text(b, buf, dark ? th.panel : th.text);
        }
        if (mark == GpuMark::from || mark == GpuMark::to)
            dl->AddRect(ImVec2(b.min.x - 2, b.min.y - 2), ImVec2(b.max.x + 2, b.max.y + 2), th.accent, 0, 0, 2.5f);
    }
    if (p.hovered >= 0 && static_cast<std::size_t>(p.hovered) < l.gpus.size()) {
        const Box& b = l.gpus[static_cast<std::size_t>(p.hovered)];
        dl->AddRect(ImVec2(b.min.x - 1, b.min.y - 1), ImVec2(b.max.x + 1, b.max.y + 1), th.text, 0, 0, 1.5f);
    }
    const float head = std::round(fs * 0.5f), pulse = std::max(3.0f, std::round(fs * 0.22f));
    for (const ImVec2& q : p.pulses)
        dl->AddRectFilled(ImVec2(q.x - pulse * 0.5f, q.y - pulse * 0.5f), ImVec2(q.x + pulse * 0.5f, q.y + pulse * 0.5f), th.accent);
    for (const ImVec2& q : p.heads) {
        dl->AddRectFilled(ImVec2(q.x - head * 0.5f - 1, q.y - head * 0.5f - 1), ImVec2(q.x + head * 0.5f + 1, q.y + head * 0.5f + 1), th.panel);
        dl->AddRectFilled(ImVec2(q.x - head * 0.5f, q.y - head * 0.5f), ImVec2(q.x + head * 0.5f, q.y + head * 0.5f), th.accent);
    }

    // Tags on the sender and the receiver, beside the GPU on the side the route does not use.
    for (core::GpuId g = 0; g < l.gpus.size() && !p.gpu_mark.empty(); ++g) {
        const GpuMark mark = p.gpu_mark[g];
        if (mark != GpuMark::from && mark != GpuMark::to) continue;
        std::snprintf(buf, sizeof buf, "%s %u", mark == GpuMark::from ? "from" : "to", g);
        const ImVec2 ts = ImGui::CalcTextSize(buf);
        const Box& b = l.gpus[g];
        const float x = std::round(std::clamp(b.centre().x - ts.x * 0.5f - 3, l.racks[c.rack_of(g)].min.x + 1,
                                              l.racks[c.rack_of(g)].max.x - ts.x - 7));
        const bool above = l.top_row(g) != p.tags_inward;
        const float y = above ? b.min.y - ts.y - 4 : b.max.y + 2;
        dl->AddRectFilled(ImVec2(x, y), ImVec2(x + ts.x + 6, y + ts.y + 2), th.accent);
        dl->AddText(ImVec2(x + 3, y + 1), th.panel, buf);
    }
}

RackInput rack_buttons(ItemRegistry& items, const RackLayout& l, ImVec2 a, ImVec2 b) {
    RackInput in;
    char id[24];
    for (core::GpuId g = 0; g < l.gpus.size(); ++g) {
        const Box& box = l.gpus[g];
        ImGui::SetCursorScreenPos(box.min);
        std::snprintf(id, sizeof id, "gpu_%u", g);
        if (ImGui::InvisibleButton(id, ImVec2(std::max(box.width(), 1.0f), std::max(box.height(), 1.0f)))) in.clicked = g;
        items.note(id);
        if (ImGui::IsItemHovered()) in.hovered = g;
    }
    ImGui::SetCursorScreenPos(a);
    ImGui::Dummy(ImVec2(b.x - a.x, b.y - a.y));
    return in;
}

}  // namespace m2m::ui
