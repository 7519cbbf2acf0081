// Every valid layout of a real-scale setup for its GPU count, ranked by throughput: a closed form
// ranks them all, the scheduler confirms the leaders.
#pragma once

#include <optional>
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

}  // namespace m2m::core
