// Predict, then reveal: a student's guess made before a run, set against what the run gave
// (Lesson 2: which wire a send takes and how much longer it is; Lesson 3: which split moves the most).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "m2m/core/next_word.hpp"
#include "m2m/core/split.hpp"
#include "m2m/core/topology.hpp"

namespace m2m::core {

// --- Lesson 2: a send between two GPUs ------------------------------------------------------------

/// The guess before a send: the link the tensor crosses and how many times as long it takes as
/// the same bytes between two GPUs of one node (TransferResult::relative_time).
struct SendGuess {
    std::optional<LinkType> link;  ///< empty: no guess about the link
    double times = 0;              ///< 0: no guess about the time
    bool any() const { return link.has_value() || times > 0; }
};

/// How close a guessed ratio must be to count as close: within this factor either way.
inline constexpr double close_guess_factor = 1.25;

struct SendReveal {
    bool link_guessed = false, link_right = false;
    bool times_guessed = false, times_close = false;
    double times_off = 1;  ///< guess / result (>1: the guess was too high)
    std::vector<std::string> lines;  ///< one for the link, one for the time (only what was guessed)
};

/// The guess against the send's result, in words: "You guessed NVLink; the tensor crossed
/// InfiniBand: GPU 2 and GPU 11 sit in different nodes, so it left through a NIC."
SendReveal reveal_send(const SendGuess& guess, const Cluster& cluster, const TransferResult& result);

// --- Lesson 3: which split exchanges the most --------------------------------------------------

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
