// Every valid layout of a real-scale setup for its GPU count, over tensor, context, pipeline, data
// and expert parallelism, ZeRO stage, recompute, micro-batch, schedule and chunks, ranked by
// throughput among those that fit: a closed form ranks them all, estimate() times the leaders.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "m2m/core/scale/layout.hpp"

namespace m2m::core {

struct LayoutScore {
    Layout layout;
    double step_time_s = 0;
    double tokens_per_s = 0;
    double mfu = 0;
    double memory_bytes = 0;
    bool fits = false;
    bool confirmed = false;  ///< step time from estimate()'s pipeline timing (true) or the closed form (false)
};

struct SearchResult {
    std::vector<LayoutScore> best;  ///< fitting layouts, fastest first, the first `top` confirmed
    int candidates = 0;             ///< valid layouts whose memory was worked out
    int fitting = 0;                ///< of which fit (and were timed)
    /// The layout needing the least memory per GPU of all considered (fitting or not): what
    /// "does not fit" points to.
    std::optional<LayoutScore> smallest;
};

/// Searches tp in 1, 2, 4, 8 (within a node, dividing the heads); cp dividing the sequence (up to
/// 64); pp up to the layer count (uneven splits allowed); dp = N / (tp cp pp) dividing the global
/// batch; ep dividing dp and the experts (MoE models); ZeRO 0 to 3 (3 only without a pipeline);
/// recompute none, selective, full; every micro-batch dividing a replica's batch; 1F1B, and
/// interleaved with 2, 4 or 8 chunks. Kept from the setup: the attention kernel, overlap, hybrid
/// sharding. Two choices are left out because another always beats them: GPipe (1F1B's time with
/// more activations in flight), and more recompute where less already fits at the same
/// micro-batch (more compute, nothing saved that is needed). Memory is worked out first, and
/// only layouts that fit are timed. The `top` fastest by the closed form (and 3 more, so that a
/// near miss can still move up) are then timed by estimate() and re-ranked.
SearchResult search_layouts(const EstimateSetup& setup, int top = 5);

/// One change to a layout that does not fit that makes it fit, on the same GPUs: the first of a
/// micro-batch of 1, ZeRO 1, selective recompute, flash attention, ZeRO 2, ZeRO 3 (no pipeline),
/// full recompute, then twice the TP, PP or CP (half the DP) that fits; nullopt when none does
/// (then only more GPUs, or the search, can help).
struct FitChange {
    Layout layout;
    double memory_bytes = 0;
    std::string sentence;  ///< "With ZeRO 2 (the gradients split too) it would fit: 71.3 GB per GPU (TP 8 x ...)."
};
std::optional<FitChange> change_to_fit(const EstimateSetup& setup);

}  // namespace m2m::core
