// One transformer layer's work for one micro-batch on one GPU of a real-scale layout: its compute,
// its memory-bound kernels, and every exchange it makes, with what may hide each (inside the core).
#pragma once

#include <string_view>
#include <vector>

#include "m2m/core/scale/step_estimate.hpp"

namespace m2m::core::scale_detail {

/// What can run beside an exchange so that compute need not wait for it.
enum class Hiding {
    none,       ///< nothing: compute waits (expert all-to-alls; tensor parallel without tp_overlap)
    matmuls,    ///< the layer's matrix multiplies (tensor parallel with tp_overlap)
    attention,  ///< the attention blocks already at hand (context parallel's key/value ring)
    next_layer, ///< the neighbouring layer's compute: ZeRO's gathers run one layer ahead, its reduce-scatters one behind
};

/// One kind of exchange a layer makes in each micro-batch's forward and backward.
struct Traffic {
    const char* what = "";
    GroupKind group = GroupKind::tensor;
    CollectiveKind op = CollectiveKind::all_reduce;
    double bytes = 0;          ///< one occurrence
    double forward = 0;        ///< occurrences in the forward pass
    double backward = 0;       ///< ... and in the backward pass (recompute included)
    Hiding hiding = Hiding::none;
    double seconds = 0;        ///< one occurrence
    double unhidden_forward_s = 0;  ///< per layer, of the forward occurrences: what no overlap can hide
    std::string_view algorithm, protocol;  ///< how NCCL runs it
};

struct LayerWork {
    double forward_compute_s = 0, backward_compute_s = 0;      ///< matrix multiplies and attention
    double forward_attention_s = 0, backward_attention_s = 0;  ///< of which the attention core
    double forward_memory_s = 0, backward_memory_s = 0;        ///< memory-bound kernels
    std::vector<Traffic> traffic;
};

/// Layer `layer`'s work (its kind, dense or MoE, decides it), exchanges timed on `links`.
LayerWork layer_work(const EstimateSetup& setup, LayoutLinks& links, std::int64_t layer);

/// Seconds of `t` that compute waits for in `layers` consecutive layers of one pass, when each
/// layer computes `compute_s` (the part of it that can hide `t`), `count` occurrences per layer.
double exposed_seconds(const Traffic& t, double count, double compute_s, std::int64_t layers, bool overlap);

}  // namespace m2m::core::scale_detail
