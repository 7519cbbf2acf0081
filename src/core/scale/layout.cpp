// What is wrong with a real-scale setup, in one sentence naming the field to change: the model,
// the hardware, how the GPUs split the work, and whether one step can be simulated; the layout in words.
#include "m2m/core/scale/layout.hpp"

#include "m2m/core/engine/text.hpp"
#include "scale_parts.hpp"

namespace m2m::core {

namespace {

using scale_detail::chunks_of;

std::optional<SetupProblem> check_model_and_hardware(const EstimateSetup& setup) {
    if (auto why = validate(setup.model); !why.empty()) {
        const auto colon = why.find(':');
        return SetupProblem{why.substr(0, colon), why.substr(colon + 2)};
    }
    const GpuSpec& g = setup.gpu;
    if (!(g.peak_bf16_flops > 0) || !(g.memory_bytes > 0) || !(g.memory_bandwidth_Bps > 0) ||
        !(g.achievable_fraction > 0 && g.achievable_fraction <= 1))
        return SetupProblem{"gpu", "the GPU needs a BF16 rate, a memory size, a memory bandwidth and an efficiency "
                                   "constant in (0, 1]"};
    for (const LinkSpec* link : {&setup.system.nvlink, &setup.system.pcie, &setup.system.infiniband})
        if (!(link->effective_GBps() > 0))
            return SetupProblem{"gpu", "the system's NVLink, PCIe and InfiniBand links need positive bandwidths"};
    if (setup.gpus_per_node < 1 || setup.gpus_per_node > max_gpus_per_node || setup.nodes_per_rack < 1)
        return SetupProblem{"gpu", "a node needs 1 to " + std::to_string(max_gpus_per_node) +
                                       " GPUs and a rack at least one node"};
    return std::nullopt;
}

// Context and expert parallelism: what they split must split evenly.
std::optional<SetupProblem> check_context_and_experts(const TransformerShape& m, const Layout& l) {
    if (m.seq % l.cp != 0)
        return SetupProblem{"cp", "must divide the sequence length (" + format_count(m.seq) + " tokens)"};
    if (l.ep > 1 && !m.moe())
        return SetupProblem{"ep", "expert parallelism needs a mixture-of-experts model; " + m.name + " is dense (use 1)"};
    if (l.dp % l.ep != 0)
        return SetupProblem{"ep", "must divide the data-parallel size (" + format_count(l.dp) +
                                      "): the experts are spread over data-parallel ranks"};
    if (m.moe() && m.experts % l.ep != 0)
        return SetupProblem{"ep", "must divide the model's " + format_count(m.experts) + " experts"};
    return std::nullopt;
}

// tp x cp x pp x dp against the GPU count, the heads and layers they split, and the batch they share.
std::optional<SetupProblem> check_split(const TransformerShape& m, const Layout& l) {
    if (l.gpus < 1 || static_cast<std::uint64_t>(l.gpus) > max_cluster_gpus)
        return SetupProblem{"gpus", "must be a whole number from 1 to " +
                                        format_count(static_cast<std::int64_t>(max_cluster_gpus))};
    for (const auto& [field, value] : {std::pair{"tp", l.tp}, {"pp", l.pp}, {"dp", l.dp}, {"cp", l.cp}, {"ep", l.ep}})
        if (value < 1) return SetupProblem{field, "must be at least 1"};
    const std::int64_t product = static_cast<std::int64_t>(l.tp) * l.cp * l.pp * l.dp;
    if (product != l.gpus) {
        const std::string cp = l.cp > 1 ? " x cp" : "", cp_value = l.cp > 1 ? " x " + std::to_string(l.cp) : "";
        return SetupProblem{"gpus", "tp" + cp + " x pp x dp must equal the GPU count: " + std::to_string(l.tp) + cp_value +
                                        " x " + std::to_string(l.pp) + " x " + std::to_string(l.dp) + " = " +
                                        format_count(product) + ", not " + format_count(l.gpus)};
    }
    if (m.heads % l.tp != 0)
        return SetupProblem{"tp", "must divide the model's " + format_count(m.heads) + " attention heads"};
    if (l.pp > m.layers)
        return SetupProblem{"pp", "cannot exceed the model's " + format_count(m.layers) + " layers"};
    if (auto problem = check_context_and_experts(m, l)) return problem;
    if (l.micro_batch < 1) return SetupProblem{"micro_batch", "must be at least 1"};
    if (l.global_batch < 1) return SetupProblem{"global_batch", "must be at least 1"};
    if (l.global_batch % l.dp != 0)
        return SetupProblem{"global_batch", "must split evenly over the " + format_count(l.dp) +
                                                " data-parallel replicas (" + format_count(l.global_batch) +
                                                " sequences given)"};
    if ((l.global_batch / l.dp) % l.micro_batch != 0)
        return SetupProblem{"micro_batch", "must divide each replica's " + format_count(l.global_batch / l.dp) +
                                               " sequences (global batch / dp)"};
    return std::nullopt;
}

// ZeRO, the interleaved schedule's own needs, and a step graph small enough to schedule.
std::optional<SetupProblem> check_schedule(const TransformerShape& m, const Layout& l) {
    if (l.zero_stage < 0 || l.zero_stage > 3) return SetupProblem{"zero_stage", "must be 0, 1, 2 or 3"};
    // A pipeline runs many micro-batches through a stage's layers between its forward and backward:
    // ZeRO 3 would gather every layer again for each of them, so DeepSpeed and Megatron refuse it,
    // and PyTorch's pipeline keeps a stage's gathered weights for the whole step (ZeRO 2's memory).
    if (l.zero_stage == 3 && l.pp > 1)
        return SetupProblem{"zero_stage", "ZeRO-3 (full sharding) cannot run with pipeline parallelism; use 0, 1 or 2 "
                                          "with pp > 1, or pp 1"};
    if (l.hybrid_shard && l.zero_stage == 0)
        return SetupProblem{"hybrid_shard", "hybrid sharding needs a ZeRO stage of 1, 2 or 3 to shard anything"};
    const std::int64_t m_mb = l.micro_batches();
    if (l.schedule == PipelineSchedule::interleaved) {
        if (l.chunks < 2) return SetupProblem{"chunks", "the interleaved schedule needs at least 2 chunks per GPU"};
        if (l.pp < 2) return SetupProblem{"schedule", "interleaved needs pipeline parallelism (pp of 2 or more)"};
        // The first chunk may hold only the embedding and the last only the output layer (Llama 3).
        if (static_cast<std::int64_t>(l.pp) * l.chunks > m.layers + 2)
            return SetupProblem{"chunks", "pp x chunks (" + std::to_string(l.pp * l.chunks) +
                                              ") cannot exceed the model's " + format_count(m.layers) +
                                              " layers plus 2 (an embedding-only and an output-only chunk)"};
        if (m_mb % l.pp != 0)
            return SetupProblem{"micro_batch", "interleaved needs the micro-batches per replica (" + format_count(m_mb) +
                                                   ") to be a multiple of pp (" + std::to_string(l.pp) + ")"};
    }
    if (4 * m_mb * l.pp * chunks_of(l) > scale_detail::max_graph_tasks)
        return SetupProblem{"global_batch", "too many micro-batches to simulate one step (" + format_count(m_mb) +
                                                " per replica); use a larger micro-batch or more data parallelism"};
    return std::nullopt;
}

}  // namespace

std::optional<SetupProblem> check(const EstimateSetup& setup) {
    if (auto problem = check_model_and_hardware(setup)) return problem;
    if (auto problem = check_split(setup.model, setup.layout)) return problem;
    return check_schedule(setup.model, setup.layout);
}

std::string layout_words(const Layout& l) {
    std::string s = "TP " + std::to_string(l.tp) + " x CP " + std::to_string(l.cp) + " x PP " + std::to_string(l.pp) +
                    " x DP " + std::to_string(l.dp);
    if (l.ep > 1) s += " (EP " + std::to_string(l.ep) + ")";
    s += ", micro-batch " + std::to_string(l.micro_batch) + ", " + std::string(schedule_name(l.schedule));
    if (l.schedule == PipelineSchedule::interleaved) s += " " + std::to_string(l.chunks) + " chunks";
    s += l.recompute == Recompute::none ? ", no recompute" : ", " + std::string(recompute_name(l.recompute)) + " recompute";
    s += ", ZeRO-" + std::to_string(l.zero_stage);
    if (l.hybrid_shard) s += " hybrid";
    s += ", " + std::string(attention_name(l.attention)) + " attention";
    if (!l.overlap) s += ", no overlap";
    if (l.free_stage_inputs && l.pp > 1) s += ", stage inputs freed";
    if (l.fp32_gradients) s += ", fp32 gradients";
    if (l.eager_kernels) s += ", eager kernels";
    return s;
}

}  // namespace m2m::core
