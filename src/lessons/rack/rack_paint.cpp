// Painting the rack drawing: what a pipelined transfer lights at a moment (the links ahead, the
// stretch carrying bytes, those crossed, its head and the pulses of bytes), read by draw_rack; and
// the wires' rectangles merged where routes overlap, so that each is drawn once.
#include <algorithm>
#include <cmath>
#include <tuple>
#include <utility>
#include <vector>

#include "lessons/rack/rack_board.hpp"
#include "lessons/rack/rack_view.hpp"

namespace m2m::ui {

using rack_board::length_of;
using rack_board::point_along;

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

std::vector<rack_board::WireRect> rack_board::merge_wires(std::vector<WireRect> rects) {
    // Along: x for a horizontal rectangle, y for a vertical one; across: the other.
    const auto horizontal = [](const WireRect& r) { return r.max.x - r.min.x >= r.max.y - r.min.y; };
    const auto lo = [&](const WireRect& r) { return horizontal(r) ? r.min.x : r.min.y; };
    const auto hi = [&](const WireRect& r) { return horizontal(r) ? r.max.x : r.max.y; };
    const auto key = [&](const WireRect& r) {
        const bool h = horizontal(r);
        return std::make_tuple(r.col, h, h ? r.min.y : r.min.x, h ? r.max.y : r.max.x);
    };
    std::sort(rects.begin(), rects.end(), [&](const WireRect& a, const WireRect& b) {
        return std::make_pair(key(a), lo(a)) < std::make_pair(key(b), lo(b));
    });
    std::vector<WireRect> out;
    for (const WireRect& r : rects) {
        if (!out.empty() && key(out.back()) == key(r) && lo(r) <= hi(out.back())) {
            WireRect& run = out.back();
            (horizontal(run) ? run.max.x : run.max.y) = std::max(hi(run), hi(r));
        } else {
            out.push_back(r);
        }
    }
    return out;
}

}  // namespace m2m::ui
