// Lesson 3's "Frontier scale" tab, its state: the student's settings, the core's story for them
// (tell_frontier) and its search (search_frontier), kept until a setting changes, saved and loaded.
// The controls are drawn in frontier_controls.cpp, the scene in frontier_scene.cpp.
//
// [SECTION] settings and recompute   [SECTION] state
#include "lessons/split/frontier_view.hpp"

#include <cstdio>
#include <stdexcept>

#include "lessons/saved_state.hpp"
#include "m2m/core/engine/text.hpp"
#include "m2m/presets/models.hpp"
#include "ui/format.hpp"
#include "ui/theme.hpp"

namespace m2m::lessons {

namespace {

// What the sources markers beside the GPU and model combos show: the presets' figures and sources.
std::string gpu_sources(const core::EstimateSetup& s) {
    const auto eff = presets::gemm_efficiency(s.gpu.id);
    return presets::builtin().find(s.gpu.id)->spec.source + "Sustained share of peak: " +
           core::format_fixed(s.gpu.achievable_fraction, 2) + (eff ? " (" + eff->source + ")" : "") + "\nLinks: " +
           s.system.name + "\n" + s.system.source;
}

std::string model_sources(const presets::ModelPreset& model) {
    std::string out;
    for (const auto& f : model.figures) out += f.label + ": " + f.value + " (" + f.source + ")\n";
    return out;
}

// The timeline widget's rows for the story's: colours of compute by kind; transfers are coloured
// by their link when drawn (recolour), in the theme of that frame.
std::vector<ui::TimelineRow> timeline_rows_of(const std::vector<core::StepRow>& rows) {
    std::vector<ui::TimelineRow> out;
    for (const core::StepRow& r : rows) {
        ui::TimelineRow row;
        row.label = r.label;
        for (const core::StepBar& b : r.bars) {
            const ui::BarKind k = b.kind == core::StepBarKind::backward ? ui::BarKind::backward
                                  : b.kind == core::StepBarKind::update  ? ui::BarKind::update
                                  : b.kind == core::StepBarKind::transfer ? ui::BarKind::communication
                                                                          : ui::BarKind::forward;
            row.bars.push_back({b.start_s, b.end_s, k, 0});
        }
        out.push_back(std::move(row));
    }
    return out;
}

}  // namespace

// [SECTION] settings and recompute ----------------------------------------------------------

core::Layout FrontierView::default_layout() {
    core::Layout l;
    l.gpus = 1024;
    l.tp = 8;
    l.pp = 8;
    l.dp = 16;
    l.micro_batch = 1;
    l.global_batch = 1536;
    return l;
}

FrontierView::FrontierView() {
    apply(m_settings);
    m_edit_gpus = m_settings.layout.gpus;
    m_edit_batch = static_cast<int>(m_settings.layout.global_batch);
    m_edit_billions = m_settings.tokens / 1e9;
}

void FrontierView::apply(const Settings& s) {
    auto fail = [](const std::string& why) { throw std::invalid_argument(why); };
    const presets::ModelPreset* model = presets::builtin_models().find(s.model);
    if (!model) fail("model: unknown model '" + s.model + "' (accepted: " + presets::joined_model_ids() + ")");
    auto made = presets::estimator_setup(model->shape, s.gpu);
    if (!made || presets::resolve_gpu_id(s.gpu) != s.gpu)
        fail("gpu: unknown GPU '" + s.gpu + "' (accepted: " + presets::joined_estimator_gpu_ids() + ")");
    if (!(s.tokens >= min_tokens && s.tokens <= max_tokens)) fail("tokens: must be a number from 1e6 to 1e15");
    core::EstimateSetup setup = std::move(*made);
    setup.layout = s.layout;
    setup.train_tokens = s.tokens;
    core::FrontierStory story = core::tell_frontier(setup);

    // Everything computed: only now change the view.
    m_settings = s;
    m_story = std::move(story);
    m_rows = timeline_rows_of(m_story.rows);
    m_coloured_for.reset();  // coloured at the next draw, in the theme it draws with
    m_gpu_sources = gpu_sources(m_story.setup);
    m_model_sources = model_sources(*model);
    ++m_computations;
    if (m_search && !same_search_inputs(m_search_settings, m_settings)) m_search.reset();
}

bool FrontierView::same_search_inputs(const Settings& a, const Settings& b) const {
    const core::Layout &x = a.layout, &y = b.layout;
    // The search chooses the split, ZeRO stage, recompute, micro-batch and schedule itself.
    return a.model == b.model && a.gpu == b.gpu && x.gpus == y.gpus && x.global_batch == y.global_batch &&
           x.attention == y.attention && x.overlap == y.overlap && x.hybrid_shard == y.hybrid_shard &&
           x.free_stage_inputs == y.free_stage_inputs && x.sequence_parallel == y.sequence_parallel &&
           x.fp32_gradients == y.fp32_gradients;
}

void FrontierView::recolour(const ui::Theme& th) {
    for (std::size_t r = 0; r < m_rows.size(); ++r)
        for (std::size_t b = 0; b < m_rows[r].bars.size(); ++b)
            if (m_story.rows[r].bars[b].kind == core::StepBarKind::transfer)
                m_rows[r].bars[b].colour = th.link(m_story.rows[r].bars[b].link);
    m_coloured_for = th.kind;
}

void FrontierView::run_search() {
    m_search = core::search_frontier(m_story.setup, 5);
    m_search_settings = m_settings;
}

bool FrontierView::apply_search_row(std::size_t i) {
    if (!m_search || i >= m_search->result.best.size()) return false;
    Settings s = m_settings;
    s.layout = m_search->result.best[i].layout;
    apply(s);
    return true;
}

// [SECTION] state ---------------------------------------------------------------------------

std::string FrontierView::status() const {
    const core::Layout& l = m_settings.layout;
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "frontier open=%d model=%s gpu=%s gpus=%d tp=%d pp=%d dp=%d micro_batch=%lld global_batch=%lld "
                  "schedule=%s recompute=%s attention=%s zero=%d state_bytes=%.6g fits_one_gpu=%d min_gpus=%d problem=%s "
                  "step_s=%.6g mfu=%.4g fits=%d search=%d list=%s",
                  is_open() ? 1 : 0, m_settings.model.c_str(), m_settings.gpu.c_str(), l.gpus, l.tp, l.pp, l.dp,
                  static_cast<long long>(l.micro_batch), static_cast<long long>(l.global_batch),
                  std::string(core::schedule_kind_name(l.schedule)).c_str(), std::string(core::recompute_name(l.recompute)).c_str(),
                  std::string(core::attention_name(l.attention)).c_str(), l.zero_stage, state_bytes(),
                  m_story.fits_one_gpu ? 1 : 0, m_story.min_gpus, problem() ? problem()->field.c_str() : "none",
                  problem() ? 0.0 : estimate().step_time_s, problem() ? 0.0 : estimate().mfu,
                  !problem() && estimate().memory.fits ? 1 : 0, m_search ? static_cast<int>(m_search->result.best.size()) : -1,
                  m_list_shown.empty() ? "none" : m_list_shown.c_str());
    return buf;
}

nlohmann::json FrontierView::save_state() const {
    const core::Layout& l = m_settings.layout;
    return {{"model", m_settings.model},
            {"gpu", m_settings.gpu},
            {"tokens", m_settings.tokens},
            {"gpus", l.gpus},
            {"tp", l.tp},
            {"pp", l.pp},
            {"dp", l.dp},
            {"micro_batch", l.micro_batch},
            {"global_batch", l.global_batch},
            {"schedule", std::string(core::schedule_kind_name(l.schedule))},
            {"chunks", l.chunks},
            {"recompute", std::string(core::recompute_name(l.recompute))},
            {"attention", std::string(core::attention_name(l.attention))},
            {"zero", l.zero_stage},
            {"cp", l.cp},
            {"ep", l.ep},
            {"hybrid_shard", l.hybrid_shard},
            {"free_stage_inputs", l.free_stage_inputs},
            {"fp32_gradients", l.fp32_gradients},
            {"overlap", l.overlap},
            {"open", m_tab.open_or_opening()}};
}

void FrontierView::load_state(const nlohmann::json& j, const std::string& where) {
    const SavedState in(j, where);
    Settings s = m_settings;
    in.text("model", s.model);
    in.text("gpu", s.gpu);
    in.number("tokens", s.tokens);
    core::Layout& l = s.layout;
    in.whole("gpus", l.gpus, 1, static_cast<std::int64_t>(core::max_cluster_gpus));
    in.whole("tp", l.tp, 1, max_whole);
    in.whole("pp", l.pp, 1, max_whole);
    in.whole("dp", l.dp, 1, max_whole);
    in.whole("micro_batch", l.micro_batch, 1, max_whole);
    in.whole("global_batch", l.global_batch, 1, max_whole);
    in.whole("chunks", l.chunks, 2, 64);
    in.whole("zero", l.zero_stage, 0, 3);
    in.whole("cp", l.cp, 1, max_whole);
    in.whole("ep", l.ep, 1, max_whole);
    in.flag("hybrid_shard", l.hybrid_shard);
    in.flag("free_stage_inputs", l.free_stage_inputs);
    in.flag("fp32_gradients", l.fp32_gradients);
    in.flag("overlap", l.overlap);
    in.choice("schedule", l.schedule,
              {{"1f1b", core::ScheduleKind::one_f_one_b}, {"gpipe", core::ScheduleKind::gpipe},
               {"interleaved", core::ScheduleKind::interleaved}});
    in.choice("recompute", l.recompute,
              {{"none", core::Recompute::none}, {"selective", core::Recompute::selective}, {"full", core::Recompute::full}});
    in.choice("attention", l.attention,
              {{"standard", core::AttentionKernel::standard}, {"flash", core::AttentionKernel::flash}});
    apply_then_open(in, m_tab, [&] { apply(s); });
}

}  // namespace m2m::lessons
