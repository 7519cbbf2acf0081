// Lesson 3's controls: the strategy and its GPU count, the pipeline's micro-batches and schedule,
// one node or two, lesson or hardware timing, the node generation, and the step's playback.
#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "lessons/split/split_panel.hpp"
#include "lessons/split/split_panel_parts.hpp"
#include "m2m/presets/presets.hpp"
#include "ui/widgets.hpp"

namespace m2m::lessons {

using namespace split_ui;

namespace {

// "DGX H100: 8x H100 SXM 80GB, ..." -> "DGX H100": the node generation, short enough for a combo.
std::string system_short_name(const core::SystemSpec& s) { return s.name.substr(0, s.name.find(':')); }

}  // namespace

void SplitPanel::draw_controls() {
    const auto& th = m_ctx.view.theme;
    static const char* const why = "A GPU's memory is fixed, and a frontier model does not fit in one. So the model is "
                                   "copied, split, or both; whatever a GPU lacks must come over the wires.";
    // On a short pane (1024x768 at 1.5: nine lines above the pinned Run) the paragraph went first
    // and the strategies were below the fold (a reviewer); there the controls come first.
    const bool short_pane = ImGui::GetContentRegionAvail().y < ImGui::GetFontSize() * 16.0f;
    if (!short_pane) {
        ui::text_wrapped_coloured(th.text, why);
        ImGui::Separator();
    }
    draw_strategy();
    draw_pipeline();
    draw_placement();
    draw_hardware();
    ImGui::Separator();
    draw_predict();
    if (short_pane) {
        ImGui::Separator();
        ui::text_wrapped_coloured(th.text, why);
    }
}

void SplitPanel::draw_strategy() {
    ImGui::TextUnformatted("Strategy");
    // Two columns when every button fits half the row; else each follows where it fits.
    const float half = ImGui::GetContentRegionAvail().x * 0.5f;
    bool columns = true;
    for (core::Strategy st : all_strategies) columns &= ui::radio_width(strategy_button(st)) + ImGui::GetStyle().ItemSpacing.x <= half;
    for (std::size_t i = 0; i < std::size(all_strategies); ++i) {
        const core::Strategy st = all_strategies[i];
        if (i % 2 && columns) ImGui::SameLine(half);
        else if (i > 0 && !columns) ui::same_line_if_fits(ui::radio_width(strategy_button(st)));
        if (ImGui::RadioButton(strategy_button(st), m_setup.strategy == st) && st != m_setup.strategy) choose_strategy(st);
        const std::string hook = "strategy_" + std::string(core::strategy_name(st));
        m_ctx.items.note(hook);
    }
    ui::text_wrapped_coloured(m_ctx.view.theme.text_dim, std::string(core::strategy_label(m_setup.strategy)));

    // Only the GPU counts this strategy splits evenly.
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("GPUs");
    for (int g : core::accepted_gpu_counts(m_setup.strategy)) {
        const std::string label = std::to_string(g) + "##gpus";
        ui::same_line_if_fits(ui::radio_width(label.c_str()));
        if (ImGui::RadioButton(label.c_str(), m_setup.gpus == g) && g != m_setup.gpus) {
            core::SplitSetup s = m_setup;
            s.gpus = g;
            const std::vector<int> mbs = core::accepted_micro_batches(s);
            if (!contains(mbs, s.micro_batches)) s.micro_batches = nearest(mbs, s.micro_batches);
            if (g < 2) s.placement = core::Placement::one_node;
            apply(s);
        }
        const std::string hook = "gpus_" + std::to_string(g);
        m_ctx.items.note(hook);
    }
}

void SplitPanel::draw_pipeline() {
    core::SplitSetup s = m_setup;
    const bool pipeline = m_result.degrees.pipeline > 1;
    ImGui::BeginDisabled(!pipeline);
    // The slider walks the accepted counts (those that split each copy's prompts evenly).
    const std::vector<int> mbs = core::accepted_micro_batches(s);
    int index = static_cast<int>(std::find(mbs.begin(), mbs.end(), s.micro_batches) - mbs.begin());
    index = std::clamp(index, 0, static_cast<int>(mbs.size()) - 1);
    char shown[32];
    std::snprintf(shown, sizeof shown, "%d", pipeline ? s.micro_batches : 1);
    const ui::LabelFit mb_label = ui::fit_label("Micro-batches", 0.45f);
    // Ctrl+click types a count; ImGui's own box would have taken the index. A count the prompts do
    // not split into goes to the nearest that they do, and a line says so.
    const ui::TypedSlider::Result r = m_micro_batches_box.draw(
        mb_label.label.c_str(), mb_label.width, shown, "Ctrl+click to type a count: the nearest that splits the prompts evenly is taken.",
        [&] {
            return ImGui::SliderInt(mb_label.label.c_str(), &index, 0, static_cast<int>(mbs.size()) - 1, shown,
                                    ImGuiSliderFlags_AlwaysClamp | ImGuiSliderFlags_NoInput);
        });
    if (r.moved) {
        s.micro_batches = mbs[static_cast<std::size_t>(index)];
        m_micro_batches_box.clear_note();
    } else if (r.typed) {
        s.micro_batches = m_micro_batches_box.take_count(
            *r.typed, mbs, s.micro_batches, " does not split the prompts a pipeline gets evenly: the nearest that does, ", "4 or 8");
    }
    m_ctx.items.note("micro_batches");
    m_micro_batches_box.draw_note(m_ctx.view.theme, m_ctx.items, "micro_batches_refusal", "micro_batches_moved");
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Schedule");
    ui::same_line_if_fits(ui::radio_width("1F1B"));
    if (ImGui::RadioButton("1F1B", s.schedule == core::PipelineSchedule::one_f_one_b))
        s.schedule = core::PipelineSchedule::one_f_one_b;
    m_ctx.items.note("schedule_1f1b");
    ui::same_line_if_fits(ui::radio_width("GPipe"));
    if (ImGui::RadioButton("GPipe", s.schedule == core::PipelineSchedule::gpipe)) s.schedule = core::PipelineSchedule::gpipe;
    m_ctx.items.note("schedule_gpipe");
    ImGui::EndDisabled();
    if (!pipeline) ui::text_wrapped_coloured(m_ctx.view.theme.text_dim, "(micro-batches: pipeline and 3D only)");
    if (s.micro_batches != m_setup.micro_batches || s.schedule != m_setup.schedule) apply(s);
}

void SplitPanel::draw_placement() {
    core::SplitSetup s = m_setup;
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Placement");
    ImGui::BeginDisabled(s.gpus < 2);
    ui::same_line_if_fits(ui::radio_width("One node"));
    if (ImGui::RadioButton("One node", s.placement == core::Placement::one_node)) s.placement = core::Placement::one_node;
    m_ctx.items.note("placement_node");
    ui::same_line_if_fits(ui::radio_width("Two nodes"));
    if (ImGui::RadioButton("Two nodes", s.placement == core::Placement::two_nodes)) s.placement = core::Placement::two_nodes;
    m_ctx.items.note("placement_nodes");
    ImGui::EndDisabled();
    if (s.placement != m_setup.placement) apply(s);

    // Lesson timing (the default) teaches what splitting buys a real model; hardware timing shows
    // this tiny network's launch-bound truth. The time sentence says which one is on.
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Timing");
    for (const core::SplitTiming t : {core::SplitTiming::lesson, core::SplitTiming::hardware}) {
        const char* label = t == core::SplitTiming::lesson ? "Lesson" : "Hardware";
        ui::same_line_if_fits(ui::radio_width(label));
        if (ImGui::RadioButton(label, s.timing == t)) s.timing = t;
        m_ctx.items.note("timing_" + std::string(core::split_timing_name(t)));
    }
    if (s.timing != m_setup.timing) apply(s);
}

void SplitPanel::draw_hardware() {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Hardware");
    // The combo beside its label when its name fits there, else on the line below.
    const float sources_w = ImGui::CalcTextSize("(sources)").x + ImGui::GetStyle().ItemSpacing.x;
    const float combo_w = ImGui::CalcTextSize(system_short_name(m_setup.hardware.system).c_str()).x + ImGui::GetFrameHeight() +
                          ImGui::GetStyle().FramePadding.x * 2;
    ui::same_line_if_fits(combo_w + sources_w);
    ImGui::SetNextItemWidth(std::min(ImGui::GetContentRegionAvail().x, std::max(combo_w, ImGui::GetContentRegionAvail().x - sources_w)));
    if (ImGui::BeginCombo("##hardware", system_short_name(m_setup.hardware.system).c_str())) {
        for (const std::string& id : presets::builtin().system_ids()) {
            const presets::SystemPreset* p = presets::builtin().find_system(id);
            const std::string name = p ? system_short_name(p->spec) : id;
            if (ImGui::Selectable(name.c_str(), id == m_system_id) && id != m_system_id) choose_hardware(id);
            if (p && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", p->spec.name.c_str());
        }
        ImGui::EndCombo();
    }
    m_ctx.items.note("hardware");
    ui::sources_marker(m_sources);
}

}  // namespace m2m::lessons
