// One training step of Lesson 3's split on the shared scheduler: every kernel, collective and
// send of every micro-batch on Lesson 2's cluster, in each stage's pipeline order (each GPU's row
// of it is split_step_rows.cpp).
//
// [SECTION] kernel times   [SECTION] the step's work graph   [SECTION] FSDP's step
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

class StepBuilder {
public:
    StepBuilder(const SplitResult& plan, const Cluster& cluster, WorkGraph& graph)
        : m_plan(plan), m_d(plan.degrees), m_g(graph), m_cluster(cluster) {}

    void build() {
        const int gpus = m_d.gpus();
        for (int g = 0; g < gpus; ++g) m_g.add_pool("GPU " + std::to_string(g), ResourceKind::gpu_core, 1);
        m_pools.emplace(m_cluster, m_g);
        m_last_kernel.assign(static_cast<std::size_t>(gpus), std::nullopt);
        if (m_d.sharded) {
            sharded_step();
            return;
        }
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

    // [SECTION] FSDP's step --------------------------------------------------------------------

    // Every GPU runs every layer on its own prompts. Before each layer, forward and then backward,
    // the GPUs all-gather its weights once each has finished the layer before: the toy gathers
    // just in time, one layer at a time (real FSDP prefetches the next layer's weights while this
    // one computes, hiding much of it). After each backward the layer's gradient is reduce-scattered,
    // overlapping the backward of the layers below; each GPU's Adam step waits for them all.
    void sharded_step() {
        const int layers = static_cast<int>(m_plan.layers.size());
        std::vector<int> all;
        for (int g = 0; g < m_d.data; ++g) all.push_back(g);
        std::vector<TaskId> reduced;
        for (int l = 0; l < layers; ++l) sharded_pass(all, true, l, reduced);
        for (int l = layers - 1; l >= 0; --l) sharded_pass(all, false, l, reduced);
        for (int g : all) {
            const TaskId t = kernel(g, update_seconds(m_plan.setup, m_plan.gpus[static_cast<std::size_t>(g)].parameters),
                                    StepTaskKind::update, -1, 0, {});
            for (TaskId r : reduced) m_g.add_dependency(r, t);
        }
    }

    void sharded_pass(const std::vector<int>& all, bool forward, int l, std::vector<TaskId>& reduced) {
        const StepPhase phase = forward ? StepPhase::forward : StepPhase::backward;
        std::optional<TaskId> weights;
        if (all.size() > 1) {
            std::vector<TaskId> after;
            for (int g : all)
                if (const auto& last = m_last_kernel[static_cast<std::size_t>(g)]) after.push_back(*last);
            const int ex = exchange_index(phase, ExchangeOp::all_gather, l, all.front());
            weights = collective(CollectiveOp::all_gather, all, m_plan.exchanges[static_cast<std::size_t>(ex)].bytes, after, ex, 0);
        }
        std::vector<TaskId> done;
        for (int g : all) {
            const double sec = forward ? forward_seconds(m_plan.setup, m_plan.layers, l, own(l), rows())
                                       : backward_seconds(m_plan.setup, m_plan.layers, l, own(l), rows());
            const StepTaskKind kind = forward ? StepTaskKind::forward : StepTaskKind::backward;
            done.push_back(weights ? kernel(g, sec, kind, l, 0, {*weights}) : kernel(g, sec, kind, l, 0, {}));
        }
        if (forward || all.size() < 2) return;
        const int ex = exchange_index(phase, ExchangeOp::reduce_scatter, l, all.front());
        reduced.push_back(
            collective(CollectiveOp::reduce_scatter, all, m_plan.exchanges[static_cast<std::size_t>(ex)].bytes, done, ex, 0));
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

}  // namespace

void split_detail::run_step(SplitResult& r) {
    const Cluster cluster(split_cluster_shape(), r.setup.hardware.system);
    time_exchanges(r, cluster);
    StepBuilder builder(r, cluster, r.step.graph);
    builder.build();
    r.step.timeline = schedule(r.step.graph);
    summarise_rows(r, builder.kernels, builder.comms, r.step);
}

}  // namespace m2m::core
