// Where a real-scale layout's traffic runs: its tensor- and data-parallel groups and pipeline
// routes on Lesson 2's cluster, with collective times from Lesson 2's ring model.
#pragma once

#include <vector>

#include "m2m/core/rack/collectives.hpp"
#include "m2m/core/rack/topology.hpp"
#include "m2m/core/scale/layout.hpp"

namespace m2m::core {

/// Where a layout's traffic runs, on Lesson 2's cluster model. GPUs are numbered as Megatron
/// ranks them (tensor fastest, then data, then pipeline), so the tensor-parallel group of
/// stage 0 is GPUs 0..tp-1, its data-parallel group GPUs 0, tp, 2 tp, ..., and stage k
/// starts at GPU k tp dp. Collective times come from core::run_collective (ring, lock-step,
/// on the scheduler); a group that spans nodes with several members per node uses one ring
/// per member (NCCL's rail-aligned rings, one per NIC).
class LayoutLinks {
public:
    /// exact: run_collective for every distinct size (what estimate() uses); linear: two runs
    /// per collective, then a straight line through them (what the search ranks with).
    enum class Mode { exact, linear };
    /// Throws std::invalid_argument when the system's links are unusable or the cluster is too big.
    LayoutLinks(const EstimateSetup& setup, Mode mode);
    double tp_collective_s(CollectiveOp op, double bytes);
    double dp_collective_s(CollectiveOp op, double bytes);
    /// GPU r of stage k to GPU r of stage k2, for the tensor-parallel ranks r of the first
    /// replica: the slowest of those routes (they run side by side, each on its own links).
    Route stage_route(int k, int k2) const;
    LinkType tp_link() const { return m_tp_type; }
    LinkType dp_link() const { return m_dp_type; }
    const Cluster& cluster() const { return m_cluster; }

private:
    struct Memo {
        int group;
        CollectiveOp op;
        double bytes;
        double seconds;
    };
    double collective_s(int group, CollectiveOp op, double bytes);
    double run_s(int group, CollectiveOp op, double bytes) const;
    Mode m_mode;
    Cluster m_cluster;
    Layout m_layout;
    CollectiveSetup m_groups[2];  ///< [0] tensor-parallel, [1] data-parallel (op and bytes set per call)
    LinkType m_tp_type = LinkType::local, m_dp_type = LinkType::local;
    std::vector<Memo> m_memo;
};

}  // namespace m2m::core
