// NCCL's closed-form collective cost (src/graph/tuning.cc: ncclTopoTuneModel, ncclTopoGetAlgoTime)
// restated in our own words, on graphs read from its topology search (src/graph/search.cc).
//
// [SECTION] graphs   [SECTION] the cost table   [SECTION] choosing. What a run does otherwise (NVLS's
// pipeline fill, small messages' fewer channels, NVLS's rate in one node): beyond_estimate.cpp.
#include "m2m/core/rack/collective_cost.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace m2m::core {

// [SECTION] graphs -----------------------------------------------------------------------------------

namespace {

constexpr int ai(CollectiveAlgorithm a) { return static_cast<int>(a); }
constexpr int pi(CollectiveProtocol p) { return static_cast<int>(p); }
constexpr int hw_nvlink = 0, hw_net = 2;
constexpr double no_cap = std::numeric_limits<double>::infinity();

// NCCL's generation row: 0 Volta, 1 Ampere, 2 Hopper, 3 Blackwell.
int generation_row(GpuGeneration g) { return g == GpuGeneration::ampere ? 1 : g == GpuGeneration::hopper ? 2 : 3; }
// NCCL's node column: one node, two, three or more.
int nodes_column(std::uint32_t nodes) { return nodes <= 2 ? static_cast<int>(nodes) - 1 : 2; }
int log2_floor(std::uint32_t v) { return v ? static_cast<int>(std::floor(std::log2(static_cast<double>(v)))) : -1; }

// The first (fastest) speed that satisfies `fits`; the slowest when none does.
template <class Fits>
double first_speed(std::span<const double> speeds, Fits fits) {
    for (double s : speeds)
        if (fits(s)) return s;
    return speeds.back();
}

// ncclTopoDupChannels: a ring or tree graph of fast channels is run as twice as many at half the
// speed (the same total), except on sm90+ when they are under 50 GB/s and more than 4. Only the
// per-channel caps of the cost model see the difference.
NcclGraph duplicated(NcclGraph g, GpuGeneration gen) {
    if (g.intra_GBps < 25.0 || (gen != GpuGeneration::ampere && g.intra_GBps < 50.0 && g.channels > 4)) return g;
    const std::uint32_t doubled = std::min(2 * g.channels, 32u);
    const double split = std::ceil(static_cast<double>(doubled) / g.channels);
    return {doubled, g.intra_GBps / split, g.inter_GBps / split};
}

// NCCL's search, as this model reads it. Inside one node a ring (or tree) channel takes the
// fastest speed the GPU's NVLink allows, and as many channels as fit in it: A100 6 x 40, H100
// 6 x 60, B200 8 x 90 GB/s. Across nodes one channel per NIC (each member's own), at the fastest
// speed both the NIC and the GPU's NVLink (carrying every channel) allow. An NVLS channel per
// member, each GPU carrying (members + 1) of them; its network side as the ring's, or on one
// node the top speed up to twice the NVLink one (search.cc pass 2).
NcclGraph search(const SystemSpec& sys, const CollectiveGroup& g, CollectiveAlgorithm a) {
    const double nvlink = sys.nvlink.effective_GBps();
    const double nic = sys.infiniband.raw_GBps;
    const std::uint32_t ppn = g.gpus_per_node;
    NcclGraph out;
    if (g.nodes <= 1) {
        const auto speeds = nccl_intra_speeds(sys.generation);
        if (a == CollectiveAlgorithm::nvls || a == CollectiveAlgorithm::nvls_tree) {
            out.channels = ppn;
            out.intra_GBps = first_speed(speeds, [&](double s) { return (ppn + 1) * s <= nvlink; });
            out.inter_GBps = first_speed(speeds, [&](double s) { return s <= 2 * out.intra_GBps; });
            return out;
        }
        const double s = first_speed(speeds, [&](double v) { return v <= nvlink; });
        out.channels = std::clamp(static_cast<std::uint32_t>(std::floor(nvlink / s)), 1u, 32u);
        out.intra_GBps = out.inter_GBps = s;
        return duplicated(out, sys.generation);
    }
    const auto speeds = nccl_inter_speeds(sys.generation);
    out.channels = ppn;
    out.inter_GBps = first_speed(speeds, [&](double s) { return s <= nic && ppn * s <= nvlink; });
    out.intra_GBps = out.inter_GBps;
    if (a != CollectiveAlgorithm::nvls && a != CollectiveAlgorithm::nvls_tree) return duplicated(out, sys.generation);
    out.intra_GBps = first_speed(speeds, [&](double s) { return (ppn + 1) * s <= nvlink; });
    return out;
}

std::size_t step_count(CollectiveOp op, std::size_t n) {
    switch (op) {
    case CollectiveOp::all_reduce: return 2 * (n - 1);
    case CollectiveOp::all_gather:
    case CollectiveOp::reduce_scatter: return n - 1;
    default: return n;
    }
}

bool gathers(CollectiveOp op) { return op == CollectiveOp::all_gather || op == CollectiveOp::reduce_scatter; }

}  // namespace

// [SECTION] the cost table ------------------------------------------------------------------------------

NcclModel::NcclModel(const SystemSpec& system, CollectiveGroup group, CollectiveOp op, const NcclTuning& tuning)
    : m_group(group), m_op(op), m_t(tuning), m_generation(system.generation), m_host(system.host_cpu),
      m_nvls(system.nvls), m_nic_GBps(system.infiniband.raw_GBps), m_nvlink_GBps(system.nvlink.effective_GBps()) {
    if (group.gpus == 0 || group.nodes == 0 || group.gpus_per_node == 0 || group.nodes > group.gpus ||
        std::uint64_t{group.gpus_per_node} * group.nodes < group.gpus)
        throw std::invalid_argument("a collective group needs GPUs spread over nodes, at most gpus_per_node in each");
    if (group.gpus < 2) return;  // nothing to exchange: every algorithm stays unavailable, best() costs 0
    for (CollectiveAlgorithm a : {CollectiveAlgorithm::tree, CollectiveAlgorithm::ring, CollectiveAlgorithm::nvls,
                                  CollectiveAlgorithm::nvls_tree})
        m_graph[ai(a)] = search(system, group, a);
    // Execution channels: the ring graph's, doubled (connect.cc), and on Hopper (Blackwell from
    // 2.25) across nodes with fast channels doubled again where few GPUs share a node's NICs.
    const NcclGraph& ring = m_graph[ai(CollectiveAlgorithm::ring)];
    const bool sm90 = system.generation == GpuGeneration::hopper ||
                      (system.generation == GpuGeneration::blackwell && m_t.extra_channels_blackwell);
    m_exec_channels = 2 * ring.channels * (sm90 && group.nodes > 1 && ring.intra_GBps > 45.0 && ring.channels < 8 ? 2 : 1);
    if (op == CollectiveOp::all_to_all) tune_p2p(system);
    else tune(system);
}

// Which algorithms NCCL prices for which collective (tuning.cc's loops and its enable rules).
void NcclModel::tune(const SystemSpec&) {
    const double n = m_group.gpus;
    const double nsteps = static_cast<double>(step_count(m_op, m_group.gpus));
    for (CollectiveAlgorithm a : {CollectiveAlgorithm::tree, CollectiveAlgorithm::ring, CollectiveAlgorithm::nvls,
                                  CollectiveAlgorithm::nvls_tree}) {
        const bool nvls_kind = a == CollectiveAlgorithm::nvls || a == CollectiveAlgorithm::nvls_tree;
        if (m_op == CollectiveOp::broadcast && a != CollectiveAlgorithm::ring) continue;
        if (gathers(m_op) && a != CollectiveAlgorithm::ring && (a != CollectiveAlgorithm::nvls || m_t.nvls_2_18)) continue;
        if (nvls_kind && !m_nvls) continue;
        if (nvls_kind && m_group.fewest() < m_t.nvls_min_node_gpus) continue;  // transport/nvls.cc turns it off
        if (a == CollectiveAlgorithm::nvls && m_group.nodes > 1) continue;       // needs IB SHARP (CollNet)
        if (a == CollectiveAlgorithm::nvls_tree && m_group.nodes == 1) continue;
        for (CollectiveProtocol p : all_protocols) {
            if (nvls_kind && p != CollectiveProtocol::simple) continue;
            double bw = bus_bandwidth(a, p);
            if (!(a != CollectiveAlgorithm::ring && gathers(m_op))) {  // bus -> algorithm bandwidth
                const bool ring_like = a == CollectiveAlgorithm::ring || (nvls_kind && m_t.nvls_efficiency_model);
                const double N = m_group.nodes;
                if (ring_like) bw *= n / nsteps;
                else if (a == CollectiveAlgorithm::nvls_tree && m_t.nvls_2_18) bw *= 0.70 * N / (2 * (N - 1));
                else bw *= nvls_kind ? 5.0 / 6.0 : 0.5;
            }
            m_bandwidth_GBps[ai(a)][pi(p)] = bw;
            m_latency_us[ai(a)][pi(p)] = latency_us(a, p);
        }
    }
}

double NcclModel::bus_bandwidth(CollectiveAlgorithm a, CollectiveProtocol p) const {
    const NcclGraph& g = m_graph[ai(a)];
    const double C = g.channels;
    const double ppn = static_cast<double>(m_group.gpus) / m_group.nodes;
    const int row = generation_row(m_generation), col = nodes_column(m_group.nodes);
    const int ll_row = m_group.nodes == 1 ? row : (m_host == HostCpu::amd ? 1 : 0);
    const double ll_max = m_t.ll_max_GBps[ll_row][col];
    double bw = m_group.nodes <= 2 ? g.intra_GBps : g.inter_GBps;
    if (a == CollectiveAlgorithm::nvls || a == CollectiveAlgorithm::nvls_tree) {
        if (g.channels < 2) return 0;  // NVLS needs at least two channels
        const bool tree = a == CollectiveAlgorithm::nvls_tree;
        if (m_t.nvls_efficiency_model) {
            double intra = g.intra_GBps * m_t.nvls_efficiency[row] * (C - 1) / C;
            intra *= m_op == CollectiveOp::all_reduce ? 2.0 : (ppn - 1) / ppn;  // all-reduce pipelines two operations
            const double inter = g.inter_GBps * (tree && m_group.nodes <= 2 ? 2.0 : 1.0);
            const double cap = tree ? m_t.nvls_tree_per_channel_GBps[row][col] : no_cap;
            bw = std::min({intra, inter, cap > 0 ? cap : no_cap});
        } else if (!m_t.nvls_2_18) {
            bw = std::min(g.intra_GBps, tree && m_group.nodes > 2 ? g.inter_GBps / 2 : g.inter_GBps);
        }
    }
    double bus = C * bw;
    using P = CollectiveProtocol;
    if (a == CollectiveAlgorithm::ring && p == P::ll) {
        double share = 0.5;
        if (m_t.ring_ll_quarter) share = m_group.nodes > 1 || m_op == CollectiveOp::all_reduce ? 1.0 / 4.0 : 1.0 / 3.0;
        bus = std::min(ll_max, bus * share);
    }
    if (a == CollectiveAlgorithm::ring && p == P::ll128) {
        const double keep = m_t.ring_ll128_one_per_node_penalty && ppn < 2 ? 0.7 : 0.92;
        bus = std::min(bus * keep, C * m_t.ring_ll128_per_channel_GBps[row][col]);
    }
    if (a == CollectiveAlgorithm::tree) {
        bus = std::min(bus * 0.92, C * m_t.tree_per_channel_GBps[row][col]);
        if (p == P::ll) bus = std::min(bus / 3.8, ll_max);
        if (p == P::ll128)
            bus = std::min(bus * (m_group.nodes == 1 ? 7.0 / 9.0 : 120.0 / 128.0), C * m_t.tree_ll128_per_channel_GBps[row][col]);
        // NCCL's model charges its plain TREE pattern (one GPU carries a channel in and out of a node).
        if (tree_pattern_charged()) bus *= tree_pattern_charge;
    }
    return bus;
}

double NcclModel::latency_us(CollectiveAlgorithm a, CollectiveProtocol p) const {
    const std::uint32_t N = m_group.nodes, n = m_group.gpus;
    const double nsteps = static_cast<double>(step_count(m_op, n));
    const bool one_per_node = n == N;
    double lat = m_t.base_latency_us[ai(a)][pi(p)];
    double intra = m_t.hop_latency_us[hw_nvlink][ai(a)][pi(p)];
    const CollectiveAlgorithm net_algo = one_per_node && m_t.one_per_node_tree_latency ? CollectiveAlgorithm::tree : a;
    const double inter = m_t.hop_latency_us[hw_net][ai(net_algo)][pi(p)];  // + the plugin's latency: 0 for InfiniBand
    switch (a) {
    case CollectiveAlgorithm::ring: {
        const int hw = N == 1 ? hw_nvlink : hw_net;
        if (m_op == CollectiveOp::broadcast) {
            // Inside one node every channel takes the same GPU order ("sameChannels"): one hop.
            // Across nodes the channels differ, and NCCL charges every step (Simple at the tree's rate).
            if (N == 1) return lat + m_t.hop_latency_us[hw][ai(a)][pi(p)];
            const CollectiveAlgorithm priced = p == CollectiveProtocol::simple ? CollectiveAlgorithm::tree : a;
            return lat + nsteps * m_t.hop_latency_us[hw][ai(priced)][pi(p)];
        }
        double overhead = 0;  // every network step is posted by the CPU: 1 us on Intel, 2 on AMD, x3 for Simple
        if (N > 1) overhead = (m_host == HostCpu::amd ? 2.0 : 1.0) * (p == CollectiveProtocol::simple ? 3.0 : 1.0);
        intra = std::max(intra, overhead);
        double net_steps = 0;
        if (N > 1) {
            if (m_op == CollectiveOp::all_reduce) net_steps = m_t.ring_two_n_network_steps ? 2.0 * N : 2.0 * (N - 1);
            else net_steps = N - 1;
        }
        return lat + (nsteps - net_steps) * intra + net_steps * inter;
    }
    case CollectiveAlgorithm::tree: return lat + 2 * ((n / N - 1) * intra + log2_floor(N) * inter);
    case CollectiveAlgorithm::nvls: return lat + intra + (N > 1 ? inter : 0.0);
    case CollectiveAlgorithm::nvls_tree:
        if (m_t.nvls_2_18) return lat + 2.0 * (N - 1) * inter;
        return lat + intra + 2 * log2_floor(N) * inter;
    case CollectiveAlgorithm::p2p: break;
    }
    return lat;
}

// All-to-all, point-to-point sends that NCCL does not price: each GPU sends S/n to every other
// member, its node's share over NVLink and the rest through its own NIC at once; LL (half the wire)
// up to 16 KB a peer (NCCL_P2P_LL_THRESHOLD), else Simple. Latency: the base, then each peer's post,
// one after another, at the LL hop of its link. Both as the slowest rank pays: NVLink's share from
// the fullest node, the network's from the emptiest (docs/rack_model.md, "Point-to-point").
void NcclModel::tune_p2p(const SystemSpec& sys) {
    const double n = m_group.gpus, ppn = m_group.gpus_per_node;
    const double fewest = m_group.fewest(), nvlink_peers = fewest - 1, network_peers = n - fewest;
    const double seconds_per_byte = std::max((ppn - 1) / n / sys.nvlink.effective_GBps(),
                                             network_peers / n / sys.infiniband.effective_GBps());
    const int ring = ai(CollectiveAlgorithm::ring);
    for (CollectiveProtocol p : {CollectiveProtocol::ll, CollectiveProtocol::simple}) {
        m_bandwidth_GBps[ai(CollectiveAlgorithm::p2p)][pi(p)] = (p == CollectiveProtocol::ll ? 0.5 : 1.0) / seconds_per_byte;
        const auto post_us = [&](int hw) { return m_t.hop_latency_us[hw][ring][pi(CollectiveProtocol::ll)]; };
        m_latency_us[ai(CollectiveAlgorithm::p2p)][pi(p)] =
            m_t.base_latency_us[ring][pi(p)] + nvlink_peers * post_us(hw_nvlink) + network_peers * post_us(hw_net);
    }
}

double NcclModel::latency_s(CollectiveAlgorithm a, CollectiveProtocol p) const {
    return m_latency_us[ai(a)][pi(p)] * 1e-6;
}

NcclModel::LatencyParts NcclModel::latency_parts(CollectiveAlgorithm a, CollectiveProtocol p) const {
    LatencyParts out;
    const CollectiveAlgorithm row = a == CollectiveAlgorithm::p2p ? CollectiveAlgorithm::ring : a;  // a hop per peer
    out.base_s = m_t.base_latency_us[ai(row)][pi(p)] * 1e-6;  // NVLS: 0 but in 2.18
    out.nvlink_hop_s = m_t.hop_latency_us[hw_nvlink][ai(row)][pi(row != a ? CollectiveProtocol::ll : p)] * 1e-6;
    const bool one_per_node = row == a && m_group.gpus == m_group.nodes && m_t.one_per_node_tree_latency;
    out.network_hop_s = m_t.hop_latency_us[hw_net][ai(one_per_node ? CollectiveAlgorithm::tree : row)]
                                          [pi(row != a ? CollectiveProtocol::ll : p)] * 1e-6;
    if (a == CollectiveAlgorithm::ring && m_group.nodes > 1)
        out.nvlink_hop_s =
            std::max(out.nvlink_hop_s, (m_host == HostCpu::amd ? 2e-6 : 1e-6) * (p == CollectiveProtocol::simple ? 3.0 : 1.0));
    return out;
}

double NcclModel::bandwidth(CollectiveAlgorithm a, CollectiveProtocol p) const { return m_bandwidth_GBps[ai(a)][pi(p)]; }

// [SECTION] choosing -------------------------------------------------------------------------------------

namespace {

// "nvls" asks for NVLS inside one node and NVLS tree across nodes.
CollectiveAlgorithm resolve(CollectiveAlgorithm a, std::uint32_t nodes) {
    if (a == CollectiveAlgorithm::nvls && nodes > 1) return CollectiveAlgorithm::nvls_tree;
    if (a == CollectiveAlgorithm::nvls_tree && nodes == 1) return CollectiveAlgorithm::nvls;
    return a;
}

// The --algorithm spelling of an algorithm: NVLS tree is asked for as "nvls".
std::string_view asked_name(CollectiveAlgorithm a) {
    return a == CollectiveAlgorithm::nvls_tree ? "nvls" : collective_algorithm_name(a);
}

}  // namespace

std::vector<CollectiveAlgorithm> NcclModel::algorithms() const {
    std::vector<CollectiveAlgorithm> out;
    for (CollectiveAlgorithm a : {CollectiveAlgorithm::tree, CollectiveAlgorithm::ring, CollectiveAlgorithm::nvls,
                                  CollectiveAlgorithm::nvls_tree, CollectiveAlgorithm::p2p})
        for (CollectiveProtocol p : all_protocols)
            if (available(a, p)) {
                out.push_back(a);
                break;
            }
    return out;
}

std::string NcclModel::refusal(const CollectiveChoice& choice) const {
    if (m_group.gpus < 2) return {};
    std::string accepted = "auto";
    for (CollectiveAlgorithm a : algorithms())
        if (a != CollectiveAlgorithm::p2p) accepted += std::string(", ") + std::string(asked_name(a));
    const std::string label(collective_op_label(m_op));
    if (m_op == CollectiveOp::all_to_all) {
        if (choice.algorithm && *choice.algorithm != CollectiveAlgorithm::p2p)
            return "NCCL runs all-to-all as point-to-point sends, with no algorithm to pick (accepted: auto)";
        if (choice.protocol == CollectiveProtocol::ll128)
            return "all-to-all's point-to-point sends use LL or Simple, not LL128 (accepted: auto, ll, simple)";
        return {};
    }
    if (choice.algorithm) {
        const CollectiveAlgorithm a = resolve(*choice.algorithm, m_group.nodes);
        const bool nvls_kind = a == CollectiveAlgorithm::nvls || a == CollectiveAlgorithm::nvls_tree;
        const std::string name(asked_name(a));
        if (a == CollectiveAlgorithm::p2p)
            return "point-to-point sends are how NCCL runs all-to-all, not " + label + " (accepted: " + accepted + ")";
        if (nvls_kind && !m_nvls)
            return "NVLS needs an NVSwitch that can add (NVLink SHARP, from H100 on); this system's cannot (accepted: " +
                   accepted + ")";
        if (nvls_kind && gathers(m_op) && m_group.nodes > 1)
            return "NVLS " + label + " across nodes needs InfiniBand SHARP switches, which this model leaves out (accepted: " +
                   accepted + ")";
        if (nvls_kind && m_group.fewest() < m_t.nvls_min_node_gpus)  // transport/nvls.cc
            return "NCCL " + std::string(m_t.version) + " runs NVLS only with at least " + std::to_string(m_t.nvls_min_node_gpus) +
                   " GPUs of the group in each node (accepted: " + accepted + ")";
        bool any = false;
        for (CollectiveProtocol p : all_protocols) any = any || available(a, p);
        if (!any) return "NCCL has no " + name + " " + label + " (accepted: " + accepted + ")";
        if (choice.protocol && !available(a, *choice.protocol))
            return std::string(collective_algorithm_label(a)) + " runs only with the Simple protocol (accepted: auto, simple)";
        return {};
    }
    if (choice.protocol) {
        for (CollectiveAlgorithm a : algorithms())
            if (available(a, *choice.protocol)) return {};
        return "no algorithm runs " + label + " with " + std::string(collective_protocol_label(*choice.protocol)) +
               " here (accepted: auto, simple)";
    }
    return {};
}

CollectiveCost NcclModel::cost(double bytes, CollectiveAlgorithm a, CollectiveProtocol p) const {
    if (!available(a, p))
        throw std::invalid_argument(std::string(collective_algorithm_label(a)) + " with " +
                                    std::string(collective_protocol_label(p)) + " cannot run this " +
                                    std::string(collective_op_label(m_op)));
    CollectiveCost c;
    c.algorithm = a;
    c.protocol = p;
    double bw = bandwidth(a, p);
    double lat_us = m_latency_us[ai(a)][pi(p)];
    if (a == CollectiveAlgorithm::tree && m_op == CollectiveOp::all_reduce) bw *= nccl_tree_correction(p, bytes);
    if (a == CollectiveAlgorithm::nvls_tree && m_op == CollectiveOp::all_reduce && m_t.blackwell_nvls_tree_correction &&
        m_generation == GpuGeneration::blackwell)
        bw *= nccl_tree_correction(p, bytes, 24);
    // "Plateau effect of ring": a ring all-reduce across nodes with Simple and >= 64 bytes per
    // channel per GPU pays 1.4x its latency (sm80 and later).
    if (a == CollectiveAlgorithm::ring && p == CollectiveProtocol::simple && m_group.nodes > 1 &&
        m_op == CollectiveOp::all_reduce && bytes / (static_cast<double>(m_exec_channels) * m_group.gpus) >= 64)
        lat_us *= 1.4;
    c.latency_s = lat_us * 1e-6;
    c.bandwidth_GBps = bw;
    c.run_bandwidth_GBps = run_bandwidth(a, bw);
    c.nccl_time_s = c.latency_s + bytes / (bw * 1e9);  // NCCL: time_us = lat + bytes / (1000 x GB/s)
    add_runtime_effects(c, bytes);
    if (c.time_s > 0) c.algbw_GBps = bytes / c.time_s / 1e9;
    c.busbw_GBps = c.algbw_GBps * busbw_factor(m_op, m_group.gpus);
    return c;
}

CollectiveCost NcclModel::best(double bytes, const CollectiveChoice& choice) const {
    if (m_group.gpus < 2) {
        CollectiveCost none;
        none.algorithm = m_op == CollectiveOp::all_to_all ? CollectiveAlgorithm::p2p : CollectiveAlgorithm::ring;
        return none;
    }
    if (auto why = refusal(choice); !why.empty()) throw std::invalid_argument(why);
    if (m_op == CollectiveOp::all_to_all) {
        // NCCL picks the protocol per peer by size, not by time: LL up to 16 KB per peer.
        const auto p = choice.protocol.value_or(bytes / m_group.gpus <= 16384.0 ? CollectiveProtocol::ll
                                                                                : CollectiveProtocol::simple);
        return cost(bytes, CollectiveAlgorithm::p2p, p);
    }
    std::optional<CollectiveCost> found;
    for (CollectiveAlgorithm a : algorithms()) {
        if (choice.algorithm && resolve(*choice.algorithm, m_group.nodes) != a) continue;
        for (CollectiveProtocol p : all_protocols) {
            if (!available(a, p) || (choice.protocol && *choice.protocol != p)) continue;
            const CollectiveCost c = cost(bytes, a, p);
            if (!found || c.nccl_time_s < found->nccl_time_s) found = c;
        }
    }
    if (!found) throw std::invalid_argument("nothing can run this " + std::string(collective_op_label(m_op)));
    return *found;
}

CollectiveCost collective_cost(const SystemSpec& system, const CollectiveGroup& group, CollectiveOp op, double bytes,
                               const CollectiveChoice& choice) {
    return NcclModel(system, group, op).best(bytes, choice);
}

}  // namespace m2m::core
