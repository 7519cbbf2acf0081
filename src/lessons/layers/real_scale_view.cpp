// Lesson 1's "Real scale" tab: a frontier model's training time on one CPU, one GPU and a cluster.
// The core tells every figure and sentence (tell_real_scale: the one-chip rows are Lesson 1's own
// model of the two chips, the cluster row the estimator's); this file picks the settings, keeps
// the story and draws it (its predict, then reveal: real_scale_predict.cpp).
//
// [SECTION] settings and recompute   [SECTION] tab and controls   [SECTION] state
// The scene (the bars on their time axis, the answer, how each row is counted): real_scale_scene.cpp.
#include "lessons/layers/real_scale_view.hpp"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "m2m/core/engine/units.hpp"
#include "lessons/saved_state.hpp"
#include "m2m/presets/models.hpp"
#include "ui/theme.hpp"
#include "ui/view.hpp"
#include "ui/widgets.hpp"
#include "m2m/core/engine/text.hpp"

namespace m2m::lessons {

namespace {

const std::vector<std::string>& cpu_ids() {
    static const auto ids = presets::builtin().ids(core::ResourceKind::cpu_core);
    return ids;
}

// Axis marks a person reads without arithmetic: calendar units, then decades of years.
std::vector<std::pair<double, std::string>> calendar_marks() {
    const double year = 365.25 * 86400;
    std::vector<std::pair<double, std::string>> marks = {
        {1e-3, "1 ms"}, {1, "1 second"}, {60, "1 minute"}, {3600, "1 hour"}, {86400, "1 day"}, {30.44 * 86400, "1 month"},
        {year, "1 year"}, {10 * year, "10 years"}, {100 * year, "100 years"}, {1e3 * year, "1,000 years"},
        {1e4 * year, "10,000 years"}, {1e5 * year, "100,000 years"}, {1e6 * year, "1 million years"},
        {1e7 * year, "10 million years"}, {1e8 * year, "100 million years"}, {1e9 * year, "1 billion years"}};
    return marks;
}

// Token counts a teacher may want, each with where it comes from.
struct TokenPick {
    const char* label;
    double tokens;  ///< 0: 20 per parameter
    const char* source;
};
constexpr TokenPick token_picks[] = {
    {"300B (GPT-3)", 300e9, "GPT-3 175B was trained on 300 billion tokens (Brown et al. 2020, sec. 2.2 and Table D.1)."},
    {"15.6T (Llama 3)", 15.6e12, "Llama 3 405B was pre-trained on 15.6 trillion tokens (Llama 3 Herd of Models, 2024, sec. 1)."},
    {"20 per parameter", 0,
     "About 20 tokens per parameter is the compute-optimal amount found by Hoffmann et al. 2022 (Chinchilla)."},
};

// A chip's figures and its measured share of peak, with where each is from.
std::string sources_of(const core::ComputeSpec& spec) {
    return spec.source + "Sustained share of peak: " + core::format_fixed(spec.efficiency.fraction, 2) + " (" +
           spec.efficiency.source + ")";
}

}  // namespace

// [SECTION] settings and recompute ----------------------------------------------------------

// Nothing is computed until the tab is first shown (or apply() is called): the layout search
// behind the cluster row would otherwise add to every start of the app.
RealScaleView::RealScaleView() { m_edit_billions = m_settings.tokens / 1e9; }

void RealScaleView::apply(const Settings& s) {
    auto fail = [](const std::string& why) { throw std::invalid_argument(why); };
    const presets::ModelPreset* model = presets::builtin_models().find(s.model);
    if (!model) fail("model: unknown model '" + s.model + "' (accepted: " + presets::joined_model_ids() + ")");
    const presets::ComputePreset* cpu = presets::builtin().find(s.cpu);
    if (!cpu || cpu->spec.kind != core::ResourceKind::cpu_core)
        fail("cpu: unknown CPU '" + s.cpu + "' (accepted: " + presets::joined_ids(core::ResourceKind::cpu_core) + ")");
    auto cluster = presets::estimator_setup(model->shape, s.gpu);
    if (!cluster || presets::resolve_gpu_id(s.gpu) != s.gpu)
        fail("gpu: unknown GPU '" + s.gpu + "' (accepted: " + presets::joined_estimator_gpu_ids() + ")");
    if (!(s.tokens >= min_tokens && s.tokens <= max_tokens)) fail("tokens: must be a number from 1e6 to 1e15");
    if (s.cluster_gpus < min_cluster_gpus || s.cluster_gpus > max_cluster_gpus || (s.cluster_gpus & (s.cluster_gpus - 1)) != 0)
        fail("cluster_gpus: must be a power of two from " + core::format_count(min_cluster_gpus) + " to " +
             core::format_count(max_cluster_gpus));

    // The one-chip rows are Lesson 1's model of these two chips, the cluster row the estimator's
    // fastest layout that fits on about 4.2 million tokens a step: the core tells all three.
    core::RealScaleInputs in;
    in.model = model->shape;
    in.cpu = cpu->spec;
    in.gpu = presets::builtin().find(s.gpu)->spec;
    in.cluster = std::move(*cluster);
    in.tokens = s.tokens;
    in.cluster_gpus = s.cluster_gpus;
    in.tokens_per_step = tokens_per_step;
    core::RealScaleStory story = core::tell_real_scale(in);

    // Everything computed: only now change the view.
    m_settings = s;
    m_story = std::move(story);
    ++m_computations;
    m_cpu_sources = sources_of(in.cpu);
    const core::GpuSpec& gpu = m_story.cluster_setup.gpu;
    m_gpu_sources = in.gpu.source + "Sustained share of peak: " + core::format_fixed(gpu.achievable_fraction, 2) + " (" +
                    gpu.achievable_source + ")";
    m_parameters_text = core::format_count(m_story.parameters) + " parameters";
    m_model_sources.clear();
    for (const auto& f : model->figures) m_model_sources += f.label + ": " + f.value + " (" + f.source + ")\n";
    m_model_sources += "Parameters counted from this shape: " + core::format_count(m_story.parameters);
    set_axis();
    reset_question();
}

// The log axis: from one second to 1,000 years, or further right to the mark at or above the
// slowest row (the CPU's) when that is longer. Neither end follows the asked row: taken from the
// rows' times, the ends gave the answer away before Run (reviewers: "1 hour" at the left end for
// GPT-2 small on 16 GPUs said "under a day"; "1 day" at the right end for 1 billion tokens said it
// too). Past 1,000 years the right end says only that the CPU takes longer, which no one asks.
void RealScaleView::set_axis() {
    double hi = 0;
    for (const core::RealScaleRow& r : m_story.rows)
        if (r.shown) hi = std::max(hi, r.seconds);
    const auto marks = calendar_marks();
    const double thousand_years = 1e3 * 365.25 * 86400;
    const double reach = std::max(hi, thousand_years);
    m_axis_lo = 1;
    m_axis_hi = reach;
    for (auto it = marks.rbegin(); it != marks.rend(); ++it)  // the smallest mark at or above it
        if (it->first >= reach * (1 - 1e-12)) m_axis_hi = it->first;
    m_ticks.clear();
    for (const auto& [sec, label] : marks)
        if (sec >= m_axis_lo && sec <= m_axis_hi) m_ticks.push_back({sec, label});
}

// [SECTION] tab and controls ----------------------------------------------------------------

bool RealScaleView::draw(Context& ctx) {
    if (!m_tab.draw(ctx)) return false;
    if (m_computations == 0) apply(m_settings);  // first shown: ask the core once
    m_started |= !answers_hidden();
    controls_beside_scene(
        ctx, "real_scale", controls_width(21.0f, 0.36f), [&] { draw_controls(ctx); }, [&] { draw_scene(ctx); },
        ImGuiWindowFlags_AlwaysUseWindowPadding, [&] { draw_presenter_strip(ctx); },
        [&](ui::PlaybackRows rows) {
            if (rows != ui::PlaybackRows::buttons) ImGui::TextUnformatted("Playback");
            ui::playback_controls(ctx.items, m_playback, rows);
        });
    m_open_predict = false;  // G's request lasts one frame
    return true;
}

void RealScaleView::draw_controls(Context& ctx) {
    const auto& th = ctx.view.theme;
    static const std::string intro =
        "The network on the first tab has a few dozen parameters. A frontier model has hundreds of billions, and "
        "learns from hundreds of billions of tokens or more. Here is how long training it takes on one chip, and on a "
        "cluster.";
    m_wrap.text(th.text, intro);
    ImGui::Separator();
    Settings s = m_settings;
    const PresetRow row = preset_row();
    const ui::Beside sources = row.sources_beside ? ui::Beside::yes : ui::Beside::no;
    ImGui::TextUnformatted("Model");
    bool changed = model_combo("##model", row.combo_width, s.model);
    ctx.items.note("real_scale_model");
    ui::sources_marker(m_model_sources, sources);
    m_wrap.text(th.text_dim, m_parameters_text);
    changed |= draw_tokens(ctx, s);
    ImGui::Separator();
    static const std::string cpu_label = "One CPU", gpu_label = "One GPU (and the cluster's)";
    m_wrap.text(th.text, cpu_label);
    changed |= preset_combo("##One CPU", row.combo_width, cpu_ids(), s.cpu);
    ui::sources_marker(m_cpu_sources, sources);
    m_wrap.text(th.text, gpu_label);
    changed |= preset_combo("##One GPU (and the cluster's)", row.combo_width, presets::estimator_gpu_ids(), s.gpu);
    ui::sources_marker(m_gpu_sources, sources);
    changed |= draw_cluster_size(ctx, s);
    ImGui::Separator();
    draw_predict(ctx);
    if (changed) apply(s);  // every value offered here is accepted
}

bool RealScaleView::draw_tokens(Context& ctx, Settings& s) {
    static const std::string tokens_label = "Training tokens, billions";
    m_wrap.text(ctx.view.theme.text, tokens_label);
    bool changed = tokens_box("##tokens", ImGui::GetContentRegionAvail().x * 0.45f, m_edit_billions, s.tokens, min_tokens,
                              max_tokens);
    ctx.items.note("real_scale_tokens");
    const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
    for (std::size_t i = 0; i < std::size(token_picks); ++i) {
        const TokenPick& p = token_picks[i];
        const float w = ImGui::CalcTextSize(p.label).x + ImGui::GetStyle().FramePadding.x * 2;
        if (i > 0 && ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + w <= right) ImGui::SameLine();
        if (ImGui::SmallButton(p.label)) {
            s.tokens = std::clamp(p.tokens > 0 ? p.tokens : 20.0 * static_cast<double>(m_story.parameters), min_tokens, max_tokens);
            changed = true;
        }
        if (ImGui::IsItemHovered()) ui::tooltip_wrapped(p.source, 30);
    }
    return changed;
}

bool RealScaleView::draw_cluster_size(Context& ctx, Settings& s) {
    ImGui::TextUnformatted("GPUs in the cluster");
    // While dragged, the slider's own value; ImGui reports the release a frame after the last move,
    // when a value rebuilt from the setting would have forgotten where the drag ended.
    int exponent = m_drag_exponent >= 0 ? m_drag_exponent : static_cast<int>(std::lround(std::log2(s.cluster_gpus)));
    const int lo = static_cast<int>(std::lround(std::log2(min_cluster_gpus)));
    const int hi = static_cast<int>(std::lround(std::log2(max_cluster_gpus)));
    const std::string shown = core::format_count(s.cluster_gpus);
    // Ctrl+click types a count; ImGui's own box would have taken the exponent.
    const ui::TypedSlider::Result r =
        m_gpus_box.draw("##cluster_gpus", ImGui::GetContentRegionAvail().x * 0.6f, shown,
                        "Ctrl+click to type a count: the nearest power of two is taken.", [&] {
                            return ImGui::SliderInt("##cluster_gpus", &exponent, lo, hi, shown.c_str(),
                                                    ImGuiSliderFlags_AlwaysClamp | ImGuiSliderFlags_NoInput);
                        });
    ctx.items.note("real_scale_gpus");
    const int was = s.cluster_gpus;
    if (r.typed) {
        s.cluster_gpus = typed_cluster_gpus(*r.typed, s.cluster_gpus);
    } else if (!r.box) {
        // The layout search behind the cluster row takes up to a few tenths of a second: run it
        // when the slider is let go, not on every frame of the drag.
        const int dragged = 1 << std::clamp(exponent, lo, hi);
        if (ImGui::IsItemActive()) m_drag_exponent = exponent;
        if (r.moved) m_gpus_box.clear_note();
        if (ImGui::IsItemDeactivated()) {
            m_drag_exponent = -1;
            s.cluster_gpus = dragged;
        } else if (ImGui::IsItemActive() && dragged != s.cluster_gpus) {
            ImGui::SameLine();
            ImGui::TextDisabled("%s on release", core::format_count(dragged).c_str());
        }
    }
    m_gpus_box.draw_note(ctx.view.theme, ctx.items, "real_scale_gpus_refusal", "real_scale_gpus_moved");
    return s.cluster_gpus != was;
}

int RealScaleView::typed_cluster_gpus(const std::string& typed, int was) {
    // The slider's counts double from 8 to 16,384: a typed count goes to the nearest of them (3,000
    // to 2,048), and a line says where it went.
    std::vector<int> counts;
    for (int g = min_cluster_gpus; g <= max_cluster_gpus; g *= 2) counts.push_back(g);
    return m_gpus_box.take_count(typed, counts, was, " GPUs: the slider's counts double, so the nearest, ", "2048 or 2,048");
}

// [SECTION] state ---------------------------------------------------------------------------

std::string RealScaleView::guess_token() const {
    if (!m_guess) return "none";
    std::string out(core::duration_guess_label(*m_guess));
    std::replace(out.begin(), out.end(), ' ', '_');  // one word in a status line: "under_a_day"
    return out;
}

std::string RealScaleView::status() const {
    if (m_computations == 0) return "real_scale open=" + std::to_string(is_open() ? 1 : 0) + " computed=0";
    char buf[480];
    const auto& r = m_story.rows;
    char cluster[32] = "none";
    if (r[2].shown) std::snprintf(cluster, sizeof cluster, "%.6g", r[2].seconds);
    std::snprintf(buf, sizeof buf,
                  "real_scale open=%d model=%s cpu=%s gpu=%s tokens=%.6g cluster_gpus=%d cpu_s=%.6g gpu_s=%.6g cluster_s=%s "
                  "mfu=%.4g factor=%.6g guess=%s locked=%d revealed=%d",
                  is_open() ? 1 : 0, m_settings.model.c_str(), m_settings.cpu.c_str(), m_settings.gpu.c_str(), m_settings.tokens,
                  m_settings.cluster_gpus, r[0].seconds, r[1].seconds, cluster,
                  m_story.cluster_layout ? m_story.cluster_layout->mfu : 0.0, m_story.lesson1_speedup,
                  guess_token().c_str(), guess_locked() ? 1 : 0,
                  revealed() ? 1 : 0);
    return buf;
}

nlohmann::json RealScaleView::save_state() const {
    return {{"model", m_settings.model},   {"cpu", m_settings.cpu},
            {"gpu", m_settings.gpu},       {"tokens", m_settings.tokens},
            {"cluster_gpus", m_settings.cluster_gpus}, {"open", m_tab.open_or_opening()}};
}

void RealScaleView::load_state(const nlohmann::json& j, const std::string& where) {
    const SavedState in(j, where);
    Settings s = m_settings;
    in.text("model", s.model);
    in.text("cpu", s.cpu);
    in.text("gpu", s.gpu);
    in.number("tokens", s.tokens);
    in.whole("cluster_gpus", s.cluster_gpus, min_cluster_gpus, max_cluster_gpus);  // apply() asks for a power of two
    apply_then_open(in, m_tab, [&] { apply(s); });
}

}  // namespace m2m::lessons
