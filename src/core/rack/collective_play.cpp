// What Lesson 2 says while a collective plays: the ring's step, the tree's or NVLS's wave, and
// the line it ends with.
#include "m2m/core/rack/collectives.hpp"
#include "m2m/core/engine/text.hpp"

#include <algorithm>
#include <string>

namespace m2m::core {

std::string ring_step_text(CollectiveOp op, std::size_t n, std::size_t step) {
    const std::size_t steps = ring_step_count(op, n);
    const std::string head = "Step " + std::to_string(std::min(step, steps > 0 ? steps - 1 : 0) + 1) + " of " +
                             std::to_string(steps) + " \u00b7 ";
    if (steps == 0) return "No steps: a group of one GPU.";
    if (ring_step_reduces(op, n, step))
        return head + "reduce-scatter: each GPU adds the chunk it receives to its own copy.";
    return head + "all-gather: each GPU passes on a finished chunk.";
}

std::string collective_done_text(CollectiveOp op) {
    switch (op) {
    case CollectiveOp::all_reduce: return "Done: every GPU holds the sum.";
    case CollectiveOp::all_gather: return "Done: every GPU holds every GPU's piece.";
    case CollectiveOp::reduce_scatter: return "Done: every GPU holds its own share of the sum.";
    case CollectiveOp::broadcast: return "Done: every GPU holds the root's data.";
    case CollectiveOp::all_to_all: return "Done: every GPU holds a piece from every other.";
    }
    return {};
}

std::string collective_play_text(const CollectiveResult& r, double t) {
    if (r.steps == 0) return "A group of one GPU has nothing to send.";
    const std::string name(collective_algorithm_label(r.algorithm));
    // "with the ring", "with NVLS", "with point-to-point sends" (it said "with the point-to-point").
    if (t >= r.time_s) return collective_done_text(r.op) + " " + format_seconds(r.time_s) + " with " + collective_algorithm_phrase(r.algorithm) + ".";
    if (r.algorithm == CollectiveAlgorithm::ring) {
        const std::string step = r.op == CollectiveOp::broadcast ? "The buffer streams down the ring from its root."
                                                                 : ring_step_text(r.op, r.gpus, 0);
        if (t <= 0) return "Press Run (Space) to go around the ring. " + step;
        if (r.op == CollectiveOp::broadcast) return step;
        const std::size_t k = t <= r.base_latency_s || r.step_s <= 0
                                  ? 0 : std::min(r.steps - 1, static_cast<std::size_t>((t - r.base_latency_s) / r.step_s));
        return ring_step_text(r.op, r.gpus, k);
    }
    std::string bytes;
    switch (r.algorithm) {
    case CollectiveAlgorithm::tree: bytes = "The bytes climb the tree, added at every level, while the sum streams back down."; break;
    case CollectiveAlgorithm::nvls:
        bytes = r.op == CollectiveOp::all_gather       ? "Every GPU stores its piece in the NVSwitch once, which copies it to every GPU."
                : r.op == CollectiveOp::reduce_scatter ? "The NVSwitch reads every GPU's data, adds it, and each GPU takes its share of the sum."
                                                       : "Every GPU sends its data into the NVSwitch, which adds it, and takes the sum back out.";
        break;
    case CollectiveAlgorithm::nvls_tree:
        bytes = "Each node's NVSwitch adds its GPUs' data; the nodes' sums go up and down two trees across nodes.";
        break;
    default: bytes = "Every GPU sends a piece to every other GPU."; break;
    }
    if (t <= 0) return "Press Run (Space): the " + name + ". " + bytes;
    // The latency first: a wave up the levels and back, each hop in turn.
    double at = r.base_latency_s;
    if (t < at) return "The " + name + "'s fixed start-up cost: " + format_seconds(r.base_latency_s) + ".";
    for (const WaveHop& h : r.wave) {
        at += h.seconds;
        if (t < at)
            return "The " + name + "'s latency: a message " + (h.up ? "climbs to" : "comes back down from") + " level " +
                   std::to_string(h.depth) + " over " + std::string(link_type_label(h.link)) + ".";
    }
    return bytes;
}

}  // namespace m2m::core
