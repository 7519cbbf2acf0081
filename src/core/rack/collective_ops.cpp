// The collectives' names, nccl-tests' bus-bandwidth factors, who takes part in a collective, and
// NCCL's cost over a range of sizes.
#include "m2m/core/rack/collective_cost.hpp"

#include <algorithm>
#include <limits>

namespace m2m::core {

// [SECTION] names -----------------------------------------------------------------------------------

std::string_view collective_op_name(CollectiveOp op) {
    switch (op) {
    case CollectiveOp::all_reduce: return "allreduce";
    case CollectiveOp::all_gather: return "allgather";
    case CollectiveOp::reduce_scatter: return "reducescatter";
    case CollectiveOp::broadcast: return "broadcast";
    case CollectiveOp::all_to_all: return "alltoall";
    }
    return "allreduce";
}

std::string_view collective_op_label(CollectiveOp op) {
    switch (op) {
    case CollectiveOp::all_reduce: return "all-reduce";
    case CollectiveOp::all_gather: return "all-gather";
    case CollectiveOp::reduce_scatter: return "reduce-scatter";
    case CollectiveOp::broadcast: return "broadcast";
    case CollectiveOp::all_to_all: return "all-to-all";
    }
    return "all-reduce";
}

std::optional<CollectiveOp> parse_collective_op(std::string_view name) {
    for (CollectiveOp op : all_collective_ops)
        if (name == collective_op_name(op)) return op;
    return std::nullopt;
}

double busbw_factor(CollectiveOp op, std::size_t n) {
    if (n < 2) return 0.0;
    const double share = static_cast<double>(n - 1) / static_cast<double>(n);
    switch (op) {
    case CollectiveOp::all_reduce: return 2.0 * share;
    case CollectiveOp::broadcast: return 1.0;
    default: return share;
    }
}

double bytes_on_wires(CollectiveOp op, std::size_t n, double bytes) {
    if (n < 2) return 0.0;
    const double others = static_cast<double>(n - 1);
    return op == CollectiveOp::all_reduce ? 2.0 * others * bytes : others * bytes;
}

// [SECTION] groups --------------------------------------------------------------------------

CollectiveGroup collective_group(const Cluster& cluster, std::span<const GpuId> gpus) {
    std::vector<std::uint32_t> nodes;
    nodes.reserve(gpus.size());
    for (GpuId g : gpus) nodes.push_back(cluster.node_of(g));
    std::sort(nodes.begin(), nodes.end());
    CollectiveGroup out;
    out.gpus = static_cast<std::uint32_t>(gpus.size());
    for (std::size_t i = 0; i < nodes.size();) {
        std::size_t j = i;
        while (j < nodes.size() && nodes[j] == nodes[i]) ++j;
        ++out.nodes;
        out.gpus_per_node = std::max(out.gpus_per_node, static_cast<std::uint32_t>(j - i));
        out.fewest_per_node = out.fewest_per_node ? std::min(out.fewest_per_node, static_cast<std::uint32_t>(j - i))
                                                  : static_cast<std::uint32_t>(j - i);
        i = j;
    }
    return out;
}

CollectiveGroup first_gpus_group(std::uint32_t gpus, std::uint32_t node_size) {
    CollectiveGroup out;
    out.gpus = gpus;
    out.gpus_per_node = std::min(gpus, std::max(node_size, 1u));
    out.nodes = out.gpus_per_node ? (gpus + out.gpus_per_node - 1) / out.gpus_per_node : 0;
    if (out.nodes > 0) out.fewest_per_node = gpus - (out.nodes - 1) * out.gpus_per_node;  // the last node's
    return out;
}

// [SECTION] sweeps -------------------------------------------------------------------------------------

CollectiveSweep sweep_collective(const SystemSpec& system, const CollectiveGroup& group, CollectiveOp op,
                                 double from_bytes, double to_bytes, const NcclTuning& tuning) {
    CollectiveSweep out;
    out.op = op;
    out.group = group;
    const NcclModel model(system, group, op, tuning);
    for (double s = std::max(from_bytes, 1.0); s <= to_bytes * (1 + 1e-12); s *= 2) out.sizes.push_back(s);
    if (group.gpus < 2) return out;
    out.algorithms = model.algorithms();
    out.curves.resize(out.algorithms.size());
    out.latency_floor_s = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < out.algorithms.size(); ++i) {
        const CollectiveChoice only{out.algorithms[i], std::nullopt};
        for (double s : out.sizes) out.curves[i].push_back(model.best(s, only));
        for (CollectiveProtocol p : all_protocols)
            if (model.available(out.algorithms[i], p))
                out.latency_floor_s = std::min(out.latency_floor_s, model.latency_s(out.algorithms[i], p));
    }
    for (double s : out.sizes) out.picks.push_back(model.best(s));
    // Bandwidth-bound as the story says it (collective_story.cpp): the wires take longer than the
    // fixed cost and than a small message's narrow pace. The crossing: the first size from which
    // every larger pick is bandwidth-bound (a pick can turn latency-bound again when NCCL moves to
    // a protocol with a higher latency).
    const auto bandwidth_bound = [](const CollectiveCost& c) {
        const double wires_s = c.time_s - c.latency_s - c.narrow_s;
        return c.bandwidth_GBps > 0 && wires_s >= c.latency_s && wires_s >= c.narrow_s;
    };
    std::size_t from = out.picks.size();
    while (from > 0 && bandwidth_bound(out.picks[from - 1])) --from;
    if (from > 0 && from < out.picks.size()) out.crossover_bytes = out.sizes[from];
    out.nvlink_ceiling_GBps = system.nvlink.effective_GBps();
    // Across nodes each member leaves through its own NIC: a node's members share as many. In an
    // all-to-all each GPU's own NIC carries the (n - ppn)/n of its data bound for other nodes, so
    // busbw = algbw (n-1)/n stops at NIC x (n-1)/(n - ppn).
    const double nic = system.infiniband.effective_GBps();
    if (group.nodes > 1)
        out.network_ceiling_GBps = op == CollectiveOp::all_to_all
                                       ? nic * (group.gpus - 1.0) / (group.gpus - group.gpus_per_node)
                                       : group.gpus_per_node * nic;
    return out;
}

}  // namespace m2m::core
