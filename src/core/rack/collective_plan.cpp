// Each collective algorithm as the sends of one step on the cluster's links (ring, tree, NVLS,
// NVLS tree, point-to-point), its latency wave, and the fluid bound its wires allow.
//
// [SECTION] the group's nodes   [SECTION] the sends of each algorithm   [SECTION] bounds and waves
#include "collective_plan.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <unordered_map>

namespace m2m::core::detail {

// [SECTION] the group's nodes -----------------------------------------------------------------------

namespace {

// The group's members node by node, nodes in the order the group first reaches them.
std::vector<std::vector<GpuId>> members_by_node(const Cluster& cluster, const std::vector<GpuId>& group) {
    std::vector<std::vector<GpuId>> out;
    std::unordered_map<std::uint32_t, std::size_t> index;
    for (GpuId g : group) {
        const auto [it, fresh] = index.try_emplace(cluster.node_of(g), out.size());
        if (fresh) out.emplace_back();
        out[it->second].push_back(g);
    }
    return out;
}

// Ring r: the group's order with every run of same-node GPUs rotated left by r, so the ring
// enters and leaves each node through different GPUs (and NICs) from one ring to the next.
// Rotating a whole one-node ring gives the same cycle, so single-node rings are all alike.
std::vector<GpuId> ring_order(const Cluster& cluster, const std::vector<GpuId>& group, std::uint32_t ring) {
    std::vector<GpuId> order(group);
    if (ring == 0) return order;
    for (std::size_t begin = 0; begin < order.size();) {
        std::size_t end = begin + 1;
        while (end < order.size() && cluster.node_of(order[end]) == cluster.node_of(order[begin])) ++end;
        const std::size_t len = end - begin;
        std::rotate(order.begin() + static_cast<std::ptrdiff_t>(begin),
                    order.begin() + static_cast<std::ptrdiff_t>(begin + ring % len),
                    order.begin() + static_cast<std::ptrdiff_t>(end));
        begin = end;
    }
    return order;
}

// A binary tree over N nodes laid out as a heap: the node at place p has its parent at
// (p-1)/2 and sits at depth floor(log2(p+1)). The second tree of NCCL's pair is the first one
// mirrored (place N-1-i), so the nodes inside one tree are mostly leaves of the other.
std::uint32_t heap_place(std::uint32_t node, std::uint32_t nodes, int tree) { return tree == 0 ? node : nodes - 1 - node; }
std::uint32_t heap_depth(std::uint32_t place) { return static_cast<std::uint32_t>(std::floor(std::log2(place + 1.0))); }

// A send each way along one tree edge: `child` up to `parent` (the adding direction), and back.
void both_ways(CollectivePlan& plan, const Cluster& c, std::uint32_t channel, std::uint32_t depth, GpuId child,
               GpuId parent, double bytes) {
    plan.sends.push_back({channel, depth, SendRole::up, c.route(child, parent), bytes});
    plan.sends.push_back({channel, depth, SendRole::down, c.route(parent, child), bytes});
}

// [SECTION] the sends of each algorithm ------------------------------------------------------------

void plan_ring(CollectivePlan& plan, const Cluster& c, const CollectiveSetup& s, std::uint32_t rings) {
    const std::size_t n = s.group.size();
    plan.channels = rings;
    const bool broadcast = s.op == CollectiveOp::broadcast;
    plan.steps = broadcast ? 1 : ring_step_count(s.op, n);
    // A broadcast streams the whole buffer down the ring from its root (the first GPU).
    plan.chunk_bytes = static_cast<double>(s.bytes) / ((broadcast ? 1.0 : static_cast<double>(n)) * rings);
    for (std::uint32_t r = 0; r < rings; ++r) {
        const std::vector<GpuId> order = ring_order(c, s.group, r);
        const std::size_t root = static_cast<std::size_t>(std::find(order.begin(), order.end(), s.group.front()) - order.begin());
        for (std::size_t i = 0; i < (broadcast ? n - 1 : n); ++i) {
            const std::size_t p = broadcast ? (root + i) % n : i;
            plan.sends.push_back({r, static_cast<std::uint32_t>(p), SendRole::ring, c.route(order[p], order[(p + 1) % n]),
                                  plan.chunk_bytes});
        }
    }
}

// The inter-node half of a tree: channel `ch` of tree `tree`, between the members at place
// `slot` of each node (the leaders), `bytes` each way along every edge.
void plan_node_tree(CollectivePlan& plan, const Cluster& c, const std::vector<std::vector<GpuId>>& nodes,
                    std::uint32_t ch, int tree, std::size_t slot, double bytes) {
    const auto N = static_cast<std::uint32_t>(nodes.size());
    std::vector<std::uint32_t> node_at(N);
    for (std::uint32_t b = 0; b < N; ++b) node_at[heap_place(b, N, tree)] = b;
    for (std::uint32_t place = 1; place < N; ++place) {
        const auto& child = nodes[node_at[place]];
        const auto& parent = nodes[node_at[(place - 1) / 2]];
        both_ways(plan, c, ch, heap_depth(place), child[slot % child.size()], parent[slot % parent.size()], bytes);
    }
}

void plan_tree(CollectivePlan& plan, const Cluster& c, const CollectiveSetup& s) {
    const auto nodes = members_by_node(c, s.group);
    std::uint32_t per_node = 0;
    for (const auto& m : nodes) per_node = std::max(per_node, static_cast<std::uint32_t>(m.size()));
    plan.channels = nodes.size() == 1 ? 1 : 2 * per_node;
    const double bytes = static_cast<double>(s.bytes) / plan.channels;
    // The chains: leader (place ch) first, the rest in turn. Channels whose chains share a
    // pair of GPUs share one send each way (the same wire), so a 1,024-GPU tree stays at a few
    // thousand sends.
    std::unordered_map<std::uint64_t, std::size_t> chain_send;
    for (std::uint32_t ch = 0; ch < plan.channels; ++ch)
        for (const auto& members : nodes)
            for (std::size_t j = 1; j < members.size(); ++j) {
                const GpuId child = members[(ch + j) % members.size()], parent = members[(ch + j - 1) % members.size()];
                const std::uint64_t key = (std::uint64_t{child} << 32) | parent;
                const auto [it, fresh] = chain_send.try_emplace(key, plan.sends.size());
                if (fresh) both_ways(plan, c, ch, static_cast<std::uint32_t>(j), child, parent, bytes);
                else plan.sends[it->second].bytes += bytes, plan.sends[it->second + 1].bytes += bytes;
            }
    for (std::uint32_t ch = 0; nodes.size() > 1 && ch < plan.channels; ++ch)
        plan_node_tree(plan, c, nodes, ch, static_cast<int>((ch / per_node) % 2), ch, bytes);
}

// What each GPU sends into and takes out of the switch for S bytes among n: all-reduce adds
// S in and takes its reduced S/n out, then stores that S/n and gets the multicast S.
std::pair<double, double> switch_bytes(CollectiveOp op, double S, double n) {
    switch (op) {
    case CollectiveOp::all_gather: return {S / n, S * (n - 1) / n};
    case CollectiveOp::reduce_scatter: return {S * (n - 1) / n, S / n};
    default: return {S * (n + 1) / n, S * (n + 1) / n};
    }
}

void plan_nvls(CollectivePlan& plan, const Cluster& c, const CollectiveSetup& s) {
    const auto nodes = members_by_node(c, s.group);
    const double S = static_cast<double>(s.bytes);
    for (const auto& members : nodes) {
        const auto [in, out] = switch_bytes(s.op, S, static_cast<double>(members.size()));
        for (GpuId g : members) {
            plan.sends.push_back({0, 0, SendRole::into_switch, c.switch_route(g, true), in});
            plan.sends.push_back({0, 0, SendRole::out_of_switch, c.switch_route(g, false), out});
        }
    }
    if (nodes.size() == 1) return;
    // Each member owns a shard S/ppn of its node's sum and trades it with the members in the
    // same place in the other nodes, up and down two trees, half the shard on each.
    std::uint32_t per_node = 0;
    for (const auto& m : nodes) per_node = std::max(per_node, static_cast<std::uint32_t>(m.size()));
    plan.channels = 2 * per_node;
    for (std::uint32_t ch = 0; ch < plan.channels; ++ch)
        plan_node_tree(plan, c, nodes, ch, static_cast<int>(ch / per_node), ch % per_node, S / plan.channels);
}

void plan_p2p(CollectivePlan& plan, const Cluster& c, const CollectiveSetup& s) {
    const auto nodes = members_by_node(c, s.group);
    const double piece = static_cast<double>(s.bytes) / static_cast<double>(s.group.size());
    // Round by round (each a matching: every GPU sends once and receives once), so that no
    // link's queue holds up another's.
    std::size_t most = 0;
    for (const auto& m : nodes) most = std::max(most, m.size());
    for (std::size_t k = 1; k < most; ++k)
        for (const auto& members : nodes)
            for (std::size_t j = 0; k < members.size() && j < members.size(); ++j)
                plan.sends.push_back({0, static_cast<std::uint32_t>(k), SendRole::peer,
                                      c.route(members[j], members[(j + k) % members.size()]), piece});
    for (std::size_t k = 1; k < nodes.size(); ++k)
        for (std::size_t b = 0; b < nodes.size(); ++b) {
            const auto& to = nodes[(b + k) % nodes.size()];
            for (std::size_t j = 0; j < nodes[b].size(); ++j)
                plan.sends.push_back({0, static_cast<std::uint32_t>(k), SendRole::peer,
                                      c.route(nodes[b][j], to[j % to.size()]), piece * static_cast<double>(to.size())});
        }
}

// Where a send queues: the port it leaves by (its first link, when that is a sending link) and
// the one it arrives by (its last, when a receiving one); a switch send has only one of them.
bool sends_out(LinkRole r) {
    return r == LinkRole::gpu_to_nvswitch || r == LinkRole::gpu_to_nic || r == LinkRole::nic_to_leaf ||
           r == LinkRole::leaf_to_spine;
}

// An edge colouring of the bipartite graph of out-ports (left) and in-ports (right): no two
// edges of one colour share a port. at(side, v, k) is the edge of colour k at port v, or -1.
struct Colouring {
    std::vector<std::pair<int, int>> ends;  ///< each edge's left and right port (-1: none)
    std::size_t colours = 1;
    std::vector<int> left_at, right_at, colour;

    int& at(bool left, int v, int k) {
        return (left ? left_at : right_at)[static_cast<std::size_t>(v) * colours + static_cast<std::size_t>(k)];
    }
    int free_at(bool left, int v) {
        int k = 0;
        while (v >= 0 && at(left, v, k) >= 0) ++k;
        return k;
    }
    void set(int e, int k) {
        colour[static_cast<std::size_t>(e)] = k;
        const auto [u, v] = ends[static_cast<std::size_t>(e)];
        if (u >= 0) at(true, u, k) = e;
        if (v >= 0) at(false, v, k) = e;
    }
    void clear(int e) {
        const auto [u, v] = ends[static_cast<std::size_t>(e)];
        const int k = colour[static_cast<std::size_t>(e)];
        if (u >= 0) at(true, u, k) = -1;
        if (v >= 0) at(false, v, k) = -1;
    }
    // Swaps colours a and b along the path from right port v that alternates a, b, a, ...
    // edges; afterwards a is free at v (and, the graph being bipartite, still free at the left
    // port that wanted it).
    void swap_path(int v, int a, int b) {
        std::vector<int> path;
        bool left = false;
        for (int w = v, k = a; w >= 0 && at(left, w, k) >= 0; left = !left, k = k == a ? b : a) {
            const int f = at(left, w, k);
            path.push_back(f);
            w = left ? ends[static_cast<std::size_t>(f)].second : ends[static_cast<std::size_t>(f)].first;
        }
        for (int f : path) clear(f);
        for (int f : path) set(f, colour[static_cast<std::size_t>(f)] == a ? b : a);
    }
    void add(int e) {
        const auto [u, v] = ends[static_cast<std::size_t>(e)];
        const int a = free_at(true, u), b = free_at(false, v);
        if (u >= 0 && v >= 0 && a != b && at(false, v, a) >= 0) swap_path(v, a, b);
        set(e, u >= 0 ? a : b);
    }
};

// Puts the sends in an order in which no link's queue holds a send behind one that is waiting
// for another link: it splits them into matchings (no two in one share a port) by colouring
// the bipartite graph of out-ports and in-ports with as many colours as the busiest port has
// sends (Koenig's theorem), then orders them colour by colour. The first-come-first-served
// scheduler then reaches the busiest port's load, as the fluid bound does.
void order_as_matchings(const Cluster& c, std::vector<PlannedSend>& sends) {
    std::vector<int> left_id(c.link_count(), -1), right_id(c.link_count(), -1);
    std::vector<int> left_degree, right_degree;
    auto vertex = [](std::vector<int>& ids, std::vector<int>& degree, LinkId l) {
        if (ids[l] < 0) {
            ids[l] = static_cast<int>(degree.size());
            degree.push_back(0);
        }
        ++degree[static_cast<std::size_t>(ids[l])];
        return ids[l];
    };
    Colouring g;
    g.ends.resize(sends.size());
    for (std::size_t i = 0; i < sends.size(); ++i) {
        const auto& links = sends[i].route.links;
        const bool out = sends_out(c.link(links.front()).role), in = !sends_out(c.link(links.back()).role);
        g.ends[i] = {out ? vertex(left_id, left_degree, links.front()) : -1,
                     in ? vertex(right_id, right_degree, links.back()) : -1};
    }
    for (int d : left_degree) g.colours = std::max(g.colours, static_cast<std::size_t>(d));
    for (int d : right_degree) g.colours = std::max(g.colours, static_cast<std::size_t>(d));
    g.left_at.assign(left_degree.size() * g.colours, -1);
    g.right_at.assign(right_degree.size() * g.colours, -1);
    g.colour.assign(sends.size(), -1);
    for (std::size_t e = 0; e < sends.size(); ++e) g.add(static_cast<int>(e));
    std::vector<std::size_t> order(sends.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return g.colour[x] < g.colour[y]; });
    std::vector<PlannedSend> sorted;
    sorted.reserve(sends.size());
    for (std::size_t i : order) sorted.push_back(std::move(sends[i]));
    sends = std::move(sorted);
}

}  // namespace

CollectivePlan plan_collective(const Cluster& cluster, const CollectiveSetup& setup, CollectiveAlgorithm a,
                               std::uint32_t rings) {
    CollectivePlan plan;
    if (setup.group.size() < 2) return plan;
    plan.steps = 1;
    switch (a) {
    case CollectiveAlgorithm::ring: plan_ring(plan, cluster, setup, rings); break;
    case CollectiveAlgorithm::tree: plan_tree(plan, cluster, setup); break;
    case CollectiveAlgorithm::nvls:
    case CollectiveAlgorithm::nvls_tree: plan_nvls(plan, cluster, setup); break;
    case CollectiveAlgorithm::p2p: plan_p2p(plan, cluster, setup); break;
    }
    if (a != CollectiveAlgorithm::ring && a != CollectiveAlgorithm::p2p) order_as_matchings(cluster, plan.sends);
    return plan;
}

// [SECTION] bounds and waves --------------------------------------------------------------------------

double fluid_step_seconds(const Cluster& cluster, const std::vector<PlannedSend>& sends) {
    std::unordered_map<LinkId, double> load;
    load.reserve(sends.size() * 2);
    for (const PlannedSend& s : sends)
        for (LinkId l : s.route.links) load[l] += s.bytes;
    double worst = 0;
    for (const auto& [id, bytes] : load) {
        const Link l = cluster.link(id);
        worst = std::max(worst, bytes / (l.bandwidth_GBps * 1e9 * l.lanes));
    }
    return worst;
}

std::vector<WaveHop> latency_wave(CollectiveAlgorithm a, const NcclModel::LatencyParts& parts, std::uint32_t chain_hops,
                                  std::uint32_t tree_hops, double total_s) {
    std::vector<WaveHop> up, wave;
    if (a == CollectiveAlgorithm::tree)
        for (std::uint32_t d = chain_hops; d >= 1; --d) up.push_back({LinkType::nvlink, true, d, parts.nvlink_hop_s});
    else
        up.push_back({LinkType::nvlink, true, 0, total_s / 2});  // into the switch
    for (std::uint32_t d = tree_hops; d >= 1; --d) up.push_back({LinkType::infiniband, true, d, parts.network_hop_s});
    if (a != CollectiveAlgorithm::tree) up.front().seconds = (total_s - 2.0 * tree_hops * parts.network_hop_s) / 2;
    wave = up;
    for (auto it = up.rbegin(); it != up.rend(); ++it) wave.push_back({it->link, false, it->depth, it->seconds});
    return wave;
}

TaskId add_wire(LinkPools& pools, const PlannedSend& s, double efficiency) {
    PoolId needs[8];  // the longest route has 6 hops
    for (std::size_t i = 0; i < s.route.links.size(); ++i) needs[i] = pools.pool(s.route.links[i]);
    const double seconds = s.bytes / (s.route.bandwidth_GBps * 1e9 * efficiency);
    return pools.graph().add_task(picoseconds_from_seconds(seconds), std::span<const PoolId>(needs, s.route.links.size()));
}

}  // namespace m2m::core::detail
