// One real-scale training step: memory per GPU, each pipeline stage's costs and exchanges (what
// overlap hides and what it leaves exposed), the step's timeline, and estimate(), which derives
// step time, MFU and days to train.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "m2m/core/engine/scheduler.hpp"
#include "m2m/core/rack/topology.hpp"
#include "m2m/core/scale/exchange_cost.hpp"
#include "m2m/core/scale/layout.hpp"
#include "m2m/core/scale/layout_links.hpp"
#include "m2m/core/scale/transformer.hpp"

namespace m2m::core {

/// What frameworks add on every GPU beyond the tensors counted here. CUDA's context with lazy
/// module loading takes ~0.3-0.4 GB (PyTorch maintainers, pytorch/pytorch issues #107667 and
/// #109888); NCCL keeps buffers for each communicator (NCCL_BUFFSIZE, 4 MiB per channel and peer
/// by default, NCCL's environment documentation); the caching allocator leaves fragments between
/// blocks, which no source measures in general. The estimator adds 1 GB (context, cuBLAS and NCCL
/// workspaces) plus 5% of the counted tensors (fragmentation, the low end of the 5-10% headroom
/// estimators add; an assumption, not a measurement).
inline constexpr double framework_fixed_bytes = 1e9;
inline constexpr double framework_fragmentation = 0.05;

/// Per-GPU memory of the most loaded pipeline stage.
struct MemoryUse {
    int stage = 0;                     ///< which pipeline stage this is
    double parameters = 0;             ///< parameters one GPU of that stage holds a part of (before ZeRO)
    double expert_parameters = 0;      ///< of which routed experts (split by ep as well as tp)
    double weights_bytes = 0;          ///< 2 B per parameter (bf16), / the shard group with ZeRO 3
    double gradients_bytes = 0;        ///< 2 B per parameter, / the shard group with ZeRO 2 and 3
    double optimizer_bytes = 0;        ///< 12 B per parameter (fp32 master, momentum, variance), / the shard group with ZeRO 1-3
    double gathered_bytes = 0;         ///< ZeRO 3: whole layers gathered for compute, and their gradients before the reduce-scatter
    double activations_bytes = 0;
    double in_flight_micro_batches = 0;  ///< micro-batches whose activations the stage holds at once
    double framework_bytes = 0;        ///< CUDA context, workspaces, allocator fragmentation (see above)
    double total_bytes = 0;
    double capacity_bytes = 0;
    bool fits = false;
    double state_bytes() const { return weights_bytes + gradients_bytes + optimizer_bytes; }
};

/// One exchange of the step as one GPU of the busiest stage sees it: which group, what
/// collective, how big, how often, and how much of its time compute hides.
struct StepExchange {
    std::string what;         ///< "tensor-parallel all-gather of each layer's input"
    GroupKind group = GroupKind::tensor;
    CollectiveKind op = CollectiveKind::all_reduce;
    int group_size = 1;
    LinkType link = LinkType::local;
    double bytes = 0;         ///< one occurrence (nccl-tests' S; a send's bytes)
    double count = 0;         ///< occurrences per step on one GPU
    double seconds = 0;       ///< one occurrence on idle links
    std::string_view algorithm, protocol;  ///< NCCL's choice ("ring", "simple", ...); a send: "route", ""
    double hidden_s = 0;      ///< per step: behind compute (overlapped)
    double exposed_s = 0;     ///< per step: compute waits for it
    double total_bytes() const { return bytes * count; }
};

/// One pipeline stage's work for one micro-batch, per GPU, with what it is made of. With the
/// interleaved schedule there is one per virtual stage j (pp x chunks of them): j runs on GPU
/// stage j % pp as its chunk j / pp. The gradient sync and optimizer figures are per GPU stage,
/// on its first entry (j < pp).
struct StageCost {
    int stage = 0;
    int chunk = 0;
    std::int64_t layers = 0;
    bool has_logits = false;
    double forward_s = 0, backward_s = 0;             ///< what the timeline uses: compute and exposed exchanges
    double forward_compute_s = 0, backward_compute_s = 0;  ///< matrix multiplies and attention at the achievable rate
    double forward_memory_s = 0, backward_memory_s = 0;    ///< memory-bound kernels at HBM bandwidth
    double forward_tp_s = 0, backward_tp_s = 0;            ///< tensor-parallel collectives (exposed part)
    double forward_cp_s = 0, backward_cp_s = 0;            ///< context parallel's key/value ring (exposed part)
    double forward_ep_s = 0, backward_ep_s = 0;            ///< expert parallel's all-to-alls
    double forward_zero_s = 0, backward_zero_s = 0;        ///< ZeRO 2/3 gathers and reduce-scatters (exposed part)
    double forward_zero_hidden_s = 0, backward_zero_hidden_s = 0;  ///< ... and the part compute hides
    double send_s = 0;          ///< point-to-point send of this stage's output to the next
    LinkType send_link = LinkType::local;
    double dp_reduce_s = 0;     ///< gradient sync once per step (ZeRO 0: all-reduce; 1: reduce-scatter), whole
    double dp_exposed_s = 0;    ///< the part of it left after the last backward (the last bucket, or all without overlap)
    double param_gather_s = 0;  ///< ZeRO 1/2: all-gather of the updated weights, whole
    double param_exposed_s = 0; ///< the part of it the next step's first forward cannot hide
    double optimizer_s = 0;     ///< Adam update, memory bound
};

enum class TrainingTaskKind {
    forward, backward, send_forward, send_backward, dp_reduce, optimizer, param_gather, join,
    zero_traffic,  ///< ZeRO 2/3 gathers and reduce-scatters during one pass (their own track)
    steady,        ///< a stage's steady state summarised: `passes` forwards and backwards in turn
    steady_forwards,   ///< GPipe's: a stage's `passes` forwards one after another, summarised
    steady_backwards,  ///< GPipe's: its `passes` backwards, after the bubble
};
std::string_view training_task_name(TrainingTaskKind k);

/// One task of the step, for a Gantt chart with a compute row per pipeline stage and, under it,
/// a row of the data-parallel traffic that runs beside compute.
struct TrainingTask {
    TrainingTaskKind kind = TrainingTaskKind::join;
    int stage = -1;        ///< pipeline stage (for sends: the sender)
    int micro_batch = -1;
    int chunk = 0;         ///< interleaved: the model chunk
    double start_s = 0, end_s = 0;
    double exposed_s = 0;  ///< communication: the part compute waited for (the rest ran hidden)
    std::int64_t passes = 1;  ///< steady: how many passes the bar stands for
};

struct Estimate {
    ParameterCount parameters;
    double model_flops_per_step = 0;     ///< no recompute [Korthikanti: 72 B s l h^2 (...)]
    double hardware_flops_per_step = 0;  ///< recompute counted
    MemoryUse memory;
    std::vector<StageCost> stages;       ///< one per virtual stage (pp x chunks; 1f1b and gpipe: one per stage)
    std::vector<StepExchange> exchanges; ///< every exchange of a GPU of the busiest stage
    std::int64_t micro_batches = 0;      ///< per replica per step
    double step_time_s = 0;
    double tokens_per_s = 0;
    double model_tflops_per_gpu = 0;
    double hardware_tflops_per_gpu = 0;
    double mfu = 0, hfu = 0;
    double bubble_fraction = 0;  ///< the schedule's ideal share of idle time: (p-1)/(v m + p-1)
    double idle_fraction = 0;    ///< measured on the timeline: share of stage time not computing
    double train_days = 0;       ///< with train_tokens > 0
    double exposed_dp_s = 0;     ///< gradient sync and optimizer time after the last backward
    double exposed_communication_s = 0;  ///< per step, one GPU of the busiest stage: compute waited
    double hidden_communication_s = 0;   ///< per step, the same GPU: ran beside compute
    std::vector<TrainingTask> tasks;     ///< with keep_timeline: every pass, send and sync
    std::vector<std::string> assumptions;  ///< sentences: what the model counts and what it leaves out
};

/// Costs every stage, times the pipeline's passes in each stage's schedule order (pipeline_run.hpp:
/// the same rules as the shared scheduler, without building the graph), adds the gradient sync and
/// the optimizer, and derives the figures. With keep_timeline false the tasks are not kept.
/// Throws std::invalid_argument with check()'s message ("field: message") on a bad setup.
Estimate estimate(const EstimateSetup& setup, bool keep_timeline = true);

/// The step as a work graph on the shared scheduler (one task per stage per micro-batch per
/// direction, sends on link pools, the gradient sync, the optimizer): the reference that
/// estimate()'s pipeline timing is tested against, and what the scheduler benchmarks run.
WorkGraph build_step_graph(const EstimateSetup& setup, const std::vector<StageCost>& stages,
                           std::vector<TrainingTask>* tasks = nullptr);
/// The step time of that graph, scheduled.
double scheduled_step_time_s(const EstimateSetup& setup, const std::vector<StageCost>& stages);
std::vector<StageCost> stage_costs(const EstimateSetup& setup, LayoutLinks& links);
/// Every exchange of one GPU of stage `stage` over a step (what estimate() lists).
std::vector<StepExchange> step_exchanges(const EstimateSetup& setup, const std::vector<StageCost>& stages,
                                         LayoutLinks& links, int stage);
MemoryUse memory_use(const EstimateSetup& setup);

/// Step time in closed form (no pipeline timing): (m - 1) x the slowest stage + one trip through
/// all stages (1/v of the fill and drain when interleaved) + sends + the exposed gradient sync and
/// update. Used to rank layouts before the best are timed by estimate().
double closed_form_step_time_s(const EstimateSetup& setup, const std::vector<StageCost>& stages);

}  // namespace m2m::core
