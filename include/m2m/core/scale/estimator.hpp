// Real scale: a transformer's parameters, FLOPs and memory, one training step on the shared scheduler, and layout search.
//
// [SECTION] The model            TransformerShape, parameter and FLOP counts, activation bytes
// [SECTION] The hardware         GpuSpec and its one efficiency constant (from hardware.json)
// [SECTION] The layout           tp x pp x dp, micro-batches, schedule, recompute, ZeRO; check()
// [SECTION] The links            LayoutLinks: Lesson 2's cluster, routes and ring collectives
// [SECTION] The estimate         memory, stage costs, the step's work graph, estimate()
// [SECTION] Search               every valid layout for a GPU count, ranked
// [SECTION] Real scale           one CPU vs one GPU vs a cluster
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "m2m/core/rack/collectives.hpp"
#include "m2m/core/engine/machine.hpp"
#include "m2m/core/engine/pipeline_schedule.hpp"
#include "m2m/core/engine/scheduler.hpp"
#include "m2m/core/engine/training_bytes.hpp"
#include "m2m/core/rack/topology.hpp"

namespace m2m::core {

// [SECTION] The model: a decoder-only transformer's shape --------------------------------------

enum class MlpKind {
    gelu,   ///< two matrices, h -> ffn -> h (GPT-2, GPT-3, Megatron)
    swiglu  ///< three matrices: gate and up h -> ffn, down ffn -> h (Llama)
};

/// What the formulas need to know about a model; presets fill it from assets/models.json.
struct TransformerShape {
    std::string id = "custom";
    std::string name = "custom model";
    std::int64_t layers = 0;      ///< l
    std::int64_t hidden = 0;      ///< h
    std::int64_t heads = 0;       ///< a (query heads)
    std::int64_t kv_heads = 0;    ///< key/value heads (grouped-query attention); 0 means = heads
    std::int64_t ffn_hidden = 0;  ///< inner width of the MLP; 0 means 4h
    std::int64_t vocab = 0;       ///< V
    std::int64_t seq = 0;         ///< s, tokens per sequence
    MlpKind mlp = MlpKind::gelu;
    bool tied_embeddings = true;    ///< the output layer reuses the input embedding matrix
    bool learned_positions = true;  ///< a learned s x h position table (GPT) rather than RoPE (Llama)
    bool biases = true;             ///< linear layers and norms carry biases (GPT) or not (Llama)
    bool dropout = true;            ///< trained with dropout (its masks are kept for backward)
};

/// Empty when the shape is usable, else "field: what is wrong" (field is layers, hidden, ...).
std::string validate(const TransformerShape& m);
std::int64_t effective_kv_heads(const TransformerShape& m);
std::int64_t effective_ffn_hidden(const TransformerShape& m);

struct ParameterCount {
    std::int64_t matmul_per_layer = 0;  ///< weights of the layer's matrix multiplies
    std::int64_t per_layer = 0;         ///< + biases and norms
    std::int64_t embeddings = 0;        ///< token (and position) tables, plus an untied output matrix
    std::int64_t total = 0;
};
/// Exact count from the shape. GPT: 12 l h^2 + 13 l h + (V + s) h + 2h
/// [Narayanan et al. 2021, Eq. 2, plus the final layer norm].
ParameterCount count_parameters(const TransformerShape& m);

/// Model FLOPs of one training token (forward + backward, no recompute):
/// 6 (l P_matmul + V h) + 12 l s h, which for GPT is 72 l h^2 (1 + s/(6h) + V/(12 l h))
/// [Korthikanti et al. 2022, sec. 6; the attention scores and softmax-times-values are 12 l s h].
double model_flops_per_token(const TransformerShape& m);

enum class Recompute { none, selective, full };

/// How attention is computed. standard: the s x s scores are written to memory and kept for
/// the backward pass (Megatron-LM in 2022, what Korthikanti et al. measured); flash: a fused
/// kernel that never stores them and recomputes them in its backward pass [Dao et al. 2022].
enum class AttentionKernel { standard, flash };

/// Hardware FLOPs of one token: model FLOPs plus what is computed twice. Selective recompute
/// and flash attention redo the attention scores (4 l s h); full recompute redoes every
/// layer's forward pass, so 72 -> 96 in the GPT formula [Narayanan et al. 2021, Eq. 3].
double hardware_flops_per_token(const TransformerShape& m, Recompute recompute,
                                AttentionKernel attention = AttentionKernel::standard);

/// Activation bytes one layer keeps for one micro-batch on one GPU [Korthikanti et al. 2022,
/// sec. 4]: 34 s b h + 5 a s^2 b without parallelism; with tensor parallel t,
/// s b h (10 + 24/t + 5 a s/(h t)); with sequence parallelism (s b h/t)(34 + 5 a s/h);
/// selective recompute (or flash attention) drops the a s^2 b term; full recompute keeps the
/// layer input, 2 s b h (/t with sequence parallelism). GQA, other FFN widths, SwiGLU and
/// training without dropout are the same accounting with the tensors resized or removed.
double activation_bytes_per_layer(const TransformerShape& m, std::int64_t micro_batch, int tp,
                                  bool sequence_parallel, Recompute recompute,
                                  AttentionKernel attention = AttentionKernel::standard);

// [SECTION] The hardware: one GPU type (its links are Lesson 2's SystemSpec) ---------------------

/// A GPU as the estimator needs it; presets::estimator_gpu() fills it from assets/hardware.json.
struct GpuSpec {
    std::string id;    ///< "a100", "h100", "h200", "b200"
    std::string name;
    double peak_bf16_flops = 0;       ///< dense tensor-core rate, FLOP/s
    double memory_bytes = 0;          ///< HBM capacity
    double memory_bandwidth_Bps = 0;  ///< HBM bandwidth
    /// The one efficiency constant of a GPU type: the fraction of dense BF16 peak its large matrix
    /// multiplies sustain in training, the same for every model and layout; everything else
    /// (memory-bound kernels, collectives, sends, the bubble, the optimizer) is modelled apart.
    double achievable_fraction = 0;
    std::string achievable_source;  ///< where achievable_fraction comes from (hardware.json)
};

// [SECTION] The layout ------------------------------------------------------------------------

std::string_view recompute_name(Recompute r);         ///< "none", "selective", "full"
std::string_view attention_name(AttentionKernel a);   ///< "standard", "flash"

/// How N GPUs share the work: tensor x pipeline x data parallel, and how a step is cut up.
struct Layout {
    int gpus = 1;
    int tp = 1;  ///< tensor parallel: splits every layer's matrices (NVLink when <= a node)
    int pp = 1;  ///< pipeline parallel: consecutive layers on different GPUs
    int dp = 1;  ///< data parallel: replicas, each on its share of the batch
    std::int64_t micro_batch = 1;   ///< sequences per micro-batch
    std::int64_t global_batch = 1;  ///< sequences per optimizer step, over all replicas
    PipelineSchedule schedule = PipelineSchedule::one_f_one_b;  ///< engine/pipeline_schedule.hpp
    int chunks = 2;  ///< interleaved: model chunks (virtual stages) per GPU
    Recompute recompute = Recompute::selective;
    AttentionKernel attention = AttentionKernel::standard;
    int zero_stage = 0;  ///< 0, or 1 (optimizer state split across the data-parallel replicas)
    bool sequence_parallel = true;  ///< with tp > 1 (Megatron's default with selective recompute)
    std::int64_t micro_batches() const { return dp > 0 && micro_batch > 0 ? global_batch / (dp * micro_batch) : 0; }
};

struct EstimateSetup {
    TransformerShape model;
    GpuSpec gpu;
    SystemSpec system;                 ///< Lesson 2's node: NVLink, PCIe and InfiniBand figures
    std::uint32_t gpus_per_node = 8;
    std::uint32_t nodes_per_rack = 8;  ///< nodes under one leaf switch (Lesson 2's ClusterShape)
    Layout layout;
    double train_tokens = 0;  ///< > 0: also report the days to train on this many tokens
};

/// What is wrong with a setup: `field` is the layout or shape member at fault ("tp", "dp",
/// "global_batch", "layers", ...), `message` one sentence saying what is accepted.
struct SetupProblem {
    std::string field;
    std::string message;
};
std::optional<SetupProblem> check(const EstimateSetup& setup);

// [SECTION] The links a layout uses -------------------------------------------------------------

/// Where a layout's traffic runs, on Lesson 2's cluster model. GPUs are numbered as Megatron
/// ranks them (tensor fastest, then data, then pipeline), so the tensor-parallel group of
/// stage 0 is GPUs 0..tp-1, its data-parallel group GPUs 0, tp, 2 tp, ..., and stage k
/// starts at GPU k tp dp. Collective times come from core::run_collective (ring, lock-step,
/// on the scheduler); a group that spans nodes with several members per node uses one ring
/// per member (NCCL's rail-aligned rings, one per NIC).
class LayoutLinks {
public:
    /// exact: run_collective for every distinct size (what estimate() uses); linear: two runs
    /// per collective, then a straight line through them (what the search ranks with).
    enum class Mode { exact, linear };
    /// Throws std::invalid_argument when the system's links are unusable or the cluster is too big.
    LayoutLinks(const EstimateSetup& setup, Mode mode);
    double tp_collective_s(CollectiveOp op, double bytes);
    double dp_collective_s(CollectiveOp op, double bytes);
    /// GPU r of stage k to GPU r of stage k2, for the tensor-parallel ranks r of the first
    /// replica: the slowest of those routes (they run side by side, each on its own links).
    Route stage_route(int k, int k2) const;
    LinkType tp_link() const { return m_tp_type; }
    LinkType dp_link() const { return m_dp_type; }
    const Cluster& cluster() const { return m_cluster; }

private:
    struct Memo {
        int group;
        CollectiveOp op;
        double bytes;
        double seconds;
    };
    double collective_s(int group, CollectiveOp op, double bytes);
    double run_s(int group, CollectiveOp op, double bytes) const;
    Mode m_mode;
    Cluster m_cluster;
    Layout m_layout;
    CollectiveSetup m_groups[2];  ///< [0] tensor-parallel, [1] data-parallel (op and bytes set per call)
    LinkType m_tp_type = LinkType::local, m_dp_type = LinkType::local;
    std::vector<Memo> m_memo;
};

// [SECTION] The estimate -----------------------------------------------------------------------

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

// [SECTION] Search -----------------------------------------------------------------------------

struct LayoutScore {
    Layout layout;
    double step_time_s = 0;
    double tokens_per_s = 0;
    double mfu = 0;
    double memory_bytes = 0;
    bool fits = false;
    bool confirmed = false;  ///< step time from the scheduler (true) or the closed form (false)
};

struct SearchResult {
    std::vector<LayoutScore> best;  ///< fitting layouts, fastest first, the first `top` confirmed
    int candidates = 0;             ///< valid layouts considered
    int fitting = 0;
    std::optional<LayoutScore> smallest;  ///< when none fits: the layout needing the least memory
};

/// Every valid (tp in 1, 2, 4, 8 within a node; pp up to the layer count, uneven allowed;
/// dp = N / (tp pp) dividing the global batch; micro-batch dividing the per-replica batch) for
/// `setup.layout.gpus`, keeping the setup's schedule, recompute and ZeRO stage. Ranked on the
/// closed form; the `top` fastest that fit are then run on the scheduler and re-ranked.
SearchResult search_layouts(const EstimateSetup& setup, int top = 5);

// [SECTION] Real scale: one CPU, one GPU, a cluster -------------------------------------------

/// Training compute ~ 6 x parameters x tokens (forward 2, backward 4) [Kaplan et al. 2020;
/// GPT-3 paper Table D.1: 175B on 300B tokens = 3.14e23 FLOPs].
double training_flops(double parameters, double tokens);

struct TrainingRunRow {
    std::string label;        ///< "One CPU (AMD EPYC 9654)"
    double seconds = 0;
    std::string duration;     ///< "2,350 years", "14 days"
    std::string assumption;   ///< the rate used and where it is from
};
struct TrainingRunComparison {
    double flops = 0;
    std::vector<TrainingRunRow> rows;
    std::vector<std::string> assumptions;
};

/// A machine reduced to its sustained rate for the comparison.
struct SustainedRate {
    std::string name;
    double peak_flops = 0;
    double fraction = 0;
    std::string basis;  ///< e.g. "FP32 peak 7.4 TFLOP/s x 0.57 (MKL SGEMM on a desktop CPU)"
};

/// How long `flops` of training take on one CPU, one GPU and a cluster of `cluster_gpus` GPUs
/// at `cluster_mfu` (from an estimate of a real layout). Durations come with their assumptions.
TrainingRunComparison compare_training_run(const std::string& model_name, double parameters, double tokens,
                                           const SustainedRate& cpu, const GpuSpec& gpu, int cluster_gpus,
                                           double cluster_mfu);

}  // namespace m2m::core
