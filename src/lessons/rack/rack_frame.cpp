// Lesson 2's rack at a moment of playback: which step of a collective the cursor is in, and what
// the drawing lights then (each send on its wire, or a tree's or NVLS's latency hop by hop).
#include <algorithm>
#include <cstddef>

#include "lessons/rack/rack_panel.hpp"

namespace m2m::lessons {

std::size_t RackPanel::step_at(double cursor) const {
    const core::CollectiveResult& r = m_collective;
    if (r.steps == 0 || r.step_s <= 0 || cursor <= r.base_latency_s) return 0;
    const auto k = static_cast<std::size_t>((cursor - r.base_latency_s) / r.step_s);
    return std::min(k, r.steps - 1);
}

ui::RackPaint RackPanel::paint_at(double cursor) const {
    const core::Cluster& c = cluster();
    ui::RackPaint p;
    p.reset(c);
    p.hovered = m_hovered;
    if (m_mode == Mode::send) {
        const core::TransferRun& run = m_transfer.run;
        p.gpu_mark[m_from] = ui::GpuMark::from;
        p.gpu_mark[m_to] = ui::GpuMark::to;
        // The sender holds the tensor until its last byte leaves; the receiver fills from when
        // the head arrives, at the bottleneck rate.
        const double bw = run.bandwidth_s, lat = run.latency_s;
        p.gpu_fill[m_from] = bw > 0 ? static_cast<float>(1.0 - std::clamp(cursor / bw, 0.0, 1.0)) : (cursor > 0 ? 0.0f : 1.0f);
        p.gpu_fill[m_to] = bw > 0 ? static_cast<float>(std::clamp((cursor - lat) / bw, 0.0, 1.0)) : (cursor >= lat ? 1.0f : 0.0f);
        p.tags_inward = true;  // the NIC side stays clear for the route (and says nothing about it before the send)
        // Before the send the route stays dark: it would show the wire the guess asks about.
        if (!answers_hidden()) ui::paint_transfer(p, m_layout, c, run.route, cursor, bw, true);
        return p;
    }
    const core::CollectiveResult& r = m_collective;
    for (core::GpuId g : core::first_gpus(m_group)) p.gpu_mark[g] = ui::GpuMark::member;
    if (r.steps == 0) return p;
    const bool done = cursor >= r.time_s;
    if (!done && paint_wave(p, cursor)) return p;
    // Each send's clock starts with its step's bytes, after the step's latency (a tree's wave).
    const double in_wire = cursor - r.wire_start_s(step_at(cursor));
    for (std::size_t i = 0; i < r.sends.size(); ++i) {
        const core::CollectiveSend& s = r.sends[i];
        const core::Route& route = m_send_routes[i];
        const double bw = std::max(0.0, (s.end_s - s.start_s) - route.latency_s);
        const double t = done ? s.end_s + 1.0 : cursor < r.base_latency_s ? 0.0 : in_wire - s.start_s;
        ui::paint_transfer(p, m_layout, c, route, t, bw, r.rings == 1 && r.algorithm == core::CollectiveAlgorithm::ring);
    }
    return p;
}

bool RackPanel::paint_wave(ui::RackPaint& p, double cursor) const {
    // A tree's or NVLS's latency: the hop the message is on now lights the sends of that level
    // (same direction, same wire; those at that depth when the tree has them), a short dash each.
    const core::CollectiveResult& r = m_collective;
    double at = r.base_latency_s;
    if (r.wave.empty() || cursor < at || cursor >= r.wire_start_s(0)) return false;
    for (const core::WaveHop& h : r.wave) {
        if (cursor >= at + h.seconds) {
            at += h.seconds;
            continue;
        }
        const double f = h.seconds > 0 ? (cursor - at) / h.seconds : 1.0;
        auto matches = [&](const core::CollectiveSend& s, bool by_depth) {
            const bool up = s.role == core::SendRole::up || s.role == core::SendRole::into_switch;
            const bool down = s.role == core::SendRole::down || s.role == core::SendRole::out_of_switch;
            const bool switch_send = s.role == core::SendRole::into_switch || s.role == core::SendRole::out_of_switch;
            const core::LinkType type = switch_send ? core::LinkType::nvlink : s.type;
            return (h.up ? up : down) && type == h.link && (!by_depth || switch_send || s.position == h.depth);
        };
        bool any = false;
        for (const core::CollectiveSend& s : r.sends) any |= matches(s, true);
        for (std::size_t i = 0; i < r.sends.size(); ++i) {
            if (!matches(r.sends[i], any)) continue;
            const core::Route& route = m_send_routes[i];
            ui::paint_transfer(p, m_layout, cluster(), route, f * route.latency_s, route.latency_s * 0.5, false);
        }
        return true;
    }
    return false;
}

}  // namespace m2m::lessons
