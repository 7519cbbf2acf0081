// How long one exchange of a real-scale layout takes on Lesson 2's cluster: every collective,
// all-to-all and point-to-point send the estimator times goes through ExchangeTimer::cost(),
// which asks Lesson 2's NCCL cost model.
#pragma once

#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "m2m/core/rack/collective_cost.hpp"
#include "m2m/core/rack/topology.hpp"

namespace m2m::core {

/// What an exchange does. Ring collectives as nccl-tests size them (S: the all-reduce buffer,
/// the all-gather's output, the reduce-scatter's input); all_to_all: each GPU sends S/n to every
/// member (mixture-of-experts dispatch and combine); send: point to point, S bytes.
enum class CollectiveKind { all_reduce, all_gather, reduce_scatter, all_to_all, send };
/// "all_reduce", "all_gather", "reduce_scatter", "all_to_all", "send": the JSON's spelling.
std::string_view collective_kind_name(CollectiveKind k);
/// "all-reduce", "all-gather", "reduce-scatter", "all-to-all", "send": the sentences' spelling.
std::string_view collective_kind_label(CollectiveKind k);

/// A group of GPUs as a layout makes them: `outer` blocks `outer_stride` apart, each `inner`
/// GPUs `inner_stride` apart, from `first`; member i is first + (i / inner) outer_stride +
/// (i % inner) inner_stride, in ring order. Strides may be negative (a send back a stage).
struct GpuGroup {
    std::int64_t first = 0;
    std::int64_t inner = 1, inner_stride = 1;
    std::int64_t outer = 1, outer_stride = 0;
    std::int64_t size() const { return inner * outer; }
    GpuId member(std::int64_t i) const {
        return static_cast<GpuId>(first + (i / inner) * outer_stride + (i % inner) * inner_stride);
    }
    static GpuGroup strided(std::int64_t count, std::int64_t stride, std::int64_t first = 0) {
        return {first, count, stride, 1, 0};
    }
    static GpuGroup pair(GpuId from, GpuId to) {
        return {static_cast<std::int64_t>(from), 2, static_cast<std::int64_t>(to) - static_cast<std::int64_t>(from), 1, 0};
    }
};

/// What one exchange costs, and how NCCL would run it.
struct ExchangeCost {
    double seconds = 0;
    std::string_view algorithm;  ///< "ring", "tree", "nvls", "nvls_tree", "p2p"; "route" for a send; empty for none
    std::string_view protocol;   ///< "ll", "ll128", "simple"; empty for a send
};

/// Times exchanges among groups of one cluster, remembering NCCL's cost table for each group
/// shape (a layout search asks about the same groups thousands of times).
///
/// Collectives (all-reduce, all-gather, reduce-scatter, all-to-all) cost what NCCL's own
/// closed-form model says, with the algorithm and protocol NCCL would pick: Lesson 2's
/// core::NcclModel (rack/collective_cost.hpp), for a group of its size, members per node and
/// nodes. A send is a transfer on its route (latency + bytes / the slowest hop's rate).
class ExchangeTimer {
public:
    explicit ExchangeTimer(Cluster cluster) : m_cluster(std::move(cluster)) {}
    /// Seconds for `op` of `bytes` among `group` (GPUs of the cluster, in ring order).
    /// 0 for a group of one or no bytes. send: GpuGroup::pair(from, to), or a ring: one step of
    /// every member sending to the next, as long as its slowest hop.
    double seconds(const GpuGroup& group, CollectiveKind op, double bytes) { return cost(group, op, bytes).seconds; }
    ExchangeCost cost(const GpuGroup& group, CollectiveKind op, double bytes);
    /// The slowest link the exchange crosses (local for a group of one).
    LinkType link(const GpuGroup& group) const;
    const Cluster& cluster() const { return m_cluster; }
    /// Cost tables built so far (for tests of the memo).
    std::size_t models() const { return m_models.size(); }

private:
    std::int64_t members_per_node(const GpuGroup& group) const;
    Cluster m_cluster;
    std::unordered_map<std::uint64_t, NcclModel> m_models;  ///< by group shape and collective
};

}  // namespace m2m::core
