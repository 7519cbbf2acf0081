// Lesson 2's saved state (scenarios), its timeline as CSV, the one-line status the tests read, and
// the rooms its hidden readouts keep.
//
// [SECTION] scenario and CSV   [SECTION] status   [SECTION] the hidden readouts' rooms
#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "lessons/rack/rack_common.hpp"
#include "lessons/rack/rack_panel.hpp"
#include "lessons/run_log.hpp"
#include "lessons/saved_state.hpp"
#include "m2m/core/engine/text.hpp"
#include "ui/theme.hpp"
#include "ui/view.hpp"
#include "ui/widgets.hpp"

namespace m2m::lessons {

using namespace rack_detail;

// [SECTION] scenario, CSV and words ------------------------------------------------------------

nlohmann::json RackPanel::save_state() const {
    return {{"hardware", system_ids()[m_system]},
            {"mode", m_mode == Mode::send ? "send" : "allreduce"},
            {"from", m_from},
            {"to", m_to},
            {"bytes", m_bytes},
            {"group", m_group},
            {"collective_bytes", m_collective_bytes},
            {"ring_per_nic", m_ring_per_nic},
            {"op", std::string(core::collective_op_name(m_op))},
            {"algorithm", m_algorithm ? std::string(core::collective_algorithm_name(*m_algorithm)) : "auto"},
            {"speed", m_playback.speed()}};
}

void RackPanel::load_state(const nlohmann::json& j) {
    // Check everything first, so a bad file leaves the panel exactly as it was.
    const SavedState in(j, "Lesson 2");
    std::size_t system = m_system;
    if (in.has("hardware")) {
        const auto& ids = system_ids();
        const auto it = in.at("hardware").is_string() ? std::find(ids.begin(), ids.end(), in.at("hardware").get<std::string>()) : ids.end();
        if (it == ids.end()) in.fail("unknown \"hardware\" (accepted: " + presets::joined_system_ids() + ")");
        system = static_cast<std::size_t>(it - ids.begin());
    }
    Mode mode = m_mode;
    in.choice("mode", mode, {{"send", Mode::send}, {"allreduce", Mode::all_reduce}});
    core::GpuId from = m_from, to = m_to;
    in.whole("from", from, 0, cluster().gpu_count() - 1);
    in.whole("to", to, 0, cluster().gpu_count() - 1);
    if (from == to) in.fail("\"from\" and \"to\" must be two different GPUs");
    double bytes = m_bytes, collective_bytes = m_collective_bytes;
    in.number("bytes", bytes);
    if (!(bytes >= min_bytes && bytes <= max_bytes)) in.fail("\"bytes\" must be a number of bytes from 1e3 (1 KB) to 1e11 (100 GB)");
    in.number("collective_bytes", collective_bytes);
    if (!(collective_bytes >= min_collective_bytes && collective_bytes <= max_collective_bytes))
        in.fail("\"collective_bytes\" must be a number of bytes from 8 to 17179869184 (17.2 GB, 16 GiB)");
    core::CollectiveOp op = m_op;
    in.choice("op", op, {{"allreduce", core::CollectiveOp::all_reduce}, {"allgather", core::CollectiveOp::all_gather},
                         {"reducescatter", core::CollectiveOp::reduce_scatter}, {"broadcast", core::CollectiveOp::broadcast},
                         {"alltoall", core::CollectiveOp::all_to_all}});
    using Algo = std::optional<core::CollectiveAlgorithm>;
    Algo algorithm = m_algorithm;
    in.choice("algorithm", algorithm, {{"auto", Algo{}}, {"ring", Algo{core::CollectiveAlgorithm::ring}},
                                       {"tree", Algo{core::CollectiveAlgorithm::tree}}, {"nvls", Algo{core::CollectiveAlgorithm::nvls}}});
    std::uint32_t group = m_group;
    if (in.has("group")) {
        const auto& g = in.at("group");
        if (!g.is_number_integer() || std::find(std::begin(group_sizes), std::end(group_sizes), g.get<std::int64_t>()) == std::end(group_sizes))
            in.fail("\"group\" must be 8, 16, 64 or 128");
        group = static_cast<std::uint32_t>(g.get<std::int64_t>());
    }
    // An algorithm the file's own hardware, group and collective cannot run is the file's mistake.
    if (in.has("algorithm") && algorithm)
        if (const std::string why = algorithm_refusal(system, group, op, *algorithm); !why.empty())
            in.fail("\"algorithm\": " + why);
    bool per_nic = m_ring_per_nic;
    in.flag("ring_per_nic", per_nic);
    double speed = m_playback.speed();
    in.number("speed", speed);
    m_system = system;
    m_mode = mode;
    m_from = from;
    m_to = to;
    m_picking_to = false;
    m_bytes = bytes;
    m_collective_bytes = collective_bytes;
    m_group = group;
    m_ring_per_nic = per_nic;
    m_op = op;
    m_algorithm = algorithm;
    recompute();
    m_playback.set_speed(speed);
}

std::string RackPanel::timeline_csv() const {
    if (answers_hidden()) return {};  // its times answer the pending guess: not before a run
    // The send: when its head enters each hop and its tail leaves it (the pipelined model).
    // The all-reduce: every send of every step.
    std::string out;
    char row[200];
    const core::Cluster& c = cluster();
    if (m_mode == Mode::send) {
        out = "hop,link,type,head_enters_s,tail_leaves_s\n";
        const core::TransferRun& run = m_transfer.run;
        double at = 0;
        for (std::size_t h = 0; h < run.route.links.size(); ++h) {
            const core::Link l = c.link(run.route.links[h]);
            const double enters = at;
            at += l.latency_s;
            std::snprintf(row, sizeof row, "%zu,\"%s\",%s,%.6g,%.6g\n", h + 1, c.link_name(run.route.links[h]).c_str(),
                          std::string(core::link_type_name(l.type)).c_str(), enters, at + run.bandwidth_s);
            out += row;
        }
        return out;
    }
    out = "step,ring,position,from,to,type,start_s,end_s\n";
    const core::CollectiveResult& r = m_collective;
    for (std::size_t k = 0; k < r.steps; ++k)
        for (const core::RingSend& s : r.sends) {
            std::snprintf(row, sizeof row, "%zu,%u,%u,%u,%u,%s,%.6g,%.6g\n", k + 1, s.ring, s.position, s.from, s.to,
                          std::string(core::link_type_name(s.type)).c_str(), r.step_start_s(k) + s.start_s,
                          r.step_start_s(k) + s.end_s);
            out += row;
        }
    return out;
}

// [SECTION] status --------------------------------------------------------------------------

std::string RackPanel::status() const {
    // The drawing: zoomed or whole, and the size its GPU numbers are drawn at (0: none drawn).
    char drawing[64];
    std::snprintf(drawing, sizeof drawing, " rack_zoom=%d gpu_label_px=%.0f", m_layout.zoomed ? 1 : 0,
                  static_cast<double>(m_layout.gpu_label_px));
    std::string line = status_line();  // before the answers and the guess, which end the line
    const std::size_t at = line.find(" answers=");
    return line.insert(at == std::string::npos ? line.size() : at, drawing);
}

std::string RackPanel::status_line() const {
    char buf[320];
    const std::string& hw = system_ids()[m_system];
    if (m_mode == Mode::send) {
        std::snprintf(buf, sizeof buf,
                      "lesson=rack mode=send hardware=%s from=%u to=%u bytes=%.0f link=%s hops=%zu relative=%.3g "
                      "playing=%d cursor=%.6g",
                      hw.c_str(), m_from, m_to, m_bytes, std::string(core::link_type_name(m_transfer.run.route.type)).c_str(),
                      m_transfer.run.route.hops(), m_transfer.relative_time, m_playback.playing() ? 1 : 0, m_playback.cursor());
        if (m_guess.any()) {  // the guess, and whether it is being shown against the result
            const std::string link = m_guess.link ? std::string(core::link_type_name(*m_guess.link)) : "none";
            char guess[96];
            std::snprintf(guess, sizeof guess, " guess=%s/%.3g revealed=%d", link.c_str(), m_guess.times, send_finished() ? 1 : 0);
            return buf + std::string(answers_hidden() ? " answers=hidden" : " answers=shown") + guess;
        }
    } else {
        std::snprintf(buf, sizeof buf,
                      "lesson=rack mode=allreduce hardware=%s op=%s gpus=%u algorithm=%s protocol=%s rings=%u bytes=%.0f "
                      "link=%s step=%zu/%zu busbw_GBps=%.4g playing=%d cursor=%.6g",
                      hw.c_str(), std::string(core::collective_op_name(m_op)).c_str(), m_group,
                      std::string(core::collective_algorithm_name(m_collective.algorithm)).c_str(),
                      std::string(core::collective_protocol_name(m_collective.protocol)).c_str(), m_collective.rings,
                      m_collective_bytes,
                      std::string(core::link_type_name(m_collective.slowest)).c_str(), step_at(m_playback.cursor()) + 1,
                      m_collective.steps, m_collective.busbw_GBps, m_playback.playing() ? 1 : 0, m_playback.cursor());
        // How many links carry data now (the animation), and the guess against the result.
        std::string out = buf;
        if (m_layout.gpus.size() == cluster().gpu_count()) {
            const ui::RackPaint p = paint_at(m_playback.cursor());
            std::size_t lit = 0;
            for (std::size_t i = 0; i < p.lit_to.size(); ++i) lit += p.lit_to[i] > p.lit_from[i] ? 1 : 0;
            out += " lit=" + std::to_string(lit);
        }
        out += answers_hidden() ? " answers=hidden" : " answers=shown";
        if (m_collective_guess.faster)
            out += " cguess=" + std::string(core::collective_algorithm_name(*m_collective_guess.faster)) +
                   " revealed=" + (collective_finished() ? "1" : "0");
        return out;
    }
    return buf + std::string(answers_hidden() ? " answers=hidden" : " answers=shown");
}

// [SECTION] the hidden readouts' rooms ----------------------------------------------------------

void RackPanel::set_hidden_rooms(const core::CollectiveGroup& group, double bytes) {
    // The longest name NCCL's pick could have here: the hidden readout keeps its room (capitals
    // count as wider letters: "NVLS" takes more room than "ring").
    const auto room = [](const std::string& t) {
        return t.size() + std::count_if(t.begin(), t.end(), [](unsigned char ch) { return std::isupper(ch) != 0; });
    };
    // The figures' rooms likewise: each algorithm's time and busbw by NCCL's closed form at this
    // size and at every size the plot draws (so the "?" stay put while the size slider moves), as
    // shapes: every digit an 8, a figure with no point given one (3 digits with a point are the
    // widest), "µs" counted as the wider "ms", and of two as long the same one whatever the size
    // set. None depends on which algorithm NCCL picks.
    const auto widest_shape = [&](std::string& widest, std::string text) {
        if (const std::size_t space = text.find(' '); space != std::string::npos && text.find('.') > space) text.insert(space, ".");
        if (const std::size_t mu = text.find("\xc2\xb5"); mu != std::string::npos) text.replace(mu, 2, "m");
        std::replace_if(text.begin(), text.end(), [](unsigned char ch) { return std::isdigit(ch) != 0; }, '8');
        if (std::pair(room(text), text) > std::pair(room(widest), widest)) widest = text;
    };
    m_widest_pick.clear();
    m_widest_time.clear();
    m_widest_busbw.clear();
    for (core::CollectiveAlgorithm a : m_sweep.algorithms) {
        if (const std::string name = std::string(core::collective_algorithm_label(a)) + " \xc2\xb7 Simple"; room(name) > room(m_widest_pick))
            m_widest_pick = name;
        core::CollectiveChoice choice;
        choice.algorithm = a;
        const core::CollectiveCost cost = core::collective_cost(cluster().system(), group, m_op, bytes, choice);
        widest_shape(m_widest_time, core::format_seconds(cost.time_s));
        widest_shape(m_widest_busbw, core::format_rate_GBps(cost.busbw_GBps));
    }
    for (const std::vector<core::CollectiveCost>& curve : m_sweep.curves)
        for (const core::CollectiveCost& cost : curve) {
            widest_shape(m_widest_time, core::format_seconds(cost.time_s));
            widest_shape(m_widest_busbw, core::format_rate_GBps(cost.busbw_GBps));
        }
    m_widest_link = std::string(core::link_type_label(group.nodes > 1 ? core::LinkType::infiniband : core::LinkType::nvlink));
}

}  // namespace m2m::lessons
