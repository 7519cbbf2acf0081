// Lesson 2's controls: the system, the mode, the GPUs and the size of a send, the collective's
// group, algorithm and size. The optional guesses before either runs: rack_predict.cpp.
#include <imgui.h>

#include <algorithm>
#include <utility>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <optional>
#include <stdexcept>

#include "lessons/rack/rack_common.hpp"
#include "lessons/rack/rack_panel.hpp"
#include "lessons/run_log.hpp"
#include "lessons/saved_state.hpp"
#include "m2m/core/engine/text.hpp"
#include "ui/theme.hpp"
#include "ui/typed_slider.hpp"
#include "ui/view.hpp"
#include "ui/widgets.hpp"

namespace m2m::lessons {

using namespace rack_detail;

// [SECTION] controls ------------------------------------------------------------------------

bool RackPanel::bytes_slider(const char* label, double& bytes, float width, double lo, double hi) {
    // The label shows the size in words; the slider moves on a log scale from lo to hi. Ctrl+click
    // types a size as the slider shows it ("16 GB", "64 MB") or as nccl-tests writes it ("64M"):
    // ImGui's own box took digits only, and "16 GB" became 16, then the smallest size.
    const std::string text = slider_text(bytes);
    float value = static_cast<float>(bytes);
    const ui::TypedSlider::Result r = m_size_box.draw(
        label, width, text, "Ctrl+click to type a size: 16 GB, 64 MB, 1e9, or 64M as nccl-tests writes it.", [&] {
            return ImGui::SliderFloat(label, &value, static_cast<float>(lo), static_cast<float>(hi), text.c_str(),
                                      ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp | ImGuiSliderFlags_NoInput);
        });
    if (r.typed) {
        const std::optional<double> typed = core::parse_bytes_text(*r.typed);
        if (!typed) {  // said under the slider; the size stays
            m_size_box.note("\"" + *r.typed + "\" is not a size: type 16 GB, 64 MB, 1e9 or 64M.", true);
            return false;
        }
        // As typed (64M: 67,108,864); past the range, the nearest end, and a line says so.
        bytes = std::clamp(std::round(*typed), lo, hi);
        m_size_box.note(*typed < lo || *typed > hi ? *r.typed + " is past the slider's " + (*typed < lo ? "smallest" : "largest") +
                                                         " size: " + slider_text(bytes) + "."
                                                   : "",
                        false);
        return true;
    }
    if (!r.moved) return false;
    m_size_box.clear_note();
    bytes = slider_bytes(value, lo, hi);
    return true;
}

std::string RackPanel::slider_text(double bytes) {
    // Under 10 KB a whole number of bytes is written out (1,024 B), so a typed size reads back as typed.
    if (bytes < 1e4 && bytes == std::floor(bytes)) return core::format_count(static_cast<std::int64_t>(bytes)) + " B";
    return core::format_bytes(bytes);
}

double RackPanel::slider_bytes(double value, double lo, double hi) {
    // A whole number (typed: 1024) is kept as it is; a dragged value gets three significant
    // figures: 1.37e6, not 1369932.5.
    const double v = std::clamp(value, lo, hi);
    if (v == std::floor(v) && v < 16777216.0) return v;  // floats hold every whole number below 2^24 exactly
    const double scale = std::pow(10.0, std::floor(std::log10(v)) - 2);
    return std::clamp(std::round(v / scale) * scale, lo, hi);
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
    // The short word where the long one is wider than the column (1024x768 at 2.0).
    const char* send_label = ui::radio_width("Send a tensor") <= ImGui::GetContentRegionAvail().x ? "Send a tensor##mode" : "Send##mode";
    bool mode_clicked = ImGui::RadioButton(send_label, &mode, 0);
    m_ctx.items.note("mode_send");
    ui::same_line_if_fits(ui::radio_width("All-reduce"));
    mode_clicked |= ImGui::RadioButton("All-reduce", &mode, 1);
    m_ctx.items.note("mode_allreduce");
    if (mode_clicked && (mode == 0) != (m_mode == Mode::send)) set_mode(mode == 0 ? Mode::send : Mode::all_reduce);
    if (m_mode == Mode::send)
        draw_send_controls();
    else
        draw_collective_controls();

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

// What a typed size came to: words that are no size (the size kept), or a size past the range.
void RackPanel::draw_size_note() { m_size_box.draw_note(m_ctx.view.theme, m_ctx.items, "size_refusal", "size_clamped"); }

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
    if (beside < ImGui::GetFontSize() * 5 ? bytes_slider("##Tensor", m_bytes, ImGui::GetContentRegionAvail().x - send_w - spacing, min_bytes, max_bytes)
                                          : bytes_slider("Tensor", m_bytes, beside, min_bytes, max_bytes))
        recompute();
    m_ctx.items.note("size_slider");
    ImGui::SameLine();
    if (ImGui::Button("Send")) send();
    m_ctx.items.note("send_button");
    draw_size_note();  // under the row: beside the slider it pushed Send off the pane
    draw_predict();
}

void RackPanel::draw_collective_controls() {
    const auto& th = m_ctx.view.theme;
    // The collective: one combo, its name in words.
    // Wide enough for its longest name ("reduce-scatter"), else under its label (1024x768 at 1.5
    // cut "all-reduce" to "all-reduc").
    float longest = 0;
    for (core::CollectiveOp op : core::all_collective_ops)
        longest = std::max(longest, ImGui::CalcTextSize(std::string(core::collective_op_label(op)).c_str()).x);
    const ui::LabelFit op_label = ui::fit_label("Collective", 0.55f, longest + ImGui::GetFrameHeight() + ImGui::GetStyle().FramePadding.x * 2);
    ImGui::SetNextItemWidth(op_label.width);
    if (ImGui::BeginCombo(op_label.label.c_str(), std::string(core::collective_op_label(m_op)).c_str())) {
        for (core::CollectiveOp op : core::all_collective_ops)
            if (ImGui::Selectable(std::string(core::collective_op_label(op)).c_str(), op == m_op) && op != m_op) set_op(op);
        ImGui::EndCombo();
    }
    m_ctx.items.note("op_combo");
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
    const ui::LabelFit data_label = ui::fit_label("Message", 0.55f);
    if (bytes_slider(data_label.label.c_str(), m_collective_bytes, data_label.width, min_collective_bytes, max_collective_bytes))
        recompute();
    m_ctx.items.note("size_slider");
    draw_size_note();
    draw_collective_choices();
    // Whenever the ring can run across nodes (where the rings' count matters), or is chosen by
    // hand: shown for NCCL's pick alone, the box told a class the answer before Run. Its note,
    // which speaks of the run, only once the ring is chosen by hand.
    const std::vector<core::CollectiveAlgorithm> offered = offered_algorithms();
    const bool ring_runs = std::find(offered.begin(), offered.end(), core::CollectiveAlgorithm::ring) != offered.end();
    if (ring_runs && (m_collective.group.nodes > 1 || m_algorithm == core::CollectiveAlgorithm::ring)) {
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
        if (m_algorithm == core::CollectiveAlgorithm::ring) ui::text_wrapped_coloured(th.text_dim, m_collective_story.rings_note);
    }
    draw_collective_predict();
}

void RackPanel::draw_collective_choices() {
    // Auto (NCCL's pick), or one algorithm: those this group and collective can run.
    ImGui::TextUnformatted("Algorithm");
    const std::vector<core::CollectiveAlgorithm> offered = offered_algorithms();
    int pick = -1;
    for (std::size_t i = 0; i < offered.size(); ++i)
        if (m_algorithm == offered[i]) pick = static_cast<int>(i);
    int chosen = pick;
    ui::same_line_if_fits(ui::radio_width("auto"));
    ImGui::RadioButton("auto", &chosen, -1);
    m_ctx.items.note("algo_auto");
    for (std::size_t i = 0; i < offered.size(); ++i) {
        // "nvls" runs the NVLS tree across nodes, and says so.
        const bool tree = offered[i] == core::CollectiveAlgorithm::nvls && m_collective.group.nodes > 1;
        const std::string label(core::collective_algorithm_label(tree ? core::CollectiveAlgorithm::nvls_tree : offered[i]));
        ui::same_line_if_fits(ui::radio_width(label.c_str()));
        ImGui::RadioButton(label.c_str(), &chosen, static_cast<int>(i));
        m_ctx.items.note("algo_" + std::string(core::collective_algorithm_name(offered[i])));
    }
    if (chosen != pick) set_algorithm(chosen < 0 ? std::nullopt : std::optional(offered[static_cast<std::size_t>(chosen)]));
}

}  // namespace m2m::lessons
