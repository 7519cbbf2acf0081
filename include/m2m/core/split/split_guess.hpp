// Predict, then reveal in Lesson 3: the guess of which split puts the most bytes on the wires per
// step, set against every strategy's bytes.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "m2m/core/split/next_word.hpp"
#include "m2m/core/split/split.hpp"

namespace m2m::core {

struct StrategyBytes {
    Strategy strategy = Strategy::data;
    Bytes exchanged = 0;  ///< SplitResult::exchanged_bytes: the tensors exchanged per training step
    double wire = 0;      ///< SplitResult::wire_bytes: what crosses the wires for them, what the guess is about
};

/// Every strategy that splits the setup's GPU count evenly, in Strategy order, with the bytes it
/// exchanges and puts on the wires per training step (plan_split: no timeline, so no hardware is needed). Fewer than
/// two entries when the GPU count leaves nothing to compare (1, 3 or 6 GPUs; none on 1, where no
/// byte crosses a wire).
std::vector<StrategyBytes> exchanged_by_strategy(const NextWordModel& model, const SplitSetup& setup);

struct SplitReveal {
    bool right = false;     ///< the guess is (one of) the strategies that put the most on the wires
    Strategy most = Strategy::data;
    std::vector<std::string> lines;  ///< the verdict, every strategy's bytes on the wires, then why
};

/// The guess against the strategies' bytes on the wires on `gpus` GPUs. The wires, not the
/// tensors: an all-reduce sends each byte of its tensor about twice (2(N-1)/N per GPU), an
/// all-gather once, so at 8 GPUs 3D exchanges the largest tensors (62.9 KB) and puts the least on
/// the wires (77.5 KB, FSDP 306 KB). `bytes` must not be empty.
SplitReveal reveal_split(Strategy guess, std::span<const StrategyBytes> bytes, int gpus);

}  // namespace m2m::core
