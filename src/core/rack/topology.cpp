// The cluster's link table, routes between GPUs, and transfers scheduled on link pools.
//
// [SECTION] names and the cluster   [SECTION] transfers   [SECTION] what the lesson says
#include "m2m/core/rack/topology.hpp"
#include "m2m/core/engine/text.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace m2m::core {

namespace {

// Link ids: GPU g owns 6g .. 6g+5 in LinkRole order; rack r owns 6G + 2r (up) and 6G + 2r + 1
// (down), G the GPU count. Computed, not stored, so a 100,000-GPU cluster costs nothing.
constexpr std::uint32_t links_per_gpu = 6;
constexpr PoolId no_pool = 0xFFFFFFFFu;

bool is_gpu_role(LinkRole role) { return role != LinkRole::leaf_to_spine && role != LinkRole::spine_to_leaf; }

ResourceKind resource_kind(LinkType type) {
    switch (type) {
    case LinkType::nvlink: return ResourceKind::nvlink;
    case LinkType::pcie: return ResourceKind::pcie;
    case LinkType::infiniband: return ResourceKind::infiniband;
    case LinkType::local: break;
    }
    return ResourceKind::other;
}

}  // namespace

// [SECTION] names and the cluster -------------------------------------------------------------

std::string_view link_type_name(LinkType type) {
    switch (type) {
    case LinkType::local: return "local";
    case LinkType::nvlink: return "nvlink";
    case LinkType::pcie: return "pcie";
    case LinkType::infiniband: return "infiniband";
    }
    return "local";
}

std::string_view link_type_label(LinkType type) {
    switch (type) {
    case LinkType::local: return "local";
    case LinkType::nvlink: return "NVLink";
    case LinkType::pcie: return "PCIe";
    case LinkType::infiniband: return "InfiniBand";
    }
    return "local";
}

std::string validate(const ClusterShape& s) {
    if (s.gpus_per_node < 1 || s.gpus_per_node > max_gpus_per_node)
        return "GPUs per node must be between 1 and " + std::to_string(max_gpus_per_node);
    if (s.nodes_per_rack < 1) return "a rack needs at least 1 node";
    if (s.racks < 1) return "a cluster needs at least 1 rack";
    const std::uint64_t per_rack = std::uint64_t{s.gpus_per_node} * s.nodes_per_rack;
    if (per_rack > max_cluster_gpus || per_rack * s.racks > max_cluster_gpus)
        return "a cluster of at most " + std::to_string(max_cluster_gpus) + " GPUs is supported (asked for " +
               std::to_string(per_rack * s.racks) + ")";
    return {};
}

Cluster::Cluster(ClusterShape shape, SystemSpec system) : m_shape(shape), m_system(std::move(system)) {
    if (auto why = validate(m_shape); !why.empty()) throw std::invalid_argument(why);
    for (const LinkSpec* l : {&m_system.nvlink, &m_system.pcie, &m_system.infiniband})
        if (!(l->effective_GBps() > 0) || l->latency_s < 0)
            throw std::invalid_argument("link '" + l->name + "' needs a positive bandwidth and a latency >= 0");
    if (m_shape.leaf_uplinks == 0) m_shape.leaf_uplinks = m_shape.gpus_per_rack();
    m_gpus = static_cast<std::uint32_t>(m_shape.gpu_count());
}

LinkId Cluster::gpu_link(GpuId gpu, LinkRole role) const {
    if (!contains(gpu)) throw std::out_of_range("GPU " + std::to_string(gpu) + " is not in the cluster");
    if (!is_gpu_role(role)) throw std::invalid_argument("leaf uplinks belong to a rack, not a GPU");
    return gpu * links_per_gpu + static_cast<std::uint32_t>(role);
}

LinkId Cluster::rack_link(std::uint32_t rack, LinkRole role) const {
    if (rack >= m_shape.racks) throw std::out_of_range("rack " + std::to_string(rack) + " is not in the cluster");
    if (is_gpu_role(role)) throw std::invalid_argument("only leaf uplinks belong to a rack");
    return m_gpus * links_per_gpu + 2 * rack + (role == LinkRole::spine_to_leaf ? 1 : 0);
}

Link Cluster::link(LinkId id) const {
    if (id >= link_count()) throw std::out_of_range("link " + std::to_string(id) + " is not in the cluster");
    Link l;
    const std::uint32_t gpu_links = m_gpus * links_per_gpu;
    if (id < gpu_links) {
        l.owner = id / links_per_gpu;
        l.role = static_cast<LinkRole>(id % links_per_gpu);
    } else {
        l.owner = (id - gpu_links) / 2;
        l.role = (id - gpu_links) % 2 ? LinkRole::spine_to_leaf : LinkRole::leaf_to_spine;
        l.lanes = m_shape.leaf_uplinks;
    }
    // A transfer's latency is charged on the hop where NCCL's cost model charges it (see
    // SystemSpec): the sending side of NVLink and of the network, and each extra switch.
    switch (l.role) {
    case LinkRole::gpu_to_nvswitch:
        l.latency_s = m_system.nvlink.latency_s;
        [[fallthrough]];
    case LinkRole::nvswitch_to_gpu:
        l.type = LinkType::nvlink;
        l.bandwidth_GBps = m_system.nvlink.effective_GBps();
        break;
    case LinkRole::gpu_to_nic:
    case LinkRole::nic_to_gpu:
        l.type = LinkType::pcie;
        l.bandwidth_GBps = m_system.pcie.effective_GBps();
        l.latency_s = m_system.pcie.latency_s;
        break;
    case LinkRole::nic_to_leaf:
        l.latency_s = m_system.infiniband.latency_s;
        [[fallthrough]];
    case LinkRole::leaf_to_nic:
        l.type = LinkType::infiniband;
        l.bandwidth_GBps = m_system.infiniband.effective_GBps();
        break;
    case LinkRole::leaf_to_spine:
    case LinkRole::spine_to_leaf:
        l.type = LinkType::infiniband;
        l.bandwidth_GBps = m_system.infiniband.effective_GBps();
        l.latency_s = m_system.switch_latency_s;
        break;
    }
    return l;
}

std::string Cluster::link_name(LinkId id) const {
    const Link l = link(id);
    const std::string gpu = "GPU " + std::to_string(l.owner);
    const std::string nic = "NIC " + std::to_string(l.owner);
    const std::string nvswitch = "NVSwitch (node " + std::to_string(l.owner / m_shape.gpus_per_node) + ")";
    const std::string rack = std::to_string(is_gpu_role(l.role) ? rack_of(l.owner) : l.owner);
    const std::string leaf = "leaf (rack " + rack + ")";
    switch (l.role) {
    case LinkRole::gpu_to_nvswitch: return gpu + " -> " + nvswitch;
    case LinkRole::nvswitch_to_gpu: return nvswitch + " -> " + gpu;
    case LinkRole::gpu_to_nic: return gpu + " -> " + nic;
    case LinkRole::nic_to_gpu: return nic + " -> " + gpu;
    case LinkRole::nic_to_leaf: return nic + " -> " + leaf;
    case LinkRole::leaf_to_nic: return leaf + " -> " + nic;
    case LinkRole::leaf_to_spine: return leaf + " -> spine";
    case LinkRole::spine_to_leaf: return "spine -> " + leaf;
    }
    return {};
}

Route Cluster::route(GpuId from, GpuId to) const {
    for (GpuId g : {from, to})
        if (!contains(g))
            throw std::out_of_range("GPU " + std::to_string(g) + " is not in the cluster (GPUs 0 to " +
                                    std::to_string(m_gpus - 1) + ")");
    Route r;
    r.from = from;
    r.to = to;
    if (from == to) return r;
    if (node_of(from) == node_of(to)) {
        r.type = LinkType::nvlink;
        r.links = {gpu_link(from, LinkRole::gpu_to_nvswitch), gpu_link(to, LinkRole::nvswitch_to_gpu)};
    } else {
        r.type = LinkType::infiniband;
        r.links = {gpu_link(from, LinkRole::gpu_to_nic), gpu_link(from, LinkRole::nic_to_leaf)};
        if (rack_of(from) != rack_of(to)) {
            r.links.push_back(rack_link(rack_of(from), LinkRole::leaf_to_spine));
            r.links.push_back(rack_link(rack_of(to), LinkRole::spine_to_leaf));
        }
        r.links.push_back(gpu_link(to, LinkRole::leaf_to_nic));
        r.links.push_back(gpu_link(to, LinkRole::nic_to_gpu));
    }
    r.bandwidth_GBps = std::numeric_limits<double>::infinity();
    for (LinkId id : r.links) {
        const Link l = link(id);
        r.latency_s += l.latency_s;
        r.bandwidth_GBps = std::min(r.bandwidth_GBps, l.bandwidth_GBps);
    }
    return r;
}

Route Cluster::switch_route(GpuId gpu, bool into) const {
    Route r;
    r.from = r.to = gpu;
    r.type = LinkType::nvlink;
    r.links = {gpu_link(gpu, into ? LinkRole::gpu_to_nvswitch : LinkRole::nvswitch_to_gpu)};
    const Link l = link(r.links.front());
    r.latency_s = l.latency_s;
    r.bandwidth_GBps = l.bandwidth_GBps;
    return r;
}

std::vector<std::string> Cluster::path_names(const Route& r) const {
    std::vector<std::string> out;
    out.reserve(r.links.size());
    for (LinkId id : r.links) out.push_back(link_name(id));
    return out;
}

// [SECTION] transfers ---------------------------------------------------------------------------

double transfer_seconds(const Route& r, double bytes) {
    if (r.links.empty()) return 0.0;
    return r.latency_s + bytes / (r.bandwidth_GBps * 1e9);
}

SimTime transfer_duration(const Route& r, double bytes) { return picoseconds_from_seconds(transfer_seconds(r, bytes)); }

double nvlink_reference_seconds(const SystemSpec& system, double bytes) {
    // GPU -> NVSwitch -> GPU: the sender's NVLink latency, both ports at the NVLink rate.
    return system.nvlink.latency_s + bytes / (system.nvlink.effective_GBps() * 1e9);
}

LinkPools::LinkPools(const Cluster& cluster, WorkGraph& graph)
    : m_cluster(cluster), m_graph(graph), m_pool_of_link(cluster.link_count(), no_pool) {}

PoolId LinkPools::pool(LinkId link) {
    PoolId& p = m_pool_of_link.at(link);
    if (p == no_pool) {
        const Link l = m_cluster.link(link);
        p = m_graph.add_pool(m_cluster.link_name(link), resource_kind(l.type), l.lanes);
        if (m_link_of_pool.size() <= p) m_link_of_pool.resize(p + 1, static_cast<LinkId>(m_cluster.link_count()));
        m_link_of_pool[p] = link;
    }
    return p;
}

LinkId LinkPools::link_of(PoolId pool) const {
    return pool < m_link_of_pool.size() ? m_link_of_pool[pool] : static_cast<LinkId>(m_cluster.link_count());
}

TaskId add_transfer(LinkPools& pools, const Route& r, double bytes) {
    if (!(bytes >= 0) || !std::isfinite(bytes)) throw std::invalid_argument("a transfer needs bytes >= 0");
    PoolId needs[8];  // the longest route has 6 hops
    for (std::size_t i = 0; i < r.links.size(); ++i) needs[i] = pools.pool(r.links[i]);
    return pools.graph().add_task(transfer_duration(r, bytes), std::span<const PoolId>(needs, r.links.size()));
}

std::string_view link_sharing_rule() {
    return "A link carries one transfer at a time, first come first served: two equal tensors on one link "
           "end at 1\xc3\x97 and 2\xc3\x97 the time of one, so the last ends when it would if they shared the link at half "
           "speed each.";
}

TransfersResult run_transfers(const Cluster& cluster, std::span<const TransferRequest> requests) {
    WorkGraph g;
    LinkPools pools(cluster, g);
    TransfersResult out;
    out.transfers.reserve(requests.size());
    for (const TransferRequest& q : requests) {
        if (q.bytes < 0) throw std::invalid_argument("a transfer needs bytes >= 0");
        TransferRun run;
        run.request = q;
        run.route = cluster.route(q.from, q.to);
        const double bytes = static_cast<double>(q.bytes);
        run.latency_s = run.route.links.empty() ? 0.0 : run.route.latency_s;
        run.bandwidth_s = run.route.links.empty() ? 0.0 : bytes / (run.route.bandwidth_GBps * 1e9);
        add_transfer(pools, run.route, bytes);
        out.transfers.push_back(std::move(run));
    }
    out.timeline = schedule(g);
    const double s = seconds_per_step(TimeUnit::picoseconds);
    for (std::size_t i = 0; i < out.transfers.size(); ++i) {
        out.transfers[i].start_s = static_cast<double>(out.timeline.runs[i].start) * s;
        out.transfers[i].end_s = static_cast<double>(out.timeline.runs[i].end) * s;
    }
    out.makespan_s = static_cast<double>(out.timeline.makespan) * s;
    return out;
}

TransferResult run_transfer(const Cluster& cluster, GpuId from, GpuId to, Bytes bytes) {
    const TransferRequest q{from, to, bytes};
    TransfersResult all = run_transfers(cluster, std::span<const TransferRequest>(&q, 1));
    TransferResult out;
    out.run = std::move(all.transfers.front());
    out.time_s = out.run.latency_s + out.run.bandwidth_s;
    if (from != to) {
        out.reference_s = nvlink_reference_seconds(cluster.system(), static_cast<double>(bytes));
        if (out.reference_s > 0) out.relative_time = out.time_s / out.reference_s;
    }
    return out;
}

// [SECTION] what the lesson says -------------------------------------------------------------------

std::string nvlink_direction_note(const SystemSpec& s) {
    return s.nvlink.name + "'s " + format_rate_GBps(2 * s.nvlink.raw_GBps) + " is both directions added: a one-way send gets " +
           format_rate_GBps(s.nvlink.raw_GBps) + " (about " + format_rate_GBps(s.nvlink.effective_GBps()) + " in practice).";
}

TransferStory tell(const Cluster& cluster, const TransferResult& r) {
    const Route& route = r.run.route;
    TransferStory st;
    st.link = std::string(link_type_label(route.type));
    st.hops = std::to_string(route.hops());
    const std::string size = format_bytes(static_cast<double>(r.run.request.bytes));
    if (route.links.empty()) {
        st.bandwidth = "no wire";
        st.relative_time = "0\u00d7";
        st.time = st.latency = st.bandwidth_time = format_seconds(0);
        st.bound = size + ": stays put";
        st.verdict = "A GPU sending to itself crosses no wire at all. Pick two different GPUs.";
        st.path = "GPU " + std::to_string(route.from);
        return st;
    }
    st.bandwidth = format_rate_GBps(route.bandwidth_GBps);
    st.relative_time = format_ratio(r.relative_time);
    st.time = format_seconds(r.time_s);
    st.latency = format_seconds(r.run.latency_s);
    st.bandwidth_time = format_seconds(r.run.bandwidth_s);
    st.latency_bound = r.run.latency_s > r.run.bandwidth_s;
    st.bound = size + (st.latency_bound ? ": latency-bound" : ": bandwidth-bound");

    const SystemSpec& sys = cluster.system();
    std::string where;
    if (route.type == LinkType::nvlink)
        where = "Inside one node the tensor goes GPU \u2192 NVSwitch \u2192 GPU over " + sys.nvlink.name + ", at " +
                st.bandwidth + " one way.";
    else
        where = std::string(cluster.rack_of(route.from) == cluster.rack_of(route.to) ? "To another node"
                                                                                     : "To another rack") +
                " the tensor leaves through its GPU's own NIC onto " + sys.infiniband.name + ": " + st.hops +
                " hops, the slowest at " + st.bandwidth + ", so it takes " + st.relative_time +
                " as long as inside a node.";
    const double share = (st.latency_bound ? r.run.latency_s : r.run.bandwidth_s) / r.time_s;
    const std::string pct = format_share(share);
    const std::string why =
        st.latency_bound
            ? " At " + size + " the bytes themselves need only " + st.bandwidth_time + "; the fixed cost of the hops (" +
                  st.latency + ") is " + pct + " of the time, so a faster wire would hardly help."
            : " At " + size + " moving the bytes is " + pct + " of the time; the fixed cost of the hops (" + st.latency +
                  ") hardly shows, so only a wider wire helps.";
    st.verdict = where + why;

    // "GPU 0 -> NVSwitch (node 0)", "NVSwitch (node 0) -> GPU 5": each link's far end, after the first's near end.
    for (std::size_t i = 0; i < route.links.size(); ++i) {
        const std::string name = cluster.link_name(route.links[i]);
        const auto arrow = name.find(" -> ");
        if (i == 0) st.path = name.substr(0, arrow);
        st.path += " \u2192 " + name.substr(arrow + 4);
    }
    return st;
}

}  // namespace m2m::core
