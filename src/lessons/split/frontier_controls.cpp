// Lesson 3's "Frontier scale" tab, its controls: the model, the GPU, the cluster's size and the
// layout (TP, CP, PP, DP, micro-batch, schedule, recompute, attention, ZeRO, overlap). A change
// asks the core again through apply(); the scene is drawn in frontier_scene.cpp.
//
// [SECTION] helpers   [SECTION] tab and controls
#include "lessons/split/frontier_view.hpp"

#include <imgui.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <initializer_list>
#include <utility>

#include "m2m/presets/models.hpp"
#include "ui/view.hpp"
#include "ui/widgets.hpp"

namespace m2m::lessons {

// [SECTION] helpers -------------------------------------------------------------------------

namespace {

int clamp_whole(int v) { return std::clamp(v, 1, FrontierView::max_whole); }

// A whole-number box with its - and + buttons: 40% of the pane, and never less than the two
// buttons and room for three digits (at 1024x768 and 1.5x 40% left the number one digit wide).
float stepper_width() {
    const ImGuiStyle& st = ImGui::GetStyle();
    const float buttons = 2.0f * (ImGui::GetFrameHeight() + st.ItemInnerSpacing.x);
    return std::max(ImGui::GetContentRegionAvail().x * 0.4f, buttons + ImGui::GetFontSize() * 2.0f);
}

// A new GPU count, TP, CP or PP keeps TP x CP x PP x DP equal to the GPUs when it divides them evenly.
void fit_dp(core::Layout& l) {
    const std::int64_t tp_pp = static_cast<std::int64_t>(l.tp) * l.cp * l.pp;
    if (tp_pp > 0 && l.gpus % tp_pp == 0) l.dp = static_cast<int>(l.gpus / tp_pp);
}
int as_int(std::int64_t v) { return static_cast<int>(std::clamp<std::int64_t>(v, INT_MIN, INT_MAX)); }

// A row of radio buttons that wraps when the column is narrow; true when the value changed.
template <class T>
bool radio_row(const char* title, T& value, std::initializer_list<std::pair<const char*, T>> options) {
    bool changed = false;
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(title);
    const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
    for (const auto& [label, v] : options) {
        // Beside the item before when it fits, else on a new line (SameLine then NewLine would
        // stretch the window's content past its edge).
        const float w = ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label).x;
        if (ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + w <= right) ImGui::SameLine();
        const std::string id = std::string(label) + "##" + title;
        if (ImGui::RadioButton(id.c_str(), value == v) && value != v) {
            value = v;
            changed = true;
        }
    }
    return changed;
}

}  // namespace

// [SECTION] tab and controls ----------------------------------------------------------------

bool FrontierView::draw(Context& ctx) {
    if (!m_tab.draw(ctx)) return false;
    if (m_coloured_for != ctx.view.theme.kind) recolour(ctx.view.theme);
    controls_beside_scene(ctx, "frontier", controls_width(20.0f, 0.3f), [&] { draw_controls(ctx); },
                          [&] { draw_scene(ctx); });
    return true;
}

void FrontierView::draw_controls(Context& ctx) {
    const auto& th = ctx.view.theme;
    static const std::string intro = "A real model on real GPUs. Will it fit? Then split it and time one training step.";
    m_wrap.text(th.text, intro);
    ImGui::Separator();
    Settings s = m_settings;
    const PresetRow row = preset_row();
    const ui::Beside sources = row.sources_beside ? ui::Beside::yes : ui::Beside::no;
    bool changed = model_combo("##frontier_model", row.combo_width, s.model);
    ctx.items.note("frontier_model");
    ui::sources_marker(m_model_sources, sources);
    changed |= preset_combo("##frontier_gpu", row.combo_width, presets::estimator_gpu_ids(), s.gpu);
    ctx.items.note("frontier_gpu");
    ui::sources_marker(m_gpu_sources, sources);
    changed |= draw_sizes(ctx, s);
    ImGui::Separator();
    draw_layout_controls(ctx, s, changed);
    if (changed) apply(s);  // every value offered here is accepted (a refused layout is explained)
    if (problem()) m_wrap.text(th.warning, m_story.problem_text);
}

bool FrontierView::draw_sizes(Context& ctx, Settings& s) {
    // Typed numbers take effect when the box is left, so a half-typed "15" never runs.
    core::Layout& l = s.layout;
    const float input_w = ImGui::GetContentRegionAvail().x * 0.4f;
    bool changed = false;
    ImGui::TextUnformatted("GPUs");
    ImGui::SetNextItemWidth(input_w);
    ImGui::InputInt("##frontier_gpus", &m_edit_gpus, 0, 0);
    int gpus = ImGui::IsItemDeactivatedAfterEdit() ? m_edit_gpus : l.gpus;
    if (!ImGui::IsItemActive()) m_edit_gpus = l.gpus;
    ctx.items.note("frontier_gpus");
    ImGui::SameLine();
    if (ImGui::SmallButton("\xc3\xb7" "2")) gpus = std::max(1, l.gpus / 2);
    ImGui::SameLine();
    if (ImGui::SmallButton("\xc3\x97" "2")) gpus = static_cast<int>(std::min<std::int64_t>(std::int64_t{l.gpus} * 2, core::max_cluster_gpus));
    gpus = std::clamp(gpus, 1, static_cast<int>(core::max_cluster_gpus));
    if (gpus != l.gpus) {
        l.gpus = gpus;
        fit_dp(l);
        changed = true;
    }
    static const std::string batch_label = "Sequences a step", tokens_label = "Training tokens, billions";
    m_wrap.text(ctx.view.theme.text, batch_label);
    ImGui::SetNextItemWidth(input_w);
    ImGui::InputInt("##frontier_batch", &m_edit_batch, 0, 0);
    if (ImGui::IsItemDeactivatedAfterEdit() && clamp_whole(m_edit_batch) != l.global_batch) {
        l.global_batch = clamp_whole(m_edit_batch);
        changed = true;
    }
    if (!ImGui::IsItemActive()) m_edit_batch = as_int(l.global_batch);
    ctx.items.note("frontier_batch");
    m_wrap.text(ctx.view.theme.text, tokens_label);
    changed |= tokens_box("##frontier_tokens", input_w, m_edit_billions, s.tokens, min_tokens, max_tokens);
    return changed;
}

void FrontierView::draw_layout_controls(Context& ctx, Settings& s, bool& changed) {
    core::Layout& l = s.layout;
    const float input_w = stepper_width();
    ImGui::TextUnformatted("Layout");
    ImGui::SameLine();
    ImGui::TextDisabled("(?)");
    if (ImGui::IsItemHovered())
        ui::tooltip_wrapped("Tensor parallel (TP) splits every layer's matrices across GPUs of one node; pipeline "
                            "parallel (PP) gives consecutive layers to different GPUs; data parallel (DP) copies the "
                            "result, each copy on its share of the batch; a micro-batch (MB) is the sequences one "
                            "pipeline pass carries. Changing TP or PP keeps the GPU count when it divides evenly.",
                            30);
    if (radio_row<int>("TP", l.tp, {{"1", 1}, {"2", 2}, {"4", 4}, {"8", 8}})) {
        fit_dp(l);
        changed = true;
    }
    auto whole = [&](const char* label, int value, int& out, bool keep_gpus) {
        ImGui::SetNextItemWidth(input_w);
        if (ImGui::InputInt(label, &value) && clamp_whole(value) != out) {
            out = clamp_whole(value);
            if (keep_gpus) fit_dp(l);
            changed = true;
        }
    };
    whole("PP", l.pp, l.pp, true);
    ctx.items.note("frontier_pp");
    whole("DP", l.dp, l.dp, false);
    ctx.items.note("frontier_dp");
    m_wrap.text(ctx.view.theme.text_dim, m_story.product_text);
    int mb = as_int(l.micro_batch);
    ImGui::SetNextItemWidth(input_w);
    if (ImGui::InputInt("MB", &mb) && clamp_whole(mb) != l.micro_batch) {
        l.micro_batch = clamp_whole(mb);
        changed = true;
    }
    ctx.items.note("frontier_micro_batch");

    changed |= radio_row<core::ScheduleKind>("Schedule", l.schedule,
                                             {{"1F1B", core::ScheduleKind::one_f_one_b},
                                              {"GPipe", core::ScheduleKind::gpipe},
                                              {"interleaved", core::ScheduleKind::interleaved}});
    if (l.schedule == core::ScheduleKind::interleaved) whole("chunks", l.chunks, l.chunks, false);
    changed |= radio_row<core::Recompute>(
        "Recompute", l.recompute,
        {{"none", core::Recompute::none}, {"selective", core::Recompute::selective}, {"full", core::Recompute::full}});
    changed |= radio_row<core::AttentionKernel>(
        "Attention", l.attention, {{"standard", core::AttentionKernel::standard}, {"flash", core::AttentionKernel::flash}});
    draw_sharding_controls(ctx, l, changed);
}

// ZeRO, context and expert parallelism, overlap: the dimensions of today's largest runs.
void FrontierView::draw_sharding_controls(Context& ctx, core::Layout& l, bool& changed) {
    const float input_w = stepper_width();
    changed |= radio_row<int>("ZeRO", l.zero_stage, {{"0", 0}, {"1", 1}, {"2", 2}, {"3", 3}});
    ctx.items.note("frontier_zero");
    static const std::string zero = "ZeRO-1 splits the Adam state over the DP copies, ZeRO-2 the gradients too, ZeRO-3 (FSDP) the "
                                    "weights too: each layer is gathered just before it runs.";
    m_wrap.text(ctx.view.theme.text_dim, zero);
    if (l.zero_stage > 0) {
        changed |= ImGui::Checkbox("Hybrid shard", &l.hybrid_shard);
        if (ImGui::IsItemHovered()) ui::tooltip_wrapped("Shard inside a node only and keep a copy per node.", 30);
        ctx.items.note("frontier_hybrid");
    }
    const auto whole = [&](const char* label, int& out, bool keep_gpus) {
        int value = out;
        ImGui::SetNextItemWidth(input_w);
        if (ImGui::InputInt(label, &value) && clamp_whole(value) != out) {
            out = clamp_whole(value);
            if (keep_gpus) fit_dp(l);
            changed = true;
        }
    };
    whole("CP", l.cp, true);
    ctx.items.note("frontier_cp");
    if (m_story.setup.model.moe()) {
        whole("EP", l.ep, false);
        ctx.items.note("frontier_ep");
    }
    if (l.pp > 1 && l.recompute != core::Recompute::full) {
        changed |= ImGui::Checkbox("Free inputs", &l.free_stage_inputs);
        if (ImGui::IsItemHovered())
            ui::tooltip_wrapped("Each pipeline chunk lets go of the input it received once its first norm has read "
                                "it, as Meta did to train Llama 3 405B without recomputing. Megatron keeps it.",
                                30);
        ctx.items.note("frontier_free_inputs");
    }
    changed |= ImGui::Checkbox("Overlap", &l.overlap);
    ctx.items.note("frontier_overlap");
    if (ImGui::IsItemHovered())
        ui::tooltip_wrapped("On: the gradient sync runs in buckets during the backward pass, FSDP gathers the next layer "
                            "while this one computes, pipeline sends travel beside the next pass. Off: each waits for "
                            "compute and compute waits for it.",
                            30);
    // Beside Overlap where the column has room (a projector's narrow column puts it below).
    const ImGuiStyle& style = ImGui::GetStyle();
    const float fp32_w = ImGui::GetFrameHeight() + style.ItemInnerSpacing.x + ImGui::CalcTextSize("fp32 grads").x;
    ImGui::SameLine();
    if (ImGui::GetContentRegionAvail().x < fp32_w) ImGui::NewLine();
    changed |= ImGui::Checkbox("fp32 grads", &l.fp32_gradients);
    ctx.items.note("frontier_fp32_gradients");
    if (ImGui::IsItemHovered())
        ui::tooltip_wrapped("Gradients added up and sent in fp32, 4 bytes each: what Megatron-LM and PyTorch FSDP do "
                            "for bf16 training by default. Off: 2 bytes, as the ZeRO paper counts them.",
                            30);
}

}  // namespace m2m::lessons
