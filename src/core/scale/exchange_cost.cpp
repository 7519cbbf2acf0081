// The one place the estimator times an exchange: collectives by Lesson 2's NCCL cost model (one
// cost table per group shape), sends by its routes.
#include "m2m/core/scale/exchange_cost.hpp"

#include <algorithm>

namespace m2m::core {

std::string_view collective_kind_name(CollectiveKind k) {
    switch (k) {
        case CollectiveKind::all_reduce: return "all_reduce";
        case CollectiveKind::all_gather: return "all_gather";
        case CollectiveKind::reduce_scatter: return "reduce_scatter";
        case CollectiveKind::all_to_all: return "all_to_all";
        case CollectiveKind::send: return "send";
    }
    return "?";
}

std::string_view collective_kind_label(CollectiveKind k) {
    switch (k) {
        case CollectiveKind::all_reduce: return "all-reduce";
        case CollectiveKind::all_gather: return "all-gather";
        case CollectiveKind::reduce_scatter: return "reduce-scatter";
        case CollectiveKind::all_to_all: return "all-to-all";
        case CollectiveKind::send: return "send";
    }
    return "?";
}

namespace {

std::uint64_t mix(std::uint64_t h, std::uint64_t v) { return (h ^ v) * 1099511628211ull; }  // FNV-1a step

CollectiveOp nccl_op(CollectiveKind k) {
    switch (k) {
        case CollectiveKind::all_reduce: return CollectiveOp::all_reduce;
        case CollectiveKind::all_gather: return CollectiveOp::all_gather;
        case CollectiveKind::reduce_scatter: return CollectiveOp::reduce_scatter;
        case CollectiveKind::all_to_all:
        case CollectiveKind::send: break;
    }
    return CollectiveOp::all_to_all;
}

}  // namespace

// Members of the group in the node of its first member (a layout's groups have the same number
// in every node they touch, and list a node's members together).
std::int64_t ExchangeTimer::members_per_node(const GpuGroup& group) const {
    const std::uint32_t node = m_cluster.node_of(group.member(0));
    std::int64_t g = 1;
    while (g < group.size() && m_cluster.node_of(group.member(g)) == node) ++g;
    return g;
}

LinkType ExchangeTimer::link(const GpuGroup& group) const {
    if (group.size() < 2) return LinkType::local;
    return members_per_node(group) < group.size() ? LinkType::infiniband : LinkType::nvlink;
}

ExchangeCost ExchangeTimer::cost(const GpuGroup& group, CollectiveKind op, double bytes) {
    if (group.size() < 2 || !(bytes > 0)) return {};
    if (op == CollectiveKind::send) {
        // A pair's one send, or a ring's step (context parallel's key/value blocks): every member
        // sends to the next at once, and the step lasts as long as its slowest hop, the one that
        // leaves a node where the ring crosses nodes.
        double slowest = 0;
        const std::int64_t hops = group.size() == 2 ? 1 : group.size();
        for (std::int64_t i = 0; i < hops; ++i)
            slowest = std::max(slowest, transfer_seconds(m_cluster.route(group.member(i), group.member((i + 1) % group.size())), bytes));
        return {slowest, "route", ""};
    }
    const std::int64_t n = group.size(), g = members_per_node(group);
    CollectiveGroup shape;
    shape.gpus = static_cast<std::uint32_t>(n);
    shape.gpus_per_node = static_cast<std::uint32_t>(g);
    shape.nodes = static_cast<std::uint32_t>((n + g - 1) / g);
    const std::uint64_t key =
        mix(mix(mix(14695981039346656037ull, static_cast<std::uint64_t>(op)), shape.gpus), shape.gpus_per_node);
    auto found = m_models.find(key);
    if (found == m_models.end()) found = m_models.emplace(key, NcclModel(m_cluster.system(), shape, nccl_op(op))).first;
    const CollectiveCost c = found->second.best(bytes);
    return {c.time_s, collective_algorithm_name(c.algorithm), collective_protocol_name(c.protocol)};
}

}  // namespace m2m::core
