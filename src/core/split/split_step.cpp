// One training step of Lesson 3's split on the shared scheduler: every kernel, collective and
// send of every micro-batch on Lesson 2's cluster, in each stage's pipeline order.
//
// [SECTION] kernel times   [SECTION] the step's work graph   [SECTION] each GPU's row
#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <tuple>

#include "m2m/core/split/split.hpp"
#include "split_parts.hpp"

namespace m2m::core {

namespace {

using namespace split_detail;

// [SECTION] kernel times --------------------------------------------------------------------

// Hardware timing: the roofline of one kernel (Williams et al. 2009), the launch overhead, then
// the longer of its arithmetic at the tensor-core rate and its memory traffic at HBM bandwidth.
// Lesson timing: its operations (FLOPs; a kernel without arithmetic, one per value it moves) at
// lesson_ops_per_s, nothing else, so a GPU's time grows with the prompts and neurons it handles.
double kernel_seconds(const SplitSetup& s, double flops, double bytes) {
    if (s.timing == SplitTiming::lesson)
        return (flops > 0 ? flops : bytes / static_cast<double>(activation_bytes_per_value)) / lesson_ops_per_s;
    const SplitHardware& h = s.hardware;
    return h.gpu.layer_overhead_s + std::max(flops / h.tensor_flops, bytes / h.gpu.memory_bandwidth_Bps);
}

// Forward of `rows` prompts through `own` of a layer's neurons: embedding rows are a
// gather (read and write each value once); a dense layer is a GEMM of 2 rows in own FLOPs
// reading the weights and the inputs and writing the outputs, all bf16.
double forward_seconds(const SplitSetup& h, const std::vector<LayerInfo>& layers, int layer, int own, int rows) {
    const double b = static_cast<double>(activation_bytes_per_value);
    if (layer == 0) return kernel_seconds(h, 0, 2.0 * b * rows * own);
    const double in = layers[static_cast<std::size_t>(layer)].inputs;
    return kernel_seconds(h, 2.0 * rows * in * own, b * (in * own + rows * in + rows * own));
}
// Backward is two GEMMs of the forward's size (input gradients dY W, weight gradients
// dY^T X): twice the forward's work, the "4 of 6 x parameters x tokens" of training FLOPs.
double backward_seconds(const SplitSetup& h, const std::vector<LayerInfo>& layers, int layer, int own, int rows) {
    if (layer == 0) return forward_seconds(h, layers, 0, own, rows);  // scatter-add into the table
    return 2.0 * forward_seconds(h, layers, layer, own, rows);
}
// A fused Adam step is memory bound: adam_step_bytes_per_parameter (28) per parameter.
double update_seconds(const SplitSetup& h, std::int64_t params) {
    return kernel_seconds(h, 0, static_cast<double>(adam_step_bytes_per_parameter) * static_cast<double>(params));
}

// [SECTION] the step's work graph -----------------------------------------------------------

struct KernelRecord {
    TaskId task;
    StepTaskKind kind;
    int gpu;
    int layer;
    int micro_batch;
};
struct CommRecord {
    TaskId start;
    TaskId finish;
    int exchange;
    int micro_batch;
};

class StepBuilder {
public:
    StepBuilder(const SplitResult& plan, const Cluster& cluster, WorkGraph& graph)
        : m_plan(plan), m_d(plan.degrees), m_g(graph), m_cluster(cluster) {}

    void build() {
        const int gpus = m_d.gpus();
        for (int g = 0; g < gpus; ++g) m_g.add_pool("GPU " + std::to_string(g), ResourceKind::gpu_core, 1);
        m_pools.emplace(m_cluster, m_g);
        m_last_kernel.assign(static_cast<std::size_t>(gpus), std::nullopt);
        std::vector<std::vector<PipelinePass>> orders;
        for (int st = 0; st < m_d.pipeline; ++st)
            orders.push_back(stage_order(m_plan.setup.schedule, m_d.pipeline, st, m_plan.micro_batches));
        place_in_stage_order(orders, [&](int st, const PipelinePass& pass) {
            const int mb = static_cast<int>(pass.micro_batch);
            if (!ready(st, pass.forward, mb)) return false;
            if (pass.forward)
                forward(st, mb);
            else
                backward(st, mb);
            return true;
        });
        update();
    }

    std::vector<KernelRecord> kernels;
    std::vector<CommRecord> comms;

private:
    bool ready(int st, bool forward, int i) const {
        if (forward) return st == 0 || m_fwd_sent.count({st - 1, i});
        if (st + 1 == m_d.pipeline) return m_fwd_sent.count({st, i}) > 0;
        return m_bwd_sent.count({st + 1, i}) > 0;
    }

    int exchange_index(StepPhase ph, ExchangeOp op, int layer, int first_gpu, int second_gpu = -1) const {
        const auto& ex = m_plan.exchanges;
        for (std::size_t k = 0; k < ex.size(); ++k)
            if (ex[k].phase == ph && ex[k].op == op && ex[k].layer == layer && ex[k].gpus.front() == first_gpu &&
                (second_gpu < 0 || ex[k].gpus[1] == second_gpu))
                return static_cast<int>(k);
        throw std::logic_error("an exchange the step needs is missing from the plan");
    }

    TaskId kernel(int gpu, double seconds, StepTaskKind kind, int layer, int mb, std::initializer_list<TaskId> after) {
        const TaskId t = m_g.add_task(picoseconds_from_seconds(seconds), {static_cast<PoolId>(gpu)});
        auto& last = m_last_kernel[static_cast<std::size_t>(gpu)];
        if (last) m_g.add_dependency(*last, t);  // a GPU runs its kernels in program order
        for (TaskId a : after) m_g.add_dependency(a, t);
        last = t;
        kernels.push_back({t, kind, gpu, layer, mb});
        return t;
    }

    // A collective among `group`, after every task in `after`; returns its finish.
    TaskId collective(CollectiveOp op, const std::vector<int>& group, Bytes bytes, const std::vector<TaskId>& after,
                      int exchange, int mb) {
        CollectiveSetup cs;
        cs.op = op;
        cs.bytes = bytes;
        for (int g : group) cs.group.push_back(cluster_gpu_of(m_plan.setup, g));
        const CollectiveTasks ct = add_collective(*m_pools, cs);
        for (TaskId a : after) m_g.add_dependency(a, ct.start);
        comms.push_back({ct.start, ct.finish, exchange, mb});
        return ct.finish;
    }

    TaskId send(int from, int to, Bytes bytes, TaskId after, int exchange, int mb) {
        const Route route = m_cluster.route(cluster_gpu_of(m_plan.setup, from), cluster_gpu_of(m_plan.setup, to));
        const TaskId t = add_transfer(*m_pools, route, static_cast<double>(bytes));
        m_g.add_dependency(after, t);
        comms.push_back({t, t, exchange, mb});
        return t;
    }

    int rows() const { return step_prompts / m_d.data / m_plan.micro_batches; }
    int own(int layer) const { return m_plan.layers[static_cast<std::size_t>(layer)].neurons / m_d.tensor; }

    void forward(int st, int mb) {
        const int first = m_plan.stage_first_layer[static_cast<std::size_t>(st)];
        const int last = stage_last(m_plan.stage_first_layer, static_cast<int>(m_plan.layers.size()), st);
        const SplitSetup& h = m_plan.setup;
        for (int dr = 0; dr < m_d.data; ++dr) {
            // What each tensor rank waits for before its next layer: the data it needs.
            std::vector<std::optional<TaskId>> input(static_cast<std::size_t>(m_d.tensor));
            if (st > 0)
                for (int t = 0; t < m_d.tensor; ++t) input[static_cast<std::size_t>(t)] = m_recv_fwd.at({st, dr, t, mb});
            for (int l = first; l <= last; ++l) {
                std::vector<TaskId> done;
                std::vector<int> group;
                for (int t = 0; t < m_d.tensor; ++t) {
                    const int g = gpu_at(m_d, dr, t, st);
                    const auto& in = input[static_cast<std::size_t>(t)];
                    const double sec = forward_seconds(h, m_plan.layers, l, own(l), rows());
                    done.push_back(in ? kernel(g, sec, StepTaskKind::forward, l, mb, {*in})
                                      : kernel(g, sec, StepTaskKind::forward, l, mb, {}));
                    group.push_back(g);
                }
                if (m_d.tensor > 1) {
                    const int ex = exchange_index(StepPhase::forward, ExchangeOp::all_gather, l, group.front());
                    const TaskId fin = collective(CollectiveOp::all_gather, group, m_plan.exchanges[static_cast<std::size_t>(ex)].bytes,
                                                  done, ex, mb);
                    for (auto& in : input) in = fin;
                } else {
                    input[0] = done[0];
                }
            }
            for (int t = 0; t < m_d.tensor; ++t) {
                const TaskId have = *input[static_cast<std::size_t>(t)];
                if (st + 1 < m_d.pipeline) {
                    const int from = gpu_at(m_d, dr, t, st), to = gpu_at(m_d, dr, t, st + 1);
                    const int ex = exchange_index(StepPhase::forward, ExchangeOp::send, last, from, to);
                    m_recv_fwd[{st + 1, dr, t, mb}] =
                        send(from, to, m_plan.exchanges[static_cast<std::size_t>(ex)].bytes, have, ex, mb);
                } else {
                    m_logits[{dr, t, mb}] = have;
                }
            }
        }
        m_fwd_sent.insert({st, mb});
    }

    void backward(int st, int mb) {
        const int first = m_plan.stage_first_layer[static_cast<std::size_t>(st)];
        const int last = stage_last(m_plan.stage_first_layer, static_cast<int>(m_plan.layers.size()), st);
        const SplitSetup& h = m_plan.setup;
        for (int dr = 0; dr < m_d.data; ++dr) {
            std::vector<TaskId> input(static_cast<std::size_t>(m_d.tensor));
            for (int t = 0; t < m_d.tensor; ++t)
                input[static_cast<std::size_t>(t)] =
                    st + 1 == m_d.pipeline ? m_logits.at({dr, t, mb}) : m_recv_bwd.at({st, dr, t, mb});
            for (int l = last; l >= first; --l) {
                std::vector<TaskId> done;
                std::vector<int> group;
                for (int t = 0; t < m_d.tensor; ++t) {
                    const int g = gpu_at(m_d, dr, t, st);
                    done.push_back(kernel(g, backward_seconds(h, m_plan.layers, l, own(l), rows()),
                                          StepTaskKind::backward, l, mb, {input[static_cast<std::size_t>(t)]}));
                    group.push_back(g);
                }
                if (l == 0) break;  // the embedding's gradients stay where its slices live
                if (m_d.tensor > 1) {
                    const int ex = exchange_index(StepPhase::backward, ExchangeOp::reduce_scatter, l - 1, group.front());
                    const TaskId fin = collective(CollectiveOp::reduce_scatter, group,
                                                  m_plan.exchanges[static_cast<std::size_t>(ex)].bytes, done, ex, mb);
                    for (auto& in : input) in = fin;
                } else {
                    input[0] = done[0];
                }
                if (l == first) {  // the gradient leaves this stage
                    for (int t = 0; t < m_d.tensor; ++t) {
                        const int from = gpu_at(m_d, dr, t, st), to = gpu_at(m_d, dr, t, st - 1);
                        const int ex = exchange_index(StepPhase::backward, ExchangeOp::send, l - 1, from, to);
                        m_recv_bwd[{st - 1, dr, t, mb}] = send(from, to, m_plan.exchanges[static_cast<std::size_t>(ex)].bytes,
                                                               input[static_cast<std::size_t>(t)], ex, mb);
                    }
                }
            }
        }
        m_bwd_sent.insert({st, mb});
    }

    void update() {
        const SplitSetup& h = m_plan.setup;
        for (int st = 0; st < m_d.pipeline; ++st)
            for (int t = 0; t < m_d.tensor; ++t) {
                std::vector<int> group;
                std::vector<TaskId> after;
                for (int dr = 0; dr < m_d.data; ++dr) {
                    const int g = gpu_at(m_d, dr, t, st);
                    group.push_back(g);
                    after.push_back(*m_last_kernel[static_cast<std::size_t>(g)]);
                }
                std::optional<TaskId> reduced;
                if (m_d.data > 1) {
                    const int ex = exchange_index(StepPhase::update, ExchangeOp::all_reduce, -1, group.front());
                    reduced = collective(CollectiveOp::all_reduce, group,
                                         m_plan.exchanges[static_cast<std::size_t>(ex)].bytes, after, ex, -1);
                }
                for (int g : group) {
                    const double sec = update_seconds(h, m_plan.gpus[static_cast<std::size_t>(g)].parameters);
                    if (reduced)
                        kernel(g, sec, StepTaskKind::update, -1, -1, {*reduced});
                    else
                        kernel(g, sec, StepTaskKind::update, -1, -1, {});
                }
            }
    }

    const SplitResult& m_plan;
    SplitDegrees m_d;
    WorkGraph& m_g;
    const Cluster& m_cluster;
    std::optional<LinkPools> m_pools;
    std::vector<std::optional<TaskId>> m_last_kernel;
    std::map<std::tuple<int, int, int, int>, TaskId> m_recv_fwd, m_recv_bwd;  // (stage, data, tensor, mb)
    std::map<std::tuple<int, int, int>, TaskId> m_logits;                     // (data, tensor, mb)
    std::set<std::pair<int, int>> m_fwd_sent, m_bwd_sent;                     // (stage, mb) added
};

// [SECTION] each GPU's row ------------------------------------------------------------------

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

void summarise_rows(const SplitResult& plan, const StepBuilder& b, StepTimeline& out) {
    const int gpus = plan.degrees.gpus();
    const Timeline& tl = out.timeline;
    out.step_time = tl.makespan;
    out.step_time_s = static_cast<double>(tl.makespan) / picoseconds_per_second;
    out.gpus.assign(static_cast<std::size_t>(gpus), GpuTimeline{});
    for (int g = 0; g < gpus; ++g) out.gpus[static_cast<std::size_t>(g)].gpu = g;
    for (const KernelRecord& k : b.kernels) {
        const TaskRun& r = tl.runs[k.task];
        out.gpus[static_cast<std::size_t>(k.gpu)].tasks.push_back({k.kind, k.gpu, k.layer, k.micro_batch, -1, r.start, r.end});
    }
    for (const CommRecord& c : b.comms) {
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

// Each exchange on idle links, for the exchange list: a send's route, a collective's ring.
void time_exchanges(SplitResult& r, const Cluster& cluster) {
    for (Exchange& e : r.exchanges) {
        if (e.op == ExchangeOp::send) {
            const Route route = cluster.route(cluster_gpu_of(r.setup, e.gpus[0]), cluster_gpu_of(r.setup, e.gpus[1]));
            e.link = route.type;
            e.seconds = transfer_seconds(route, static_cast<double>(e.bytes));
        } else {
            CollectiveSetup cs;
            cs.op = e.op == ExchangeOp::all_reduce   ? CollectiveOp::all_reduce
                    : e.op == ExchangeOp::all_gather ? CollectiveOp::all_gather
                                                     : CollectiveOp::reduce_scatter;
            cs.bytes = e.bytes;
            for (int g : e.gpus) cs.group.push_back(cluster_gpu_of(r.setup, g));
            const CollectiveResult c = run_collective(cluster, cs);
            e.link = c.slowest;
            e.seconds = c.time_s;
        }
    }
}

}  // namespace

void split_detail::run_step(SplitResult& r) {
    const Cluster cluster(split_cluster_shape(), r.setup.hardware.system);
    time_exchanges(r, cluster);
    StepBuilder builder(r, cluster, r.step.graph);
    builder.build();
    r.step.timeline = schedule(r.step.graph);
    summarise_rows(r, builder, r.step);
}

}  // namespace m2m::core
