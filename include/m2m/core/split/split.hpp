// Lesson 3's strategies: the next-word network split across GPUs (data, tensor, pipeline, 3D, FSDP),
// what each GPU holds and exchanges, one training step's timeline, and the split run itself.
//
// [SECTION] The setup           strategies, placements, degrees, check_split   (split_names.cpp)
// [SECTION] What each GPU holds  GpuHolding, MemoryBytes                        (split_plan.cpp)
// [SECTION] What they exchange   Exchange                                       (split_exchanges.cpp)
// [SECTION] One training step    StepTimeline, SplitResult, run_split           (split_step.cpp, split_sentences.cpp)
// [SECTION] The split, really run run_split_forward, run_split_training_step   (split_machine*.cpp)
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "m2m/core/rack/collectives.hpp"
#include "m2m/core/engine/machine.hpp"
#include "m2m/core/engine/pipeline_schedule.hpp"
#include "m2m/core/engine/training_bytes.hpp"
#include "m2m/core/split/next_word.hpp"
#include "m2m/core/engine/scheduler.hpp"
#include "m2m/core/rack/topology.hpp"

namespace m2m::core {

// [SECTION] The setup -----------------------------------------------------------------------------

/// fsdp: fully sharded data parallel (ZeRO stage 3, PyTorch FSDP's full shard): data parallel
/// whose GPUs each keep only a 1/G shard of every layer's weights, gradients and Adam state.
enum class Strategy { data, tensor, pipeline, three_d, fsdp };
inline constexpr Strategy all_strategies[] = {Strategy::data, Strategy::tensor, Strategy::pipeline, Strategy::three_d,
                                              Strategy::fsdp};
/// "data", "tensor", "pipeline", "3d", "fsdp": the command line's spelling.
std::string_view strategy_name(Strategy s);
/// "data parallel", "tensor parallel", "pipeline parallel", "3D parallel (data x tensor x pipeline)",
/// "fully sharded data parallel (FSDP)".
std::string_view strategy_label(Strategy s);
std::optional<Strategy> parse_strategy(std::string_view name);

/// Where the GPUs sit: all in one node (NVLink between every pair), or the first half in one
/// node and the rest in a second node (InfiniBand between the halves).
enum class Placement { one_node, two_nodes };
std::string_view placement_name(Placement p);  ///< "node", "nodes"
std::optional<Placement> parse_placement(std::string_view name);

inline constexpr int max_split_gpus = 8;
/// Prompts (corpus examples) in one training step, shared by every strategy: 48 divides
/// evenly among 1, 2, 3, 4, 6 and 8 data-parallel copies.
inline constexpr int step_prompts = 48;
/// The first step_prompts corpus examples: the batch every strategy trains on for one step.
std::vector<Example> step_batch();

/// How many ways each dimension is split; GPUs = data x tensor x pipeline.
struct SplitDegrees {
    int data = 1;
    int tensor = 1;
    int pipeline = 1;
    /// FSDP: the data-parallel GPUs shard every layer's parameters among them (1/data each) and
    /// all-gather a layer's full weights only while it computes.
    bool sharded = false;
    int gpus() const { return data * tensor * pipeline; }
};
/// data: {G,1,1}; tensor: {1,G,1}; pipeline: {1,1,G}; 3d: {2,2,2} (needs G = 8); fsdp: {G,1,1}, sharded.
SplitDegrees split_degrees(Strategy s, int gpus);

/// The hardware a step runs on: Lesson 2's node generation for the wires, and one GPU's
/// compute figures (from the same preset id) for the kernels.
struct SplitHardware {
    SystemSpec system;        ///< NVLink / PCIe / InfiniBand figures and latencies
    ComputeSpec gpu;          ///< memory bandwidth and per-kernel launch overhead
    double tensor_flops = 0;  ///< dense BF16 tensor-core FLOP/s (mixed-precision training)
};

/// How the toy's kernels are timed (the wires are always Lesson 2's model).
/// lesson: each kernel costs its operations at lesson_ops_per_s and nothing else, so the work a
/// GPU does grows with the prompts and neurons it handles, as a real model's does: splitting pays.
/// hardware: the GPU's own figures, launch overhead included; a network this small is launch
/// bound (each kernel's few microseconds of launch dwarf its arithmetic), so splitting only adds.
enum class SplitTiming { lesson, hardware };
std::string_view split_timing_name(SplitTiming t);  ///< "lesson", "hardware"
std::optional<SplitTiming> parse_split_timing(std::string_view name);
/// Lesson timing's rate: a billion operations a second, slow enough that the toy's arithmetic
/// weighs against Lesson 2's wires as a real model's does on a real GPU (a teaching choice).
inline constexpr double lesson_ops_per_s = 1e9;

struct SplitSetup {
    Strategy strategy = Strategy::data;
    int gpus = 2;
    /// Micro-batches per step for a pipeline (pipeline and 3d); other strategies run the
    /// step as one batch and ignore it.
    int micro_batches = 4;
    /// gpipe or one_f_one_b; check_split refuses interleaved (Lesson 3 shows the two plain
    /// schedules; the real-scale estimator adds interleaving).
    PipelineSchedule schedule = PipelineSchedule::one_f_one_b;
    Placement placement = Placement::one_node;
    SplitHardware hardware;  ///< only the timeline reads it
    SplitTiming timing = SplitTiming::lesson;
};

enum class SplitField { strategy, gpus, micro_batches, placement, hardware, schedule };
/// "strategy", "gpus", "micro-batches", "placement", "hardware", "schedule".
std::string_view split_field_name(SplitField f);
struct SplitProblem {
    SplitField field = SplitField::gpus;
    std::string message;  ///< what is wrong and what is accepted, one sentence
};
/// GPU counts the strategy splits evenly: data {1,2,3,4,6,8} (48 prompts), tensor {1,2,4,8}
/// (8 embedding dimensions, 48 and 24 neurons), pipeline {1,2,4} (4 dense layers), 3d {8}, fsdp
/// {1,2,4,8} (both the prompts and every layer's neurons, which its shards are cut along).
std::vector<int> accepted_gpu_counts(Strategy s);
/// Micro-batch counts that split each copy's prompts evenly.
std::vector<int> accepted_micro_batches(const SplitSetup& setup);
/// nullopt when the setup is valid. `check_hardware` also checks the hardware figures.
std::optional<SplitProblem> check_split(const SplitSetup& setup, bool check_hardware = true);

// [SECTION] What each GPU holds -------------------------------------------------------------------

/// Neurons [first, first + count) of one layer. count 0: the layer lives on other GPUs.
struct NeuronRange {
    int first = 0;
    int count = 0;
    int end() const { return first + count; }
    bool contains(int neuron) const { return neuron >= first && neuron < end(); }
};

/// Bytes one GPU holds, mixed-precision Adam (engine/training_bytes.hpp): 2 B bf16 weight + 2 B
/// bf16 gradient + 12 B fp32 master weight, momentum and variance = 16 B per parameter;
/// activations in bf16 (2 B a value), kept from the forward pass for the backward.
struct MemoryBytes {
    Bytes weights = 0;
    Bytes gradients = 0;
    Bytes optimizer = 0;
    Bytes activations = 0;
    /// FSDP: the buffer a borrowed layer passes through, its full bf16 weights and (in the
    /// backward, before the reduce-scatter) its full bf16 gradient, sized for the largest layer.
    Bytes borrowed = 0;
    Bytes total() const { return weights + gradients + optimizer + activations + borrowed; }
};

struct GpuHolding {
    int gpu = 0;                 ///< 0 .. G-1
    GpuId cluster_gpu = 0;       ///< its number in the Cluster (node * 8 + local)
    int node = 0;
    int data_rank = 0;           ///< which copy of the network
    int tensor_rank = 0;         ///< which slice of each layer's neurons
    int stage = 0;               ///< which run of layers
    /// One per network layer (layer_infos order): the neurons whose parameters it keeps (FSDP:
    /// its shard; it computes every neuron, borrowing the rest one layer at a time).
    std::vector<NeuronRange> neurons;
    std::vector<std::int64_t> layer_parameters;  ///< parameters held, per layer
    int first_layer = 0;         ///< the stage's layers: [first_layer, last_layer]
    int last_layer = 0;
    std::int64_t neuron_count = 0;
    std::int64_t parameters = 0;
    int prompts = 0;             ///< prompts of the step it computes (its copy's share)
    int micro_batches = 1;
    int rows_in_flight = 0;      ///< prompts whose activations it keeps at once
    MemoryBytes bytes;
    std::string sentence;        ///< "GPU 1 (node 0) holds ..."
};

// [SECTION] What they exchange --------------------------------------------------------------------

enum class StepPhase { forward, backward, update };
std::string_view step_phase_name(StepPhase p);  ///< "forward", "backward", "update"
enum class ExchangeOp { all_reduce, all_gather, reduce_scatter, send };
std::string_view exchange_op_name(ExchangeOp op);  ///< "all-reduce", "all-gather", "reduce-scatter", "send"

struct Exchange {
    StepPhase phase = StepPhase::forward;
    ExchangeOp op = ExchangeOp::send;
    /// Whose outputs (forward) or outputs' gradients (backward) move; FSDP: whose weights or
    /// weights' gradients; -1: the gradients of every parameter held.
    int layer = -1;
    std::vector<int> gpus;    ///< collectives: the group in ring order; send: {from, to}
    Bytes bytes = 0;          ///< one occurrence; nccl-tests' S for collectives
    int times = 1;            ///< occurrences per step (once per micro-batch)
    LinkType link = LinkType::nvlink;  ///< infiniband as soon as any GPU pair crosses nodes
    double seconds = 0;       ///< one occurrence on idle links, from Lesson 2's link model
    std::string what;         ///< "outputs of hidden 2", "gradients of all 7,280 parameters"
    Bytes total_bytes() const { return bytes * times; }
};
/// What one occurrence puts on the wires, every GPU's sends added up (Lesson 2's bytes_on_wires:
/// a ring all-reduce of S among n GPUs sends 2(n-1)/n x S from each GPU; a send, its bytes).
double wire_bytes(const Exchange& e);

// [SECTION] One training step on the scheduler ----------------------------------------------------

enum class StepTaskKind { forward, backward, communication, update, idle };
std::string_view step_task_kind_name(StepTaskKind k);  ///< "forward", "backward", "comm", "update", "idle"

struct StepTask {
    StepTaskKind kind = StepTaskKind::idle;
    int gpu = 0;
    int layer = -1;        ///< network layer (forward, backward)
    int micro_batch = -1;  ///< forward, backward, communication
    int exchange = -1;     ///< index into SplitResult::exchanges (communication)
    SimTime start = 0;     ///< picoseconds
    SimTime end = 0;
    double start_s() const { return static_cast<double>(start) / picoseconds_per_second; }
    double end_s() const { return static_cast<double>(end) / picoseconds_per_second; }
};

/// One GPU's row of the timeline: its kernels, the exchanges it takes part in (from the
/// first send to the last arrival; they may overlap its kernels), and idle gaps where it
/// does neither, all in start order.
struct GpuTimeline {
    int gpu = 0;
    std::vector<StepTask> tasks;
    double compute_s = 0;        ///< kernels (forward, backward, update)
    double communication_s = 0;  ///< exchanging while no kernel runs
    double idle_s = 0;           ///< neither: waiting (the pipeline bubble lives here)
};

struct StepTimeline {
    WorkGraph graph;     ///< GPU pools first (pool g = GPU g), then the link pools
    Timeline timeline;   ///< picoseconds
    std::vector<GpuTimeline> gpus;
    SimTime step_time = 0;
    double step_time_s = 0;
    /// Means over the GPUs; compute_s + communication_s + idle_s == step_time_s.
    double compute_s = 0;
    double communication_s = 0;
    double idle_s = 0;
    double idle_fraction = 0;  ///< idle_s / step_time_s
};

struct SplitResult {
    SplitSetup setup;
    SplitDegrees degrees;
    int micro_batches = 1;               ///< as run (1 without a pipeline)
    std::vector<LayerInfo> layers;
    std::vector<int> stage_first_layer;  ///< per stage: first network layer; stage s ends before s+1's
    std::vector<GpuHolding> gpus;
    std::vector<Exchange> exchanges;
    Bytes exchanged_bytes = 0;           ///< sum of total_bytes(): the tensors exchanged
    double wire_bytes = 0;               ///< what crosses the wires for them per step (wire_bytes x times)
    StepTimeline step;
    /// The ideal pipeline bubble, (p-1)/(m+p-1) of the step (Narayanan et al. 2021, eq. 1
    /// over the total); 0 without a pipeline. The timeline's own idle_fraction also counts
    /// waiting for the wires.
    double bubble_fraction = 0;
    std::string holds_sentence;     ///< "Each GPU holds: ..."
    std::string exchange_sentence;  ///< "GPUs must exchange: ..."
    std::string why_sentence;       ///< why this collective (tensor parallel) or why none
    std::string time_sentence;      ///< "One training step takes ...: ... computing, ... exchanging, ... idle."
    /// The same step in the other placement: "Across two nodes they would wait 25.0 µs on
    /// exchanges, not 17.6 µs: ..." (empty on one GPU or without exchanges). It tells exchanging
    /// time, so it stays hidden while a guess is pending, as time_sentence does.
    std::string placement_sentence;
    /// The same three sentences for a student whose guess (which split exchanges the most bytes) is
    /// still pending: what must be exchanged, why, and the step time, without the bytes, the
    /// exchanging time, or how this split's bytes compare with another's.
    std::string exchange_sentence_before_run, why_sentence_before_run, time_sentence_before_run;
};

/// Everything the lesson shows for one setup. Throws std::invalid_argument with the
/// SplitProblem's message when check_split fails.
SplitResult run_split(const NextWordModel& model, const SplitSetup& setup);
/// The holdings and exchanges without the timeline (no hardware needed; exchange seconds 0).
SplitResult plan_split(const NextWordModel& model, const SplitSetup& setup);

/// One task of the step in words, for the panel's labels and tooltips: "forward · hidden 2 ·
/// micro-batch 3 of 4", "all-gather · outputs of hidden 1 · 3.07 KB over NVLink", "idle · ...".
std::string step_task_text(const SplitResult& r, const StepTask& task);

// [SECTION] The split network, really run ---------------------------------------------------------

/// One exchange the split run really made: what moved, between whom, how many bytes
/// (values x 2 B, what bf16 on the wire would carry).
struct MovedData {
    StepPhase phase = StepPhase::forward;
    ExchangeOp op = ExchangeOp::send;
    int layer = -1;
    std::vector<int> gpus;
    Bytes bytes = 0;
};

/// Every GPU keeps only its own slices of the weights (copied out of `model`) and computes
/// only from those and from what it received through the emulated collectives and sends.
struct SplitForwardRun {
    std::vector<std::vector<float>> logits;  ///< per prompt of the batch, in batch order
    std::vector<int> predicted;              ///< token of the top logit, per prompt
    std::vector<MovedData> moved;
};
/// The forward pass of `batch` on the split network. The batch must split as the setup
/// says (its size divisible by data x micro-batches).
SplitForwardRun run_split_forward(const NextWordModel& model, const SplitSetup& setup, std::span<const Example> batch);

struct SplitTrainingRun {
    NextWordModel gradient;  ///< the mean gradient, gathered from the GPUs' slices
    float loss = 0;          ///< mean cross-entropy of the batch
    std::vector<MovedData> moved;
};
/// Forward and backward of `batch` on the split network, with the exchanges of a real step
/// (tensor-parallel all-gathers and reduce-scatters, pipeline sends, the data-parallel
/// all-reduce of gradients); the result should equal mean_gradient() within float rounding.
SplitTrainingRun run_split_training_step(const NextWordModel& model, const SplitSetup& setup,
                                         std::span<const Example> batch);

/// The prediction of the split network for one prompt (one prompt: data and pipeline
/// copies beyond the first have nothing to do, so it runs on copy 0 with one micro-batch).
Prediction predict_split(const NextWordModel& model, const SplitSetup& setup, std::string_view prompt, int top_k = 5);

}  // namespace m2m::core
