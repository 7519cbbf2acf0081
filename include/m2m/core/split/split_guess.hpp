// Predict, then reveal in Lesson 3: the guess of which split exchanges the most bytes per step,
// set against every strategy's bytes.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "m2m/core/split/next_word.hpp"
#include "m2m/core/split/split.hpp"

namespace m2m::core {

struct StrategyBytes {
    Strategy strategy = Strategy::data;
    Bytes exchanged = 0;  ///< SplitResult::exchanged_bytes: per training step
};

/// Every strategy that splits the setup's GPU count evenly, in Strategy order, with the bytes it
/// exchanges per training step (plan_split: no timeline, so no hardware is needed). Fewer than
/// two entries when the GPU count leaves nothing to compare (1, 3 or 6 GPUs).
std::vector<StrategyBytes> exchanged_by_strategy(const NextWordModel& model, const SplitSetup& setup);

struct SplitReveal {
    bool right = false;     ///< the guess is (one of) the strategies that exchange the most
    Strategy most = Strategy::data;
    std::vector<std::string> lines;  ///< the verdict, why, then every strategy's bytes
};

/// The guess against the strategies' byte counts on `gpus` GPUs. `bytes` must not be empty.
SplitReveal reveal_split(Strategy guess, std::span<const StrategyBytes> bytes, int gpus);

}  // namespace m2m::core
