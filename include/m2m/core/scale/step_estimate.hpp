// One real-scale training step: memory per GPU, each pipeline stage's costs, the step as a work
// graph on the shared scheduler, and estimate(), which derives step time, MFU and days to train.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "m2m/core/engine/scheduler.hpp"
#include "m2m/core/rack/topology.hpp"
#include "m2m/core/scale/layout.hpp"
#include "m2m/core/scale/layout_links.hpp"
#include "m2m/core/scale/transformer.hpp"

namespace m2m::core {

/// Per-GPU memory of the most loaded pipeline stage.
struct MemoryUse {
    int stage = 0;                     ///< which pipeline stage this is
    double parameters = 0;             ///< parameters held by one GPU of that stage
    double weights_bytes = 0;          ///< 2 B per parameter (bf16)
    double gradients_bytes = 0;        ///< 2 B per parameter
    double optimizer_bytes = 0;        ///< 12 B per parameter (fp32 master, momentum, variance), / dp with ZeRO-1
    double activations_bytes = 0;
    double in_flight_micro_batches = 0;  ///< micro-batches whose activations the stage holds at once
    double total_bytes = 0;
    double capacity_bytes = 0;
    bool fits = false;
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
    double forward_s = 0, backward_s = 0;             ///< what the timeline uses
    double forward_compute_s = 0, backward_compute_s = 0;  ///< matrix multiplies at the achievable rate
    double forward_memory_s = 0, backward_memory_s = 0;    ///< memory-bound kernels at HBM bandwidth
    double forward_tp_s = 0, backward_tp_s = 0;            ///< tensor-parallel collectives
    double send_s = 0;          ///< point-to-point send of this stage's output to the next
    LinkType send_link = LinkType::local;
    double dp_reduce_s = 0;     ///< data-parallel gradient all-reduce (ZeRO-1: reduce-scatter)
    double param_gather_s = 0;  ///< ZeRO-1: all-gather of the updated weights
    double optimizer_s = 0;     ///< Adam update, memory bound
};

enum class TrainingTaskKind { forward, backward, send_forward, send_backward, dp_reduce, optimizer, param_gather, join };
std::string_view training_task_name(TrainingTaskKind k);

/// One task of the step's work graph, for a Gantt chart with one row per pipeline stage.
struct TrainingTask {
    TrainingTaskKind kind = TrainingTaskKind::join;
    int stage = -1;        ///< pipeline stage (for sends: the sender)
    int micro_batch = -1;
    int chunk = 0;         ///< interleaved: the model chunk
    double start_s = 0, end_s = 0;
};

struct Estimate {
    ParameterCount parameters;
    double model_flops_per_step = 0;     ///< no recompute [Korthikanti: 72 B s l h^2 (...)]
    double hardware_flops_per_step = 0;  ///< recompute counted
    MemoryUse memory;
    std::vector<StageCost> stages;       ///< one per virtual stage (pp x chunks; 1f1b and gpipe: one per stage)
    std::int64_t micro_batches = 0;      ///< per replica per step
    double step_time_s = 0;
    double tokens_per_s = 0;
    double model_tflops_per_gpu = 0;
    double hardware_tflops_per_gpu = 0;
    double mfu = 0, hfu = 0;
    double bubble_fraction = 0;  ///< the schedule's ideal share of idle time: (p-1)/(v m + p - 1)
    double idle_fraction = 0;    ///< measured on the timeline: share of stage time not computing
    double train_days = 0;       ///< with train_tokens > 0
    double exposed_dp_s = 0;     ///< gradient sync and optimizer time after the last backward
    Timeline timeline;           ///< the scheduler's output; tasks[i] says what task i is
    std::vector<TrainingTask> tasks;
    std::vector<std::string> assumptions;  ///< sentences: what the model counts and what it leaves out
};

/// Builds one step's work graph (one task per stage per micro-batch per direction, sends on
/// link pools, the gradient sync, the optimizer), schedules it and derives the figures. With
/// keep_timeline false only the figures are kept (tasks and timeline runs are dropped).
/// Throws std::invalid_argument with check()'s message ("field: message") on a bad setup.
Estimate estimate(const EstimateSetup& setup, bool keep_timeline = true);

/// The work graph estimate() schedules, with what each task is (for tests and views).
WorkGraph build_step_graph(const EstimateSetup& setup, const std::vector<StageCost>& stages,
                           std::vector<TrainingTask>* tasks = nullptr);
std::vector<StageCost> stage_costs(const EstimateSetup& setup, LayoutLinks& links);
MemoryUse memory_use(const EstimateSetup& setup);

/// Step time in closed form (no scheduler): (m - 1) x the slowest stage + one trip through all
/// stages (1/v of the fill and drain when interleaved) + sends + the exposed gradient sync.
/// Within 3% of estimate() for 1F1B and GPipe on even stages; rougher for interleaving with
/// uneven chunks. Used to rank layouts before the best are confirmed on the scheduler.
double closed_form_step_time_s(const EstimateSetup& setup, const std::vector<StageCost>& stages);

}  // namespace m2m::core
