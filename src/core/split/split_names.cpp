// Lesson 3's names and checks: strategies, placements and fields by name, how many ways each
// strategy splits, and which setups split the step evenly.
#include <algorithm>

#include "m2m/core/split/split.hpp"
#include "split_parts.hpp"

namespace m2m::core {

std::string_view strategy_name(Strategy s) {
    switch (s) {
        case Strategy::data: return "data";
        case Strategy::tensor: return "tensor";
        case Strategy::pipeline: return "pipeline";
        case Strategy::three_d: return "3d";
        case Strategy::fsdp: return "fsdp";
    }
    return "?";
}

std::string_view strategy_label(Strategy s) {
    switch (s) {
        case Strategy::data: return "data parallel";
        case Strategy::tensor: return "tensor parallel";
        case Strategy::pipeline: return "pipeline parallel";
        case Strategy::three_d: return "3D parallel (data x tensor x pipeline)";
        case Strategy::fsdp: return "fully sharded data parallel (FSDP)";
    }
    return "?";
}

std::optional<Strategy> parse_strategy(std::string_view name) {
    for (Strategy s : all_strategies)
        if (strategy_name(s) == name) return s;
    return std::nullopt;
}

std::string_view placement_name(Placement p) { return p == Placement::one_node ? "node" : "nodes"; }

std::optional<Placement> parse_placement(std::string_view name) {
    if (name == "node") return Placement::one_node;
    if (name == "nodes") return Placement::two_nodes;
    return std::nullopt;
}

std::string_view split_timing_name(SplitTiming t) { return t == SplitTiming::lesson ? "lesson" : "hardware"; }

std::optional<SplitTiming> parse_split_timing(std::string_view name) {
    if (name == "lesson") return SplitTiming::lesson;
    if (name == "hardware") return SplitTiming::hardware;
    return std::nullopt;
}

std::string_view split_field_name(SplitField f) {
    switch (f) {
        case SplitField::strategy: return "strategy";
        case SplitField::gpus: return "gpus";
        case SplitField::micro_batches: return "micro-batches";
        case SplitField::placement: return "placement";
        case SplitField::hardware: return "hardware";
        case SplitField::schedule: return "schedule";
    }
    return "?";
}

std::string_view step_phase_name(StepPhase p) {
    switch (p) {
        case StepPhase::forward: return "forward";
        case StepPhase::backward: return "backward";
        case StepPhase::update: return "update";
    }
    return "?";
}

std::string_view exchange_op_name(ExchangeOp op) {
    switch (op) {
        case ExchangeOp::all_reduce: return "all-reduce";
        case ExchangeOp::all_gather: return "all-gather";
        case ExchangeOp::reduce_scatter: return "reduce-scatter";
        case ExchangeOp::send: return "send";
    }
    return "?";
}

std::string_view step_task_kind_name(StepTaskKind k) {
    switch (k) {
        case StepTaskKind::forward: return "forward";
        case StepTaskKind::backward: return "backward";
        case StepTaskKind::communication: return "comm";
        case StepTaskKind::update: return "update";
        case StepTaskKind::idle: return "idle";
    }
    return "?";
}

std::vector<Example> step_batch() {
    std::vector<Example> all = corpus_examples();
    all.resize(static_cast<std::size_t>(step_prompts));
    return all;
}

SplitDegrees split_degrees(Strategy s, int gpus) {
    switch (s) {
        case Strategy::data: return {gpus, 1, 1};
        case Strategy::tensor: return {1, gpus, 1};
        case Strategy::pipeline: return {1, 1, gpus};
        case Strategy::three_d: return {2, 2, 2};
        case Strategy::fsdp: return {gpus, 1, 1, true};
    }
    return {};
}

namespace {

using split_detail::dense_layer_count;

std::string list_ints(const std::vector<int>& v) {
    std::string out;
    for (std::size_t i = 0; i < v.size(); ++i)
        out += (i == 0 ? "" : i + 1 == v.size() ? " or " : ", ") + std::to_string(v[i]);
    return out;
}

bool contains(const std::vector<int>& v, int x) { return std::find(v.begin(), v.end(), x) != v.end(); }

// Why the strategy takes only some GPU counts: the first half of check_split's sentence.
std::string gpu_count_reason(Strategy s) {
    switch (s) {
        case Strategy::data:
            return "data parallel gives every GPU an equal share of the step's " + std::to_string(step_prompts) +
                   " prompts";
        case Strategy::tensor:
            return "tensor parallel gives every GPU an equal slice of every layer (" +
                   std::to_string(embedding_dims) + " embedding dimensions, " + std::to_string(hidden_width) +
                   " hidden and " + std::to_string(output_words()) + " output neurons)";
        case Strategy::pipeline:
            return "pipeline parallel gives every GPU an equal run of the " + std::to_string(dense_layer_count) +
                   " weight layers (the embedding goes with the first)";
        case Strategy::three_d: return "3d splits 2 ways in data, tensor and pipeline: 2 x 2 x 2 GPUs";
        case Strategy::fsdp:
            return "FSDP gives every GPU an equal share of the step's " + std::to_string(step_prompts) +
                   " prompts and an equal shard of every layer (" + std::to_string(embedding_dims) +
                   " embedding dimensions, " + std::to_string(hidden_width) + " hidden and " +
                   std::to_string(output_words()) + " output neurons)";
    }
    return "?";
}

}  // namespace

std::vector<int> accepted_gpu_counts(Strategy s) {
    std::vector<int> out;
    for (int g = 1; g <= max_split_gpus; ++g) {
        bool ok = false;
        switch (s) {
            case Strategy::data: ok = step_prompts % g == 0; break;
            // Every layer's neurons split into equal slices; the embedding splits by its
            // dimensions (see NextWordModel), so G must divide those too.
            case Strategy::tensor:
                ok = embedding_dims % g == 0 && hidden_width % g == 0 && output_words() % g == 0;
                break;
            case Strategy::pipeline: ok = dense_layer_count % g == 0; break;
            case Strategy::three_d: ok = g == 8; break;
            // Data parallel's prompts, and shards cut along every layer's neurons as tensor's slices are.
            case Strategy::fsdp:
                ok = step_prompts % g == 0 && embedding_dims % g == 0 && hidden_width % g == 0 && output_words() % g == 0;
                break;
        }
        if (ok) out.push_back(g);
    }
    return out;
}

std::vector<int> accepted_micro_batches(const SplitSetup& setup) {
    const SplitDegrees d = split_degrees(setup.strategy, setup.gpus);
    if (d.pipeline <= 1 || d.data < 1 || step_prompts % d.data != 0) return {1};
    const int prompts = step_prompts / d.data;
    std::vector<int> out;
    for (int m = 1; m <= prompts; ++m)
        if (prompts % m == 0) out.push_back(m);
    return out;
}

std::optional<SplitProblem> check_split(const SplitSetup& setup, bool check_hardware) {
    const std::vector<int> accepted = accepted_gpu_counts(setup.strategy);
    if (setup.gpus < 1 || setup.gpus > max_split_gpus || !contains(accepted, setup.gpus)) {
        const std::string why = gpu_count_reason(setup.strategy);
        return SplitProblem{SplitField::gpus, why + ", so it takes " + list_ints(accepted) + " GPUs (got " +
                                                  std::to_string(setup.gpus) + ")"};
    }
    if (setup.micro_batches < 1)
        return SplitProblem{SplitField::micro_batches,
                            "micro-batches must be at least 1 (got " + std::to_string(setup.micro_batches) + ")"};
    const SplitDegrees d = split_degrees(setup.strategy, setup.gpus);
    if (d.pipeline > 1) {
        const std::vector<int> ms = accepted_micro_batches(setup);
        if (!contains(ms, setup.micro_batches))
            return SplitProblem{SplitField::micro_batches,
                                "the pipeline cuts each copy's " + std::to_string(step_prompts / d.data) +
                                    " prompts into equal micro-batches, so it takes " + list_ints(ms) + " (got " +
                                    std::to_string(setup.micro_batches) + ")"};
    }
    if (setup.schedule != PipelineSchedule::gpipe && setup.schedule != PipelineSchedule::one_f_one_b)
        return SplitProblem{SplitField::schedule, "Lesson 3's pipeline runs the 1f1b or gpipe schedule (got " +
                                                      std::string(schedule_name(setup.schedule)) +
                                                      "); interleaving several chunks of layers on each GPU is in "
                                                      "the real-scale estimator (sim estimate --schedule interleaved)"};
    if (setup.placement == Placement::two_nodes && setup.gpus < 2)
        return SplitProblem{SplitField::placement, "two nodes need at least 2 GPUs; with 1 GPU use node"};
    if (check_hardware) {
        const SplitHardware& h = setup.hardware;
        if (!(h.tensor_flops > 0) || !(h.gpu.memory_bandwidth_Bps > 0) || h.gpu.layer_overhead_s < 0)
            return SplitProblem{SplitField::hardware, "the GPU '" + h.gpu.id +
                                                          "' needs a positive tensor-core rate and memory bandwidth"};
        for (const LinkSpec* l : {&h.system.nvlink, &h.system.pcie, &h.system.infiniband})
            if (!(l->effective_GBps() > 0) || l->latency_s < 0)
                return SplitProblem{SplitField::hardware, "the system '" + h.system.id + "' needs link '" + l->name +
                                                              "' with a positive bandwidth"};
    }
    return std::nullopt;
}

}  // namespace m2m::core
