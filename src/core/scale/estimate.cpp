// One real-scale training step estimated: the pipeline's passes timed in schedule order, the
// exposed gradient sync and the update after them; step time, throughput, MFU and days to train;
// the step's tasks for a timeline; and the closed form that ranks layouts in a search.
//
// [SECTION] the pipeline and the update   [SECTION] the estimate   [SECTION] the closed form
#include <algorithm>
#include <stdexcept>

#include "m2m/core/scale/pipeline_timing.hpp"
#include "m2m/core/scale/step_estimate.hpp"
#include "scale_parts.hpp"

namespace m2m::core {

std::vector<std::string> estimate_assumptions(const EstimateSetup& setup, const Estimate& e, const LayoutLinks& links);

namespace {

using scale_detail::chunks_of;

// [SECTION] the pipeline and the update ------------------------------------------------------

PipelineTiming pipeline_of(const EstimateSetup& setup, const std::vector<StageCost>& stages) {
    const Layout& l = setup.layout;
    PipelineTiming p;
    p.schedule = l.schedule;
    p.stages = l.pp;
    p.chunks = chunks_of(l);
    p.micro_batches = l.micro_batches();
    p.sends_block = !l.overlap;
    for (const StageCost& c : stages) {
        p.forward_s.push_back(c.forward_s);
        p.backward_s.push_back(c.backward_s);
        p.send_s.push_back(c.send_s);
    }
    return p;
}

// The step's tasks for a timeline: passes and sends as timed, ZeRO's traffic beside each pass,
// the gradient sync's hidden part during the last backward and its exposed part after it, Adam,
// and the part of the weights' gather the next step waits for.
void keep_tasks(const EstimateSetup& setup, const std::vector<StageCost>& stages, const PipelineTimes& t, double update_start,
                Estimate& e) {
    const int p = setup.layout.pp;
    const auto cost = [&](int j) -> const StageCost& { return stages[static_cast<std::size_t>(j)]; };
    e.tasks.reserve(t.passes.size() * 2 + t.sends.size() + 3 * static_cast<std::size_t>(p));
    for (const PassTime& r : t.passes) {
        const int k = r.virtual_stage % p, c = r.virtual_stage / p, mb = static_cast<int>(r.micro_batch);
        e.tasks.push_back({r.forward ? TrainingTaskKind::forward : TrainingTaskKind::backward, k, mb, c, r.start_s, r.end_s, 0, 1});
        const StageCost& sc = cost(r.virtual_stage);
        const double exposed = r.forward ? sc.forward_zero_s : sc.backward_zero_s;
        const double hidden = r.forward ? sc.forward_zero_hidden_s : sc.backward_zero_hidden_s;
        if (exposed + hidden > 0)
            e.tasks.push_back({TrainingTaskKind::zero_traffic, k, mb, c, r.start_s, std::min(r.end_s, r.start_s + exposed + hidden),
                               exposed, 1});
    }
    for (const SteadySpan& s : t.steady) {
        if (s.passes <= 0) continue;
        if (!s.blocks) {
            e.tasks.push_back({TrainingTaskKind::steady, s.stage, -1, 0, s.start_s, s.end_s, 0, s.passes});
            continue;
        }
        if (s.forwards > 0)
            e.tasks.push_back({TrainingTaskKind::steady_forwards, s.stage, -1, 0, s.start_s, s.forward_end_s, 0, s.forwards});
        if (s.passes > s.forwards)
            e.tasks.push_back({TrainingTaskKind::steady_backwards, s.stage, -1, 0, s.backward_start_s, s.end_s, 0,
                               s.passes - s.forwards});
    }
    for (const PassTime& r : t.sends)  // a send's row is its sender's
        e.tasks.push_back({r.forward ? TrainingTaskKind::send_forward : TrainingTaskKind::send_backward, r.virtual_stage % p,
                           static_cast<int>(r.micro_batch), r.virtual_stage / p, r.start_s, r.end_s,
                           setup.layout.overlap ? 0 : r.end_s - r.start_s, 1});
    for (int k = 0; k < p; ++k) {
        const StageCost& c = cost(k);
        const double end = t.stage_end_s[static_cast<std::size_t>(k)];
        if (c.dp_reduce_s > 0)
            e.tasks.push_back({TrainingTaskKind::dp_reduce, k, -1, 0, end + c.dp_exposed_s - c.dp_reduce_s, end + c.dp_exposed_s,
                               c.dp_exposed_s, 1});
        e.tasks.push_back({TrainingTaskKind::optimizer, k, -1, 0, update_start, update_start + c.optimizer_s, 0, 1});
        if (c.param_gather_s > 0)
            e.tasks.push_back({TrainingTaskKind::param_gather, k, -1, 0, update_start + c.optimizer_s,
                               update_start + c.optimizer_s + c.param_exposed_s, c.param_exposed_s, 1});
    }
}

// Times the step: the pipeline, each stage's exposed gradient sync, then (gradient clipping needs
// every stage's gradients) the update and the exposed part of the weights' gather.
void time_step(const EstimateSetup& setup, Estimate& e, bool keep) {
    const PipelineTimes t = time_pipeline(pipeline_of(setup, e.stages), keep);
    double synced = 0, update = 0;
    for (int k = 0; k < setup.layout.pp; ++k) {
        const StageCost& c = e.stages[static_cast<std::size_t>(k)];
        synced = std::max(synced, t.stage_end_s[static_cast<std::size_t>(k)] + c.dp_exposed_s);
        update = std::max(update, c.optimizer_s + c.param_exposed_s);
    }
    e.step_time_s = synced + update;
    e.exposed_dp_s = e.step_time_s - t.end_s;
    const double pp = setup.layout.pp;
    e.idle_fraction = t.end_s > 0 ? 1.0 - t.busy_s / (pp * t.end_s) : 0;
    if (keep) keep_tasks(setup, e.stages, t, synced, e);
}

// Throughput and utilisation from the step time: tokens per second, TFLOP/s per GPU, MFU, HFU.
void derive_rates(const EstimateSetup& setup, double tokens_per_step, Estimate& e) {
    const Layout& l = setup.layout;
    const double peak_all = setup.gpu.peak_bf16_flops * l.gpus;
    e.tokens_per_s = tokens_per_step / e.step_time_s;
    e.model_tflops_per_gpu = e.model_flops_per_step / e.step_time_s / l.gpus / 1e12;
    e.hardware_tflops_per_gpu = e.hardware_flops_per_step / e.step_time_s / l.gpus / 1e12;
    e.mfu = e.model_flops_per_step / (e.step_time_s * peak_all);
    e.hfu = e.hardware_flops_per_step / (e.step_time_s * peak_all);
    if (setup.train_tokens > 0) e.train_days = setup.train_tokens / e.tokens_per_s / 86400.0;
}

}  // namespace

// [SECTION] the estimate ----------------------------------------------------------------------

Estimate estimate(const EstimateSetup& setup, bool keep_timeline) {
    if (auto problem = check(setup)) throw std::invalid_argument(problem->field + ": " + problem->message);
    const TransformerShape& m = setup.model;
    const Layout& l = setup.layout;
    Estimate e;
    e.parameters = count_parameters(m);
    e.micro_batches = l.micro_batches();
    const double tokens_per_step = static_cast<double>(l.global_batch) * static_cast<double>(m.seq);
    e.model_flops_per_step = model_flops_per_token(m) * tokens_per_step;
    e.hardware_flops_per_step = hardware_flops_per_token(m, l.recompute, l.attention) * tokens_per_step;
    e.memory = memory_use(setup);
    LayoutLinks links(setup);
    e.stages = stage_costs(setup, links);
    time_step(setup, e, keep_timeline);
    e.bubble_fraction = pipeline_bubble_fraction(l.pp, e.micro_batches, chunks_of(l));
    derive_rates(setup, tokens_per_step, e);
    e.exchanges = step_exchanges(setup, e.stages, links, e.memory.stage);
    for (const StepExchange& x : e.exchanges) {
        e.exposed_communication_s += x.exposed_s;
        e.hidden_communication_s += x.hidden_s;
    }
    e.assumptions = estimate_assumptions(setup, e, links);
    return e;
}

// [SECTION] the closed form ------------------------------------------------------------------

double closed_form_step_time_s(const EstimateSetup& setup, const std::vector<StageCost>& stages) {
    const Layout& l = setup.layout;
    const int p = l.pp, v = chunks_of(l);
    const double m = static_cast<double>(l.micro_batches());
    // Per physical stage, one micro-batch through all its chunks.
    double slowest = 0, sum = 0, sends = 0;
    for (int k = 0; k < p; ++k) {
        double sk = 0;
        for (int c = 0; c < v; ++c) {
            const StageCost& sc = stages[static_cast<std::size_t>(c * p + k)];
            sk += sc.forward_s + sc.backward_s + (l.overlap ? 0.0 : 2.0 * sc.send_s);
        }
        slowest = std::max(slowest, sk);
        sum += sk;
    }
    for (const StageCost& sc : stages) sends += 2.0 * sc.send_s;
    // (m - 1) x the slowest stage, plus one trip through every stage for fill and drain (1/v of it
    // with interleaving); for equal stages this is (m + (p - 1)/v) x one stage [Narayanan et al. 2021].
    const double pipeline = (m - 1.0) * slowest + sum * ((p - 1.0) / v + 1.0) / p + sends / v;
    double tail = 0, update = 0;
    for (int k = 0; k < p; ++k) {
        const StageCost& c = stages[static_cast<std::size_t>(k)];
        tail = std::max(tail, c.dp_exposed_s);
        update = std::max(update, c.optimizer_s + c.param_exposed_s);
    }
    return pipeline + tail + update;
}

}  // namespace m2m::core
