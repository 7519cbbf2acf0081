// Ring collectives as link transfers: one lock-step ring step on the scheduler, times the step count.
//
// [SECTION] the ring   [SECTION] running a collective   [SECTION] what the lesson says
#include "m2m/core/rack/collectives.hpp"
#include "m2m/core/engine/text.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace m2m::core {

// [SECTION] the ring --------------------------------------------------------------------------

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

std::size_t ring_step_count(CollectiveOp op, std::size_t n) {
    if (n < 2) return 0;
    return op == CollectiveOp::all_reduce ? 2 * (n - 1) : n - 1;
}

bool ring_step_reduces(CollectiveOp op, std::size_t n, std::size_t step) {
    switch (op) {
    case CollectiveOp::reduce_scatter: return true;
    case CollectiveOp::all_gather: return false;
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

// [SECTION] running a collective -----------------------------------------------------------------

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

// [SECTION] what the lesson says -------------------------------------------------------------------

namespace {

// Where a ring collective's time goes: all on NVLink, or waiting for InfiniBand (and how long the
// NVLink wires sit idle meanwhile). `crossings`: sends of one ring that leave their node.
std::string collective_verdict(const Cluster& cluster, const CollectiveResult& r, const CollectiveStory& st,
                               std::size_t crossings) {
    const SystemSpec& sys = cluster.system();
    if (r.slowest != LinkType::infiniband)
        return "All " + std::to_string(r.gpus) + " GPUs sit in one node, so every send of every step is NVLink: each "
               "of the " + std::to_string(r.steps) + " steps takes " + format_seconds(r.step_s) + " and the busbw of " +
               st.busbw + " is close to NVLink's " + format_rate_GBps(sys.nvlink.effective_GBps()) + ".";
    const std::string ring = r.rings == 1 ? "The ring" : "Each ring";
    const std::string leaves = ring + " leaves a node " + std::to_string(crossings) +
                               (crossings == 1 ? " time" : " times") + " over " + sys.infiniband.name;
    // Balanced when the InfiniBand sends take less than a quarter longer than the NVLink ones.
    if (st.nvlink_sends_end_s > 0 && st.infiniband_sends_end_s < 1.25 * st.nvlink_sends_end_s)
        return leaves + ", but with " + std::to_string(r.rings) + " rings on " + std::to_string(r.rings) +
               " NICs per node the InfiniBand sends (" + format_seconds(st.infiniband_sends_end_s) +
               ") take about as long as the NVLink ones (" + format_seconds(st.nvlink_sends_end_s) +
               "): neither wire waits for long, and busbw reaches " + st.busbw + ".";
    std::string verdict = leaves + ", and every step waits for its slowest send";
    if (st.nvlink_sends_end_s > 0) {
        const double idle_share = 1.0 - st.nvlink_sends_end_s / r.step_s;
        verdict += ": the NVLink sends are done after " + format_seconds(st.nvlink_sends_end_s) +
                   ", the InfiniBand ones after " + format_seconds(st.infiniband_sends_end_s) +
                   ", so the NVLink wires sit idle " + format_percent(std::max(idle_share, 0.0), 0) + " of the time";
    }
    return verdict + ". busbw " + st.busbw + " is set by InfiniBand, not by NVLink's " +
           format_rate_GBps(sys.nvlink.effective_GBps()) + ".";
}

// What more rings would change: nothing inside a node; one per NIC across nodes, as NCCL runs them.
std::string rings_note(const Cluster& cluster, const CollectiveResult& r) {
    const std::uint32_t per_node = cluster.shape().gpus_per_node;
    if (r.nodes <= 1)
        return r.rings == 1 ? "Inside one node more rings would share the same NVLink ports: they add latency, not "
                              "bandwidth."
                            : "Inside one node the " + std::to_string(r.rings) +
                                  " rings share the same NVLink ports: they add latency, not bandwidth.";
    if (r.rings == 1)
        return "This is the single ring the lesson draws: it leaves each node through one NIC while the other " +
               std::to_string(per_node - 1) + " sit idle. NCCL runs one ring per NIC (" + std::to_string(per_node) +
               " here), so one ring understates real cross-node throughput.";
    return std::to_string(r.rings) + " rings, as NCCL runs them: each carries 1/" + std::to_string(r.rings) +
           " of the data and leaves each node through a different NIC, so " + std::to_string(r.rings) +
           " NICs per node carry InfiniBand traffic at once. Inside a node the rings share NVLink.";
}

}  // namespace

CollectiveStory tell(const Cluster& cluster, const CollectiveResult& r) {
    CollectiveStory st;
    st.time = format_seconds(r.time_s);
    st.algbw = format_rate_GBps(r.algbw_GBps);
    st.busbw = format_rate_GBps(r.busbw_GBps);
    st.slowest = std::string(link_type_label(r.slowest));
    st.steps = std::to_string(r.steps) + " \u00d7 " + format_seconds(r.step_s);
    std::size_t crossings = 0;  // sends of one ring that leave their node
    for (const RingSend& s : r.sends) {
        double& end = s.type == LinkType::infiniband ? st.infiniband_sends_end_s : st.nvlink_sends_end_s;
        end = std::max(end, s.end_s);
        if (s.ring == 0 && s.type == LinkType::infiniband) ++crossings;
    }
    if (st.nvlink_sends_end_s > 0) st.nvlink_sends = "NVLink sends: " + format_seconds(st.nvlink_sends_end_s);
    if (st.infiniband_sends_end_s > 0) st.infiniband_sends = "InfiniBand sends: " + format_seconds(st.infiniband_sends_end_s);
    if (r.steps == 0) {
        st.verdict = "A group of one GPU has nothing to exchange.";
        return st;
    }
    st.verdict = collective_verdict(cluster, r, st, crossings);
    st.rings_note = rings_note(cluster, r);
    return st;
}

std::string ring_step_text(CollectiveOp op, std::size_t n, std::size_t step) {
    const std::size_t steps = ring_step_count(op, n);
    const std::string head = "Step " + std::to_string(std::min(step, steps > 0 ? steps - 1 : 0) + 1) + " of " +
                             std::to_string(steps) + " \u00b7 ";
    if (steps == 0) return "No steps: a group of one GPU.";
    if (ring_step_reduces(op, n, step))
        return head + "reduce-scatter: each GPU adds the chunk it receives to its own copy.";
    return head + "all-gather: each GPU passes on a finished chunk.";
}

}  // namespace m2m::core
