// A real-scale layout's tensor- and data-parallel groups and pipeline routes on Lesson 2's cluster,
// with collective times from its ring model (exact per size, or a straight line for the search).
#include "m2m/core/scale/layout_links.hpp"

#include <algorithm>
#include <cmath>

namespace m2m::core {

namespace {

ClusterShape shape_for(const EstimateSetup& setup) {
    ClusterShape shape;
    shape.gpus_per_node = setup.gpus_per_node;
    shape.nodes_per_rack = setup.nodes_per_rack;
    const std::uint64_t per_rack = std::uint64_t{setup.gpus_per_node} * setup.nodes_per_rack;
    const auto gpus = static_cast<std::uint64_t>(std::max(setup.layout.gpus, 1));
    shape.racks = static_cast<std::uint32_t>((gpus + per_rack - 1) / per_rack);
    return shape;
}

// One ring per member the group has in a node, when it spans nodes: each ring leaves the node
// through a different GPU's NIC, as NCCL's rail-aligned rings do.
std::uint32_t rings_for(const Cluster& c, const std::vector<GpuId>& group) {
    if (group.size() < 2 || c.node_of(group.front()) == c.node_of(group.back())) return 1;
    std::uint32_t in_first_node = 0;
    for (GpuId g : group) in_first_node += c.node_of(g) == c.node_of(group.front()) ? 1 : 0;
    return std::max<std::uint32_t>(in_first_node, 1);
}

LinkType group_link(const Cluster& c, const std::vector<GpuId>& group) {
    if (group.size() < 2) return LinkType::local;
    return c.node_of(group.front()) == c.node_of(group.back()) ? LinkType::nvlink : LinkType::infiniband;
}

}  // namespace

LayoutLinks::LayoutLinks(const EstimateSetup& setup, Mode mode)
    : m_mode(mode), m_cluster(shape_for(setup), setup.system), m_layout(setup.layout) {
    const Layout& l = setup.layout;
    CollectiveSetup& tp = m_groups[0];
    for (int r = 0; r < l.tp; ++r) tp.group.push_back(static_cast<GpuId>(r));
    CollectiveSetup& dp = m_groups[1];
    for (int r = 0; r < l.dp; ++r) dp.group.push_back(static_cast<GpuId>(r) * static_cast<GpuId>(l.tp));
    for (CollectiveSetup& g : m_groups) g.rings = rings_for(m_cluster, g.group);
    m_tp_type = group_link(m_cluster, tp.group);
    m_dp_type = group_link(m_cluster, dp.group);
}

double LayoutLinks::run_s(int group, CollectiveOp op, double bytes) const {
    CollectiveSetup s = m_groups[group];
    s.op = op;
    s.bytes = static_cast<Bytes>(std::llround(bytes));
    return run_collective(m_cluster, s).time_s;
}

double LayoutLinks::collective_s(int group, CollectiveOp op, double bytes) {
    if (m_groups[group].group.size() < 2 || bytes <= 0) return 0;
    if (m_mode == Mode::exact) {
        for (const Memo& m : m_memo)
            if (m.group == group && m.op == op && m.bytes == bytes) return m.seconds;
        const double t = run_s(group, op, bytes);
        m_memo.push_back({group, op, bytes, t});
        return t;
    }
    // Linear: a ring's time is latency + bytes / bandwidth, so two sizes fix the line.
    constexpr double small = 1 << 24, large = 1 << 30;
    double t_small = -1, t_large = -1;
    for (const Memo& m : m_memo)
        if (m.group == group && m.op == op) (m.bytes == small ? t_small : t_large) = m.seconds;
    if (t_small < 0) {
        t_small = run_s(group, op, small);
        m_memo.push_back({group, op, small, t_small});
    }
    if (t_large < 0) {
        t_large = run_s(group, op, large);
        m_memo.push_back({group, op, large, t_large});
    }
    return t_small + (bytes - small) * (t_large - t_small) / (large - small);
}

double LayoutLinks::tp_collective_s(CollectiveOp op, double bytes) { return collective_s(0, op, bytes); }
double LayoutLinks::dp_collective_s(CollectiveOp op, double bytes) { return collective_s(1, op, bytes); }

Route LayoutLinks::stage_route(int k, int k2) const {
    const std::int64_t stride = static_cast<std::int64_t>(m_layout.tp) * m_layout.dp;
    Route worst;
    double worst_s = -1;
    for (int r = 0; r < m_layout.tp; ++r) {
        const Route route = m_cluster.route(static_cast<GpuId>(k * stride + r), static_cast<GpuId>(k2 * stride + r));
        const double t = transfer_seconds(route, 1e8);
        if (t > worst_s) {
            worst_s = t;
            worst = route;
        }
    }
    return worst;
}

}  // namespace m2m::core
