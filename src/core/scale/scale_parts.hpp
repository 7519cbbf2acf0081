// What the real-scale estimator's parts share, inside the core only: bytes as its formulas use them,
// the activation split, and how a layout deals the layers to (virtual) pipeline stages.
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

/// A step graph larger than this is refused by check().
inline constexpr std::int64_t max_graph_tasks = 4'000'000;

/// Bytes one GPU keeps per layer per micro-batch with no recompute, as [linear part, attention
/// part] (transformer.cpp, Korthikanti et al. 2022 sec. 4.1).
std::pair<double, double> split_activations(const TransformerShape& m, std::int64_t micro_batch, int tp,
                                            bool sequence_parallel, AttentionKernel kernel);

/// Model chunks per GPU: the interleaved schedule's, else 1.
inline int chunks_of(const Layout& l) { return l.schedule == PipelineSchedule::interleaved ? l.chunks : 1; }
/// Virtual stages: pp x chunks; virtual stage j runs on GPU stage j % pp as its chunk j / pp.
inline int virtual_stages(const Layout& l) { return l.pp * chunks_of(l); }

/// Layers of virtual stage j (stage_costs.cpp): as even as possible, the extra ones to the earliest.
std::int64_t layers_of_virtual_stage(const TransformerShape& m, const Layout& l, int j);
/// Layers GPU stage k holds, over all its chunks.
std::int64_t layers_of_stage(const TransformerShape& m, const Layout& l, int k);
/// Parameters one GPU of stage k holds.
double stage_parameters(const TransformerShape& m, const Layout& l, int k);
/// Whether the data-parallel group leaves the node (its gradient sync then runs on InfiniBand).
bool dp_spans_nodes(const EstimateSetup& s);

}  // namespace m2m::core::scale_detail
