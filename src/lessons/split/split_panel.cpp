// Lesson 3's panel: controls on the left; on the right one drawing of the network per GPU (what
// it holds solid, the rest faint), the training step on the shared timeline, the step time and
// its split, the core's sentences, and the split network answering a prompt.
//
// [SECTION] set-up and recompute   [SECTION] frame state   [SECTION] controls
// [SECTION] GPU drawings   [SECTION] the step   [SECTION] words and prompt   [SECTION] predict, then reveal
// [SECTION] status and saved state
#include "lessons/split/split_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <stdexcept>

#include "lessons/run_log.hpp"
#include "lessons/saved_state.hpp"
#include "m2m/presets/presets.hpp"
#include "ui/theme.hpp"
#include "ui/view.hpp"
#include "ui/widgets.hpp"
#include "m2m/core/engine/text.hpp"

namespace m2m::lessons {

namespace {

constexpr core::Strategy all_strategies[] = {core::Strategy::data, core::Strategy::tensor, core::Strategy::pipeline,
                                             core::Strategy::three_d};
constexpr double seconds_per_step_at_1x = 8.0;  // one training step plays in 8 s at speed 1x
constexpr int top_words = 5;
constexpr int max_neuron_squares = 900;  // over every GPU drawing: 4 vertices each

// Prompts a student can pick instead of typing; each ends where the corpus has a clear next word.
constexpr const char* prompt_picks[] = {"the cat sat on the", "the bird flew in the", "a fish swam", "the dog ran to",
                                        "the cat and the"};

// An exchange while a guess about bytes is pending: drawn grey, not in its link's colour.
ImU32 unseen_colour(const ui::Theme& th) { return ui::fade(th.text_dim, 0.35f); }

const char* strategy_button(core::Strategy s) {
    switch (s) {
        case core::Strategy::data: return "Data";
        case core::Strategy::tensor: return "Tensor";
        case core::Strategy::pipeline: return "Pipeline";
        case core::Strategy::three_d: return "3D (2\xc3\x97" "2\xc3\x97" "2)";
    }
    return "?";
}

int nearest(const std::vector<int>& accepted, int want) {
    int best = accepted.front();
    for (int v : accepted)
        if (std::abs(v - want) < std::abs(best - want)) best = v;
    return best;
}

bool contains(const std::vector<int>& v, int x) { return std::find(v.begin(), v.end(), x) != v.end(); }

ui::BarKind bar_kind(core::StepTaskKind k) {
    switch (k) {
        case core::StepTaskKind::forward: return ui::BarKind::forward;
        case core::StepTaskKind::backward: return ui::BarKind::backward;
        case core::StepTaskKind::update: return ui::BarKind::update;
        case core::StepTaskKind::communication: return ui::BarKind::communication;
        case core::StepTaskKind::idle: return ui::BarKind::idle;
    }
    return ui::BarKind::idle;
}

// "hidden 2" -> "h2", "embedding" -> "emb", "output" -> "out": column labels for narrow drawings.
std::string short_layer_name(const std::string& name) {
    if (name.rfind("hidden ", 0) == 0) return "h" + name.substr(7);
    return name.substr(0, 3);
}

// "DGX H100: 8x H100 SXM 80GB, ..." -> "DGX H100": the node generation, short enough for a combo.
std::string system_short_name(const core::SystemSpec& s) { return s.name.substr(0, s.name.find(':')); }

// The first of `options` that fits in `width` pixels, or nullptr when none does.
const std::string* first_fitting(const std::vector<std::string>& options, float width) {
    for (const std::string& s : options)
        if (ImGui::CalcTextSize(s.c_str()).x <= width) return &s;
    return nullptr;
}

}  // namespace

// [SECTION] set-up and recompute ------------------------------------------------------------

const LessonInfo SplitPanel::info = {
    "split",
    "3 \xc2\xb7 Split the model",
    "One network on several GPUs: copied (data), sliced (tensor), or cut into stages (pipeline).",
    "Pick a strategy and see what each GPU keeps (solid) and what lives elsewhere (faint). Press Run "
    "to play one training step. More copies give each GPU fewer prompts, more micro-batches shrink the "
    "bubble; Timing: Hardware shows what this tiny network really costs.",
};

SplitPanel::SplitPanel(Context& ctx) : Lesson(ctx, info) {
    std::snprintf(m_prompt.data(), m_prompt.size(), "%s", prompt_picks[0]);
    if (!choose_hardware("h100")) choose_hardware(presets::builtin().system_ids().front());
}

void SplitPanel::apply(const core::SplitSetup& setup) {
    if (auto problem = core::check_split(setup)) throw std::invalid_argument(problem->message);
    m_setup = setup;
    m_system_id = setup.hardware.system.id;
    m_sources = setup.hardware.system.name + "\n" + setup.hardware.system.source + "\n" + setup.hardware.gpu.name + "\n" +
                setup.hardware.gpu.source;
    recompute();
    m_playback.reset();  // a new set-up is a new run: back to ready, nothing revealed or recorded yet
}

bool SplitPanel::choose_hardware(std::string_view system_id) {
    const auto& cat = presets::builtin();
    const presets::SystemPreset* system = cat.find_system(system_id);
    const presets::ComputePreset* gpu = system ? cat.find(system->gpu_id) : nullptr;
    if (!gpu) return false;
    core::SplitSetup s = m_setup;
    s.hardware.system = system->spec;
    s.hardware.gpu = gpu->spec;
    s.hardware.tensor_flops = gpu->bf16_flops;
    apply(s);
    return true;
}

void SplitPanel::choose_strategy(core::Strategy strategy) {
    core::SplitSetup s = m_setup;
    s.strategy = strategy;
    const std::vector<int> gpus = core::accepted_gpu_counts(strategy);
    if (!contains(gpus, s.gpus)) s.gpus = nearest(gpus, s.gpus);
    const std::vector<int> mbs = core::accepted_micro_batches(s);
    if (!contains(mbs, s.micro_batches)) s.micro_batches = nearest(mbs, s.micro_batches);
    if (s.gpus < 2) s.placement = core::Placement::one_node;
    apply(s);
}

void SplitPanel::set_prompt(std::string_view prompt) {
    if (prompt.data() != m_prompt.data()) {
        // A longer prompt is cut to the box, at a whole character: half a UTF-8 sequence made the
        // saved scenario unwritable (JSON refuses it; found by the scenario fuzz target).
        std::size_t keep = std::min(prompt.size(), m_prompt.size() - 1);
        if (keep < prompt.size())
            while (keep > 0 && (static_cast<unsigned char>(prompt[keep]) & 0xC0) == 0x80) --keep;
        std::snprintf(m_prompt.data(), m_prompt.size(), "%.*s", static_cast<int>(keep), prompt.data());
    }
    m_prediction = core::predict_split(core::trained_next_word_model(), m_setup, m_prompt.data(), top_words);
}

void SplitPanel::recompute() {
    const core::NextWordModel& model = core::trained_next_word_model();
    m_result = core::run_split(model, m_setup);
    m_prediction = core::predict_split(model, m_setup, m_prompt.data(), top_words);

    // The timeline's rows and the per-frame lookups, built once per result.
    const core::StepTimeline& step = m_result.step;
    m_rows.clear();
    m_lookup.assign(step.gpus.size(), Lookup{});
    m_task_text.assign(step.gpus.size(), {});
    std::vector<double> bounds;
    for (std::size_t g = 0; g < step.gpus.size(); ++g) {
        ui::TimelineRow row;
        row.label = "GPU " + std::to_string(g);
        Lookup& lk = m_lookup[g];
        const auto& tasks = step.gpus[g].tasks;
        for (std::size_t i = 0; i < tasks.size(); ++i) {
            const core::StepTask& t = tasks[i];
            ui::TimelineBar bar{t.start_s(), t.end_s(), bar_kind(t.kind), 0};
            const int index = static_cast<int>(i);
            if (t.kind == core::StepTaskKind::communication) {  // coloured by its link in refresh_colours()
                lk.exchanges.push_back(index);
                lk.exchange_end_max.push_back(std::max(lk.exchange_end_max.empty() ? 0.0 : lk.exchange_end_max.back(), t.end_s()));
            } else if (t.kind == core::StepTaskKind::idle) {
                lk.idles.push_back(index);
            } else {
                lk.kernels.push_back(index);
            }
            row.bars.push_back(bar);
            m_task_text[g].push_back(core::step_task_text(m_result, t));
            bounds.push_back(t.start_s());
            bounds.push_back(t.end_s());
        }
        m_rows.push_back(std::move(row));
    }
    std::sort(bounds.begin(), bounds.end());
    bounds.erase(std::unique(bounds.begin(), bounds.end()), bounds.end());
    const double end = step.step_time_s;
    char buf[96];
    auto share = [&](const char* what, double s) {
        std::snprintf(buf, sizeof buf, "%s %s (%.0f%%)", what, core::format_seconds(s).c_str(), end > 0 ? 100.0 * s / end : 0.0);
        return std::string(buf);
    };
    m_split_text[0] = share("computing", step.compute_s);
    m_split_text[1] = share("exchanging", step.communication_s);
    m_split_text[2] = share(m_result.degrees.pipeline > 1 ? "idle (bubble)" : "idle", step.idle_s);
    m_step_time_text = core::format_seconds(end);
    // The exchanging share takes the colour of the link that carries most of the exchange time.
    double on_ib = 0, on_nv = 0;
    for (const core::Exchange& e : m_result.exchanges)
        (e.link == core::LinkType::infiniband ? on_ib : on_nv) += e.seconds * e.times;
    m_exchange_on_ib = on_ib > on_nv;
    refresh_colours();
    m_playback.set_timeline(end, std::move(bounds), end / seconds_per_step_at_1x);
}

void SplitPanel::refresh_colours() {
    const ui::Theme& th = m_ctx.view.theme;
    for (std::size_t g = 0; g < m_rows.size(); ++g) {
        const auto& tasks = m_result.step.gpus[g].tasks;
        for (std::size_t i = 0; i < tasks.size(); ++i)
            if (tasks[i].kind == core::StepTaskKind::communication && tasks[i].exchange >= 0)
                m_rows[g].bars[i].colour = th.link(m_result.exchanges[static_cast<std::size_t>(tasks[i].exchange)].link);
    }
    m_exchange_colour = th.link(m_exchange_on_ib ? core::LinkType::infiniband : core::LinkType::nvlink);
    m_theme_kind = m_ctx.view.theme.kind;
    m_rows_unseen = m_rows;
    for (std::size_t g = 0; g < m_rows.size(); ++g) {
        const auto& tasks = m_result.step.gpus[g].tasks;
        for (std::size_t i = 0; i < tasks.size(); ++i)
            if (tasks[i].kind == core::StepTaskKind::communication) m_rows_unseen[g].bars[i].colour = unseen_colour(th);
    }
}

// [SECTION] frame state ---------------------------------------------------------------------

SplitPanel::Activity SplitPanel::activity_at(int gpu, double t) const {
    Activity a;
    if (gpu < 0 || gpu >= static_cast<int>(m_lookup.size())) return a;
    const Lookup& lk = m_lookup[static_cast<std::size_t>(gpu)];
    const auto& tasks = m_result.step.gpus[static_cast<std::size_t>(gpu)].tasks;
    // Kernels and idle gaps never overlap on one GPU: the last one starting at or before t.
    auto last_running = [&](const std::vector<int>& ids) {
        const auto it = std::upper_bound(ids.begin(), ids.end(), t, [&](double v, int i) {
            return v < tasks[static_cast<std::size_t>(i)].start_s();
        });
        if (it == ids.begin()) return -1;
        const int i = *(it - 1);
        return t < tasks[static_cast<std::size_t>(i)].end_s() ? i : -1;
    };
    if (t <= 0) return a;
    a.kernel = last_running(lk.kernels);
    a.idle = a.kernel < 0 ? last_running(lk.idles) : -1;
    // Exchanges may overlap each other: walk back while an earlier one could still be running.
    auto it = std::upper_bound(lk.exchanges.begin(), lk.exchanges.end(), t, [&](double v, int i) {
        return v < tasks[static_cast<std::size_t>(i)].start_s();
    });
    for (auto k = static_cast<std::size_t>(it - lk.exchanges.begin()); k-- > 0;) {
        if (lk.exchange_end_max[k] <= t) break;
        if (t < tasks[static_cast<std::size_t>(lk.exchanges[k])].end_s()) {
            a.exchange = lk.exchanges[k];
            break;
        }
    }
    return a;
}

// [SECTION] controls ------------------------------------------------------------------------

void SplitPanel::draw(float dt_s) {
    m_playback.advance(dt_s);
    // A step played to its end becomes a fact for "Explain it back" (repeats are ignored).
    if (step_finished())
        m_ctx.run_log.record(core::SplitFact{std::string(core::strategy_label(m_setup.strategy)), m_setup.gpus,
                                         static_cast<double>(m_result.exchanged_bytes)});
    if (m_ctx.view.theme.kind != m_theme_kind) refresh_colours();  // the theme changed since the last result
    if (m_frontier.draw(m_ctx)) return;  // the "Frontier scale" tab drew the whole lesson area
    controls_beside_scene(m_ctx, std::string(id()), controls_width(21.0f, 0.31f), [this] { draw_controls(); },
                          [this] { draw_scene(); }, ImGuiWindowFlags_NoScrollbar, [this] { draw_presenter_strip(); });
}

void SplitPanel::draw_controls() {
    const auto& th = m_ctx.view.theme;
    ui::text_wrapped_coloured(th.text,
                              "A GPU's memory is fixed, and a frontier model does not fit in one. So the model is "
                              "copied, split, or both; whatever a GPU lacks must come over the wires.");
    ImGui::Separator();
    draw_strategy();
    draw_pipeline();
    draw_placement();

    ImGui::Separator();
    ui::text_wrapped_coloured(th.text, "Play one training step");  // wraps in a narrow column at 2.0
    ui::playback_controls(m_ctx.items, m_playback);
    draw_predict();
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
    ImGui::SetNextItemWidth(mb_label.width);
    if (ImGui::SliderInt(mb_label.label.c_str(), &index, 0, static_cast<int>(mbs.size()) - 1, shown,
                         ImGuiSliderFlags_AlwaysClamp | ImGuiSliderFlags_NoInput))
        s.micro_batches = mbs[static_cast<std::size_t>(index)];
    m_ctx.items.note("micro_batches");
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

// [SECTION] GPU drawings --------------------------------------------------------------------

void SplitPanel::draw_scene() {
    const float fs = ImGui::GetFontSize();
    const float h = ImGui::GetContentRegionAvail().y;
    const int gpus = static_cast<int>(m_result.gpus.size());
    // Rows of the timeline shrink with many GPUs; the drawings give way before the words below
    // drop under a few lines.
    const float row_h = std::clamp((h * 0.28f - fs * 1.4f) / static_cast<float>(std::max(gpus, 1)), fs * 1.05f, fs * 1.6f);
    const float line = ImGui::GetTextLineHeightWithSpacing();
    const float big_h = ImGui::GetIO().Fonts->Fonts.Size > 1 ? ImGui::GetIO().Fonts->Fonts[1]->FontSize : fs;
    const float spacing = ImGui::GetStyle().ItemSpacing.y;
    const float step_h = line + static_cast<float>(gpus) * row_h + fs * 1.4f + spacing;
    const float readouts_h = big_h + line + spacing * 2;
    const float room = h - step_h - readouts_h - fs * 5.0f - spacing;
    // Each row of cards keeps room for its name, its place in the split and a small drawing (issue 16).
    const float card_w_one_row = (ImGui::GetContentRegionAvail().x - fs * 0.4f * static_cast<float>(gpus - 1)) /
                                 static_cast<float>(std::max(gpus, 1));
    const float card_rows = gpus <= 4 || card_w_one_row >= fs * 4.5f ? 1.0f : 2.0f;
    const float cards_min = card_rows * fs * 3.8f + (card_rows - 1.0f) * fs * 0.4f;
    const float cards_h = std::max(cards_min, std::min(h * (h >= fs * 40.0f ? 0.31f : 0.27f), room));
    draw_gpus(cards_h);
    draw_step(row_h);
    draw_readouts();
    // The words and the prompt share what is left; each scrolls when the window is small.
    const float rest = std::max(ImGui::GetContentRegionAvail().y, fs * 4.0f);
    // The prompt pane keeps room for its widest pick; the words take the rest (60% at most).
    float pick_w = 0;
    for (const char* p : prompt_picks) pick_w = std::max(pick_w, ImGui::CalcTextSize(p).x);
    const ImGuiStyle& st = ImGui::GetStyle();
    const float prompt_min = pick_w + st.FramePadding.x * 2 + st.WindowPadding.x * 2 + st.ScrollbarSize + st.ItemSpacing.x;
    const float words_w = std::max(ImGui::GetContentRegionAvail().x * 0.4f,
                                   std::min(ImGui::GetContentRegionAvail().x * 0.6f, ImGui::GetContentRegionAvail().x - prompt_min));
    ImGui::BeginChild("words", ImVec2(words_w, rest), true);
    draw_words();
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginChild("prompt", ImVec2(0, rest), true);
    draw_prompt();
    ImGui::EndChild();
}

void SplitPanel::draw_gpus(float height) {
    const float fs = ImGui::GetFontSize();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float w = ImGui::GetContentRegionAvail().x;
    const int n = static_cast<int>(m_result.gpus.size());
    const float gap = fs * 0.4f;
    // One row when every card keeps room for its header and five columns; else two rows.
    const bool one_row = n <= 4 || (w - gap * static_cast<float>(n - 1)) / static_cast<float>(n) >= fs * 4.5f;
    const int cols = one_row ? n : (n + 1) / 2;
    const int rows = (n + cols - 1) / cols;
    const float cw = (w - gap * static_cast<float>(cols - 1)) / static_cast<float>(cols);
    const float ch = (height - gap * static_cast<float>(rows - 1)) / static_cast<float>(rows);
    for (int g = 0; g < n; ++g) {
        const float x = p.x + static_cast<float>(g % cols) * (cw + gap);
        const float y = p.y + static_cast<float>(g / cols) * (ch + gap);
        draw_gpu_card(g, ImVec2(x, y), ImVec2(x + cw, y + ch));
    }
    ImGui::Dummy(ImVec2(w, height));
}

void SplitPanel::draw_gpu_card(int g, ImVec2 a, ImVec2 b) {
    const auto& th = m_ctx.view.theme;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float fs = ImGui::GetFontSize();
    const float line = ImGui::GetTextLineHeightWithSpacing();
    const float pad = fs * 0.4f;
    const core::GpuHolding& hold = m_result.gpus[static_cast<std::size_t>(g)];
    const auto& tasks = m_result.step.gpus[static_cast<std::size_t>(g)].tasks;
    const Activity act = activity_at(g, m_playback.cursor());
    const core::StepTask* kernel = act.kernel >= 0 ? &tasks[static_cast<std::size_t>(act.kernel)] : nullptr;
    const core::StepTask* comm = act.exchange >= 0 ? &tasks[static_cast<std::size_t>(act.exchange)] : nullptr;
    const core::Exchange* ex = comm ? &m_result.exchanges[static_cast<std::size_t>(comm->exchange)] : nullptr;

    ui::fill_opaque(m_ctx.view, dl, a, b, th.panel);
    dl->AddRect(a, b, ex ? m_ctx.view.theme.link(ex->link) : th.grid, 0.0f, 0, ex ? 3.0f : 1.0f);
    const float inner_w = b.x - a.x - 2 * pad;
    const float card_h = b.y - a.y;
    float y = a.y + pad * 0.5f;

    // What it is doing at the cursor, longest wording first (the card shows the first that fits).
    std::vector<std::string> say;
    ImU32 say_colour = th.text_dim;
    const auto& texts = m_task_text[static_cast<std::size_t>(g)];
    if (kernel) {
        say = {texts[static_cast<std::size_t>(act.kernel)]};
        const std::string kind(core::step_task_kind_name(kernel->kind));
        if (kernel->layer >= 0) say.push_back(kind + " \xc2\xb7 " + m_result.layers[static_cast<std::size_t>(kernel->layer)].name);
        if (ex) say.push_back(say.back() + " + " + std::string(core::exchange_op_name(ex->op)));
        say.push_back(kind);
        say_colour = ui::bar_kind_colour(m_ctx.view.theme, bar_kind(kernel->kind));
    } else if (ex) {
        say = {texts[static_cast<std::size_t>(act.exchange)],
               std::string(core::exchange_op_name(ex->op)) + " \xc2\xb7 " + std::string(core::link_type_label(ex->link)),
               std::string(core::exchange_op_name(ex->op))};
        say_colour = m_ctx.view.theme.link(ex->link);
    } else if (act.idle >= 0) {
        say = {texts[static_cast<std::size_t>(act.idle)], "idle"};
    } else {
        say = {m_playback.cursor() <= 0 ? "ready" : "step done"};
    }

    // Header: which GPU, then where it sits and its place in the split; a short card puts what
    // it is doing there instead.
    char buf[96];
    std::snprintf(buf, sizeof buf, "GPU %d", g);
    dl->AddText(ImVec2(a.x + pad, y), th.gpu, buf);
    const float head_w = ImGui::CalcTextSize(buf).x + fs * 0.5f;
    const bool activity_line = card_h >= line * 6.5f;
    // Its place in the split: which copy, slice and stage it is (issue 17: every card says so).
    const core::SplitDegrees& d = m_result.degrees;
    std::string place;
    if (d.data > 1) place += " \xc2\xb7 copy " + std::to_string(hold.data_rank + 1);
    if (d.tensor > 1) place += " \xc2\xb7 slice " + std::to_string(hold.tensor_rank + 1);
    if (d.pipeline > 1) place += " \xc2\xb7 stage " + std::to_string(hold.stage + 1);
    if (activity_line) {
        const std::string role = "node " + std::to_string(hold.node) + place;
        const std::vector<std::string> roles = {role, place.empty() ? role : place.substr(4), "node " + std::to_string(hold.node)};
        if (const std::string* r = first_fitting(roles, inner_w - head_w))
            dl->AddText(ImVec2(a.x + pad + head_w, y), th.text_dim, r->c_str());
        y += line;
        if (const std::string* s = first_fitting(say, inner_w)) dl->AddText(ImVec2(a.x + pad, y), say_colour, s->c_str());
    } else if (!place.empty()) {
        // A short card: its place in the split first (in letters on a narrow one: D for its data-parallel
        // copy, T its tensor slice, P its pipeline stage), what it is doing after it when that fits too.
        std::string letters;
        if (d.data > 1) letters += "D" + std::to_string(hold.data_rank + 1) + " ";
        if (d.tensor > 1) letters += "T" + std::to_string(hold.tensor_rank + 1) + " ";
        if (d.pipeline > 1) letters += "P" + std::to_string(hold.stage + 1) + " ";
        letters.pop_back();
        const std::vector<std::string> whos = {place.substr(4), letters};
        if (const std::string* who = first_fitting(whos, inner_w - head_w)) {
            dl->AddText(ImVec2(a.x + pad + head_w, y), th.text_dim, who->c_str());
            const float who_w = ImGui::CalcTextSize(who->c_str()).x + fs * 0.5f;
            if (const std::string* s = first_fitting(say, inner_w - head_w - who_w))
                dl->AddText(ImVec2(a.x + pad + head_w + who_w, y), say_colour, s->c_str());
        } else {  // too narrow beside the name: on a line of its own
            y += line;
            const std::string& own = first_fitting(whos, inner_w) ? *first_fitting(whos, inner_w) : letters;
            dl->PushClipRect(a, b, true);
            dl->AddText(ImVec2(a.x + pad, y), th.text_dim, own.c_str());
            dl->PopClipRect();
        }
    } else if (const std::string* s = first_fitting(say, inner_w - head_w)) {
        dl->AddText(ImVec2(a.x + pad + head_w, y), say_colour, s->c_str());
    }
    y += line;

    // The network: one column per layer; the neurons this GPU holds solid, the others faint.
    const bool show_footer = card_h >= line * 8.0f;
    const bool show_labels = card_h >= line * 5.0f;
    const float net_top = y + fs * 0.2f;
    const float net_bottom = b.y - pad - (show_labels ? line : 0) - (show_footer ? line : 0);
    const int layers = static_cast<int>(m_result.layers.size());
    int widest = 1;
    for (const core::LayerInfo& l : m_result.layers) widest = std::max(widest, l.neurons);
    const float pitch = std::min(fs * 0.5f, std::max(net_bottom - net_top, 1.0f) / static_cast<float>(widest));
    const float col_w = std::clamp(inner_w / static_cast<float>(layers) * 0.22f, 4.0f, fs * 0.9f);
    // Column labels: the layer names, else short ones ("h2"), else none; the outer columns move
    // in far enough for their labels to sit centred under them.
    float label_w = 0, short_w = 0;
    for (const core::LayerInfo& l : m_result.layers) {
        label_w = std::max(label_w, ImGui::CalcTextSize(l.name.c_str()).x);
        short_w = std::max(short_w, ImGui::CalcTextSize(short_layer_name(l.name).c_str()).x);
    }
    const float steps = static_cast<float>(std::max(layers - 1, 1));
    auto spacing_with = [&](float w) { return (inner_w - col_w - std::max(0.0f, w - col_w)) / steps; };
    const float gap_w = fs * 0.4f;
    const int labels = !show_labels                                      ? 0
                       : label_w + gap_w <= spacing_with(label_w)        ? 2
                       : short_w + gap_w <= spacing_with(short_w)        ? 1
                                                                         : 0;
    const float inset = labels == 2 ? std::max(0.0f, (label_w - col_w) * 0.5f)
                        : labels == 1 ? std::max(0.0f, (short_w - col_w) * 0.5f)
                                      : 0.0f;
    const float dx = (inner_w - col_w - 2 * inset) / steps;
    const float mid = (net_top + net_bottom) * 0.5f;
    const int active_layer = kernel && kernel->kind != core::StepTaskKind::update ? kernel->layer : -1;
    const bool updating = kernel && kernel->kind == core::StepTaskKind::update;
    const ImU32 kernel_colour = kernel ? ui::bar_kind_colour(m_ctx.view.theme, bar_kind(kernel->kind)) : th.gpu;
    auto col_x = [&](int l) { return a.x + pad + inset + dx * static_cast<float>(l); };
    auto neuron_y = [&](int l, int i) {
        const int n = m_result.layers[static_cast<std::size_t>(l)].neurons;
        return mid - pitch * static_cast<float>(n) * 0.5f + pitch * static_cast<float>(i);
    };
    // Level of detail: a square per neuron only while they are big enough to see and few
    // enough to stay cheap under software GL; else each column is at most three runs.
    int neurons = 0;
    for (const core::LayerInfo& l : m_result.layers) neurons += l.neurons;
    const bool per_neuron = pitch >= 4.0f && neurons * static_cast<int>(m_result.gpus.size()) <= max_neuron_squares;
    const ImU32 faint = ui::fade(th.idle, 0.55f);
    const ImU32 held = ui::fade(th.gpu, 0.6f);

    // Bands first: each neuron it holds reads every value of the layer before.
    for (int l = 1; l < layers; ++l) {
        const core::NeuronRange r = hold.neurons[static_cast<std::size_t>(l)];
        if (r.count == 0) continue;
        const int prev = m_result.layers[static_cast<std::size_t>(l - 1)].neurons;
        const ImU32 c = l == active_layer ? ui::fade(kernel_colour, 0.35f) : ui::fade(th.gpu, 0.12f);
        dl->AddQuadFilled(ImVec2(col_x(l - 1) + col_w, neuron_y(l - 1, 0)), ImVec2(col_x(l), neuron_y(l, r.first)),
                          ImVec2(col_x(l), neuron_y(l, r.end())), ImVec2(col_x(l - 1) + col_w, neuron_y(l - 1, prev)), c);
    }
    for (int l = 0; l < layers; ++l) {
        const int n = m_result.layers[static_cast<std::size_t>(l)].neurons;
        const core::NeuronRange r = hold.neurons[static_cast<std::size_t>(l)];
        const float x0 = col_x(l), x1 = x0 + col_w;
        const ImU32 on = (l == active_layer || (updating && r.count > 0)) ? kernel_colour : held;
        if (per_neuron) {  // room for every neuron: one small square each
            for (int i = 0; i < n; ++i) {
                const float yy = neuron_y(l, i);
                dl->AddRectFilled(ImVec2(x0, yy), ImVec2(x1, yy + pitch - 1.0f), r.contains(i) ? on : faint);
            }
        } else {  // too small: the held run and the runs around it, three rectangles at most
            if (r.first > 0) dl->AddRectFilled(ImVec2(x0, neuron_y(l, 0)), ImVec2(x1, neuron_y(l, r.first)), faint);
            if (r.count > 0) dl->AddRectFilled(ImVec2(x0, neuron_y(l, r.first)), ImVec2(x1, neuron_y(l, r.end())), on);
            if (r.end() < n) dl->AddRectFilled(ImVec2(x0, neuron_y(l, r.end())), ImVec2(x1, neuron_y(l, n)), faint);
        }
        if (ex && ex->layer == l)  // the values this exchange moves
            dl->AddRect(ImVec2(x0 - 3, neuron_y(l, 0) - 3), ImVec2(x1 + 3, neuron_y(l, n) + 2), m_ctx.view.theme.link(ex->link), 2.0f,
                        0, 2.5f);
    }
    if (ex && ex->layer < 0)  // gradients of every parameter it holds
        dl->AddRect(ImVec2(a.x + pad * 0.5f, net_top - 2), ImVec2(b.x - pad * 0.5f, net_bottom + 2), m_ctx.view.theme.link(ex->link),
                    3.0f, 0, 2.0f);

    if (labels > 0) {
        const bool full = labels == 2;
        for (int l = 0; l < layers; ++l) {
            const std::string& name = m_result.layers[static_cast<std::size_t>(l)].name;
            const std::string text = full ? name : short_layer_name(name);
            const float tw = ImGui::CalcTextSize(text.c_str()).x;
            const float cx = col_x(l) + col_w * 0.5f;
            dl->AddText(ImVec2(std::clamp(cx - tw * 0.5f, a.x + pad, b.x - pad - tw), net_bottom + fs * 0.1f),
                        hold.neurons[static_cast<std::size_t>(l)].count > 0 ? th.text_dim : ui::fade(th.text_dim, 0.5f),
                        text.c_str());
        }
    }
    if (show_footer) {
        const std::vector<std::string> foot = {
            core::format_count(hold.parameters) + " parameters \xc2\xb7 " +
                core::format_bytes(static_cast<double>(hold.bytes.total())) + " \xc2\xb7 " +
                std::to_string(hold.prompts) + " prompts",
            core::format_count(hold.parameters) + " parameters \xc2\xb7 " +
                core::format_bytes(static_cast<double>(hold.bytes.total())),
            core::format_bytes(static_cast<double>(hold.bytes.total()))};
        if (const std::string* s = first_fitting(foot, inner_w))
            dl->AddText(ImVec2(a.x + pad, b.y - pad * 0.5f - line + (line - fs) * 0.5f), th.text, s->c_str());
    }
    if (ImGui::IsMouseHoveringRect(a, b) && ImGui::IsWindowHovered()) ui::tooltip_wrapped(hold.sentence.c_str(), 32.0f);
}

// [SECTION] the step ------------------------------------------------------------------------

void SplitPanel::draw_step(float row_height) {
    const auto& th = m_ctx.view.theme;
    const float fs = ImGui::GetFontSize();
    bool nv = false, ib = false;
    for (const core::Exchange& e : m_result.exchanges) (e.link == core::LinkType::infiniband ? ib : nv) = true;
    const bool pipeline = m_result.degrees.pipeline > 1;
    std::vector<ui::LegendEntry> legend = {{"forward", ui::bar_kind_colour(m_ctx.view.theme, ui::BarKind::forward)},
                                           {"backward", ui::bar_kind_colour(m_ctx.view.theme, ui::BarKind::backward)},
                                           {"update", ui::bar_kind_colour(m_ctx.view.theme, ui::BarKind::update)}};
    if (nv) legend.push_back({"NVLink", th.link(core::LinkType::nvlink)});
    if (ib) legend.push_back({"InfiniBand", th.link(core::LinkType::infiniband)});
    legend.push_back({pipeline ? "idle (bubble)" : "idle", ui::bar_kind_colour(m_ctx.view.theme, ui::BarKind::idle)});
    const char* title = "One training step";
    if (ImGui::CalcTextSize(title).x + fs * 1.5f + ui::timeline_legend_width(legend) <= ImGui::GetContentRegionAvail().x) {
        ImGui::TextUnformatted(title);  // only when the legend still fits beside it
        ImGui::SameLine(0, fs * 1.5f);
    }
    ui::timeline_legend(legend);

    ui::TimelineOptions o;
    o.start = 0;
    o.end = m_result.step.step_time_s;
    o.cursor = m_playback.cursor();
    o.seconds_per_unit = 1.0;
    const int n = static_cast<int>(m_rows.size());
    const bool hidden = guess_pending();
    o.row_height = row_height;
    o.idle_label = pipeline ? "bubble" : nullptr;
    const ui::TimelineResult r =
        ui::draw_timeline(m_ctx.view, "step", hidden ? m_rows_unseen : m_rows, o,
                          ImVec2(ImGui::GetContentRegionAvail().x, ui::timeline_height(n, o)));
    if (r.hovered_row >= 0 && r.hovered_bar >= 0) {
        const core::StepTask& t = m_result.step.gpus[static_cast<std::size_t>(r.hovered_row)].tasks[static_cast<std::size_t>(r.hovered_bar)];
        if (hidden && t.kind == core::StepTaskKind::communication) {
            ImGui::SetTooltip("An exchange: what it moves shows once the step has run.");
            return;
        }
        ImGui::BeginTooltip();
        ImGui::TextUnformatted(m_task_text[static_cast<std::size_t>(r.hovered_row)][static_cast<std::size_t>(r.hovered_bar)].c_str());
        ImGui::TextDisabled("%s to %s", core::format_seconds(t.start_s()).c_str(), core::format_seconds(t.end_s()).c_str());
        ImGui::EndTooltip();
    }
}

void SplitPanel::draw_readouts() {
    const auto& th = m_ctx.view.theme;
    const float fs = ImGui::GetFontSize();
    ImFont* big = ImGui::GetIO().Fonts->Fonts.Size > 1 ? ImGui::GetIO().Fonts->Fonts[1] : nullptr;
    const float big_h = big ? big->FontSize : fs;
    // Line 1: the step time, its sources, then one bar cut into computing, exchanging and idle.
    const float y0 = ImGui::GetCursorPosY();
    ImGui::SetCursorPosY(y0 + (big_h - fs) * 0.65f);
    ImGui::TextDisabled("STEP TIME");
    ImGui::SameLine();
    ImGui::SetCursorPosY(y0);
    if (big) ImGui::PushFont(big);
    ImGui::TextUnformatted(m_step_time_text.c_str());
    if (big) ImGui::PopFont();
    // The sources and the bar beside the time where they fit (else each on its own line: 2.0 at 1024x768).
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    if (ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + ImGui::CalcTextSize("(sources)").x <= right) {
        ImGui::SameLine();
        ImGui::SetCursorPosY(y0 + (big_h - fs) * 0.65f);
    }
    ui::sources_marker(m_sources, ui::Beside::no);
    if (ImGui::GetItemRectMax().x + fs * 5.0f <= right) {
        ImGui::SameLine(0, fs);
        ImGui::SetCursorPosY(y0);
    }
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float w = std::max(ImGui::GetContentRegionAvail().x - fs * 0.5f, fs);
    const core::StepTimeline& st = m_result.step;
    const double total = st.step_time_s > 0 ? st.step_time_s : 1.0;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float y_a = p.y + big_h * 0.2f, y_b = p.y + big_h * 0.85f;
    float x = p.x;
    // A pending guess about bytes sees one grey bar: the exchanging share would answer it.
    const bool hidden = guess_pending();
    const double parts[3] = {hidden ? total : st.compute_s, st.communication_s, st.idle_s};
    const ImU32 colours[3] = {hidden ? unseen_colour(th) : th.gpu, m_exchange_colour, th.idle};
    for (int i = 0; i < 3; ++i) {
        const float x1 = i == 2 ? p.x + w : std::min(p.x + w, x + static_cast<float>(parts[i] / total) * w);
        if (x1 > x) dl->AddRectFilled(ImVec2(x, y_a), ImVec2(x1, y_b), colours[i]);
        x = x1;
    }
    ImGui::Dummy(ImVec2(w, big_h));
    // Line 2: the same split in words.
    if (hidden)
        ui::timeline_legend({{"computing ?", th.gpu}, {"exchanging ?", m_exchange_colour}, {"idle ?", th.idle}});
    else
        ui::timeline_legend({{m_split_text[0].c_str(), th.gpu}, {m_split_text[1].c_str(), m_exchange_colour},
                             {m_split_text[2].c_str(), th.idle}});
}

// [SECTION] words and prompt ----------------------------------------------------------------

void SplitPanel::draw_words() {
    const auto& th = m_ctx.view.theme;
    draw_reveal();
    text(th.text, m_result.holds_sentence);
    const bool hidden = guess_pending();
    text(th.text, hidden ? m_result.exchange_sentence_before_run : m_result.exchange_sentence);
    text(th.text_dim, m_result.why_sentence);
    text(th.text, hidden ? m_result.time_sentence_before_run : m_result.time_sentence);
    if (ImGui::TreeNode("Each GPU")) {
        for (const core::GpuHolding& g : m_result.gpus) text(th.text, g.sentence);
        ImGui::TreePop();
    }
    if (!m_result.exchanges.empty() && !hidden && ImGui::TreeNode("Every exchange")) {
        const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_BordersInnerV;
        if (ImGui::BeginTable("exchanges", 5, flags)) {
            ImGui::TableSetupColumn("collective");
            ImGui::TableSetupColumn("what");
            ImGui::TableSetupColumn("GPUs");
            ImGui::TableSetupColumn("bytes \xc3\x97 times");
            ImGui::TableSetupColumn("link, time");
            ImGui::TableHeadersRow();
            ImGuiListClipper clip;
            clip.Begin(static_cast<int>(m_result.exchanges.size()));
            while (clip.Step())
                for (int i = clip.DisplayStart; i < clip.DisplayEnd; ++i) {
                    const core::Exchange& e = m_result.exchanges[static_cast<std::size_t>(i)];
                    ImGui::TableNextRow();
                    ImGui::TableNextColumn();
                    ImGui::TextUnformatted(core::exchange_op_name(e.op).data(),
                                           core::exchange_op_name(e.op).data() + core::exchange_op_name(e.op).size());
                    ImGui::TableNextColumn();
                    ImGui::TextUnformatted(e.what.c_str());
                    ImGui::TableNextColumn();
                    std::string peers;
                    for (int g : e.gpus) peers += (peers.empty() ? "" : ",") + std::to_string(g);
                    ImGui::TextUnformatted(peers.c_str());
                    ImGui::TableNextColumn();
                    ImGui::Text("%s \xc3\x97 %d", core::format_bytes(static_cast<double>(e.bytes)).c_str(), e.times);
                    ImGui::TableNextColumn();
                    const std::string_view link = core::link_type_label(e.link);
                    ImGui::PushStyleColor(ImGuiCol_Text, m_ctx.view.theme.link(e.link));
                    ImGui::Text("%.*s, %s", static_cast<int>(link.size()), link.data(), core::format_seconds(e.seconds).c_str());
                    ImGui::PopStyleColor();
                }
            ImGui::EndTable();
        }
        ImGui::TreePop();
    }
}

void SplitPanel::draw_prompt() {
    const auto& th = m_ctx.view.theme;
    const float fs = ImGui::GetFontSize();
    const char* ask = "Ask the split network";
    const bool one_line = ImGui::CalcTextSize(ask).x + ImGui::GetStyle().ItemSpacing.x + ImGui::CalcTextSize("(?)").x <=
                          ImGui::GetContentRegionAvail().x;
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(ask);
    ImGui::PopTextWrapPos();
    if (one_line) ImGui::SameLine();
    ImGui::TextDisabled("(?)");
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("The prediction below is computed by the split network itself: each GPU used only the "
                          "weights it holds and the values it received from the others.");
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x);
    if (ImGui::InputTextWithHint("##prompt", "type a few words", m_prompt.data(), m_prompt.size()))
        set_prompt(m_prompt.data());
    m_ctx.items.note("prompt_input");
    // Picks wrap onto new lines when the box is narrow.
    const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
    for (std::size_t i = 0; i < std::size(prompt_picks); ++i) {
        const float w = ImGui::CalcTextSize(prompt_picks[i]).x + ImGui::GetStyle().FramePadding.x * 2;
        if (i > 0 && ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + w <= right) ImGui::SameLine();
        if (ImGui::SmallButton(prompt_picks[i])) set_prompt(prompt_picks[i]);
        const std::string hook = "prompt_pick_" + std::to_string(i);
        m_ctx.items.note(hook);
    }
    ImFont* big = ImGui::GetIO().Fonts->Fonts.Size > 1 ? ImGui::GetIO().Fonts->Fonts[1] : nullptr;
    if (big) ImGui::PushFont(big);
    ImGui::PushStyleColor(ImGuiCol_Text, th.accent);
    ImGui::TextUnformatted(m_prediction.word.c_str());
    ImGui::PopStyleColor();
    if (big) ImGui::PopFont();
    // Top probabilities as bars: word, bar, percent.
    ImDrawList* dl = ImGui::GetWindowDrawList();
    float word_w = 0;
    for (const core::WordProbability& w : m_prediction.top) word_w = std::max(word_w, ImGui::CalcTextSize(w.word.c_str()).x);
    const float pct_w = ImGui::CalcTextSize("100%").x;
    const float bar_w = std::max(ImGui::GetContentRegionAvail().x - word_w - pct_w - fs * 1.2f, fs);
    for (const core::WordProbability& w : m_prediction.top) {
        const ImVec2 p = ImGui::GetCursorScreenPos();
        const ImVec2 size(word_w + bar_w + pct_w + fs * 1.2f, fs * 1.1f);
        ImGui::Dummy(size);
        if (!ImGui::IsItemVisible()) continue;  // scrolled out of the pane: draw nothing
        dl->AddText(p, th.text, w.word.c_str());
        const float x0 = p.x + word_w + fs * 0.5f;
        dl->AddRectFilled(ImVec2(x0, p.y + fs * 0.2f), ImVec2(x0 + bar_w, p.y + fs * 0.95f), th.panel, 2.0f);
        dl->AddRectFilled(ImVec2(x0, p.y + fs * 0.2f), ImVec2(x0 + bar_w * std::clamp(w.probability, 0.0f, 1.0f), p.y + fs * 0.95f),
                          th.accent, 2.0f);
        char pct[16];
        std::snprintf(pct, sizeof pct, "%.0f%%", 100.0 * static_cast<double>(w.probability));
        dl->AddText(ImVec2(x0 + bar_w + fs * 0.4f, p.y), th.text_dim, pct);
    }
    text(th.text_dim, m_prediction.sentence);
}

// [SECTION] predict, then reveal ------------------------------------------------------------

const std::vector<core::StrategyBytes>& SplitPanel::strategy_bytes() {
    const std::pair<int, int> key{m_setup.gpus, m_setup.micro_batches};
    if (key != m_strategy_bytes_for) {
        m_strategy_bytes = core::exchanged_by_strategy(core::trained_next_word_model(), m_setup);
        m_strategy_bytes_for = key;
    }
    return m_strategy_bytes;
}

const std::vector<std::string>& SplitPanel::reveal_lines() {
    const auto& bytes = strategy_bytes();
    const bool compared = m_guess && std::any_of(bytes.begin(), bytes.end(), [&](const core::StrategyBytes& b) {
        return b.strategy == *m_guess;
    });
    const std::string key = compared ? std::string(core::strategy_name(*m_guess)) + "/" + std::to_string(m_setup.gpus) + "/" +
                                           std::to_string(m_setup.micro_batches)
                                     : std::string();
    if (key != m_reveal_for) {
        m_reveal_lines.clear();
        if (compared) {
            const core::SplitReveal r = core::reveal_split(*m_guess, bytes, m_setup.gpus);
            m_reveal_lines = r.lines;
            m_reveal_right = r.right;
        }
        m_reveal_for = key;
    }
    return m_reveal_lines;
}

void SplitPanel::draw_predict() {
    // Optional and out of the way: closed until the student opens it (or opens it in presenter view).
    ImGui::SetNextItemOpen(m_predict_open);
    // The short words where the long ones are wider than the column (1024x768 at 2.0); one id for both.
    const bool fits = ImGui::GetTreeNodeToLabelSpacing() + ImGui::CalcTextSize("Predict first?").x <= ImGui::GetContentRegionAvail().x;
    m_predict_open = ImGui::TreeNode(fits ? "Predict first?###predict" : "Predict?###predict");
    m_ctx.items.note("split_predict_open");
    if (!m_predict_open) return;
    if (strategy_bytes().size() < 2) {
        ui::text_wrapped_coloured(m_ctx.view.theme.text_dim, "On " + std::to_string(m_setup.gpus) +
                                                            (m_setup.gpus == 1 ? " GPU" : " GPUs") +
                                                            " there is nothing to compare: pick 2, 4 or 8 GPUs.");
    } else {
        ui::text_wrapped_coloured(m_ctx.view.theme.text, "On " + std::to_string(m_setup.gpus) +
                                                        " GPUs, which split exchanges the most bytes in one training step?");
        draw_guess_choices();
        if (ImGui::SmallButton("no guess")) m_guess.reset();
        if (m_guess && !step_finished()) ImGui::TextDisabled("Now press Run.");
    }
    ImGui::TreePop();
}

void SplitPanel::draw_guess_choices() {
    const auto& bytes = strategy_bytes();
    int choice = -1;
    for (std::size_t i = 0; i < bytes.size(); ++i)
        if (m_guess == bytes[i].strategy) choice = static_cast<int>(i);
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        const std::string label = std::string(strategy_button(bytes[i].strategy)) + "##guess";
        if (i > 0) ui::same_line_if_fits(ui::radio_width(label.c_str()));
        if (ImGui::RadioButton(label.c_str(), &choice, static_cast<int>(i))) m_guess = bytes[i].strategy;
        const std::string hook = "guess_" + std::string(core::strategy_name(bytes[i].strategy));
        m_ctx.items.note(hook);
    }
}

// Presenter view keeps the choice and the question in the room: the strategy, then (once the
// teacher opens it with the Predict box) the guess, on rows above the scene; Space runs.
void SplitPanel::draw_presenter_strip() {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Split:");
    for (core::Strategy st : all_strategies) {
        ui::same_line_if_fits(ui::radio_width(strategy_button(st)));
        if (ImGui::RadioButton(strategy_button(st), m_setup.strategy == st) && st != m_setup.strategy) choose_strategy(st);
        m_ctx.items.note("strategy_" + std::string(core::strategy_name(st)));
    }
    ui::same_line_if_fits(ImGui::GetFontSize() * 6.0f);
    ImGui::Checkbox("Predict", &m_predict_open);
    m_ctx.items.note("split_predict_open");
    if (m_predict_open && strategy_bytes().size() >= 2) {
        ImGui::TextUnformatted("Which exchanges the most bytes?");
        ImGui::SameLine();
        draw_guess_choices();
    }
    ui::hint_if_fits("Space: run");
}

void SplitPanel::draw_reveal() {
    if (!step_finished() || reveal_lines().empty()) return;
    const auto& th = m_ctx.view.theme;
    for (std::size_t i = 0; i < m_reveal_lines.size(); ++i) {
        text(i == 0 ? (m_reveal_right ? th.nvlink : th.accent) : th.text, m_reveal_lines[i]);
        if (i == 0) m_ctx.items.note("split_reveal");
    }
    ImGui::Separator();
}

// [SECTION] status and saved state ----------------------------------------------------------

nlohmann::json SplitPanel::save_state() const {
    return {{"strategy", std::string(core::strategy_name(m_setup.strategy))},
            {"gpus", m_setup.gpus},
            {"micro_batches", m_setup.micro_batches},
            {"schedule", std::string(core::schedule_name(m_setup.schedule))},
            {"placement", std::string(core::placement_name(m_setup.placement))},
            {"hardware", m_system_id},
            {"timing", std::string(core::split_timing_name(m_setup.timing))},
            {"prompt", std::string(m_prompt.data())},
            {"speed", m_playback.speed()},
            {"frontier", m_frontier.save_state()}};
}

void SplitPanel::load_state(const nlohmann::json& j) {
    const SavedState in(j, "Lesson 3");
    // A name the core parses: absent keeps `out`, unknown fails with what is accepted.
    auto named = [&](const char* key, auto& out, auto parse, const char* accepted) {
        if (!in.has(key)) return;
        std::string name;
        in.text(key, name);
        const auto v = parse(name);
        if (!v) in.fail(SavedState::quoted(key) + " must be " + accepted);
        out = *v;
    };
    core::SplitSetup s = m_setup;
    named("strategy", s.strategy, core::parse_strategy, "data, tensor, pipeline or 3d");
    in.whole("gpus", s.gpus, 1, 1000);
    in.whole("micro_batches", s.micro_batches, 1, 1000);
    named("schedule", s.schedule, core::parse_schedule, "1f1b or gpipe");
    named("placement", s.placement, core::parse_placement, "node or nodes");
    named("timing", s.timing, core::parse_split_timing, "lesson or hardware");
    std::string system = m_system_id;
    in.text("hardware", system);
    const presets::SystemPreset* sys = presets::builtin().find_system(system);
    const presets::ComputePreset* gpu = sys ? presets::builtin().find(sys->gpu_id) : nullptr;
    if (!gpu) in.fail("\"hardware\" must be one of " + presets::joined_system_ids());
    s.hardware.system = sys->spec;
    s.hardware.gpu = gpu->spec;
    s.hardware.tensor_flops = gpu->bf16_flops;
    if (auto problem = core::check_split(s)) in.fail(problem->message);
    double speed = m_playback.speed();
    in.number("speed", speed);
    std::string prompt;
    in.text("prompt", prompt);
    // The frontier tab checks its own part and changes only when all of it is good.
    if (in.has("frontier")) m_frontier.load_state(in.at("frontier"), "Lesson 3: \"frontier\"");
    // Everything checked: only now change the panel.
    apply(s);
    if (in.has("prompt")) set_prompt(prompt);
    m_playback.set_speed(speed);
}

std::string SplitPanel::timeline_csv() const {
    std::string out = "gpu,kind,layer,micro_batch,exchange,start_s,end_s\n";
    char row[160];
    for (const core::GpuTimeline& g : m_result.step.gpus)
        for (const core::StepTask& t : g.tasks) {
            const std::string_view kind = core::step_task_kind_name(t.kind);
            std::snprintf(row, sizeof row, "%d,%.*s,%d,%d,%d,%.6g,%.6g\n", g.gpu, static_cast<int>(kind.size()), kind.data(),
                          t.layer, t.micro_batch, t.exchange, t.start_s(), t.end_s());
            out += row;
        }
    return out;
}

std::string SplitPanel::status() const {
    char buf[320];
    std::snprintf(buf, sizeof buf,
                  "lesson=split strategy=%s gpus=%d micro_batches=%d schedule=%s placement=%s hardware=%s timing=%s playing=%d "
                  "finished=%d cursor=%.6g step_time=%.6g word=%s",
                  std::string(core::strategy_name(m_setup.strategy)).c_str(), m_setup.gpus, m_result.micro_batches,
                  std::string(core::schedule_name(m_setup.schedule)).c_str(),
                  std::string(core::placement_name(m_setup.placement)).c_str(), m_system_id.c_str(),
                  std::string(core::split_timing_name(m_setup.timing)).c_str(), m_playback.playing() ? 1 : 0, m_playback.finished() && m_playback.cursor() > 0 ? 1 : 0,
                  m_playback.cursor(), m_result.step.step_time_s, m_prediction.word.c_str());
    if (m_guess)  // the guess, and whether it is being shown against every strategy's bytes
        return buf + (" guess=" + std::string(core::strategy_name(*m_guess))) + " revealed=" + (step_finished() ? "1" : "0") +
               " exchange_shown=" + (guess_pending() ? "0" : "1");
    return buf + std::string(" exchange_shown=") + (guess_pending() ? "0" : "1");
}

}  // namespace m2m::lessons
