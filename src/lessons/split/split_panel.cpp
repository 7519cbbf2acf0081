// Lesson 3's panel: its set-up (strategy, GPUs, hardware, prompt), asking the core again when a
// setting changes, the frame, and its status and saved state. The controls, the scene, the GPU
// cards and predict-then-reveal are split_controls, split_scene, split_cards and split_predict.cpp.
//
// [SECTION] set-up and recompute   [SECTION] the frame   [SECTION] status and saved state
#include "lessons/split/split_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "lessons/run_log.hpp"
#include "lessons/saved_state.hpp"
#include "lessons/split/split_panel_parts.hpp"
#include "m2m/core/engine/text.hpp"
#include "m2m/presets/presets.hpp"
#include "ui/theme.hpp"
#include "ui/view.hpp"
#include "ui/widgets.hpp"

namespace m2m::lessons {

using namespace split_ui;

namespace {

constexpr double seconds_per_step_at_1x = 8.0;  // one training step plays in 8 s at speed 1x
constexpr int top_words = 5;

}  // namespace

// [SECTION] set-up and recompute ------------------------------------------------------------

const LessonInfo SplitPanel::info = {
    "split",
    "3 \xc2\xb7 Split the model",
    "One network on several GPUs: copied (data), sliced (tensor), cut into stages (pipeline), or sharded (FSDP).",
    "Pick a strategy and see what each GPU keeps (solid) and what lives elsewhere (faint). Press Run "
    "to play one training step. More copies give each GPU fewer prompts, more micro-batches shrink the "
    "bubble, FSDP borrows each layer whole just before using it; Timing: Hardware shows what this tiny "
    "network really costs.",
};

SplitPanel::SplitPanel(Context& ctx) : Lesson(ctx, info) {
    std::snprintf(m_prompt.data(), m_prompt.size(), "%s", prompt_picks[0]);
    if (!choose_hardware("h100")) choose_hardware(presets::builtin().system_ids().front());
}

std::string_view SplitPanel::intro() const {
    static constexpr std::string_view frontier =
        "A real model on a real cluster: choose the model, the GPUs and how they split it (TP, CP, PP, DP, EP), and see "
        "what each GPU holds and how long one training step takes. Find the best layouts tries every split of the GPU "
        "count.";
    return m_frontier.is_open() ? frontier : Lesson::intro();
}

void SplitPanel::apply(const core::SplitSetup& setup) {
    if (auto problem = core::check_split(setup)) throw std::invalid_argument(problem->message);
    // Another GPU count is another question ("On 4 GPUs, which split ..."): the guess made for the
    // last one would be marked against it, so it goes, as in the other lessons.
    if (setup.gpus != m_setup.gpus) m_guess.reset();
    // A typed micro-batch count's note speaks of the last set-up's counts.
    if (setup.gpus != m_setup.gpus || setup.strategy != m_setup.strategy) m_micro_batches_box.clear_note();
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
    m_cards = core::SplitCards(m_result);
    build_exchange_words();

    // The timeline's rows, built once per result; their exchanges are coloured in refresh_colours().
    const core::StepTimeline& step = m_result.step;
    m_rows.clear();
    std::vector<double> bounds;
    for (std::size_t g = 0; g < step.gpus.size(); ++g) {
        ui::TimelineRow row;
        row.label = "GPU " + std::to_string(g);
        for (const core::StepTask& t : step.gpus[g].tasks) {
            row.bars.push_back({t.start_s(), t.end_s(), bar_kind(t.kind), 0});
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
// [SECTION] the frame -----------------------------------------------------------------------

void SplitPanel::draw(float dt_s) {
    m_playback.advance(dt_s);
    if (m_playback.cursor() > 0 || m_playback.playing()) m_answered = m_setup.gpus;
    // A step played to its end becomes a fact for "Explain it back" (repeats are ignored).
    if (step_finished())
        m_ctx.run_log.record(core::SplitFact{std::string(core::strategy_label(m_setup.strategy)), m_setup.gpus,
                                         m_result.wire_bytes});
    if (m_ctx.view.theme.kind != m_theme_kind) refresh_colours();  // the theme changed since the last result
    if (m_frontier.draw(m_ctx)) return;  // the "Frontier scale" tab drew the whole lesson area
    controls_beside_scene(m_ctx, std::string(id()), controls_width(21.0f, 0.31f), [this] { draw_controls(); },
                          [this] { draw_scene(); }, ImGuiWindowFlags_NoScrollbar, [this] { draw_presenter_strip(); },
                          [this](ui::PlaybackRows rows) {
                              // wraps in a narrow column at 2.0
                              if (rows != ui::PlaybackRows::buttons)
                                  ui::text_wrapped_coloured(m_ctx.view.theme.text, "Play one training step");
                              ui::playback_controls(m_ctx.items, m_playback, rows);
                          });
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
    named("strategy", s.strategy, core::parse_strategy, "data, tensor, pipeline, 3d or fsdp");
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
    if (guess_pending()) return {};  // its exchanges answer the guess of which split moves the most
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
                  "finished=%d cursor=%.6g step_time=%.6g frontier=%d word=%s",
                  std::string(core::strategy_name(m_setup.strategy)).c_str(), m_setup.gpus, m_result.micro_batches,
                  std::string(core::schedule_name(m_setup.schedule)).c_str(),
                  std::string(core::placement_name(m_setup.placement)).c_str(), m_system_id.c_str(),
                  std::string(core::split_timing_name(m_setup.timing)).c_str(), m_playback.playing() ? 1 : 0, m_playback.finished() && m_playback.cursor() > 0 ? 1 : 0,
                  m_playback.cursor(), m_result.step.step_time_s, m_frontier.is_open() ? 1 : 0, m_prediction.word.c_str());
    std::string out = buf;
    if (m_frontier.is_open() && !m_frontier.list_shown().empty()) out += " list=" + m_frontier.list_shown();  // the tab of lists shown
    if (m_guess)  // the guess, and whether it is being shown against every strategy's bytes
        return out + (" guess=" + std::string(core::strategy_name(*m_guess))) + " revealed=" + (step_finished() ? "1" : "0") +
               " exchange_shown=" + (guess_pending() ? "0" : "1");
    return out + " exchange_shown=" + (guess_pending() ? "0" : "1");
}

}  // namespace m2m::lessons
