// Predict, then reveal in Lesson 2: the guess before a send (which wire, how many times as long)
// set against what the send took.
#pragma once

#include <optional>
#include <string>
#include <vector>

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

}  // namespace m2m::core
