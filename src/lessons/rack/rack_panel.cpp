// Lesson 2's panel: controls on the left; on the right the two racks with the tensor (or the
// all-reduce ring) crossing their wires, the lesson's readouts, and where the time goes.
//
// [SECTION] set-up and recompute   [SECTION] draw (what the rack shows at a moment: rack_frame.cpp)
#include <imgui.h>
#include <imgui_internal.h>  // the scene window's content: whether its words reach below it

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <utility>

#include "lessons/rack/rack_common.hpp"
#include "lessons/rack/rack_panel.hpp"
#include "lessons/run_log.hpp"
#include "lessons/saved_state.hpp"
#include "lessons/view_tabs.hpp"
#include "m2m/core/engine/text.hpp"
#include "ui/theme.hpp"
#include "ui/view.hpp"
#include "ui/widgets.hpp"

namespace m2m::lessons {

using namespace rack_detail;

namespace {

// Two racks of eight 8-GPU nodes: room for a send to another rack and a 64-GPU group in one rack.
constexpr core::ClusterShape lesson_shape{8, 8, 2, 0};

// Playback pace: the send over NVLink inside a node takes this long at 1x, a slower one
// proportionally longer up to the cap, so the difference shows and everything still plays.
constexpr double nvlink_send_play_s = 1.5, send_play_cap_s = 15.0;
// The same for a collective: the one-node ring of the same bytes plays in 6 s, at most 30 s.
constexpr double node_ring_play_s = 6.0, ring_play_cap_s = 30.0;

}  // namespace

// [SECTION] set-up and recompute ------------------------------------------------------------

const LessonInfo RackPanel::info = {
    "rack",
    "2 \xc2\xb7 Inside a rack",
    "Send a tensor between two GPUs: NVLink inside a node, InfiniBand between nodes, and what each hop costs.",
    "Move a tensor between GPUs and see which wires it crosses. To send one, click a GPU, then another, and "
    "press Send: inside a node it crosses NVLink through the NVSwitch; to reach another node it must leave "
    "through a NIC onto InfiniBand. Compare 1 KB with 1 GB, then switch to All-reduce, guess which algorithm "
    "is fastest, and watch a group of GPUs wait for its slowest wire.",
};

RackPanel::RackPanel(Context& ctx) : Lesson(ctx, info) {
    const auto& ids = system_ids();
    const auto h100 = std::find(ids.begin(), ids.end(), "h100");
    m_system = h100 == ids.end() ? 0 : static_cast<std::size_t>(h100 - ids.begin());
    recompute();
}

void RackPanel::set_hardware(std::string_view system_id) {
    const auto& ids = system_ids();
    const auto it = std::find(ids.begin(), ids.end(), system_id);
    if (it == ids.end())
        throw std::invalid_argument("unknown system '" + std::string(system_id) + "' (accepted: " + presets::joined_system_ids() + ")");
    m_system = static_cast<std::size_t>(it - ids.begin());
    recompute();
}

void RackPanel::set_mode(Mode mode) {
    m_scroll_top |= mode != m_mode;  // the other mode's scene starts at its top (its readouts' names in sight)
    if (mode != m_mode) m_size_box.clear_note();  // the note spoke of the other mode's size
    m_mode = mode;
    recompute();
}

void RackPanel::select(core::GpuId from, core::GpuId to) {
    if (!cluster().contains(from) || !cluster().contains(to))
        throw std::out_of_range("GPUs 0 to " + std::to_string(cluster().gpu_count() - 1) + " only");
    if (from == to) throw std::invalid_argument("a send needs two different GPUs");
    m_from = from;
    m_to = to;
    m_picking_to = false;
    recompute();
}

void RackPanel::click_gpu(core::GpuId gpu) {
    if (!cluster().contains(gpu)) return;
    if (!m_picking_to) {
        m_from = gpu;
        if (m_to == gpu) m_to = (gpu + 1) % cluster().gpu_count();
        m_picking_to = true;
    } else {
        if (gpu == m_from) return;  // a GPU does not send to itself: wait for another
        m_to = gpu;
        m_picking_to = false;
    }
    recompute();
}

void RackPanel::pick(Pick where) {
    const core::Cluster& c = cluster();
    const auto& s = c.shape();
    const std::uint32_t node = c.node_of(m_from), local = c.local_of(m_from), rack = c.rack_of(m_from);
    const std::uint32_t in_rack = node % s.nodes_per_rack;
    core::GpuId to = m_from;
    switch (where) {
    case Pick::same_node:  // across the NVSwitch, to the other row of the board
        to = node * s.gpus_per_node + (local + s.gpus_per_node / 2 + 1) % s.gpus_per_node;
        break;
    case Pick::other_node: {  // the neighbouring node in the same rack, same position on the board
        const std::uint32_t other = in_rack + 1 < s.nodes_per_rack ? node + 1 : node - 1;
        to = other * s.gpus_per_node + local;
        break;
    }
    case Pick::other_rack:  // the same node and position in the next rack
        to = (((rack + 1) % s.racks) * s.nodes_per_rack + in_rack) * s.gpus_per_node + local;
        break;
    }
    if (to != m_from) {
        m_to = to;
        m_picking_to = false;
        recompute();
    }
}

void RackPanel::set_bytes(double bytes) {
    m_bytes = std::clamp(bytes, min_bytes, max_bytes);
    recompute();
}

void RackPanel::send() {
    if (m_mode != Mode::send) set_mode(Mode::send);
    m_playback.reset();
    m_playback.play();
}

void RackPanel::set_group(std::uint32_t gpus) {
    if (std::find(std::begin(group_sizes), std::end(group_sizes), gpus) == std::end(group_sizes))
        throw std::invalid_argument("a group of 8, 16, 64 or 128 GPUs");
    m_group = gpus;
    recompute();
}

void RackPanel::set_collective_bytes(double bytes) {
    m_collective_bytes = std::clamp(bytes, min_collective_bytes, max_collective_bytes);
    recompute();
}

void RackPanel::set_ring_per_nic(bool on) {
    m_ring_per_nic = on;
    recompute();
}

void RackPanel::set_op(core::CollectiveOp op) {
    m_op = op;
    recompute();
}

void RackPanel::set_algorithm(std::optional<core::CollectiveAlgorithm> algorithm) {
    if (algorithm) {
        const core::NcclModel model(cluster().system(), m_collective.group, m_op);
        const std::string why = model.refusal({algorithm, std::nullopt});
        if (!why.empty()) throw std::invalid_argument(why);
    }
    m_algorithm = algorithm;
    recompute();
}

std::vector<core::CollectiveAlgorithm> RackPanel::offered_algorithms() const {
    // The ring, the tree and NVLS ("nvls" is NVLS in one node and the NVLS tree across nodes).
    std::vector<core::CollectiveAlgorithm> out;
    const core::NcclModel model(cluster().system(), m_collective.group, m_op);
    for (core::CollectiveAlgorithm a : {core::CollectiveAlgorithm::ring, core::CollectiveAlgorithm::tree, core::CollectiveAlgorithm::nvls})
        if (model.refusal({a, std::nullopt}).empty()) out.push_back(a);
    return out;
}

std::string RackPanel::algorithm_refusal(std::size_t system, std::uint32_t gpus, core::CollectiveOp op,
                                         core::CollectiveAlgorithm algorithm) const {
    const core::Cluster c(lesson_shape, system_preset(system).spec);
    const std::vector<core::GpuId> members = core::first_gpus(gpus);
    return core::NcclModel(c.system(), core::collective_group(c, members), op).refusal({algorithm, std::nullopt});
}

void RackPanel::run_collective() {
    if (m_mode != Mode::all_reduce) set_mode(Mode::all_reduce);
    m_playback.reset();
    m_playback.play();
}

void RackPanel::recompute() {
    m_cluster.emplace(lesson_shape, system_preset(m_system).spec);
    const core::Cluster& c = *m_cluster;
    m_transfer = core::run_transfer(c, m_from, m_to, static_cast<core::Bytes>(std::llround(m_bytes)));
    m_transfer_story = core::tell(c, m_transfer);
    recompute_collective();
    if (m_mode == Mode::send)
        set_send_timeline();
    else
        set_collective_timeline();
    m_playback.reset();  // any change of a setting: the run is ready again
}

void RackPanel::recompute_collective() {
    const core::Cluster& c = *m_cluster;
    core::CollectiveSetup setup;
    setup.op = m_op;
    setup.group = core::first_gpus(m_group);
    setup.bytes = static_cast<core::Bytes>(std::llround(m_collective_bytes));
    setup.rings = m_ring_per_nic ? 0 : 1;
    // An algorithm this group or collective cannot run (NVLS after switching to a DGX A100) falls back to auto.
    const core::CollectiveGroup group = core::collective_group(c, setup.group);
    if (m_algorithm && !core::NcclModel(c.system(), group, m_op).refusal({m_algorithm, std::nullopt}).empty())
        m_algorithm.reset();
    setup.choice.algorithm = m_algorithm;
    m_collective = core::run_collective(c, setup);
    m_collective_story = core::tell(c, m_collective);
    m_sweep = core::sweep_collective(c.system(), m_collective.group, m_op);
    set_hidden_rooms(group, static_cast<double>(setup.bytes));
    m_send_routes.clear();
    for (const core::CollectiveSend& s : m_collective.sends) {
        const bool into = s.role == core::SendRole::into_switch, out = s.role == core::SendRole::out_of_switch;
        m_send_routes.push_back(into || out ? c.switch_route(s.from, into) : c.route(s.from, s.to));
    }
}

void RackPanel::set_send_timeline() {
    // Step stops where the head enters each hop, when the last byte leaves, and at the end.
    const core::Cluster& c = *m_cluster;
    const core::TransferRun& run = m_transfer.run;
    std::vector<double> stops;
    double at = 0;
    for (core::LinkId id : run.route.links) {
        stops.push_back(at);
        at += c.link(id).latency_s;
    }
    stops.push_back(run.bandwidth_s);
    stops.push_back(m_transfer.time_s);
    const double rate = std::max(m_transfer.reference_s / nvlink_send_play_s, m_transfer.time_s / send_play_cap_s);
    m_playback.set_timeline(m_transfer.time_s, std::move(stops), rate);
}

void RackPanel::set_collective_timeline() {
    // Step stops at every step's start, where its bytes start, and where its NVLink sends are done.
    const core::Cluster& c = *m_cluster;
    const core::CollectiveResult& r = m_collective;
    std::vector<double> stops;
    for (std::size_t k = 0; k <= r.steps; ++k) {
        stops.push_back(r.step_start_s(k));
        if (k < r.steps && r.step_latency_s > 0) stops.push_back(r.wire_start_s(k));
        if (k < r.steps && m_collective_story.nvlink_sends_end_s > 0 && m_collective_story.infiniband_sends_end_s > 0)
            stops.push_back(r.wire_start_s(k) + m_collective_story.nvlink_sends_end_s);
    }
    // The pace: the one-node ring of the same collective and bytes plays in node_ring_play_s.
    core::CollectiveSetup node_ring;
    node_ring.op = m_op;
    node_ring.group = core::first_gpus(std::min(c.shape().gpus_per_node, m_group));
    node_ring.bytes = static_cast<core::Bytes>(std::llround(m_collective_bytes));
    node_ring.rings = 1;
    if (m_op != core::CollectiveOp::all_to_all) node_ring.choice.algorithm = core::CollectiveAlgorithm::ring;  // all-to-all has none
    const double reference = core::run_collective(c, node_ring).time_s;
    const double rate = std::max(reference / node_ring_play_s, r.time_s / ring_play_cap_s);
    std::sort(stops.begin(), stops.end());
    m_playback.set_timeline(r.time_s, std::move(stops), rate);
}

// [SECTION] draw ----------------------------------------------------------------------------

namespace {

const char* const more_below_text = "wheel or PgDn: more \xe2\x86\x93";

ImVec2 more_below_pad() { return ImVec2(ImGui::GetFontSize() * 0.4f, ImGui::GetFontSize() * 0.15f); }

}  // namespace

float RackPanel::more_below_strip() { return ImGui::GetTextLineHeight() + 3 * more_below_pad().y; }

namespace {

// The lowest line of words the strip's clip cuts through (a half line of glyphs above the tag) is
// covered from its top down, in the window's background: a glyph is a triangle textured from the
// font, not the atlas's white pixel that shapes use, so shapes (a bar) stay as they are.
void cover_cut_words(ImDrawList* dl, int first_index, float cut, ImU32 background) {
    const ImVec2 white = ImGui::GetIO().Fonts->TexUvWhitePixel;
    float top = cut;
    for (int i = first_index; i + 2 < dl->IdxBuffer.Size; i += 3) {
        float lo = FLT_MAX, hi = -FLT_MAX;
        bool glyph = false;
        for (int k = 0; k < 3; ++k) {
            const ImDrawVert& v = dl->VtxBuffer[dl->IdxBuffer[i + k]];
            lo = std::min(lo, v.pos.y), hi = std::max(hi, v.pos.y);
            glyph |= v.uv.x != white.x || v.uv.y != white.y;
        }
        if (glyph && lo < cut && hi > cut) top = std::min(top, lo);
    }
    if (top < cut) {
        top = std::floor(top) - 1.0f;  // the glyph's anti-aliased top row too
        const ImVec2 wp = ImGui::GetWindowPos(), ws = ImGui::GetWindowSize();
        dl->PushClipRect(ImVec2(wp.x, top), ImVec2(wp.x + ws.x, cut), true);  // above the strip, as the words are
        dl->AddRectFilled(ImVec2(wp.x, top), ImVec2(wp.x + ws.x, cut), background);
        dl->PopClipRect();
    }
}

}  // namespace

void RackPanel::draw_scene_scrolling() {
    // With no scrollbar, the mouse wheel reaches the words below. While they reach below the window,
    // its foot is kept for the tag, and a blank of that height ends the words so the last line
    // scrolls clear of it.
    if (std::exchange(m_scroll_top, false)) ImGui::SetScrollY(0.0f);
    const float strip = m_scene_scrolls ? more_below_strip() : 0.0f;
    const ImVec2 wp = ImGui::GetWindowPos(), ws = ImGui::GetWindowSize();
    if (strip > 0) ImGui::PushClipRect(wp, ImVec2(wp.x + ws.x, wp.y + ws.y - strip), true);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const int first_index = dl->IdxBuffer.Size;
    draw_scene();
    // Whether the words reach below the window, by this frame's words alone: ImGui's scroll range
    // is the last frame's, blank and all, and by it the strip came and went every other frame
    // (1280x720 after a send: the last line cut one frame, whole the next).
    const ImGuiWindow* w = ImGui::GetCurrentWindow();
    const float words_h = w->DC.CursorMaxPos.y - w->DC.CursorStartPos.y + 2 * ImGui::GetStyle().WindowPadding.y;
    if (strip > 0) {
        ImGui::Dummy(ImVec2(1.0f, strip));
        ImGui::PopClipRect();
        cover_cut_words(dl, first_index, wp.y + ws.y - strip, ImGui::GetColorU32(ImGuiCol_WindowBg) | IM_COL32_A_MASK);
    }
    m_scene_scrolls = words_h > w->InnerRect.GetHeight() + 0.5f;
    if (m_scene_scrolls && ImGui::GetScrollY() < ImGui::GetScrollMaxY() - 1) draw_more_below();
}

void RackPanel::draw_more_below() const {
    // A tag in the bottom corner, in the strip kept for it, says the words go on below.
    const auto& th = m_ctx.view.theme;
    const char* text = more_below_text;
    const ImVec2 ts = ImGui::CalcTextSize(text), pad = more_below_pad();
    const ImVec2 wp = ImGui::GetWindowPos(), ws = ImGui::GetWindowSize();
    const ImVec2 b(wp.x + ws.x - pad.x, wp.y + ws.y - pad.y), a(b.x - ts.x - 2 * pad.x, b.y - ts.y - 2 * pad.y);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ui::fill_opaque(m_ctx.view, dl, a, b, th.panel);
    dl->AddRect(a, b, th.text_dim);
    dl->AddText(ImVec2(a.x + pad.x, a.y + pad.y), th.text, text);
    m_ctx.items.set("more_below", ImVec4(a.x, a.y, b.x, b.y));
}

std::string RackPanel::question_key() const {
    const std::string system = std::to_string(m_system) + "/";
    if (m_mode == Mode::send)
        return "send/" + system + std::to_string(m_from) + "/" + std::to_string(m_to) + "/" +
               std::to_string(m_transfer.run.request.bytes);
    return "collective/" + system + std::string(core::collective_op_name(m_op)) + "/" + std::to_string(m_group) + "/" +
           std::to_string(m_collective.bytes);
}

void RackPanel::draw(float dt_s) {
    m_playback.advance(dt_s);
    if (!answers_hidden()) m_answered = question_key();
    // A send played to its end becomes a fact for "Explain it back" (repeats are ignored).
    if (send_finished())
        m_ctx.run_log.record(core::TransferFact{std::string(core::link_type_label(m_transfer.run.route.type)),
                                            static_cast<double>(m_transfer.run.request.bytes), m_transfer.time_s,
                                            m_transfer.relative_time});
    // The scene is laid out to fit; when a small window cannot hold the words under the drawing,
    // the mouse wheel reaches them (no scrollbar, so the width and the wrapping stay put).
    controls_beside_scene(
        m_ctx, std::string(id()), controls_width(21.0f, 0.36f), [this] { draw_controls(); },
        [this] { draw_scene_scrolling(); },
        ImGuiWindowFlags_NoScrollbar | (m_scene_scrolls ? 0 : ImGuiWindowFlags_NoScrollWithMouse),
        [this] { draw_presenter_strip(); },
        [this](ui::PlaybackRows rows) {
            if (rows != ui::PlaybackRows::buttons) ImGui::TextUnformatted("Playback");
            ui::playback_controls(m_ctx.items, m_playback, rows);
        });
    m_focus_times = false;  // N's request lasts one frame: a box not drawn in it is not taken later
}

}  // namespace m2m::lessons
