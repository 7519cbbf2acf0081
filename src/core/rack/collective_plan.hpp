// Inside the core: each collective algorithm as the sends of one step on the cluster's links, the
// latency wave of a tree, and the fluid bound (what the wires allow with nothing lost).
#pragma once

#include <vector>

#include "m2m/core/rack/collectives.hpp"

namespace m2m::core::detail {

struct PlannedSend {
    std::uint32_t channel = 0;
    std::uint32_t position = 0;
    SendRole role = SendRole::ring;
    Route route;
    double bytes = 0;
};

struct CollectivePlan {
    std::uint32_t channels = 1;  ///< rings, or the tree's channels
    std::size_t steps = 0;       ///< ring steps; 1 for the others
    double chunk_bytes = 0;
    std::vector<PlannedSend> sends;  ///< one step
};

/// The sends of one step of `a` among `setup.group` (in its ring order), `rings` rings for a
/// ring. Ring: every member passes S/(n x rings) to the next, per ring. Tree: in each node a
/// chain down from a leader, across nodes two binary trees over the nodes (NCCL's double binary
/// tree), 2 x members-per-node channels each with its own leader (so its own NIC), each carrying
/// its share up and back down at once (NCCL pipelines the two). NVLS: each GPU's data into the
/// NVSwitch, which adds, and the sum out (an all-reduce sends and receives S (n+1)/n per GPU).
/// NVLS tree: NVLS in each node, and each member's shard up and down two trees over the nodes
/// among the members with its place in the node. Point-to-point: S/n to every other member,
/// one send per other node to the member in the same place (the bytes its members get).
CollectivePlan plan_collective(const Cluster& cluster, const CollectiveSetup& setup, CollectiveAlgorithm a,
                               std::uint32_t rings);

/// The longest time any link needs for its share of one step, at its achievable rate with
/// nothing lost: the fluid bound the scheduler should reach.
double fluid_step_seconds(const Cluster& cluster, const std::vector<PlannedSend>& sends);

/// A tree's or NVLS's latency as hops up and down: for a tree `chain_hops` NVLink hops and
/// `tree_hops` network hops each way; for NVLS the switch (half in, half out) around them.
std::vector<WaveHop> latency_wave(CollectiveAlgorithm a, const NcclModel::LatencyParts& parts, std::uint32_t chain_hops,
                                  std::uint32_t tree_hops, double total_s);

/// Adds one send to a work graph: a task holding every link of its route for bytes / (the
/// route's bottleneck x efficiency). Latency is charged apart (collectives.cpp).
TaskId add_wire(LinkPools& pools, const PlannedSend& s, double efficiency);

}  // namespace m2m::core::detail
