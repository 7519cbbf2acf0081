// Lesson 1's panel: controls on the left; on the right both machines running the same network,
// their clocks on one axis, the lesson's readouts and the speedup against layer width.
//
// [SECTION] set-up and recompute   [SECTION] frame state   [SECTION] drawing
// [SECTION] scenario, CSV and words   [SECTION] status
#include "lessons/layers/layer_run_panel.hpp"

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
    "answer. Press Run and watch the CPU take the neurons a few at a time while the GPU lights a whole "
    "layer at once. Then widen the layers, or switch to Hardware timing to see real chips, launch costs "
    "and all.",
};

LayerRunPanel::LayerRunPanel(Context& ctx) : Lesson(ctx, info) {
    const auto& cat = presets::builtin();
    m_setup.cpu = cat.find(cpu_ids().front())->spec;
    m_setup.gpu = cat.find("h100") ? cat.find("h100")->spec : cat.find(gpu_ids().front())->spec;
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

void LayerRunPanel::refresh_views() {
    m_story = core::tell(m_setup, m_result);
    m_crossover = m_setup.mode == core::TimingMode::hardware ? core::gpu_crossover_width(m_setup) : std::nullopt;
    std::vector<int> widths;
    for (double w = 1; w <= core::max_layer_width + 0.5; w *= std::sqrt(2.0)) widths.push_back(static_cast<int>(std::lround(w)));
    m_sweep = core::speedup_sweep(m_setup, widths);
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

// [SECTION] frame state ---------------------------------------------------------------------

LayerRunPanel::MachineFrame LayerRunPanel::frame_of(const core::MachineRun& m, double cursor, bool gpu) const {
    const auto& widths = m_setup.network.widths;
    const auto& spans = gpu ? m_gpu_spans : m_cpu_spans;
    MachineFrame f;
    f.network.widths = widths;
    f.network.done.assign(widths.size(), 0);
    f.network.active.assign(widths.size(), 0);
    f.network.states.resize(widths.size());
    f.network.done[0] = widths[0];
    const std::uint32_t max_cells = gpu ? 512u : 64u;  // each cell is a quad; more would not read better
    const std::uint32_t cells = std::min(m.cores, max_cells);
    f.cores_per_cell = (m.cores + cells - 1) / cells;
    f.cell_busy.assign(cells, 0.0f);
    std::vector<std::uint32_t> busy(cells, 0);
    for (std::size_t l = 1; l < widths.size(); ++l) {
        const int w = widths[l];
        const bool drawn = w <= ui::max_drawn_neurons;
        if (drawn) f.network.states[l].assign(static_cast<std::size_t>(w), ui::NeuronState::waiting);
        const auto [s, e] = spans[l - 1];
        if (cursor >= static_cast<double>(e)) {  // layer finished: no need to look at its tasks
            f.network.done[l] = w;
            if (drawn) std::fill(f.network.states[l].begin(), f.network.states[l].end(), ui::NeuronState::done);
            continue;
        }
        if (cursor <= 0 || cursor < static_cast<double>(s)) continue;  // at zero nothing has started yet
        f.active_layer = static_cast<int>(l);
        for (int i = 0; i < w; ++i) {
            const auto& r = m.timeline.runs[m.layer_first_task[l - 1] + static_cast<core::TaskId>(i)];
            ui::NeuronState st = ui::NeuronState::waiting;
            if (cursor >= static_cast<double>(r.end)) {
                st = ui::NeuronState::done;
                ++f.network.done[l];
            } else if (cursor >= static_cast<double>(r.start)) {
                st = ui::NeuronState::active;
                ++f.network.active[l];
                const std::uint32_t core = r.resource;  // the graph has one pool, whose first member is 0
                ++busy[std::min<std::uint32_t>(core / f.cores_per_cell, cells - 1)];
            }
            if (drawn) f.network.states[l][static_cast<std::size_t>(i)] = st;
        }
    }
    for (std::size_t l = 1; l < widths.size(); ++l) f.done += f.network.done[l];
    for (std::uint32_t c = 0; c < cells; ++c)
        f.cell_busy[c] = static_cast<float>(busy[c]) / static_cast<float>(f.cores_per_cell);
    return f;
}

// [SECTION] drawing -------------------------------------------------------------------------

void LayerRunPanel::draw(float dt_s) {
    m_playback.advance(dt_s);
    m_measure.tick();  // the measurement's worker results and its GPU slice for this frame
    // A run played to its end becomes a fact for "Explain it back" (repeats are ignored).
    if (m_playback.finished() && m_playback.cursor() > 0) record_layer_run(m_ctx.run_log, m_setup, m_result);
    if (m_real_scale.draw(m_ctx)) return;  // the "Real scale" tab drew the whole lesson area
    controls_beside_scene(
        m_ctx, std::string(id()), controls_width(21.0f, 0.36f), [this] { draw_controls(); },
        [this] {
            if (m_measure.showing()) m_measure.draw_scene(m_ctx);
            else draw_scene(ImGui::GetContentRegionAvail().y);
        },
        ImGuiWindowFlags_None);
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
            changed = true;
        }
    }
    if (m_setup.mode == core::TimingMode::hardware) {
        auto preset_combo = [&](const char* label, const std::vector<std::string>& ids, std::size_t& index,
                                core::ComputeSpec& spec, std::uint32_t& cores) {
            const auto* cur = presets::builtin().find(ids[index]);
            ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize("GPU (sources)").x - 20);
            if (ImGui::BeginCombo(label, cur->spec.name.c_str())) {
                for (std::size_t i = 0; i < ids.size(); ++i) {
                    const auto* p = presets::builtin().find(ids[i]);
                    if (ImGui::Selectable(p->spec.name.c_str(), i == index)) {
                        index = i;
                        spec = p->spec;
                        cores = p->spec.cores;
                        changed = true;
                    }
                }
                ImGui::EndCombo();
            }
            ui::sources_marker(presets::builtin().find(ids[index])->spec.source);
        };
        preset_combo("CPU", cpu_ids(), m_cpu_preset, m_setup.cpu, m_setup.cpu_cores);
        preset_combo("GPU", gpu_ids(), m_gpu_preset, m_setup.gpu, m_setup.gpu_cores);
    }

    // Playback first: the most used controls stay above the fold on a 720p projector.
    ImGui::Separator();
    ImGui::TextUnformatted("Playback");
    ui::playback_controls(m_ctx.items, m_playback);
    ImGui::Separator();
    ImGui::TextUnformatted("Predict, then run");
    const ui::LabelFit guess_label = ui::fit_label("\xc3\x97 sooner on the GPU?", 0.4f);
    ImGui::SetNextItemWidth(guess_label.width);
    ImGui::InputFloat(guess_label.label.c_str(), &m_guess, 0, 0, m_guess > 0 ? "%.3g" : "your guess");
    ui::label_focuses_field(guess_label);
    m_guess = std::clamp(m_guess, 0.0f, 1e9f);
    m_ctx.items.note("guess_box");

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
        if (slider("Width (all)", &m_uniform_width, 1, core::max_layer_width, log_clamp)) {
            std::fill(w.begin() + 1, w.end() - 1, m_uniform_width);
            changed = true;
        }
        m_ctx.items.note("width_slider");
        if (ImGui::TreeNode("Each hidden layer")) {
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
    if (changed) recompute();

    ImGui::Separator();
    ui::text_wrapped_coloured(th.text_dim, m_story.model_note);
    ImGui::Separator();
    m_measure.draw_controls(m_ctx, m_setup.network);
}

void LayerRunPanel::draw_scene(float height) {
    const float fs = ImGui::GetFontSize();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float gap = ImGui::GetStyle().ItemSpacing.x;
    const float machine_h = std::max(fs * 12.0f, height * 0.46f);
    const ImVec2 card((avail.x - gap) * 0.5f, machine_h);
    char cpu_sub[64], gpu_sub[64];
    std::snprintf(cpu_sub, sizeof cpu_sub, "one neuron per core \xc2\xb7 %s", core::format_count(m_setup.cpu_cores).c_str());
    std::snprintf(gpu_sub, sizeof gpu_sub, "a whole layer at once \xc2\xb7 %s", core::format_count(m_setup.gpu_cores).c_str());
    draw_machine("CPU \xc2\xb7 a few big cores", cpu_sub, m_result.cpu, false, card);
    ImGui::SameLine();
    draw_machine("GPU \xc2\xb7 thousands of small cores", gpu_sub, m_result.gpu, true, card);
    draw_clocks();
    ImGui::Separator();
    draw_readouts();
    draw_plot(std::max(fs * 8.0f, ImGui::GetContentRegionAvail().y - fs * 0.5f));
}

void LayerRunPanel::draw_machine(const char* title, const char* subtitle, const core::MachineRun& m, bool gpu,
                                 ImVec2 size) {
    const auto& th = m_ctx.view.theme;
    const ImU32 colour = gpu ? th.gpu : th.cpu;
    ImGui::BeginChild(gpu ? "gpu" : "cpu", size, true, ImGuiWindowFlags_NoScrollbar);
    const MachineFrame f = frame_of(m, m_playback.cursor(), gpu);
    const float top = ImGui::GetCursorPosY();
    ImGui::PushTextWrapPos(0.0f);  // on a narrow card (a 1024x768 projector) the words wrap rather than being cut
    ImGui::PushStyleColor(ImGuiCol_Text, colour);
    ImGui::TextUnformatted(title);
    ImGui::PopStyleColor();
    if (ImGui::GetItemRectSize().x + ImGui::CalcTextSize(subtitle).x + ImGui::GetFontSize() < ImGui::GetContentRegionAvail().x)
        ImGui::SameLine();
    ImGui::PushStyleColor(ImGuiCol_Text, th.text_dim);
    ImGui::TextUnformatted(subtitle);
    ImGui::PopStyleColor();
    ImGui::PopTextWrapPos();

    const float fs = ImGui::GetFontSize();
    // Lines of title beyond the two the card is laid out for come out of the drawing.
    const float extra = std::max(0.0f, ImGui::GetCursorPosY() - top - 2 * ImGui::GetTextLineHeightWithSpacing());
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float w = ImGui::GetContentRegionAvail().x;
    const float net_h = std::max(fs, (size.y - fs * 5.5f - extra) * 0.68f);
    ui::draw_network(m_ctx.view.theme, f.network, p, ImVec2(p.x + w, p.y + net_h), colour);
    ImGui::Dummy(ImVec2(w, net_h));

    // The cores: a few big boxes on the CPU, a grid of small squares on the GPU.
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 c0 = ImGui::GetCursorScreenPos();
    const float cores_h = std::max(fs * 0.5f, size.y - fs * 5.5f - extra - net_h);
    const int cells = static_cast<int>(f.cell_busy.size());
    const int cols = gpu ? std::max(1, static_cast<int>(std::ceil(std::sqrt(cells * w / std::max(cores_h, 1.0f)))))
                         : std::min(cells, 16);
    const int rows = (cells + cols - 1) / cols;
    const float cw = std::min(w / static_cast<float>(cols), gpu ? 1e9f : fs * 4.0f);
    const float ch = std::min(cores_h / static_cast<float>(rows), gpu ? cw : fs * 2.2f);
    for (int i = 0; i < cells; ++i) {
        const float x = c0.x + cw * static_cast<float>(i % cols), y = c0.y + ch * static_cast<float>(i / cols);
        const float busy = f.cell_busy[static_cast<std::size_t>(i)];
        const ImU32 fill = busy > 0 ? ui::fade(colour, 0.35f + 0.65f * busy) : th.idle;
        const float pad = std::max(1.0f, std::min(cw, ch) * 0.08f);
        // Square corners on the GPU grid: a rounded rect costs ~10x the vertices of a plain quad.
        dl->AddRectFilled(ImVec2(x + pad, y + pad), ImVec2(x + cw - pad, y + ch - pad), fill, gpu ? 0.0f : 4.0f);
    }
    ImGui::Dummy(ImVec2(w, cores_h));
    // Each line below in the longest wording that fits the card (a narrow card gets the short one).
    auto line = [&](ImU32 c, std::initializer_list<std::string> options) {
        const std::string* pick = std::prev(options.end());  // the shortest, wrapped if even that is too wide
        for (const std::string& o : options)
            if (ImGui::CalcTextSize(o.c_str()).x <= w) {
                pick = &o;
                break;
            }
        ImGui::PushStyleColor(ImGuiCol_Text, c);
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextUnformatted(pick->c_str());
        ImGui::PopTextWrapPos();
        ImGui::PopStyleColor();
    };
    const std::string per_cell = core::format_count(f.cores_per_cell);
    if (f.cores_per_cell > 1) line(th.text_dim, {"each square: " + per_cell + " cores", per_cell + " cores each"});
    const std::int64_t total = m_result.neurons;
    const std::string done = core::format_count(f.done), all = core::format_count(total);
    const std::string& time = gpu ? m_story.gpu_time : m_story.cpu_time;
    if (f.done >= total)
        line(th.text, {"done: " + all + " neurons in " + time, "done in " + time, "done"});
    else if (f.active_layer > 0)
        line(th.text, {"layer " + std::to_string(f.active_layer) + " of " + std::to_string(m_setup.network.widths.size() - 1) +
                           " \xc2\xb7 " + done + " of " + all + " neurons done",
                       done + " of " + all + " neurons done", done + " of " + all});
    else if (m_playback.cursor() > 0)
        line(th.text, {"launching the next layer\xe2\x80\xa6", "launching\xe2\x80\xa6"});
    else
        line(th.text, {"ready"});
    ImGui::EndChild();
}

void LayerRunPanel::draw_clocks() {
    const auto& th = m_ctx.view.theme;
    const double cpu = static_cast<double>(m_result.cpu.finish), gpu = static_cast<double>(m_result.gpu.finish);
    // One axis for both: the slower machine fills it, unless it is more than 40x slower,
    // in which case its bar runs off the edge.
    const double axis = std::min(std::max(cpu, gpu), 40.0 * std::min(cpu, gpu));
    const float h = ImGui::GetFontSize() * 1.3f;
    const double cur = m_playback.cursor();
    auto right = [&](double finish, const std::string& total) {
        return (cur >= finish ? std::string("done in ") : std::string("of ")) + total;
    };
    ui::time_bar(m_ctx.view, "CPU", cur, cpu, axis, th.cpu, right(cpu, m_story.cpu_time), h);
    ui::time_bar(m_ctx.view, "GPU", cur, gpu, axis, th.gpu, right(gpu, m_story.gpu_time), h);
}

void LayerRunPanel::draw_readouts() {
    const auto& th = m_ctx.view.theme;
    const bool gpu_faster = m_result.gpu.finish < m_result.cpu.finish;
    // Side by side while they fit; on a narrow scene the next one starts a new line.
    std::vector<ui::Readout> items = {
        {"NEURONS", core::format_count(m_result.neurons), th.text},
        {"PARAMETERS", core::format_count(m_result.parameters), th.text},
        {gpu_faster ? "GPU FINISHES SOONER BY" : "GPU IS NOT FASTER: CPU TIME / GPU TIME", m_story.speedup,
         gpu_faster ? th.gpu : th.warning}};
    if (m_guess > 0 && m_playback.finished() && m_playback.end() > 0) {
        char line[160];
        std::snprintf(line, sizeof line, "You guessed %.3g\xc3\x97; the run says %s.", m_guess, m_story.speedup.c_str());
        items.push_back({"YOUR GUESS", line, th.accent});
    }
    ui::readouts(m_ctx.view.theme, items, ImGui::GetFontSize() * 2.5f);
    ui::text_wrapped_coloured(gpu_faster ? th.text : th.warning, m_story.verdict);
}

void LayerRunPanel::draw_plot(float height) {
    const auto& th = m_ctx.view.theme;
    if (m_setup.network.widths.size() < 3) {
        ui::text_wrapped_coloured(th.text_dim, "Add a hidden layer to plot the speedup against its width.");
        return;
    }
    ui::PlotSeries s{{}, {}, th.gpu};
    for (const auto& p : m_sweep) s.x.push_back(p.width), s.y.push_back(p.speedup);
    std::vector<ui::PlotMarker> markers{{static_cast<double>(m_uniform_width), "now", th.accent}};
    if (m_crossover) markers.push_back({static_cast<double>(*m_crossover), "GPU pulls ahead", th.nvlink});
    const float text_h = m_setup.mode == core::TimingMode::hardware ? ImGui::GetFontSize() * 1.6f : 0;
    ui::log_log_plot(m_ctx.view, "speedup", {s}, markers, "width of every hidden layer (neurons)", "CPU time / GPU time",
                     ImVec2(ImGui::GetContentRegionAvail().x, std::max(height - text_h, ImGui::GetFontSize() * 6)), 1.0);
    if (m_setup.mode == core::TimingMode::hardware) ui::text_wrapped_coloured(th.text_dim, m_story.crossover);
}

// [SECTION] scenario, CSV and words ---------------------------------------------------------

nlohmann::json LayerRunPanel::save_state() const {
    return {{"mode", m_setup.mode == core::TimingMode::lesson ? "lesson" : "hardware"},
            {"widths", m_setup.network.widths},
            {"cpu_cores", m_setup.cpu_cores},
            {"gpu_cores", m_setup.gpu_cores},
            {"cpu", m_setup.cpu.id},
            {"gpu", m_setup.gpu.id},
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
    in.whole("cpu_cores", s.cpu_cores, 1, core::max_cores);
    in.whole("gpu_cores", s.gpu_cores, 1, core::max_cores);
    double speed = m_playback.speed();
    in.number("speed", speed);
    RealScaleView real_scale = m_real_scale;  // checked on a copy, so a bad one changes nothing
    if (in.has("real_scale")) real_scale.load_state(in.at("real_scale"), "Lesson 1: \"real_scale\"");
    apply(s);
    m_playback.set_speed(speed);
    m_real_scale = std::move(real_scale);
}

std::string LayerRunPanel::timeline_csv() const {
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
    char buf[256];
    std::snprintf(buf, sizeof buf, "lesson=layers mode=%s widths=%s cpu_cores=%u gpu_cores=%u playing=%d cursor=%.6g speedup=%.4g",
                  m_setup.mode == core::TimingMode::lesson ? "lesson" : "hardware", widths.c_str(), m_setup.cpu_cores,
                  m_setup.gpu_cores, m_playback.playing() ? 1 : 0, m_playback.cursor(), m_result.speedup);
    return buf + m_measure.status();
}

}  // namespace m2m::lessons
