// Lesson 1's panel: its set-up, its controls (left of the scene, which layer_run_scene.cpp draws),
// its frame state, saved state and status.
//
// [SECTION] set-up and recompute   [SECTION] drawing
// [SECTION] scenario, CSV and words   [SECTION] status
#include "lessons/layers/layer_run_panel.hpp"

#include "lessons/layers/roofline_view.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <iterator>

#include "lessons/run_log.hpp"
#include "lessons/saved_state.hpp"
#include "m2m/presets/presets.hpp"
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
const std::vector<std::string>& gpu_ids() {
    static const auto ids = presets::builtin().ids(core::ResourceKind::gpu_core);
    return ids;
}

std::vector<std::pair<core::SimTime, core::SimTime>> layer_spans(const core::MachineRun& m,
                                                                 const std::vector<int>& widths) {
    std::vector<std::pair<core::SimTime, core::SimTime>> spans;
    for (std::size_t l = 0; l < m.layer_first_task.size(); ++l) {
        core::SimTime s = INT64_MAX, e = 0;
        for (int i = 0; i < widths[l + 1]; ++i) {
            const auto& r = m.timeline.runs[m.layer_first_task[l] + static_cast<core::TaskId>(i)];
            s = std::min(s, r.start);
            e = std::max(e, r.end);
        }
        spans.emplace_back(s, e);
    }
    return spans;
}

}  // namespace

// [SECTION] set-up and recompute ------------------------------------------------------------

const LessonInfo LayerRunPanel::info = {
    "layers",
    "1 \xc2\xb7 Layer by layer",
    "The same network on a CPU and a GPU: neuron by neuron, or a whole layer at once.",
    "A neuron is one dot product over the layer before it, and no neuron in a layer needs another's "
    "answer. Press Run and watch the CPU take the neurons one at a time (a few, with more cores) while "
    "the GPU lights a whole layer at once. Then widen the layers, or switch to Hardware timing to see "
    "real chips, launch costs and all.",
};

const core::ComputeSpec& opening_cpu() { return presets::builtin().find(cpu_ids().front())->spec; }
const core::ComputeSpec& opening_gpu() {
    const auto& cat = presets::builtin();
    return cat.find("h100") ? cat.find("h100")->spec : cat.find(gpu_ids().front())->spec;
}

LayerRunPanel::LayerRunPanel(Context& ctx) : Lesson(ctx, info) {
    m_setup.cpu = opening_cpu();
    m_setup.gpu = opening_gpu();
    m_gpu_preset = static_cast<std::size_t>(
        std::find(gpu_ids().begin(), gpu_ids().end(), m_setup.gpu.id) - gpu_ids().begin());
    recompute();
}

void LayerRunPanel::apply(const core::LayerRunSetup& setup) {
    // Compute first: a setup the core refuses leaves the panel exactly as it was.
    core::LayerRunResult result = core::run_layers(setup);
    m_setup = setup;
    m_result = std::move(result);
    const auto hidden = hidden_widths();
    if (!hidden.empty()) m_uniform_width = hidden.front();
    for (std::size_t i = 0; i < cpu_ids().size(); ++i)
        if (cpu_ids()[i] == setup.cpu.id) m_cpu_preset = i;
    for (std::size_t i = 0; i < gpu_ids().size(); ++i)
        if (gpu_ids()[i] == setup.gpu.id) m_gpu_preset = i;
    refresh_views();
}

std::vector<int> LayerRunPanel::hidden_widths() const {
    const auto& w = m_setup.network.widths;
    return w.size() > 2 ? std::vector<int>(w.begin() + 1, w.end() - 1) : std::vector<int>{};
}

void LayerRunPanel::recompute() {
    m_result = core::run_layers(m_setup);
    refresh_views();
}

void LayerRunPanel::restart() {
    m_playback.reset();  // a new set-up starts from a clean "ready": nothing lit, nothing half done
    m_revealed = false;  // and its answer is a new one to guess,
    m_guess = 0;         // so a guess made for the old one is not graded against it
}

void LayerRunPanel::refresh_views() {
    m_story = core::tell(m_setup, m_result);
    m_crossover = m_setup.mode == core::TimingMode::hardware ? core::gpu_crossover_width(m_setup) : std::nullopt;
    std::vector<int> widths;
    for (double w = 1; w <= core::max_layer_width + 0.5; w *= std::sqrt(2.0)) widths.push_back(static_cast<int>(std::lround(w)));
    m_sweep = core::speedup_sweep(m_setup, widths);
    m_batch_sweep.clear();
    if (m_setup.mode == core::TimingMode::hardware) {
        std::vector<int> batches;
        for (int b = 1; b <= core::max_batch; b *= 2) batches.push_back(b);
        m_batch_sweep = core::batch_sweep(m_setup, batches);
    }
    restart();
    m_cpu_spans = layer_spans(m_result.cpu, m_setup.network.widths);
    m_gpu_spans = layer_spans(m_result.gpu, m_setup.network.widths);

    // Step stops at every layer boundary of either machine (every tick in lesson mode
    // when the runs are short enough to walk through).
    std::vector<double> bounds;
    for (const auto* spans : {&m_cpu_spans, &m_gpu_spans})
        for (auto [s, e] : *spans) bounds.push_back(static_cast<double>(s)), bounds.push_back(static_cast<double>(e));
    const double fast = static_cast<double>(std::min(m_result.cpu.finish, m_result.gpu.finish));
    const double slow = static_cast<double>(std::max(m_result.cpu.finish, m_result.gpu.finish));
    if (m_result.unit == core::TimeUnit::ticks && slow <= 4096)
        for (double t = 1; t < slow; ++t) bounds.push_back(t);
    // The faster machine takes 3 s at 1x; the slower at most 60 s, so a huge gap still plays.
    m_playback.set_timeline(slow, std::move(bounds), std::max(fast / 3.0, slow / 60.0));
}

// [SECTION] drawing -------------------------------------------------------------------------

void LayerRunPanel::guess_key(bool number) {
    if (m_real_scale.is_open()) {
        if (!number) m_real_scale.guess_key();
        return;
    }
    m_focus_guess = !guess_locked();
}

void LayerRunPanel::draw(float dt_s) {
    m_playback.advance(dt_s);
    m_real_scale.playback().advance(dt_s);
    m_measure.tick();  // the measurement's worker results and its GPU slice for this frame
    // A run played to its end becomes a fact for "Explain it back" (repeats are ignored); a looping
    // run (the benchmark's) counts once it has wrapped.
    if ((m_playback.finished() && m_playback.cursor() > 0) || m_playback.passes() > 0) {
        record_layer_run(m_ctx.run_log, m_setup, m_result);
        m_revealed = true;  // both machines are done: the speedup may show
    }
    // G's request lasts one frame: a box not drawn in it (another tab, folded controls) is not
    // taken by surprise later.
    const struct ForgetFocus {
        bool& focus;
        ~ForgetFocus() { focus = false; }
    } forget{m_focus_guess};
    if (m_real_scale.draw(m_ctx)) return;  // the "Real scale" tab drew the whole lesson area
    controls_beside_scene(
        m_ctx, std::string(id()), controls_width(21.0f, 0.31f), [this] { draw_controls(); },
        [this] {
            if (m_measure.showing()) m_measure.draw_scene(m_ctx);
            else draw_scene(ImGui::GetContentRegionAvail().y);
        },
        ImGuiWindowFlags_None, [this] { draw_presenter_strip(); },
        [this](ui::PlaybackRows rows) {
            if (rows != ui::PlaybackRows::buttons) ImGui::TextUnformatted("Playback");
            ui::playback_controls(m_ctx.items, m_playback, rows);
        });
}

void LayerRunPanel::draw_controls() {
    const auto& th = m_ctx.view.theme;
    ui::text_wrapped_coloured(th.text,
                              "Every neuron computes one dot product over the layer before it: "
                              "\xcf\x83(w\xc2\xb7" "a) = \xcf\x83(\xce\xa3\xe1\xb5\xa2 w\xe1\xb5\xa2 a\xe1\xb5\xa2).");
    ImGui::Separator();
    bool changed = false;
    int mode = m_setup.mode == core::TimingMode::lesson ? 0 : 1;
    ImGui::TextUnformatted("Timing");
    ui::same_line_if_fits(ui::radio_width("Lesson"));
    bool mode_clicked = ImGui::RadioButton("Lesson", &mode, 0);
    ui::same_line_if_fits(ui::radio_width("Hardware"));
    mode_clicked |= ImGui::RadioButton("Hardware", &mode, 1);
    if (mode_clicked) {
        const auto next = mode == 0 ? core::TimingMode::lesson : core::TimingMode::hardware;
        if (next != m_setup.mode) {
            m_setup.mode = next;
            m_setup.cpu_cores = next == core::TimingMode::lesson ? 1 : m_setup.cpu.cores;
            m_setup.gpu_cores = next == core::TimingMode::lesson ? 6 : m_setup.gpu.cores;
            if (next == core::TimingMode::lesson) {  // lesson mode runs one input in FP32, as the lesson tells it
                m_setup.batch = 1;
                m_setup.precision = core::Precision::fp32;
                m_setup.cache = core::CacheState::cold;
            }
            changed = true;
        }
    }
    if (m_setup.mode == core::TimingMode::hardware) {
        changed |= machine_combo("CPU", cpu_ids(), m_cpu_preset, m_setup.cpu, m_setup.cpu_cores);
        changed |= machine_combo("GPU", gpu_ids(), m_gpu_preset, m_setup.gpu, m_setup.gpu_cores);
        changed |= hardware_controls(m_ctx.items, m_setup, m_story);
    }
    if (changed) recompute();
    draw_network_controls();
}

void LayerRunPanel::draw_network_controls() {
    const auto& th = m_ctx.view.theme;
    ImGui::Separator();
    ImGui::TextUnformatted("Predict, then run");
    const ui::LabelFit guess_label = ui::fit_label("\xc3\x97 sooner on the GPU?", 0.4f);
    ImGui::SetNextItemWidth(guess_label.width);
    draw_guess_box(guess_label.label.c_str());
    ui::label_focuses_field(guess_label);
    m_ctx.items.note("guess_box");
    if (draw_shape_sliders()) recompute();

    ImGui::Separator();
    ui::text_wrapped_coloured(th.text_dim, m_story.model_note);
    // A machine without units for the precision runs it at a wider one's rate: the panel says so.
    if (m_result.cpu_roof.fallback || m_result.gpu_roof.fallback)
        ui::text_wrapped_coloured(th.warning, m_story.precision_note);
    ImGui::Separator();
    m_measure.draw_controls(m_ctx, m_setup.network);
}

bool LayerRunPanel::draw_shape_sliders() {
    bool changed = false;
    ImGui::Separator();
    ImGui::TextUnformatted("Network");
    auto& w = m_setup.network.widths;
    const ImGuiSliderFlags clamp = ImGuiSliderFlags_AlwaysClamp;
    const ImGuiSliderFlags log_clamp = clamp | ImGuiSliderFlags_Logarithmic;
    // Each slider leaves its label room beside it, or puts the label above on a narrow panel.
    auto slider = [](const char* label, int* v, int lo, int hi, ImGuiSliderFlags flags) {
        const ui::LabelFit fit = ui::fit_label(label, 0.55f);
        ImGui::SetNextItemWidth(fit.width);
        return ImGui::SliderInt(fit.label.c_str(), v, lo, hi, "%d", flags);
    };
    changed |= slider("Inputs", &w.front(), 1, core::max_layer_width, log_clamp);
    int hidden = static_cast<int>(w.size()) - 2;
    if (slider("Hidden layers", &hidden, 0, core::max_hidden_layers, clamp)) {
        const int out = w.back();
        w.resize(static_cast<std::size_t>(hidden) + 1, m_uniform_width);
        w.push_back(out);
        changed = true;
    }
    if (hidden > 0) {
        const ui::LabelFit fit = ui::fit_label("Width (all)", 0.55f);
        ImGui::SetNextItemWidth(fit.width);
        changed |= width_slider(fit.label.c_str());
        m_ctx.items.note("width_slider");
        if (ImGui::TreeNode("Each layer")) {
            for (int l = 1; l <= hidden; ++l) {
                char label[32];
                std::snprintf(label, sizeof label, "Layer %d", l);
                changed |= slider(label, &w[static_cast<std::size_t>(l)], 1, core::max_layer_width, log_clamp);
            }
            ImGui::TreePop();
        }
    }
    changed |= slider("Outputs", &w.back(), 1, core::max_layer_width, log_clamp);

    ImGui::Separator();
    ImGui::TextUnformatted("Machines");
    const bool hw = m_setup.mode == core::TimingMode::hardware;
    int cpu_cores = static_cast<int>(m_setup.cpu_cores), gpu_cores = static_cast<int>(m_setup.gpu_cores);
    if (slider("CPU cores", &cpu_cores, 1, hw ? static_cast<int>(m_setup.cpu.cores) : 128, log_clamp)) {
        m_setup.cpu_cores = static_cast<std::uint32_t>(cpu_cores);
        changed = true;
    }
    if (slider("GPU cores", &gpu_cores, 1, hw ? static_cast<int>(m_setup.gpu.cores) : static_cast<int>(core::max_cores),
               log_clamp)) {
        m_setup.gpu_cores = static_cast<std::uint32_t>(gpu_cores);
        changed = true;
    }
    return changed;
}

// [SECTION] scenario, CSV and words ---------------------------------------------------------

nlohmann::json LayerRunPanel::save_state() const {
    return {{"mode", m_setup.mode == core::TimingMode::lesson ? "lesson" : "hardware"},
            {"widths", m_setup.network.widths},
            {"cpu_cores", m_setup.cpu_cores},
            {"gpu_cores", m_setup.gpu_cores},
            {"cpu", m_setup.cpu.id},
            {"gpu", m_setup.gpu.id},
            {"batch", m_setup.batch},
            {"precision", std::string(core::precision_id(m_setup.precision))},
            {"cache", std::string(core::cache_id(m_setup.cache))},
            {"speed", m_playback.speed()},
            {"real_scale", m_real_scale.save_state()}};
}

void LayerRunPanel::load_state(const nlohmann::json& j) {
    const SavedState in(j, "Lesson 1");
    core::LayerRunSetup s = m_setup;
    in.choice("mode", s.mode, {{"lesson", core::TimingMode::lesson}, {"hardware", core::TimingMode::hardware}});
    if (in.has("widths")) {
        const auto& w = in.at("widths");
        if (!w.is_array()) in.fail("\"widths\" must be a list of whole numbers");
        s.network.widths.clear();
        for (const auto& x : w) {
            if (!x.is_number_integer()) in.fail("\"widths\" must be a list of whole numbers");
            const auto v = x.get<std::int64_t>();
            if (v < 1 || v > core::max_layer_width) in.fail("every width must be between 1 and " + std::to_string(core::max_layer_width));
            s.network.widths.push_back(static_cast<int>(v));
        }
        if (auto why = core::validate(s.network); !why.empty()) in.fail(why);
    }
    auto preset = [&](const char* key, core::ResourceKind kind, core::ComputeSpec& spec) {
        if (!in.has(key)) return;
        std::string id;
        in.text(key, id);
        const auto* p = presets::builtin().find(id);
        if (!p || p->spec.kind != kind) in.fail(std::string("unknown ") + key + " preset (accepted: " + presets::joined_ids(kind) + ")");
        spec = p->spec;
    };
    preset("cpu", core::ResourceKind::cpu_core, s.cpu);
    preset("gpu", core::ResourceKind::gpu_core, s.gpu);
    // A mode named without core counts gets what choosing it in the panel gives (the presets' cores).
    const bool hw = s.mode == core::TimingMode::hardware;
    if (in.has("mode") && !in.has("cpu_cores")) s.cpu_cores = hw ? s.cpu.cores : 1;
    if (in.has("mode") && !in.has("gpu_cores")) s.gpu_cores = hw ? s.gpu.cores : 6;
    in.whole("cpu_cores", s.cpu_cores, 1, core::max_cores);
    in.whole("gpu_cores", s.gpu_cores, 1, core::max_cores);
    in.whole("batch", s.batch, 1, core::max_batch);
    in.choice("precision", s.precision,
              {{"fp32", core::Precision::fp32}, {"bf16", core::Precision::bf16}, {"fp8", core::Precision::fp8}});
    in.choice("cache", s.cache, {{"cold", core::CacheState::cold}, {"warm", core::CacheState::warm}});
    if (auto why = core::validate(s); !why.empty()) in.fail(why);
    double speed = m_playback.speed();
    in.number("speed", speed);
    RealScaleView real_scale = m_real_scale;  // checked on a copy, so a bad one changes nothing
    if (in.has("real_scale")) real_scale.load_state(in.at("real_scale"), "Lesson 1: \"real_scale\"");
    apply(s);
    m_playback.set_speed(speed);
    m_real_scale = std::move(real_scale);
}

std::string LayerRunPanel::timeline_csv() const {
    if (!m_revealed) return {};  // its end times answer the speedup guess
    const bool ticks = m_result.unit == core::TimeUnit::ticks;
    std::string out = ticks ? "machine,layer,neuron,core,start_ticks,end_ticks\n" : "machine,layer,neuron,core,start_s,end_s\n";
    char row[160];
    for (const auto* m : {&m_result.cpu, &m_result.gpu}) {
        const char* name = m == &m_result.cpu ? "cpu" : "gpu";
        for (std::size_t l = 0; l < m->layer_first_task.size(); ++l)
            for (int i = 0; i < m_setup.network.widths[l + 1]; ++i) {
                const auto& r = m->timeline.runs[m->layer_first_task[l] + static_cast<core::TaskId>(i)];
                if (ticks)
                    std::snprintf(row, sizeof row, "%s,%zu,%d,%u,%lld,%lld\n", name, l + 1, i, r.resource,
                                  static_cast<long long>(r.start), static_cast<long long>(r.end));
                else
                    std::snprintf(row, sizeof row, "%s,%zu,%d,%u,%.6g,%.6g\n", name, l + 1, i, r.resource,
                                  r.start * 1e-12, r.end * 1e-12);
                out += row;
            }
    }
    return out;
}

// [SECTION] status --------------------------------------------------------------------------

std::string LayerRunPanel::status() const {
    std::string widths;
    for (int w : m_setup.network.widths) widths += (widths.empty() ? "" : ",") + std::to_string(w);
    // Hardware mode: the first layer's point on the roofline (intensity, and the GPU's FLOP/s).
    const double intensity = m_result.layers.empty() ? 0 : m_result.layers.front().counts.intensity();
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "lesson=layers mode=%s widths=%s cpu_cores=%u gpu_cores=%u batch=%d precision=%s cache=%s "
                  "intensity=%.4g playing=%d cursor=%.6g speedup=%.4g guess=%.3g revealed=%d shown_speedup=%s "
                  "neuron_radius_px=%.1f",
                  m_setup.mode == core::TimingMode::lesson ? "lesson" : "hardware", widths.c_str(), m_setup.cpu_cores,
                  m_setup.gpu_cores, m_setup.batch, std::string(core::precision_id(m_setup.precision)).c_str(),
                  std::string(core::cache_id(m_setup.cache)).c_str(), intensity, m_playback.playing() ? 1 : 0,
                  m_playback.cursor(), m_result.speedup, m_guess, m_revealed ? 1 : 0,
                  m_revealed ? m_story.speedup.c_str() : "?", static_cast<double>(m_neuron_radius));
    // The Real scale tab's own state while it is shown (its guess and reveal), for logs and tests.
    return buf + m_measure.status() + (m_real_scale.is_open() ? " " + m_real_scale.status() : std::string());
}

}  // namespace m2m::lessons
