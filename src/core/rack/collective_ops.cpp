// The collectives' names, nccl-tests' bus-bandwidth factors, and who takes part in a collective.
#include "m2m/core/rack/collective_cost.hpp"

#include <algorithm>

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
        i = j;
    }
    return out;
}

CollectiveGroup first_gpus_group(std::uint32_t gpus, std::uint32_t node_size) {
    CollectiveGroup out;
    out.gpus = gpus;
    out.gpus_per_node = std::min(gpus, std::max(node_size, 1u));
    out.nodes = out.gpus_per_node ? (gpus + out.gpus_per_node - 1) / out.gpus_per_node : 0;
    return out;
}

}  // namespace m2m::core
