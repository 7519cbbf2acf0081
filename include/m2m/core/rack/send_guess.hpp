// Predict, then reveal in Lesson 2: the guess before a send (which wire, how many times as long)
// set against what the send took; and before an all-reduce, which algorithm is faster.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "m2m/core/rack/collectives.hpp"
#include "m2m/core/rack/topology.hpp"

namespace m2m::core {


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

/// The guess before a collective: which algorithm is fastest at this size for this group
/// ("which is fastest for 8 bytes on 128 GPUs: the ring, the tree or the NVLS tree?").
struct CollectiveGuess {
    std::optional<CollectiveAlgorithm> faster;  ///< empty: no guess
    bool any() const { return faster.has_value(); }
};

/// The algorithms the question offers for this group and collective: every one that can run here,
/// the ring first (ring, tree, NVLS, NVLS tree), so the fastest is always among them; empty when
/// only one can run.
std::vector<CollectiveAlgorithm> guess_choices(const SystemSpec& system, const CollectiveGroup& group, CollectiveOp op);

/// "Which is fastest for 8 B on 128 GPUs: the ring, the tree or the NVLS tree?" ("faster" with two)
std::string guess_question(const SystemSpec& system, const CollectiveGroup& group, CollectiveOp op, double bytes);

struct CollectiveReveal {
    bool guessed = false, right = false;
    CollectiveAlgorithm faster = CollectiveAlgorithm::ring;
    std::string line;  ///< "You guessed the ring; the tree is fastest at 8 B: 55.2 µs against the ring's 312 µs (5.65x)."
};

/// The guess against NCCL's costs of the offered algorithms at the collective's size: the fastest,
/// set against the guess when it was wrong, else against the runner-up.
CollectiveReveal reveal_collective(const CollectiveGuess& guess, const Cluster& cluster, const CollectiveResult& result);

}  // namespace m2m::core
