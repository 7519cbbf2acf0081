// Ring collectives (all-reduce, all-gather, reduce-scatter) run as link transfers on the
// shared scheduler, with time, algbw and busbw as nccl-tests defines them.
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
    /// The GPUs in ring order: position i sends to position i+1, the last to the first.
    std::vector<GpuId> group;
    /// nccl-tests' S: the buffer for all-reduce, the gathered output for all-gather, the
    /// input for reduce-scatter.
    Bytes bytes = 0;
    /// Parallel rings (NCCL's "channels"), each carrying bytes / rings. Ring r is rotated by
    /// r inside every node, so on a multi-node group each ring leaves a node through a
    /// different GPU's NIC, as NCCL's rail-aligned rings do; the rings share NVLink ports.
    /// 1 = the single ring the lesson draws. A send holds its links for its latency too, so
    /// rings that share a link (all of them inside one node) add latency, not bandwidth.
    std::uint32_t rings = 1;
};

/// The first n GPUs of the cluster (0 .. n-1): whole nodes first, then whole racks.
std::vector<GpuId> first_gpus(std::uint32_t n);

/// One GPU's send in one step of one ring. Every step of a collective is the same set of
/// sends (only the chunk index differs, see ring_chunk_sent), so these describe them all.
struct RingSend {
    std::uint32_t ring = 0;
    std::uint32_t position = 0;  ///< sender's position on the ring
    GpuId from = 0;
    GpuId to = 0;
    LinkType type = LinkType::local;
    std::size_t hops = 0;
    double start_s = 0;  ///< from the start of its step (later than 0 if it waited for a shared link)
    double end_s = 0;
};

struct CollectiveResult {
    CollectiveOp op = CollectiveOp::all_reduce;
    std::size_t gpus = 0;
    Bytes bytes = 0;
    std::uint32_t rings = 1;
    std::uint32_t nodes = 0;                ///< nodes the group touches
    LinkType slowest = LinkType::local;     ///< infiniband when any send leaves its node
    double bottleneck_GBps = 0;             ///< slowest hop of any send (effective, one direction)
    std::size_t steps = 0;
    double chunk_bytes = 0;                 ///< each send: bytes / (gpus * rings)
    double base_latency_s = 0;              ///< once, before the first step
    double step_s = 0;                      ///< every step takes this long
    double time_s = 0;                      ///< base_latency_s + steps * step_s
    double algbw_GBps = 0;                  ///< bytes / time_s
    double busbw_GBps = 0;                  ///< algbw x busbw_factor
    std::vector<RingSend> sends;            ///< one step's sends, ring by ring, position by position
    double step_start_s(std::size_t step) const { return base_latency_s + static_cast<double>(step) * step_s; }
};

/// Runs the collective on the scheduler. The model is lock-step: each step's sends start
/// when the whole previous step has ended (a join between steps), each send a transfer of
/// chunk_bytes on its route's links. Every step is then the same work graph starting on
/// idle links, so the scheduler runs ONE step and the result multiplies it by the step
/// count: exact for this model (add_collective builds all steps; a test checks both agree),
/// and it keeps a 1,024-GPU all-reduce at n tasks instead of 2(n-1)n. NCCL itself has no
/// barrier between steps, but a ring still moves at the pace of its slowest link.
/// Throws std::invalid_argument for an empty group, a repeated GPU, bytes < 0 or rings == 0;
/// std::out_of_range for a GPU outside the cluster. A group of one takes no time.
CollectiveResult run_collective(const Cluster& cluster, const CollectiveSetup& setup);

/// The whole collective in a caller's work graph, to run alongside other work: a start
/// join, each step's transfers, a join after each step (and the base latency as a delay
/// task first). Make tasks wait on `finish`; make `start` wait on what must come first.
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
    std::string slowest;     ///< "NVLink" or "InfiniBand": the slowest link any send crosses
    std::string steps;       ///< "126 × 328 µs"
    /// Inside one step (every step is alike): when the last send that stays on NVLink ends,
    /// and when the last send that crosses InfiniBand ends; 0 when there is none of that kind.
    double nvlink_sends_end_s = 0;
    double infiniband_sends_end_s = 0;
    std::string nvlink_sends;      ///< "NVLink sends: 42.1 µs"
    std::string infiniband_sends;  ///< "InfiniBand sends: 325 µs"
    std::string verdict;     ///< which link holds every step back, and what that costs
    std::string rings_note;  ///< what one ring, or one ring per NIC, means for this group
};
CollectiveStory tell(const Cluster& cluster, const CollectiveResult& r);

/// "Step 3 of 14 · reduce-scatter: each GPU adds the chunk it receives to its own."
std::string ring_step_text(CollectiveOp op, std::size_t n, std::size_t step);

}  // namespace m2m::core
