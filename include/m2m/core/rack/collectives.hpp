// A collective as the lesson animates it: NCCL's algorithm (ring, tree, NVLS, NVLS tree,
// point-to-point) as sends on the cluster's links, run on the shared scheduler, with time, algbw
// and busbw as nccl-tests defines them. The algorithm and protocol are NCCL's choice from its
// closed-form cost (collective_cost.hpp), so the picture and the choice agree.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "m2m/core/rack/collective_cost.hpp"
#include "m2m/core/rack/topology.hpp"

namespace m2m::core {

/// Steps of a ring: n-1 for reduce-scatter and all-gather, 2(n-1) for all-reduce (a
/// reduce-scatter then an all-gather). Each step, every GPU sends one chunk of S/n bytes
/// to the next GPU on the ring.
std::size_t ring_step_count(CollectiveOp op, std::size_t n);
/// Which chunk (0..n-1) the GPU at ring position p sends at step s. Reduce-scatter (and the
/// first n-1 steps of all-reduce): (p - s) mod n, which the receiver adds to its own copy;
/// after it, position p holds the finished chunk (p + 1) mod n. All-reduce's all-gather
/// steps pass finished chunks on: (p + 1 - s') mod n, s' = s - (n-1). A lone all-gather
/// starts with chunk p at position p: (p - s) mod n.
std::uint32_t ring_chunk_sent(CollectiveOp op, std::size_t n, std::size_t position, std::size_t step);
/// True when the step reduces (adds) what it receives; false when it only copies it.
bool ring_step_reduces(CollectiveOp op, std::size_t n, std::size_t step);

struct CollectiveSetup {
    CollectiveOp op = CollectiveOp::all_reduce;
    /// The GPUs in ring order: position i sends to position i+1, the last to the first. The
    /// first GPU is the broadcast's root and the tree's.
    std::vector<GpuId> group;
    /// nccl-tests' S: the buffer for all-reduce and broadcast, the gathered output for
    /// all-gather, the input for reduce-scatter, each GPU's send buffer for all-to-all.
    Bytes bytes = 0;
    /// Parallel rings (NCCL's channels), each carrying bytes / rings. Ring r is rotated by r
    /// inside every node, so across nodes each ring leaves a node through another GPU's NIC.
    /// 0 = NCCL's default: one ring per member in a node (one per NIC) when the group spans
    /// nodes, else one (inside a node every ring shares the same NVLink ports).
    std::uint32_t rings = 0;
    /// The algorithm and protocol; empty = NCCL's pick by its cost model.
    CollectiveChoice choice;
    /// Whose cost model picks and prices it: NCCL 2.30.7's unless another version's is asked for.
    const NcclTuning* nccl = &nccl_tuning();
};

/// The first n GPUs of the cluster (0 .. n-1): whole nodes first, then whole racks.
std::vector<GpuId> first_gpus(std::uint32_t n);
/// NCCL's default ring count for a group (see CollectiveSetup::rings).
std::uint32_t default_rings(const Cluster& cluster, const std::vector<GpuId>& group);

/// What a send does: pass a ring chunk on; go up a tree toward its root (adding) or down it
/// (copying); carry a GPU's data into the NVSwitch, which adds, or the sum out of it; or one
/// all-to-all piece from one GPU to another.
enum class SendRole { ring, up, down, into_switch, out_of_switch, peer };

/// One send of one step. Every step of a ring is the same set of sends (only the chunk
/// differs, see ring_chunk_sent); a tree, NVLS or all-to-all has one step.
struct CollectiveSend {
    std::uint32_t ring = 0;      ///< the ring, or the tree's channel
    std::uint32_t position = 0;  ///< ring: sender's position; tree: the depth of the lower end (root 0)
    SendRole role = SendRole::ring;
    GpuId from = 0;
    GpuId to = 0;  ///< a switch send names its GPU at both ends
    LinkType type = LinkType::local;
    std::size_t hops = 0;
    double bytes = 0;
    double start_s = 0;  ///< from the start of its step's wire part (later than 0 if it waited for a link)
    double end_s = 0;
};
using RingSend = CollectiveSend;

/// One hop of a tree's or NVLS's latency wave: the message goes up the levels, then down.
struct WaveHop {
    LinkType link = LinkType::nvlink;
    bool up = true;
    std::uint32_t depth = 0;  ///< the tree depth it reaches (up) or leaves (down)
    double seconds = 0;
};

struct CollectiveResult {
    CollectiveOp op = CollectiveOp::all_reduce;
    std::size_t gpus = 0;
    Bytes bytes = 0;
    std::uint32_t rings = 1;                ///< rings (channels) the sends are spread over
    std::uint32_t nodes = 0;                ///< nodes the group touches
    CollectiveGroup group;                  ///< who takes part, as NCCL's model sees it
    CollectiveAlgorithm algorithm = CollectiveAlgorithm::ring;
    CollectiveProtocol protocol = CollectiveProtocol::simple;
    CollectiveCost nccl;                    ///< NCCL's closed-form cost of the same algorithm and protocol
    const NcclTuning* tuning = &nccl_tuning();  ///< the NCCL version whose model priced it
    LinkType slowest = LinkType::local;     ///< infiniband when any send leaves its node
    double bottleneck_GBps = 0;             ///< slowest hop of any send (effective, one direction)
    /// The share of every link's achievable rate the sends get: NCCL's bandwidth for this
    /// algorithm and protocol over what the wires give the same sends with nothing lost.
    double efficiency = 1;
    std::size_t steps = 0;                  ///< ring steps; 1 for the others
    double chunk_bytes = 0;                 ///< a ring send's bytes: S / (n x rings)
    double base_latency_s = 0;              ///< once, before the first step
    double step_latency_s = 0;              ///< each step waits this long before its sends
    double step_wire_s = 0;                 ///< each step's sends, as the scheduler ran them
    double step_s = 0;                      ///< step_latency_s + step_wire_s
    double time_s = 0;                      ///< base_latency_s + steps x step_s
    double algbw_GBps = 0;                  ///< bytes / time_s
    double busbw_GBps = 0;                  ///< algbw x busbw_factor
    std::vector<CollectiveSend> sends;      ///< one step's sends
    std::vector<WaveHop> wave;              ///< tree and NVLS: the hops that make up step_latency_s
    double step_start_s(std::size_t step) const { return base_latency_s + static_cast<double>(step) * step_s; }
    /// When the sends of a step start: after the step's latency.
    double wire_start_s(std::size_t step) const { return step_start_s(step) + step_latency_s; }
};

/// Runs the collective on the scheduler. Latency is NCCL's, placed where its model charges it
/// (once at the start, then per ring step, or as a wave up and down a tree); the bytes are
/// sends on the links they cross, each link at its achievable rate times `efficiency`, one
/// send at a time per link. Each ring step starts on idle links after the one before ends
/// (lock-step), so the scheduler runs ONE step and multiplies it: exact for this model
/// (add_collective builds every step; a test checks both agree), and a 1,024-GPU all-reduce
/// stays at one step's sends instead of 2(n-1) of them.
/// Throws std::invalid_argument for an empty group, a repeated GPU, bytes < 0, or a choice
/// NCCL cannot run (the message says why); std::out_of_range for a GPU outside the cluster.
/// A group of one takes no time.
CollectiveResult run_collective(const Cluster& cluster, const CollectiveSetup& setup);

/// The whole collective in a caller's work graph, to run alongside other work: a start join,
/// the base latency, each step's latency and sends, a join after each step. Make tasks wait
/// on `finish`; make `start` wait on what must come first. On idle links it takes exactly
/// run_collective's time.
struct CollectiveTasks {
    TaskId start = 0;
    TaskId finish = 0;
    std::vector<TaskId> step_end;  ///< the join ending each step
};
CollectiveTasks add_collective(LinkPools& pools, const CollectiveSetup& setup);

// --- what the lesson says (the panel only shows these) -----------------------------------------

/// A collective in words and formatted numbers, computed from the result.
struct CollectiveStory {
    std::string time;        ///< "41.2 ms"
    std::string algbw;       ///< "24.3 GB/s"
    std::string busbw;       ///< "47.9 GB/s"
    std::string algorithm;   ///< "ring", "tree", "NVLS", "NVLS tree", "point-to-point"
    std::string protocol;    ///< "LL", "LL128", "Simple"
    std::string slowest;     ///< "NVLink" or "InfiniBand": the slowest link any send crosses
    /// The link whose sends finish last in a step, which the step waits on: InfiniBand's slower
    /// wire, or NVLink where it carries so much more (the NVLS tree's in-node sums) that its sends
    /// end later. "STEP WAITS ON" on screen is this one.
    LinkType waits_on = LinkType::nvlink;
    std::string steps;       ///< "126 × 328 µs"
    /// Inside one step (every step is alike): when the last send that stays on NVLink ends,
    /// and when the last send that crosses InfiniBand ends; 0 when there is none of that kind.
    double nvlink_sends_end_s = 0;
    double infiniband_sends_end_s = 0;
    /// What the two bars of send ends measure: "In each of the 14 steps (524 µs), the sends on
    /// each wire end after:" or, with one pass (a tree, NVLS), "After 6.80 µs of start-up, its one
    /// pass (48.4 µs, nearly all of it fixed cost): the sends on each wire end after:". Empty when
    /// nothing is sent.
    std::string sends_caption;
    /// The longest sends_caption can be, any algorithm, any figures: the room a screen keeps for it
    /// while it is hidden, so the room says nothing of which algorithm runs.
    static constexpr const char* sends_caption_room =
        "After 88.8 ms of start-up, its one pass (88.8 ms, nearly all of it fixed cost): the sends on each wire end after:";
    std::string nvlink_sends;      ///< "NVLink sends: 42.1 µs"
    std::string infiniband_sends;  ///< "InfiniBand sends: 325 µs"
    std::string verdict;     ///< which link holds the collective back, and what that costs
    std::string rings_note;  ///< what one ring, or one ring per NIC, means for this group
    /// Which algorithm and protocol NCCL picks at this size and why, against the runner-up:
    /// "At 8 B across 16 nodes NCCL picks the tree (LL): 8 network hops, 55.2 µs; the ring
    /// needs 254 steps, 30 over the network: 312 µs."
    std::string choice;
    /// "Latency-bound: the fixed cost is 97% of the time", "Too small to fill NCCL: ..." (a
    /// message on a few of NCCL's channels and threads) or "Bandwidth-bound: ...".
    std::string bound;
    bool latency_bound = false;
    bool narrow_bound = false;  ///< the few channels and threads a small message runs on take the most time
    std::string nccl_time;   ///< NCCL's own closed-form estimate of the same: "55.2 µs"
};
CollectiveStory tell(const Cluster& cluster, const CollectiveResult& r);

/// Why a run streams faster than NCCL's estimate of it (NcclModel::run_bandwidth), to follow "it
/// prices the NVLS at an algbw of 160 GB/s, ": "each channel held to a speed its search lists,
/// where the wires at NVLS's efficiency give 252 GB/s". Empty where the run keeps the estimate's rate.
std::string run_rate_reason(const CollectiveCost& c);

/// "Step 3 of 14 · reduce-scatter: each GPU adds the chunk it receives to its own."
std::string ring_step_text(CollectiveOp op, std::size_t n, std::size_t step);

/// "Done: every GPU holds the sum." (what each collective leaves behind).
std::string collective_done_text(CollectiveOp op);
/// What the animation shows `t` seconds into the collective: the ring's step, a tree's or NVLS's
/// latency wave (which level, which wire) and then its bytes, or that it is done.
std::string collective_play_text(const CollectiveResult& r, double t);

}  // namespace m2m::core
