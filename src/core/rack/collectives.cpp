// Collectives on the scheduler: NCCL's choice, its latency where NCCL charges it, and the bytes as
// sends on the links (one lock-step ring step scheduled and multiplied, or one tree/NVLS stream).
//
// [SECTION] ring arithmetic   [SECTION] setting up   [SECTION] running a collective   [SECTION] in a caller's graph
#include "m2m/core/rack/collectives.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

#include "collective_plan.hpp"

namespace m2m::core {

// [SECTION] ring arithmetic --------------------------------------------------------------------------

std::size_t ring_step_count(CollectiveOp op, std::size_t n) {
    if (n < 2) return 0;
    switch (op) {
    case CollectiveOp::all_reduce: return 2 * (n - 1);
    case CollectiveOp::all_gather:
    case CollectiveOp::reduce_scatter: return n - 1;
    default: return 1;  // broadcast streams down the ring; all-to-all is one round of sends, a hop per peer
    }
}

bool ring_step_reduces(CollectiveOp op, std::size_t n, std::size_t step) {
    switch (op) {
    case CollectiveOp::reduce_scatter: return true;
    case CollectiveOp::all_reduce: return step + 1 < n;
    default: return false;
    }
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

std::uint32_t default_rings(const Cluster& cluster, const std::vector<GpuId>& group) {
    const CollectiveGroup g = collective_group(cluster, group);
    return g.nodes > 1 ? g.gpus_per_node : 1;
}

// [SECTION] setting up ---------------------------------------------------------------------------------

namespace {

constexpr double ps_to_s = 1.0 / picoseconds_per_second;

void check(const Cluster& cluster, const CollectiveSetup& setup) {
    if (setup.group.empty()) throw std::invalid_argument("a collective needs a group of at least 1 GPU");
    if (setup.bytes < 0) throw std::invalid_argument("a collective needs bytes >= 0");
    if (!setup.nccl) throw std::invalid_argument("a collective needs an NCCL version's cost model");
    std::vector<char> seen(cluster.gpu_count(), 0);
    for (GpuId g : setup.group) {
        if (!cluster.contains(g))
            throw std::out_of_range("GPU " + std::to_string(g) + " is not in the cluster (GPUs 0 to " +
                                    std::to_string(cluster.gpu_count() - 1) + ")");
        if (seen[g]) throw std::invalid_argument("GPU " + std::to_string(g) + " appears twice in the group");
        seen[g] = 1;
    }
}

// Everything but the scheduling: NCCL's choice and cost, the sends of one step, the share of
// the wires they get, and where the latency goes.
struct Prepared {
    CollectiveResult result;
    detail::CollectivePlan plan;
    SimTime base_ps = 0;
    SimTime step_latency_ps = 0;
};

// The share of the links the run's bandwidth amounts to: its time for the bytes over the
// fluid bound of the same algorithm on the wires, with NCCL's own channel count.
double efficiency_of(const Cluster& cluster, const CollectiveSetup& setup, const detail::CollectivePlan& plan,
                     const CollectiveCost& cost, std::uint32_t rings) {
    if (setup.bytes < 1 || cost.run_bandwidth_GBps <= 0) return 1.0;
    // NVLS's pipeline fill and a small message's narrow width (beyond_estimate.cpp) slow the stream.
    const double nccl_s = static_cast<double>(setup.bytes) / (cost.run_bandwidth_GBps * 1e9) + cost.pipeline_fill_s + cost.narrow_s;
    const std::uint32_t nccl_rings = default_rings(cluster, setup.group);
    const bool as_nccl = cost.algorithm != CollectiveAlgorithm::ring || rings == nccl_rings;
    const detail::CollectivePlan nccl_plan =
        as_nccl ? detail::CollectivePlan{} : detail::plan_collective(cluster, setup, cost.algorithm, nccl_rings);
    const detail::CollectivePlan& ref = as_nccl ? plan : nccl_plan;
    const double fluid_s = static_cast<double>(ref.steps) * detail::fluid_step_seconds(cluster, ref.sends);
    return std::clamp(fluid_s / nccl_s, 1e-6, 1.0);
}

// Where NCCL's latency goes: the base once (the ring's x1.4 plateau scales it too), then each
// ring step's even share, or a tree's and NVLS's whole wave before its stream.
void place_latency(Prepared& p, const NcclModel& model) {
    CollectiveResult& r = p.result;
    const NcclModel::LatencyParts parts = model.latency_parts(r.algorithm, r.protocol);
    const double plateau = r.nccl.latency_s / std::max(model.latency_s(r.algorithm, r.protocol), 1e-30);
    p.base_ps = picoseconds_from_seconds(parts.base_s * plateau);
    const double rest_s = std::max(r.nccl.latency_s - parts.base_s * plateau, 0.0);
    p.step_latency_ps = picoseconds_from_seconds(rest_s / static_cast<double>(p.plan.steps));
    const CollectiveGroup& g = model.group();
    if (r.algorithm == CollectiveAlgorithm::tree || r.algorithm == CollectiveAlgorithm::nvls ||
        r.algorithm == CollectiveAlgorithm::nvls_tree) {
        const auto tree_hops = static_cast<std::uint32_t>(std::floor(std::log2(static_cast<double>(g.nodes))));
        r.wave = detail::latency_wave(r.algorithm, parts, g.gpus / g.nodes - 1, tree_hops, rest_s);
    }
}

Prepared prepare(const Cluster& cluster, const CollectiveSetup& setup) {
    check(cluster, setup);
    Prepared p;
    CollectiveResult& r = p.result;
    r.op = setup.op;
    r.gpus = setup.group.size();
    r.bytes = setup.bytes;
    const NcclModel model(cluster.system(), collective_group(cluster, setup.group), setup.op, *setup.nccl);
    r.tuning = setup.nccl;
    r.nodes = model.group().nodes;
    r.group = model.group();
    r.nccl = model.best(static_cast<double>(setup.bytes), setup.choice);  // throws when NCCL cannot run it
    r.algorithm = r.nccl.algorithm;
    r.protocol = r.nccl.protocol;
    if (r.gpus < 2) return p;
    const std::uint32_t rings = setup.rings ? setup.rings : default_rings(cluster, setup.group);
    p.plan = detail::plan_collective(cluster, setup, r.algorithm, rings);
    r.rings = p.plan.channels;
    r.steps = p.plan.steps;
    r.chunk_bytes = p.plan.chunk_bytes;
    r.efficiency = efficiency_of(cluster, setup, p.plan, r.nccl, rings);
    place_latency(p, model);
    r.bottleneck_GBps = std::numeric_limits<double>::infinity();
    r.slowest = LinkType::nvlink;
    for (const auto& s : p.plan.sends) {
        r.bottleneck_GBps = std::min(r.bottleneck_GBps, s.route.bandwidth_GBps);
        if (s.route.type == LinkType::infiniband) r.slowest = LinkType::infiniband;
    }
    return p;
}

}  // namespace

// [SECTION] running a collective -------------------------------------------------------------------------

CollectiveResult run_collective(const Cluster& cluster, const CollectiveSetup& setup) {
    Prepared p = prepare(cluster, setup);
    CollectiveResult& out = p.result;
    if (out.steps == 0) return out;  // a group of one GPU has nothing to send

    // One step's sends, all ready when its latency has passed.
    WorkGraph g;
    g.reserve(p.plan.sends.size(), 0);
    LinkPools pools(cluster, g);
    for (const auto& s : p.plan.sends) detail::add_wire(pools, s, out.efficiency);
    const Timeline step = schedule(g);

    // Lock-step: the next ring step is the same graph on links that are all idle again, so
    // the whole collective is exactly base + steps x (latency + one step's makespan), what
    // add_collective's full graph yields.
    const SimTime step_ps = p.step_latency_ps + step.makespan;
    const SimTime total_ps = p.base_ps + static_cast<SimTime>(out.steps) * step_ps;
    out.base_latency_s = static_cast<double>(p.base_ps) * ps_to_s;
    out.step_latency_s = static_cast<double>(p.step_latency_ps) * ps_to_s;
    out.step_wire_s = static_cast<double>(step.makespan) * ps_to_s;
    out.step_s = static_cast<double>(step_ps) * ps_to_s;
    out.time_s = static_cast<double>(total_ps) * ps_to_s;
    out.algbw_GBps = static_cast<double>(setup.bytes) / out.time_s / 1e9;  // nccl-tests: algbw = S / t
    out.busbw_GBps = out.algbw_GBps * busbw_factor(setup.op, out.gpus);

    out.sends.reserve(p.plan.sends.size());
    for (std::size_t i = 0; i < p.plan.sends.size(); ++i) {
        const auto& s = p.plan.sends[i];
        out.sends.push_back({s.channel, s.position, s.role, s.route.from, s.route.to, s.route.type, s.route.hops(), s.bytes,
                             static_cast<double>(step.runs[i].start) * ps_to_s,
                             static_cast<double>(step.runs[i].end) * ps_to_s});
    }
    return out;
}

// [SECTION] in a caller's graph ---------------------------------------------------------------------------

CollectiveTasks add_collective(LinkPools& pools, const CollectiveSetup& setup) {
    const Prepared p = prepare(pools.cluster(), setup);
    WorkGraph& g = pools.graph();
    const std::size_t steps = p.result.steps;
    const std::size_t sends = p.plan.sends.size();
    g.reserve(g.task_count() + 2 + steps * (sends + 2), g.edges().size() + 1 + steps * (2 * sends + 2));

    CollectiveTasks out;
    out.start = g.add_join();
    TaskId prev = out.start;
    if (steps > 0) {
        prev = g.add_task(p.base_ps, {});
        g.add_dependency(out.start, prev);
    }
    std::vector<TaskId> tasks(sends);
    for (std::size_t k = 0; k < steps; ++k) {
        const TaskId wait = g.add_task(p.step_latency_ps, {});
        g.add_dependency(prev, wait);
        for (std::size_t i = 0; i < sends; ++i) {
            tasks[i] = detail::add_wire(pools, p.plan.sends[i], p.result.efficiency);
            g.add_dependency(wait, tasks[i]);
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
