// What the real-scale estimator's parts share, inside the core only: bytes as its formulas use them,
// the activation split, how a layout deals the layers to (virtual) pipeline stages, and the sizes
// of its groups.
#pragma once

#include <cstdint>
#include <utility>

#include "m2m/core/engine/training_bytes.hpp"
#include "m2m/core/scale/layout.hpp"
#include "m2m/core/scale/transformer.hpp"

namespace m2m::core::scale_detail {

// engine/training_bytes.hpp's figures as the formulas use them.
inline constexpr double bf16_bytes = static_cast<double>(activation_bytes_per_value);
inline constexpr double gradient_bytes = static_cast<double>(gradient_bytes_per_parameter);
inline constexpr double weight_bytes = static_cast<double>(weight_bytes_per_parameter);
inline constexpr double optimizer_bytes = static_cast<double>(optimizer_bytes_per_parameter);
/// Bytes a parameter's gradient takes, kept and sent: bf16's 2, or 4 with fp32 gradients.
inline double gradient_bytes_of(const Layout& l) { return l.fp32_gradients ? 4.0 : gradient_bytes; }

/// A step graph larger than this is refused by check() (the reference scheduler must be able to build it).
inline constexpr std::int64_t max_graph_tasks = 4'000'000;

/// Bytes one GPU keeps for layer `layer` (-1: the last) per micro-batch with no recompute, as
/// [linear part, attention part] (transformer.cpp, Korthikanti et al. 2022 sec. 4.1), before
/// context parallelism divides both.
std::pair<double, double> split_activations(const TransformerShape& m, std::int64_t micro_batch, int tp,
                                            bool sequence_parallel, AttentionKernel kernel, std::int64_t layer = -1);

/// Model chunks per GPU: the interleaved schedule's, else 1.
inline int chunks_of(const Layout& l) { return l.schedule == PipelineSchedule::interleaved ? l.chunks : 1; }
/// Virtual stages: pp x chunks; virtual stage j runs on GPU stage j % pp as its chunk j / pp.
inline int virtual_stages(const Layout& l) { return l.pp * chunks_of(l); }

/// Layers of virtual stage j (stage_costs.cpp): as even as possible; the extra layers of an uneven
/// split go to the middle stages, so the first (the most micro-batches in flight, and the
/// embedding) and the last (the output layer) get the fewest, as Llama 3 was split [Dubey et al.
/// 2024, sec. 3.3.2]. With pp x chunks = layers + 2, the first chunk holds only the embedding
/// and the last only the output layer.
std::int64_t layers_of_virtual_stage(const TransformerShape& m, const Layout& l, int j);
/// The first layer (0-based) of virtual stage j.
std::int64_t first_layer_of_virtual_stage(const TransformerShape& m, const Layout& l, int j);
/// Of `count` layers from `first`: how many have a dense MLP and how many a mixture of experts.
struct LayerKinds {
    std::int64_t dense = 0, moe = 0;
};
LayerKinds layer_kinds(const TransformerShape& m, std::int64_t first, std::int64_t count);
/// Layers GPU stage k holds, over all its chunks.
std::int64_t layers_of_stage(const TransformerShape& m, const Layout& l, int k);

/// Parameters one GPU of stage k holds: `shared` (split by tp, copied by every data-parallel
/// replica; the embedding and output matrices included) and `experts` (split by ep and tp).
struct StageParameters {
    double shared = 0;
    double experts = 0;
    double total() const { return shared + experts; }
};
StageParameters stage_parameters(const TransformerShape& m, const Layout& l, int k);
/// Parameters of one layer as one GPU holds them (shared / tp + experts / (ep tp)): what ZeRO 3
/// gathers at a time.
double layer_parameters_per_gpu(const TransformerShape& m, const Layout& l, std::int64_t layer);

/// The replicas that hold the same weights and average their gradients: dp x cp (context-parallel
/// ranks hold the same weights too); for the experts, dp x cp / ep.
inline int weight_replicas(const Layout& l) { return l.dp * l.cp; }
inline int expert_replicas(const Layout& l) { return l.dp * l.cp / l.ep; }
/// How many replicas a ZeRO stage shards over: all of them, or with hybrid sharding those in one
/// node (the rest keep copies).
int shard_group(const Layout& l, int replicas, int replica_stride, std::uint32_t gpus_per_node);

/// Tokens one GPU handles per micro-batch: s b / cp (context parallelism splits the sequence;
/// sequence parallelism then splits them over tp for the layer norms and dropouts).
inline double tokens_per_gpu(const TransformerShape& m, const Layout& l) {
    return static_cast<double>(m.seq) * static_cast<double>(l.micro_batch) / l.cp;
}

}  // namespace m2m::core::scale_detail
