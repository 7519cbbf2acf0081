// Where a real-scale layout's traffic runs: its tensor-, context-, data- and expert-parallel groups
// and its pipeline routes on Lesson 2's cluster, each exchange timed by one ExchangeTimer.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "m2m/core/rack/topology.hpp"
#include "m2m/core/scale/exchange_cost.hpp"
#include "m2m/core/scale/layout.hpp"

namespace m2m::core {

/// The groups of GPUs that exchange data, as seen from GPU 0 (every other group of the same kind
/// has the same shape). GPUs are numbered as Megatron ranks them: rank = t + tp (c + cp (d + dp k))
/// for tensor rank t, context rank c, data rank d and pipeline stage k; the experts' ranks are
/// consecutive data ranks.
enum class GroupKind {
    tensor,       ///< tp GPUs: GPUs 0 .. tp-1
    context,      ///< cp GPUs, stride tp: ring attention's key/value blocks
    weights,      ///< dp x cp GPUs that hold the same weights: the gradient sync
    shard,        ///< those that split the ZeRO state: all of `weights`, or (hybrid) those in one node
    replicas,     ///< hybrid sharding: one GPU per shard group, across nodes (the shards' all-reduce)
    experts,      ///< ep GPUs, stride tp cp: the all-to-all of a MoE layer
    expert_data,  ///< dp cp / ep GPUs that hold the same experts: their gradient sync
    pipeline,     ///< a GPU and its rank in the next stage (two at most): the pipeline's sends
};
/// "tensor", "context", "data", "shard", "replicas", "expert", "expert_data", "pipeline"
std::string_view group_kind_name(GroupKind g);

class LayoutLinks {
public:
    /// Throws std::invalid_argument when the system's links are unusable or the cluster is too
    /// big. A search passes one timer to every layout of a GPU count, so that each group shape is
    /// run on the scheduler once.
    explicit LayoutLinks(const EstimateSetup& setup, std::shared_ptr<ExchangeTimer> timer = nullptr);
    /// The cluster a setup runs on: its GPU count in racks of nodes_per_rack nodes.
    static ClusterShape cluster_shape(const EstimateSetup& setup);

    double seconds(GroupKind g, CollectiveKind op, double bytes) { return cost(g, op, bytes).seconds; }
    ExchangeCost cost(GroupKind g, CollectiveKind op, double bytes) { return m_timer->cost(group(g), op, bytes); }
    LinkType link(GroupKind g) const;
    int size(GroupKind g) const { return static_cast<int>(group(g).size()); }
    const GpuGroup& group(GroupKind g) const { return m_groups[static_cast<std::size_t>(g)]; }
    /// GPU r of stage k to GPU r of stage k2, for the tensor- and context-parallel ranks r of the
    /// first replica: the slowest of those routes (they run side by side, each on its own links).
    Route stage_route(int k, int k2) const;
    LinkType tp_link() const { return link(GroupKind::tensor); }
    LinkType dp_link() const { return link(GroupKind::weights); }
    const Cluster& cluster() const { return m_timer->cluster(); }
    const std::shared_ptr<ExchangeTimer>& timer() const { return m_timer; }

private:
    std::shared_ptr<ExchangeTimer> m_timer;
    Layout m_layout;
    GpuGroup m_groups[8];
};

}  // namespace m2m::core
