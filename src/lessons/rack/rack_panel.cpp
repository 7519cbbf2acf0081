// Lesson 2's panel: controls on the left; on the right the two racks with the tensor (or the
// all-reduce ring) crossing their wires, the lesson's readouts, and where the time goes.
//
// [SECTION] set-up and recompute   [SECTION] frame state   [SECTION] controls   [SECTION] predict, then reveal
// [SECTION] scene   [SECTION] scenario, CSV and words   [SECTION] status
#include "lessons/rack/rack_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "lessons/run_log.hpp"
#include "lessons/saved_state.hpp"
#include "lessons/view_tabs.hpp"
#include "m2m/presets/presets.hpp"
#include "ui/theme.hpp"
#include "ui/view.hpp"
#include "ui/widgets.hpp"
#include "m2m/core/engine/text.hpp"

namespace m2m::lessons {

namespace {

// Two racks of eight 8-GPU nodes: room for a send to another rack and a 64-GPU group in one rack.
constexpr core::ClusterShape lesson_shape{8, 8, 2, 0};

// Playback pace: the send over NVLink inside a node takes this long at 1x, a slower one
// proportionally longer up to the cap, so the difference shows and everything still plays.
constexpr double nvlink_send_play_s = 1.5, send_play_cap_s = 15.0;
// The same for all-reduce: the one-node ring of the same bytes plays in 6 s, at most 30 s.
constexpr double node_ring_play_s = 6.0, ring_play_cap_s = 30.0;

const std::vector<std::string>& system_ids() {
    static const auto ids = presets::builtin().system_ids();
    return ids;
}

const presets::SystemPreset& system_preset(std::size_t i) { return *presets::builtin().find_system(system_ids()[i]); }

// "DGX H100" from "DGX H100: 8x H100 SXM 80GB, ...".
std::string short_name(const std::string& name) { return name.substr(0, name.find(':')); }

}  // namespace

// [SECTION] set-up and recompute ------------------------------------------------------------

const LessonInfo RackPanel::info = {
    "rack",
    "2 \xc2\xb7 Inside a rack",
    "Send a tensor between two GPUs: NVLink inside a node, InfiniBand between nodes, and what each hop costs.",
    "Click one GPU, then another, and press Send. Inside a node the tensor crosses NVLink through the "
    "NVSwitch; to reach another node it must leave through a NIC onto InfiniBand. Compare 1 KB with 1 GB, "
    "then switch to All-reduce and watch a ring of 64 GPUs wait for its slowest wire.",
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
        throw std::invalid_argument("a group of 8, 16 or 64 GPUs");
    m_group = gpus;
    recompute();
}

void RackPanel::set_collective_bytes(double bytes) {
    m_collective_bytes = std::clamp(bytes, min_bytes, max_bytes);
    recompute();
}

void RackPanel::set_ring_per_nic(bool on) {
    m_ring_per_nic = on;
    recompute();
}

void RackPanel::recompute() {
    m_cluster.emplace(lesson_shape, system_preset(m_system).spec);
    const core::Cluster& c = *m_cluster;
    m_transfer = core::run_transfer(c, m_from, m_to, static_cast<core::Bytes>(std::llround(m_bytes)));
    m_transfer_story = core::tell(c, m_transfer);

    core::CollectiveSetup setup;
    setup.group = core::first_gpus(m_group);
    setup.bytes = static_cast<core::Bytes>(std::llround(m_collective_bytes));
    setup.rings = m_ring_per_nic ? c.shape().gpus_per_node : 1;
    setup.choice.algorithm = core::CollectiveAlgorithm::ring;  // the ring this panel draws
    m_collective = core::run_collective(c, setup);
    m_collective_story = core::tell(c, m_collective);
    m_send_routes.clear();
    for (const core::RingSend& s : m_collective.sends) m_send_routes.push_back(c.route(s.from, s.to));

    std::vector<double> stops;
    if (m_mode == Mode::send) {
        // Step stops where the head enters each hop, when the last byte leaves, and at the end.
        const core::TransferRun& run = m_transfer.run;
        double at = 0;
        for (core::LinkId id : run.route.links) {
            stops.push_back(at);
            at += c.link(id).latency_s;
        }
        stops.push_back(run.bandwidth_s);
        stops.push_back(m_transfer.time_s);
        const double rate = std::max(m_transfer.reference_s / nvlink_send_play_s, m_transfer.time_s / send_play_cap_s);
        m_playback.set_timeline(m_transfer.time_s, std::move(stops), rate);
    } else {
        // Step stops at every step's start and where its NVLink sends are done.
        const core::CollectiveResult& r = m_collective;
        for (std::size_t k = 0; k <= r.steps; ++k) {
            stops.push_back(r.step_start_s(k));
            if (k < r.steps && m_collective_story.nvlink_sends_end_s > 0 && m_collective_story.infiniband_sends_end_s > 0)
                stops.push_back(r.wire_start_s(k) + m_collective_story.nvlink_sends_end_s);
        }
        core::CollectiveSetup node_ring = setup;
        node_ring.group = core::first_gpus(std::min(c.shape().gpus_per_node, m_group));
        node_ring.rings = 1;
        const double reference = core::run_collective(c, node_ring).time_s;
        const double rate = std::max(reference / node_ring_play_s, r.time_s / ring_play_cap_s);
        m_playback.set_timeline(r.time_s, std::move(stops), rate);
    }
    m_playback.reset();
}

// [SECTION] frame state ---------------------------------------------------------------------

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
        p.tags_inward = run.route.type == core::LinkType::infiniband;  // keep the NIC side clear for the route
        ui::paint_transfer(p, m_layout, c, run.route, cursor, bw, true);
        return p;
    }
    const core::CollectiveResult& r = m_collective;
    for (core::GpuId g : core::first_gpus(m_group)) p.gpu_mark[g] = ui::GpuMark::member;
    if (r.steps == 0) return p;
    const bool done = cursor >= r.time_s;
    const double in_step = cursor - r.step_start_s(step_at(cursor));
    for (std::size_t i = 0; i < r.sends.size(); ++i) {
        const core::RingSend& s = r.sends[i];
        const core::Route& route = m_send_routes[i];
        const double bw = std::max(0.0, (s.end_s - s.start_s) - route.latency_s);
        const double t = done ? s.end_s + 1.0 : cursor < r.base_latency_s ? 0.0 : in_step - s.start_s;
        ui::paint_transfer(p, m_layout, c, route, t, bw, r.rings == 1);
    }
    return p;
}

// [SECTION] controls ------------------------------------------------------------------------

void RackPanel::draw(float dt_s) {
    m_playback.advance(dt_s);
    // A send played to its end becomes a fact for "Explain it back" (repeats are ignored).
    if (send_finished())
        m_ctx.run_log.record(core::TransferFact{std::string(core::link_type_label(m_transfer.run.route.type)),
                                            static_cast<double>(m_transfer.run.request.bytes), m_transfer.time_s,
                                            m_transfer.relative_time});
    // The scene is laid out to fit; when a small window cannot hold the words under the drawing,
    // the mouse wheel reaches them (no scrollbar, so the width and the wrapping stay put).
    controls_beside_scene(
        m_ctx, std::string(id()), controls_width(21.0f, 0.36f), [this] { draw_controls(); },
        [this] {
            draw_scene();
            m_scene_scrolls = ImGui::GetScrollMaxY() > 0;
        },
        ImGuiWindowFlags_NoScrollbar | (m_scene_scrolls ? 0 : ImGuiWindowFlags_NoScrollWithMouse));
}

bool RackPanel::bytes_slider(const char* label, double& bytes, float width) {
    // The label shows the size in words; the slider moves on a log scale from 1 KB to 100 GB.
    const std::string text = core::format_bytes(bytes);
    float value = static_cast<float>(bytes);
    ImGui::SetNextItemWidth(width);
    if (!ImGui::SliderFloat(label, &value, static_cast<float>(min_bytes), static_cast<float>(max_bytes), text.c_str(),
                            ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp))
        return false;
    // Three significant figures: 1.37e6, not 1369932.5.
    const double v = std::clamp(static_cast<double>(value), min_bytes, max_bytes);
    const double scale = std::pow(10.0, std::floor(std::log10(v)) - 2);
    bytes = std::clamp(std::round(v / scale) * scale, min_bytes, max_bytes);
    return true;
}

void RackPanel::draw_controls() {
    const auto& th = m_ctx.view.theme;
    ui::text_wrapped_coloured(th.text,
                              "GPUs keep swapping half-finished results, so their wires matter as much as they do.");
    draw_legend();
    ImGui::Separator();

    const presets::SystemPreset& sys = system_preset(m_system);
    ImGui::TextUnformatted("System");
    // The combo beside its label when its name fits there, else on the line below.
    const float sources_w = ImGui::CalcTextSize("(sources)").x + ImGui::GetStyle().ItemSpacing.x * 2;
    const float combo_w = ImGui::CalcTextSize(short_name(sys.spec.name).c_str()).x + ImGui::GetFrameHeight() +
                          ImGui::GetStyle().FramePadding.x * 2;
    ui::same_line_if_fits(combo_w + sources_w);
    ImGui::SetNextItemWidth(std::min(ImGui::GetContentRegionAvail().x, std::max(combo_w, ImGui::GetContentRegionAvail().x - sources_w)));
    if (ImGui::BeginCombo("##system", short_name(sys.spec.name).c_str())) {
        for (std::size_t i = 0; i < system_ids().size(); ++i)
            if (ImGui::Selectable(short_name(system_preset(i).spec.name).c_str(), i == m_system) && i != m_system) {
                m_system = i;
                recompute();
            }
        ImGui::EndCombo();
    }
    m_ctx.items.note("system_combo");
    ui::sources_marker(system_preset(m_system).spec.name + "\n" + system_preset(m_system).spec.source);
    ui::text_wrapped_coloured(th.text_dim, core::nvlink_direction_note(system_preset(m_system).spec));
    ImGui::Separator();

    int mode = m_mode == Mode::send ? 0 : 1;
    bool mode_clicked = ImGui::RadioButton("Send a tensor", &mode, 0);
    m_ctx.items.note("mode_send");
    ui::same_line_if_fits(ui::radio_width("All-reduce"));
    mode_clicked |= ImGui::RadioButton("All-reduce", &mode, 1);
    m_ctx.items.note("mode_allreduce");
    if (mode_clicked && (mode == 0) != (m_mode == Mode::send)) set_mode(mode == 0 ? Mode::send : Mode::all_reduce);
    if (m_mode == Mode::send)
        draw_send_controls();
    else
        draw_collective_controls();

    ImGui::Separator();
    ImGui::TextUnformatted("Playback");
    ui::playback_controls(m_ctx.items, m_playback);
    if (m_mode == Mode::send) {
        ImGui::Separator();
        ui::text_wrapped_coloured(th.text_dim, std::string(core::link_sharing_rule()));
    }
}

void RackPanel::draw_legend() {
    // A colour key: small squares drawn like the links and the tensor in the drawing.
    const auto& th = m_ctx.view.theme;
    const float s = std::round(ImGui::GetFontSize() * 0.6f);
    const std::pair<ImU32, const char*> keys[] = {
        {th.link(core::LinkType::nvlink), "NVLink"}, {th.link(core::LinkType::infiniband), "InfiniBand"}, {th.accent, "the tensor"}};
    for (std::size_t i = 0; i < 3; ++i) {
        if (i > 0) ui::same_line_if_fits(s * 1.5f + ImGui::CalcTextSize(keys[i].second).x, ImGui::GetFontSize());
        const ImVec2 p = ImGui::GetCursorScreenPos();
        const float y = p.y + (ImGui::GetTextLineHeight() - s) * 0.5f;
        ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, y), ImVec2(p.x + s, y + s), keys[i].first);
        ImGui::Dummy(ImVec2(s, ImGui::GetTextLineHeight()));
        ImGui::SameLine(0, s * 0.5f);
        ImGui::TextUnformatted(keys[i].second);
    }
}

void RackPanel::draw_send_controls() {
    const auto& th = m_ctx.view.theme;
    const core::Cluster& c = cluster();
    ui::text_wrapped_coloured(m_picking_to ? th.accent : th.text_dim,
                              m_picking_to ? "Now click the GPU that receives it." : "Click two GPUs: the sender, then the receiver.");
    char route[96];
    std::snprintf(route, sizeof route, "GPU %u (node %u)  \xe2\x86\x92  GPU %u (node %u)", m_from, c.node_of(m_from), m_to,
                  c.node_of(m_to));
    ui::text_wrapped_coloured(th.text, route);
    // Quick picks for the receiver: one row of equal buttons, or as many rows as their words need.
    const float spacing = ImGui::GetStyle().ItemSpacing.x;
    const float w = std::floor((ImGui::GetContentRegionAvail().x - 2 * spacing) / 3);
    const std::pair<const char*, Pick> picks[] = {{"same node", Pick::same_node}, {"other node", Pick::other_node}, {"other rack", Pick::other_rack}};
    const char* names[] = {"pick_same_node", "pick_other_node", "pick_other_rack"};
    float widest = 0;
    for (const auto& p : picks) widest = std::max(widest, ui::button_width(p.first));
    for (std::size_t i = 0; i < 3; ++i) {
        if (i > 0) ui::same_line_if_fits(std::max(w, widest));
        if (ImGui::Button(picks[i].first, ImVec2(std::max(w, widest), 0))) pick(picks[i].second);
        m_ctx.items.note(names[i]);
    }
    // The tensor's size and Send on one row; on a narrow panel the label goes above the slider.
    const float send_w = ImGui::CalcTextSize("Send").x + ImGui::GetStyle().FramePadding.x * 2;
    const float beside = ImGui::GetContentRegionAvail().x - send_w - ImGui::CalcTextSize("Tensor").x - 3 * spacing;
    if (beside < ImGui::GetFontSize() * 5) ImGui::TextUnformatted("Tensor");
    if (beside < ImGui::GetFontSize() * 5 ? bytes_slider("##Tensor", m_bytes, ImGui::GetContentRegionAvail().x - send_w - spacing)
                                          : bytes_slider("Tensor", m_bytes, beside))
        recompute();
    m_ctx.items.note("size_slider");
    ImGui::SameLine();
    if (ImGui::Button("Send")) send();
    m_ctx.items.note("send_button");
    draw_predict();
}

// [SECTION] predict, then reveal ---------------------------------------------------------------

void RackPanel::draw_predict() {
    // Optional and out of the way: closed until the student opens it.
    const bool open = ImGui::TreeNode("Predict first?");
    m_ctx.items.note("rack_predict_open");
    if (!open) return;
    ImGui::TextWrapped("Before you press Send: which wire will the tensor cross?");
    int link = !m_guess.link ? 0 : *m_guess.link == core::LinkType::nvlink ? 1 : 2;
    const char* choices[] = {"no guess", "NVLink", "InfiniBand"};
    const char* hooks[] = {"guess_none", "guess_nvlink", "guess_infiniband"};
    for (int i = 0; i < 3; ++i) {
        if (i > 0) ui::same_line_if_fits(ui::radio_width(choices[i]));
        if (ImGui::RadioButton(choices[i], &link, i))
            m_guess.link = i == 0 ? std::nullopt : std::optional(i == 1 ? core::LinkType::nvlink : core::LinkType::infiniband);
        m_ctx.items.note(hooks[i]);
    }
    ImGui::TextWrapped("And how many times as long as the same send inside one node?");
    float times = static_cast<float>(m_guess.times);
    const ui::LabelFit times_label = ui::fit_label("\xc3\x97 as long##guess", 0.4f);
    ImGui::SetNextItemWidth(times_label.width);
    if (ImGui::InputFloat(times_label.label.c_str(), &times, 0, 0, times > 0 ? "%.3g" : "your guess"))
        m_guess.times = std::clamp(static_cast<double>(times), 0.0, 1e6);
    ui::label_focuses_field(times_label);
    m_ctx.items.note("guess_times");
    ImGui::TreePop();
}

core::SendReveal RackPanel::reveal() const { return core::reveal_send(m_guess, cluster(), m_transfer); }

float RackPanel::reveal_height(float wrap) const {
    if (!send_finished() || !m_guess.any()) return 0;
    float h = 0;
    for (const std::string& line : reveal().lines)
        h += ImGui::CalcTextSize(line.c_str(), nullptr, false, wrap).y + ImGui::GetStyle().ItemSpacing.y;
    return h;
}

void RackPanel::draw_reveal() {
    if (!send_finished() || !m_guess.any()) return;
    const auto& th = m_ctx.view.theme;
    const core::SendReveal r = reveal();
    for (std::size_t i = 0; i < r.lines.size(); ++i) {
        const bool link_line = r.link_guessed && i == 0;
        const bool right = link_line ? r.link_right : r.times_close;
        ui::text_wrapped_coloured(right ? th.nvlink : th.accent, r.lines[i]);
        if (i == 0) m_ctx.items.note("rack_reveal");
    }
}

void RackPanel::draw_collective_controls() {
    const auto& th = m_ctx.view.theme;
    ui::text_wrapped_coloured(th.text_dim, "Every GPU ends with the sum of all the data: around a ring, each passes a "
                                           "slice on, step after step.");
    int group = static_cast<int>(m_group);
    bool changed = false;
    for (std::uint32_t n : group_sizes) {
        char label[16], name[16];
        std::snprintf(label, sizeof label, "%u GPUs", n);
        std::snprintf(name, sizeof name, "group_%u", n);
        if (n != group_sizes[0]) ui::same_line_if_fits(ui::radio_width(label));
        changed |= ImGui::RadioButton(label, &group, static_cast<int>(n));
        m_ctx.items.note(name);
    }
    if (changed && static_cast<std::uint32_t>(group) != m_group) set_group(static_cast<std::uint32_t>(group));
    const std::uint32_t racks = m_collective.gpus > 0 ? cluster().rack_of(static_cast<core::GpuId>(m_collective.gpus - 1)) + 1 : 1;
    ImGui::TextDisabled("%u %s in %u %s", m_collective.nodes, m_collective.nodes == 1 ? "node" : "nodes", racks,
                        racks == 1 ? "rack" : "racks");
    const ui::LabelFit data_label = ui::fit_label("Data per GPU", 0.55f);
    if (bytes_slider(data_label.label.c_str(), m_collective_bytes, data_label.width)) recompute();
    m_ctx.items.note("size_slider");
    bool per_nic = m_ring_per_nic;
    // A checkbox's label cannot wrap: on a narrow panel the words go beside it as wrapped text.
    const char* rings = "one ring per NIC (what NCCL does)";
    const bool rings_fit = ui::radio_width(rings) <= ImGui::GetContentRegionAvail().x;
    if (ImGui::Checkbox(rings_fit ? rings : "##rings", &per_nic)) set_ring_per_nic(per_nic);
    m_ctx.items.note("rings_toggle");
    if (!rings_fit) {
        ImGui::SameLine(0, ImGui::GetStyle().ItemInnerSpacing.x);
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextUnformatted(rings);
        ImGui::PopTextWrapPos();
    }
    ui::text_wrapped_coloured(th.text_dim, m_collective_story.rings_note);
}

// [SECTION] scene ---------------------------------------------------------------------------

void RackPanel::draw_scene() {
    draw_readouts();
    const float fs = ImGui::GetFontSize();
    const float wrap = ImGui::GetContentRegionAvail().x;
    const std::string& verdict = m_mode == Mode::send ? m_transfer_story.verdict : m_collective_story.verdict;
    const float verdict_h = ImGui::CalcTextSize(verdict.c_str(), nullptr, false, wrap).y;
    const float spacing = ImGui::GetStyle().ItemSpacing.y;
    // The words under the drawing wrap on a narrow scene: the drawing gives up their height.
    const float send_h = time_split_height(wrap) + fs * 0.4f + fs + spacing * 2;
    const float step_h = ImGui::CalcTextSize(step_head().c_str(), nullptr, false, wrap).y + fs * 0.2f + 2 * fs * 1.3f + spacing * 3;
    const float below = (m_mode == Mode::send ? send_h : step_h) + verdict_h + spacing * 2 + reveal_height(wrap);
    draw_drawing(std::max(fs * 8.0f, ImGui::GetContentRegionAvail().y - below));
    if (m_mode == Mode::send) {
        draw_time_split();
        draw_reveal();
    } else {
        draw_step();
    }
    ui::text_wrapped_coloured(m_ctx.view.theme.text, verdict);
}

void RackPanel::draw_readouts() {
    const auto& th = m_ctx.view.theme;
    const float gap = ImGui::GetFontSize() * 1.5f;
    struct Item {
        const char* label;
        std::string value;
        ImU32 colour;
    };
    std::vector<Item> items;
    if (m_mode == Mode::send) {
        const core::TransferStory& s = m_transfer_story;
        const ImU32 link = m_ctx.view.theme.link(m_transfer.run.route.type);
        items = {{"LINK", s.link, link},
                 {"BANDWIDTH, ONE WAY", s.bandwidth, link},
                 {"RELATIVE TIME", s.relative_time, th.text},
                 {"HOPS", s.hops, th.text},
                 {"TIME", s.time, th.text}};
    } else {
        const core::CollectiveStory& s = m_collective_story;
        items = {{"TIME", s.time, th.text},
                 {"BUSBW", s.busbw, m_ctx.view.theme.link(m_collective.slowest)},
                 {"ALGBW", s.algbw, th.text},
                 {"SLOWEST LINK", s.slowest, m_ctx.view.theme.link(m_collective.slowest)},
                 {"STEPS", s.steps, th.text}};
    }
    // A readout that does not fit beside the one before wraps onto the next row: none is dropped.
    ImFont* big = ImGui::GetIO().Fonts->Fonts.Size > 1 ? ImGui::GetIO().Fonts->Fonts[1] : ImGui::GetFont();
    for (std::size_t i = 0; i < items.size(); ++i) {
        const float value_w = big->CalcTextSizeA(big->FontSize, FLT_MAX, 0.0f, items[i].value.c_str()).x;
        if (i > 0) ui::same_line_if_fits(std::max(ImGui::CalcTextSize(items[i].label).x, value_w), gap);
        ui::readout(m_ctx.view.theme, items[i].label, items[i].value, items[i].colour);
        if (i == 0) m_ctx.items.note("readout_first");
    }
}

void RackPanel::draw_drawing(float height) {
    const ImVec2 a = ImGui::GetCursorScreenPos();
    const ImVec2 b(a.x + ImGui::GetContentRegionAvail().x, a.y + height);
    m_layout = ui::layout_rack(cluster().shape(), a, b);
    const ui::RackInput in = ui::rack_buttons(m_ctx.items, m_layout, a, b);
    m_hovered = in.hovered ? static_cast<int>(*in.hovered) : -1;
    if (in.clicked && m_mode == Mode::send) click_gpu(*in.clicked);
    ui::draw_rack(m_ctx.view.theme, m_layout, cluster(), paint_at(m_playback.cursor()));
    if (in.hovered) {
        const core::Cluster& c = cluster();
        const core::GpuId g = *in.hovered;
        ImGui::BeginTooltip();
        ImGui::Text("GPU %u \xc2\xb7 node %u \xc2\xb7 rack %u", g, c.node_of(g), c.rack_of(g));
        if (m_mode == Mode::send)
            ImGui::TextDisabled("%s", m_picking_to ? (g == m_from ? "the sender" : "click: send to this GPU")
                                                   : "click: send from this GPU");
        ImGui::EndTooltip();
    }
}

std::string RackPanel::time_split_text() const {
    const core::TransferStory& s = m_transfer_story;
    return s.time + " = " + s.latency + " latency + " + s.bandwidth_time + " moving the bytes";
}

float RackPanel::time_split_height(float wrap) const {
    const std::string text = time_split_text();
    const float line = ImGui::CalcTextSize(text.c_str()).x, bound = ImGui::CalcTextSize(m_transfer_story.bound.c_str()).x;
    if (line + ImGui::GetFontSize() + bound <= wrap) return ImGui::GetTextLineHeight();
    return ImGui::CalcTextSize(text.c_str(), nullptr, false, wrap).y + ImGui::GetTextLineHeightWithSpacing();
}

std::string RackPanel::step_head() const {
    const core::CollectiveResult& r = m_collective;
    const double cursor = m_playback.cursor();
    if (r.steps == 0) return "A group of one GPU has nothing to send.";
    if (cursor <= 0) return "Press Run to go around the ring. " + core::ring_step_text(r.op, r.gpus, 0);
    if (cursor >= r.time_s) return "Done: every GPU holds the sum. " + m_collective_story.steps + " = " + m_collective_story.time;
    return core::ring_step_text(r.op, r.gpus, step_at(cursor));
}

void RackPanel::draw_time_split() {
    // One bar for the whole send: the latency part, then the bytes over the bottleneck, each as
    // wide as its share of the time (the smaller never thinner than 3 px), filled up to the cursor.
    const auto& th = m_ctx.view.theme;
    const core::TransferRun& run = m_transfer.run;
    const core::TransferStory& s = m_transfer_story;
    const float fs = ImGui::GetFontSize();
    const std::string text = time_split_text();
    ImGui::PushTextWrapPos(0.0f);  // two lines on a narrow scene rather than a cut one
    ImGui::TextUnformatted(text.c_str());
    ui::same_line_if_fits(ImGui::CalcTextSize(s.bound.c_str()).x, fs);
    ImGui::PushStyleColor(ImGuiCol_Text, s.latency_bound ? th.warning : m_ctx.view.theme.link(run.route.type));
    ImGui::TextUnformatted(s.bound.c_str());
    ImGui::PopStyleColor();
    ImGui::PopTextWrapPos();
    m_ctx.items.note("time_split");

    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float w = ImGui::GetContentRegionAvail().x, h = fs;
    const double total = std::max(m_transfer.time_s, 1e-30);
    const float lat_w = std::clamp(static_cast<float>(run.latency_s / total) * w, 3.0f, w - 3.0f);
    const ImU32 bytes_col = m_ctx.view.theme.link(run.route.type);
    dl->AddRectFilled(p, ImVec2(p.x + lat_w, p.y + h), ui::fade(th.warning, 0.35f));
    dl->AddRectFilled(ImVec2(p.x + lat_w, p.y), ImVec2(p.x + w, p.y + h), ui::fade(bytes_col, 0.35f));
    const float cur = static_cast<float>(std::clamp(m_playback.cursor() / total, 0.0, 1.0)) * w;
    dl->AddRectFilled(p, ImVec2(p.x + std::min(cur, lat_w), p.y + h), th.warning);
    if (cur > lat_w) dl->AddRectFilled(ImVec2(p.x + lat_w, p.y), ImVec2(p.x + cur, p.y + h), bytes_col);
    ImGui::Dummy(ImVec2(w, h));
}

void RackPanel::draw_step() {
    // The current ring step as a small Gantt chart: every step is alike, so this one shows how
    // long the NVLink sends and the InfiniBand sends take inside it, and who waits for whom.
    const auto& th = m_ctx.view.theme;
    const core::CollectiveResult& r = m_collective;
    const core::CollectiveStory& s = m_collective_story;
    const float fs = ImGui::GetFontSize();
    const double cursor = m_playback.cursor();
    const std::size_t k = step_at(cursor);
    if (r.steps == 0) {
        ImGui::TextUnformatted("A group of one GPU has nothing to send.");
        return;
    }
    ui::text_wrapped_coloured(th.text, step_head());
    m_ctx.items.note("step_text");
    const double in_step = cursor <= r.base_latency_s ? 0.0 : cursor >= r.time_s ? r.step_s : cursor - r.step_start_s(k);

    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float label_w = ImGui::CalcTextSize("InfiniBand sends ").x;
    const float value_w = ImGui::CalcTextSize(" 000.0 ms").x;
    const float w = std::max(fs * 4, ImGui::GetContentRegionAvail().x - label_w - value_w);
    const float h = fs * 1.1f;
    struct Row {
        const char* label;
        double end_s;
        ImU32 colour;
    };
    const Row rows[] = {{"NVLink sends", s.nvlink_sends_end_s, th.link(core::LinkType::nvlink)},
                        {"InfiniBand sends", s.infiniband_sends_end_s, th.link(core::LinkType::infiniband)}};
    for (const Row& row : rows) {
        const ImVec2 p = ImGui::GetCursorScreenPos();
        dl->AddText(ImVec2(p.x, p.y + (h - fs) * 0.5f), row.end_s > 0 ? th.text : th.text_dim, row.label);
        const ImVec2 a(p.x + label_w, p.y), b(a.x + w, p.y + h);
        ui::fill_opaque(m_ctx.view, dl, a, b, th.panel);
        if (row.end_s > 0 && r.step_s > 0) {
            const float end_x = a.x + w * static_cast<float>(std::min(row.end_s / r.step_s, 1.0));
            const float cur_x = a.x + w * static_cast<float>(std::clamp(std::min(in_step, row.end_s) / r.step_s, 0.0, 1.0));
            dl->AddRectFilled(a, ImVec2(end_x, b.y), ui::fade(row.colour, 0.35f));
            dl->AddRectFilled(a, ImVec2(cur_x, b.y), row.colour);
            const std::string t = core::format_seconds(row.end_s);
            dl->AddText(ImVec2(b.x + 6, p.y + (h - fs) * 0.5f), th.text, t.c_str());
        } else {
            dl->AddText(ImVec2(b.x + 6, p.y + (h - fs) * 0.5f), th.text_dim, "none");
        }
        const float cursor_x = a.x + w * static_cast<float>(std::clamp(in_step / std::max(r.step_s, 1e-30), 0.0, 1.0));
        dl->AddRectFilled(ImVec2(cursor_x - 1, a.y - 2), ImVec2(cursor_x + 1, b.y + 2), th.text);
        ImGui::Dummy(ImVec2(label_w + w + value_w, h));
    }
}

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
    auto size = [&](const char* key, double& out) {
        double v = out;
        in.number(key, v);
        if (!(v >= min_bytes && v <= max_bytes))
            in.fail(SavedState::quoted(key) + " must be a number of bytes from 1e3 (1 KB) to 1e11 (100 GB)");
        out = v;
    };
    double bytes = m_bytes, collective_bytes = m_collective_bytes;
    size("bytes", bytes);
    size("collective_bytes", collective_bytes);
    std::uint32_t group = m_group;
    if (in.has("group")) {
        const auto& g = in.at("group");
        if (!g.is_number_integer() || std::find(std::begin(group_sizes), std::end(group_sizes), g.get<std::int64_t>()) == std::end(group_sizes))
            in.fail("\"group\" must be 8, 16 or 64");
        group = static_cast<std::uint32_t>(g.get<std::int64_t>());
    }
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
    recompute();
    m_playback.set_speed(speed);
}

std::string RackPanel::timeline_csv() const {
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
            return buf + std::string(guess);
        }
    } else {
        std::snprintf(buf, sizeof buf,
                      "lesson=rack mode=allreduce hardware=%s gpus=%u rings=%u bytes=%.0f link=%s step=%zu/%zu "
                      "busbw_GBps=%.4g playing=%d cursor=%.6g",
                      hw.c_str(), m_group, m_collective.rings, m_collective_bytes,
                      std::string(core::link_type_name(m_collective.slowest)).c_str(), step_at(m_playback.cursor()) + 1,
                      m_collective.steps, m_collective.busbw_GBps, m_playback.playing() ? 1 : 0, m_playback.cursor());
    }
    return buf;
}

}  // namespace m2m::lessons
