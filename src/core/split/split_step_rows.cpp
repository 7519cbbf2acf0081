// Each GPU's row of Lesson 3's step: its kernels and exchanges from the scheduler's timeline, the
// idle gaps between them, and its time split into computing, exchanging and idle.
#include <algorithm>

#include "m2m/core/split/split.hpp"
#include "split_parts.hpp"

namespace m2m::core {

using namespace split_detail;

namespace {

// Length of the union of [start, end) intervals.
SimTime union_length(std::vector<std::pair<SimTime, SimTime>> v) {
    std::sort(v.begin(), v.end());
    SimTime total = 0, cur_s = 0, cur_e = -1;
    for (auto [s, e] : v) {
        if (e <= s) continue;
        if (s > cur_e) {
            if (cur_e > cur_s) total += cur_e - cur_s;
            cur_s = s;
            cur_e = e;
        } else {
            cur_e = std::max(cur_e, e);
        }
    }
    if (cur_e > cur_s) total += cur_e - cur_s;
    return total;
}

}  // namespace

void split_detail::summarise_rows(const SplitResult& plan, const std::vector<KernelRecord>& kernels,
                                  const std::vector<CommRecord>& comms, StepTimeline& out) {
    const int gpus = plan.degrees.gpus();
    const Timeline& tl = out.timeline;
    out.step_time = tl.makespan;
    out.step_time_s = static_cast<double>(tl.makespan) / picoseconds_per_second;
    out.gpus.assign(static_cast<std::size_t>(gpus), GpuTimeline{});
    for (int g = 0; g < gpus; ++g) out.gpus[static_cast<std::size_t>(g)].gpu = g;
    for (const KernelRecord& k : kernels) {
        const TaskRun& r = tl.runs[k.task];
        out.gpus[static_cast<std::size_t>(k.gpu)].tasks.push_back({k.kind, k.gpu, k.layer, k.micro_batch, -1, r.start, r.end});
    }
    for (const CommRecord& c : comms) {
        const Exchange& e = plan.exchanges[static_cast<std::size_t>(c.exchange)];
        const SimTime s = tl.runs[c.start].start, en = tl.runs[c.finish].end;
        for (int g : e.gpus)
            out.gpus[static_cast<std::size_t>(g)].tasks.push_back(
                {StepTaskKind::communication, g, e.layer, c.micro_batch, c.exchange, s, en});
    }
    double compute = 0, comm = 0, idle = 0;
    for (GpuTimeline& row : out.gpus) {
        std::vector<std::pair<SimTime, SimTime>> kern, busy;
        for (const StepTask& t : row.tasks) {
            busy.emplace_back(t.start, t.end);
            if (t.kind != StepTaskKind::communication) kern.emplace_back(t.start, t.end);
        }
        const SimTime k = union_length(kern), all = union_length(busy);
        // Idle gaps: stretches where the GPU neither computes nor exchanges.
        std::sort(busy.begin(), busy.end());
        SimTime cursor = 0;
        for (auto [s, e] : busy) {
            if (s > cursor) row.tasks.push_back({StepTaskKind::idle, row.gpu, -1, -1, -1, cursor, s});
            cursor = std::max(cursor, e);
        }
        if (cursor < out.step_time) row.tasks.push_back({StepTaskKind::idle, row.gpu, -1, -1, -1, cursor, out.step_time});
        std::stable_sort(row.tasks.begin(), row.tasks.end(),
                         [](const StepTask& a, const StepTask& c) { return a.start < c.start; });
        row.compute_s = static_cast<double>(k) / picoseconds_per_second;
        row.communication_s = static_cast<double>(all - k) / picoseconds_per_second;
        row.idle_s = static_cast<double>(out.step_time - all) / picoseconds_per_second;
        compute += row.compute_s;
        comm += row.communication_s;
        idle += row.idle_s;
    }
    out.compute_s = compute / gpus;
    out.communication_s = comm / gpus;
    out.idle_s = idle / gpus;
    out.idle_fraction = out.step_time_s > 0 ? out.idle_s / out.step_time_s : 0.0;
}

CollectiveSetup split_detail::exchange_collective(const SplitResult& r, const Exchange& e) {
    CollectiveSetup cs;
    cs.op = e.op == ExchangeOp::all_reduce   ? CollectiveOp::all_reduce
            : e.op == ExchangeOp::all_gather ? CollectiveOp::all_gather
                                             : CollectiveOp::reduce_scatter;
    cs.bytes = e.bytes;
    for (int g : e.gpus) cs.group.push_back(cluster_gpu_of(r.setup, g));
    return cs;
}

// Each exchange on idle links, for the exchange list: a send's route, a collective's ring.
void split_detail::time_exchanges(SplitResult& r, const Cluster& cluster) {
    for (Exchange& e : r.exchanges) {
        if (e.op == ExchangeOp::send) {
            const Route route = cluster.route(cluster_gpu_of(r.setup, e.gpus[0]), cluster_gpu_of(r.setup, e.gpus[1]));
            e.link = route.type;
            e.seconds = transfer_seconds(route, static_cast<double>(e.bytes));
        } else {
            const CollectiveResult c = run_collective(cluster, exchange_collective(r, e));
            e.link = c.slowest;
            e.seconds = c.time_s;
        }
    }
}

}  // namespace m2m::core
