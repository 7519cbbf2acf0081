// One real-scale training step estimated: the step's work graph scheduled, step time, throughput,
// MFU and days to train derived from its timeline, with the assumptions behind them; and the closed
// form that ranks layouts before the scheduler confirms the best.
//
// [SECTION] the estimate   [SECTION] its assumptions   [SECTION] the closed form
#include <algorithm>
#include <stdexcept>

#include "m2m/core/engine/text.hpp"
#include "m2m/core/scale/step_estimate.hpp"
#include "scale_parts.hpp"

namespace m2m::core {

namespace {

using scale_detail::chunks_of;

// [SECTION] the estimate ---------------------------------------------------------------------

// Schedules the step's graph and reads the timeline: the step time, the pipeline's idle share
// and what is exposed after the last backward. The graph's first 2 x (virtual stages) x m tasks
// are the forward and backward passes.
void run_step_graph(const EstimateSetup& setup, Estimate& e, bool keep_timeline) {
    std::vector<TrainingTask> tasks;
    const WorkGraph g = build_step_graph(setup, e.stages, keep_timeline ? &tasks : nullptr);
    e.timeline = schedule(g);
    const double ps = 1.0 / picoseconds_per_second;
    e.step_time_s = static_cast<double>(e.timeline.makespan) * ps;
    SimTime pipeline_end = 0;
    double busy = 0;
    const std::size_t passes = 2 * e.stages.size() * static_cast<std::size_t>(e.micro_batches);
    for (std::size_t i = 0; i < passes; ++i) {
        const TaskRun& r = e.timeline.runs[i];
        pipeline_end = std::max(pipeline_end, r.end);
        busy += static_cast<double>(r.end - r.start);
    }
    for (std::size_t i = 0; i < tasks.size(); ++i) {
        tasks[i].start_s = static_cast<double>(e.timeline.runs[i].start) * ps;
        tasks[i].end_s = static_cast<double>(e.timeline.runs[i].end) * ps;
    }
    const double pp = setup.layout.pp;
    e.idle_fraction = pipeline_end > 0 ? 1.0 - busy / (pp * static_cast<double>(pipeline_end)) : 0;
    e.exposed_dp_s = static_cast<double>(e.timeline.makespan - pipeline_end) * ps;
    if (keep_timeline) e.tasks = std::move(tasks);
    else e.timeline = Timeline{{}, {}, e.timeline.makespan};
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

// [SECTION] its assumptions ------------------------------------------------------------------

// What the model counts and what it leaves out, in sentences with this setup's figures.
std::vector<std::string> assumptions(const EstimateSetup& setup, const Estimate& e, const LayoutLinks& links) {
    const GpuSpec& gpu = setup.gpu;
    const Layout& l = setup.layout;
    return {
        "Matrix multiplies run at " + format_percent(gpu.achievable_fraction, 0) + " of the " + gpu.name +
            "'s dense BF16 peak (" + format_fixed(gpu.peak_bf16_flops / 1e12, 0) +
            " TFLOP/s), one constant for this GPU type" +
            (gpu.achievable_source.empty() ? "." : " (" + gpu.achievable_source + ")."),
        "Model FLOPs per token: 6 x (l x matrix weights per layer + V h) + 12 l s h, which for GPT is Korthikanti's "
        "72 B s l h^2 (1 + s/6h + V/12lh) per step; hardware FLOPs also count what " +
            std::string(l.attention == AttentionKernel::flash ? "flash attention's backward pass and " : "") +
            std::string(recompute_name(l.recompute)) + " recompute compute a second time.",
        "Memory-bound kernels (norms, activation functions, softmax, dropout) move each saved activation byte twice "
        "forward and four times backward at HBM bandwidth (" +
            format_rate_GBps(gpu.memory_bandwidth_Bps / 1e9) + "); " +
            (l.attention == AttentionKernel::flash ? "flash attention keeps the s x s scores on chip."
                                                   : "standard attention writes the s x s scores to memory."),
        "Tensor parallelism: 4 all-reduce-sized collectives per layer per micro-batch (6 with full recompute), ring "
        "over " +
            std::string(links.tp_link() == LinkType::infiniband ? "InfiniBand (tp spans nodes)" : "NVLink") +
            ", not overlapped with compute.",
        "Pipeline: one s x b x h bf16 tensor per stage boundary per micro-batch each way, 1/tp per GPU; the " +
            std::string(schedule_kind_name(l.schedule)) + " schedule's ideal bubble is " +
            format_percent(e.bubble_fraction, 1) + " of the step.",
        "Data parallelism: the gradient " + std::string(l.zero_stage == 1 ? "reduce-scatter" : "all-reduce") +
            " runs over " + (links.dp_link() == LinkType::infiniband ? "InfiniBand" : "NVLink") +
            " alongside the last micro-batch's backward pass; the rest is exposed, then Adam moves " +
            std::to_string(adam_step_bytes_per_parameter) + " bytes per parameter at HBM bandwidth" +
            (l.zero_stage == 1 ? " and the new weights are all-gathered." : "."),
        "Memory: " + std::to_string(state_bytes_per_parameter) +
            " bytes per parameter (bf16 weights and gradients, fp32 master weights, momentum, variance)" +
            (l.zero_stage == 1 ? ", the " + std::to_string(optimizer_bytes_per_parameter) +
                                     " optimizer bytes split over the data-parallel replicas"
                               : std::string()) +
            "; activations per Korthikanti et al. 2022 for the " + std::string(schedule_kind_name(l.schedule)) +
            " schedule's micro-batches in flight.",
        "Links: " + setup.system.name + "; collective and send times from Lesson 2's ring and route model.",
        "Not modelled: kernel launch gaps, pipeline and data-parallel traffic sharing a NIC, network congestion, "
        "stragglers, failures and restarts.",
    };
}

}  // namespace

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
    LayoutLinks links(setup, LayoutLinks::Mode::exact);
    e.stages = stage_costs(setup, links);
    run_step_graph(setup, e, keep_timeline);
    e.bubble_fraction = pipeline_bubble_fraction(l.pp, e.micro_batches, chunks_of(l));
    derive_rates(setup, tokens_per_step, e);
    e.assumptions = assumptions(setup, e, links);
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
            sk += sc.forward_s + sc.backward_s;
        }
        slowest = std::max(slowest, sk);
        sum += sk;
    }
    for (const StageCost& sc : stages) sends += 2.0 * sc.send_s;
    // (m - 1) x the slowest stage, plus one trip through every stage for fill and drain (1/v of it
    // with interleaving); for equal stages this is (m + (p - 1)/v) x one stage [Narayanan et al. 2021].
    const double pipeline = (m - 1.0) * slowest + sum * ((p - 1.0) / v + 1.0) / p + sends / v;
    const StageCost& first = stages.front();
    const double last_backward = first.backward_s;
    double tail_opt = 0, tail_gather = 0;
    for (int k = 0; k < p; ++k) {
        tail_opt = std::max(tail_opt, stages[static_cast<std::size_t>(k)].optimizer_s);
        tail_gather = std::max(tail_gather, stages[static_cast<std::size_t>(k)].param_gather_s);
    }
    return pipeline + std::max(0.0, first.dp_reduce_s - last_backward) + tail_opt + tail_gather;
}

}  // namespace m2m::core
