// A real-scale layout's groups of GPUs and pipeline routes on Lesson 2's cluster, in Megatron's
// rank order, with every exchange among them timed by the shared ExchangeTimer.
#include "m2m/core/scale/layout_links.hpp"

#include <algorithm>

#include "scale_parts.hpp"

namespace m2m::core {

std::string_view group_kind_name(GroupKind g) {
    switch (g) {
        case GroupKind::tensor: return "tensor";
        case GroupKind::context: return "context";
        case GroupKind::weights: return "data";
        case GroupKind::shard: return "shard";
        case GroupKind::replicas: return "replicas";
        case GroupKind::experts: return "expert";
        case GroupKind::expert_data: return "expert_data";
        case GroupKind::pipeline: return "pipeline";
    }
    return "?";
}

ClusterShape LayoutLinks::cluster_shape(const EstimateSetup& setup) {
    ClusterShape shape;
    shape.gpus_per_node = setup.gpus_per_node;
    shape.nodes_per_rack = setup.nodes_per_rack;
    const std::uint64_t per_rack = std::uint64_t{setup.gpus_per_node} * setup.nodes_per_rack;
    const auto gpus = static_cast<std::uint64_t>(std::max(setup.layout.gpus, 1));
    shape.racks = static_cast<std::uint32_t>((gpus + per_rack - 1) / per_rack);
    return shape;
}

LayoutLinks::LayoutLinks(const EstimateSetup& setup, std::shared_ptr<ExchangeTimer> timer)
    : m_timer(timer ? std::move(timer) : std::make_shared<ExchangeTimer>(Cluster(cluster_shape(setup), setup.system))),
      m_layout(setup.layout) {
    const Layout& l = setup.layout;
    const std::int64_t tp = l.tp, tcp = tp * l.cp;
    const int replicas = scale_detail::weight_replicas(l);
    const int shard = scale_detail::shard_group(l, replicas, l.tp, setup.gpus_per_node);
    m_groups[0] = GpuGroup::strided(l.tp, 1);
    m_groups[1] = GpuGroup::strided(l.cp, tp);
    m_groups[2] = GpuGroup::strided(replicas, tp);
    m_groups[3] = GpuGroup::strided(shard, tp);
    m_groups[4] = GpuGroup::strided(replicas / shard, tp * shard);
    m_groups[5] = GpuGroup::strided(l.ep, tcp);
    // Expert rank 0's copies: every context rank c of the data ranks d = j ep, j by j.
    m_groups[6] = GpuGroup{0, l.cp, tp, l.dp / l.ep, tcp * l.ep};
    m_groups[7] = GpuGroup::strided(std::min(l.pp, 2), tcp * l.dp);  // stage 0's GPU 0 and stage 1's
}

LinkType LayoutLinks::link(GroupKind g) const { return m_timer->link(group(g)); }

Route LayoutLinks::stage_route(int k, int k2) const {
    const std::int64_t stride = static_cast<std::int64_t>(m_layout.tp) * m_layout.cp * m_layout.dp;
    Route worst;
    double worst_s = -1;
    // The first and the last tensor/context rank: if either crosses a node, they all do alike.
    for (int r : {0, m_layout.tp * m_layout.cp - 1}) {
        const Route route =
            cluster().route(static_cast<GpuId>(k * stride + r), static_cast<GpuId>(k2 * stride + r));
        const double t = transfer_seconds(route, 1e8);
        if (t > worst_s) {
            worst_s = t;
            worst = route;
        }
    }
    return worst;
}

}  // namespace m2m::core
