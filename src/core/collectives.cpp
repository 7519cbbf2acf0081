// Ring collectives as link transfers: one lock-step ring step on the scheduler, times the step count.
#include "m2m/core/collectives.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace m2m::core {

namespace {

constexpr double ps_to_s = 1.0 / picoseconds_per_second;

void check(const Cluster& cluster, const CollectiveSetup& setup) {
    if (setup.group.empty()) throw std::invalid_argument("a collective needs a group of at least 1 GPU");
    if (setup.bytes < 0) throw std::invalid_argument("a collective needs bytes >= 0");
    if (setup.rings == 0) throw std::invalid_argument("a collective needs at least 1 ring");
    std::vector<char> seen(cluster.gpu_count(), 0);
    for (GpuId g : setup.group) {
        if (!cluster.contains(g))
            throw std::out_of_range("GPU " + std::to_string(g) + " is not in the cluster (GPUs 0 to " +
                                    std::to_string(cluster.gpu_count() - 1) + ")");
        if (seen[g]) throw std::invalid_argument("GPU " + std::to_string(g) + " appears twice in the group");
        seen[g] = 1;
    }
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

struct Send {
    std::uint32_t ring;
    std::uint32_t position;
    Route route;
};

// Every send of one step, ring by ring, position by position.
std::vector<Send> step_sends(const Cluster& cluster, const CollectiveSetup& setup) {
    const std::size_t n = setup.group.size();
    std::vector<Send> sends;
    if (n < 2) return sends;
    sends.reserve(n * setup.rings);
    for (std::uint32_t r = 0; r < setup.rings; ++r) {
        const std::vector<GpuId> order = ring_order(cluster, setup.group, r);
        for (std::size_t i = 0; i < n; ++i)
            sends.push_back({r, static_cast<std::uint32_t>(i), cluster.route(order[i], order[(i + 1) % n])});
    }
    return sends;
}

double chunk_bytes(const CollectiveSetup& setup) {
    return static_cast<double>(setup.bytes) / (static_cast<double>(setup.group.size()) * setup.rings);
}

}  // namespace

std::string_view collective_op_name(CollectiveOp op) {
    switch (op) {
    case CollectiveOp::all_reduce: return "allreduce";
    case CollectiveOp::all_gather: return "allgather";
    case CollectiveOp::reduce_scatter: return "reducescatter";
    }
    return "allreduce";
}

std::string_view collective_op_label(CollectiveOp op) {
    switch (op) {
    case CollectiveOp::all_reduce: return "all-reduce";
    case CollectiveOp::all_gather: return "all-gather";
    case CollectiveOp::reduce_scatter: return "reduce-scatter";
    }
    return "all-reduce";
}

std::optional<CollectiveOp> parse_collective_op(std::string_view name) {
    for (CollectiveOp op : {CollectiveOp::all_reduce, CollectiveOp::all_gather, CollectiveOp::reduce_scatter})
        if (name == collective_op_name(op)) return op;
    return std::nullopt;
}

double busbw_factor(CollectiveOp op, std::size_t n) {
    if (n < 2) return 0.0;
    const double share = static_cast<double>(n - 1) / static_cast<double>(n);
    return op == CollectiveOp::all_reduce ? 2.0 * share : share;
}

std::size_t ring_step_count(CollectiveOp op, std::size_t n) {
    if (n < 2) return 0;
    return op == CollectiveOp::all_reduce ? 2 * (n - 1) : n - 1;
}

bool ring_step_reduces(CollectiveOp op, std::size_t n, std::size_t step) {
    switch (op) {
    case CollectiveOp::reduce_scatter: return true;
    case CollectiveOp::all_gather: return false;
    case CollectiveOp::all_reduce: return step + 1 < n;
    }
    return false;
}

std::uint32_t ring_chunk_sent(CollectiveOp op, std::size_t n, std::size_t position, std::size_t step) {
    if (n == 0) return 0;
    // Work modulo n with a non-negative offset: (position + k*n - step) stays >= 0.
    const std::size_t p = position % n;
    const std::size_t big = n * (step / n + 2);
    if (op == CollectiveOp::all_reduce && step + 1 >= n)
        return static_cast<std::uint32_t>((p + 1 + big - (step - (n - 1))) % n);
    return static_cast<std::uint32_t>((p + big - step) % n);
}

std::vector<GpuId> first_gpus(std::uint32_t n) {
    std::vector<GpuId> out(n);
    std::iota(out.begin(), out.end(), GpuId{0});
    return out;
}

CollectiveResult run_collective(const Cluster& cluster, const CollectiveSetup& setup) {
    check(cluster, setup);
    CollectiveResult out;
    out.op = setup.op;
    out.gpus = setup.group.size();
    out.bytes = setup.bytes;
    out.rings = setup.rings;
    {
        std::vector<std::uint32_t> nodes;
        nodes.reserve(setup.group.size());
        for (GpuId g : setup.group) nodes.push_back(cluster.node_of(g));
        std::sort(nodes.begin(), nodes.end());
        out.nodes = static_cast<std::uint32_t>(std::unique(nodes.begin(), nodes.end()) - nodes.begin());
    }
    out.steps = ring_step_count(setup.op, out.gpus);
    if (out.steps == 0) return out;  // a group of one GPU has nothing to send
    out.chunk_bytes = chunk_bytes(setup);

    // One step: every GPU of every ring sends one chunk to its successor, all ready at 0.
    std::vector<Send> sends = step_sends(cluster, setup);
    WorkGraph g;
    g.reserve(sends.size(), 0);
    LinkPools pools(cluster, g);
    out.bottleneck_GBps = std::numeric_limits<double>::infinity();
    out.slowest = LinkType::nvlink;
    for (const Send& s : sends) {
        add_transfer(pools, s.route, out.chunk_bytes);
        out.bottleneck_GBps = std::min(out.bottleneck_GBps, s.route.bandwidth_GBps);
        if (s.route.type == LinkType::infiniband) out.slowest = LinkType::infiniband;
    }
    const Timeline step = schedule(g);

    // The lock-step model joins all sends before the next step, and the next step is the
    // same graph on links that are all idle again: the whole collective is exactly
    // base + steps x (one step's makespan), the value add_collective's full graph yields.
    const SimTime base_ps = picoseconds_from_seconds(cluster.system().collective_base_latency_s);
    const SimTime total_ps = base_ps + static_cast<SimTime>(out.steps) * step.makespan;
    out.base_latency_s = static_cast<double>(base_ps) * ps_to_s;
    out.step_s = static_cast<double>(step.makespan) * ps_to_s;
    out.time_s = static_cast<double>(total_ps) * ps_to_s;
    out.algbw_GBps = static_cast<double>(setup.bytes) / out.time_s / 1e9;  // nccl-tests: algbw = S / t
    out.busbw_GBps = out.algbw_GBps * busbw_factor(setup.op, out.gpus);

    out.sends.reserve(sends.size());
    for (std::size_t i = 0; i < sends.size(); ++i) {
        const Send& s = sends[i];
        RingSend rs;
        rs.ring = s.ring;
        rs.position = s.position;
        rs.from = s.route.from;
        rs.to = s.route.to;
        rs.type = s.route.type;
        rs.hops = s.route.hops();
        rs.start_s = static_cast<double>(step.runs[i].start) * ps_to_s;
        rs.end_s = static_cast<double>(step.runs[i].end) * ps_to_s;
        out.sends.push_back(rs);
    }
    return out;
}

CollectiveTasks add_collective(LinkPools& pools, const CollectiveSetup& setup) {
    const Cluster& cluster = pools.cluster();
    check(cluster, setup);
    WorkGraph& g = pools.graph();
    const std::size_t steps = ring_step_count(setup.op, setup.group.size());
    const std::vector<Send> sends = step_sends(cluster, setup);
    const double chunk = steps ? chunk_bytes(setup) : 0.0;
    g.reserve(g.task_count() + 2 + steps * (sends.size() + 1), g.edges().size() + 1 + 2 * steps * sends.size());

    CollectiveTasks out;
    out.start = g.add_join();
    TaskId prev = out.start;
    if (steps > 0) {
        prev = g.add_task(picoseconds_from_seconds(cluster.system().collective_base_latency_s), {});
        g.add_dependency(out.start, prev);
    }
    std::vector<TaskId> tasks(sends.size());
    for (std::size_t k = 0; k < steps; ++k) {
        for (std::size_t i = 0; i < sends.size(); ++i) {
            tasks[i] = add_transfer(pools, sends[i].route, chunk);
            g.add_dependency(prev, tasks[i]);
        }
        const TaskId join = g.add_join();
        for (TaskId t : tasks) g.add_dependency(t, join);
        out.step_end.push_back(join);
        prev = join;
    }
    out.finish = prev;
    return out;
}

}  // namespace m2m::core
