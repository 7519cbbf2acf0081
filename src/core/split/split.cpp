// Lesson 3's strategies: who holds what, who exchanges what, one training step on the shared
// scheduler over Lesson 2's cluster, and the split network really run slice by slice.
//
// [SECTION] names and checks
// [SECTION] layout: which GPU holds which neurons
// [SECTION] exchanges
// [SECTION] one training step on the scheduler
// [SECTION] sentences
// [SECTION] the split network, really run
#include "m2m/core/split/split.hpp"
#include "m2m/core/engine/text.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <tuple>

namespace m2m::core {

// [SECTION] names and checks ------------------------------------------------------------------

std::string_view strategy_name(Strategy s) {
    switch (s) {
        case Strategy::data: return "data";
        case Strategy::tensor: return "tensor";
        case Strategy::pipeline: return "pipeline";
        case Strategy::three_d: return "3d";
    }
    return "?";
}

std::string_view strategy_label(Strategy s) {
    switch (s) {
        case Strategy::data: return "data parallel";
        case Strategy::tensor: return "tensor parallel";
        case Strategy::pipeline: return "pipeline parallel";
        case Strategy::three_d: return "3D parallel (data x tensor x pipeline)";
    }
    return "?";
}

std::optional<Strategy> parse_strategy(std::string_view name) {
    for (Strategy s : {Strategy::data, Strategy::tensor, Strategy::pipeline, Strategy::three_d})
        if (strategy_name(s) == name) return s;
    return std::nullopt;
}

std::string_view placement_name(Placement p) { return p == Placement::one_node ? "node" : "nodes"; }

std::optional<Placement> parse_placement(std::string_view name) {
    if (name == "node") return Placement::one_node;
    if (name == "nodes") return Placement::two_nodes;
    return std::nullopt;
}

std::string_view split_field_name(SplitField f) {
    switch (f) {
        case SplitField::strategy: return "strategy";
        case SplitField::gpus: return "gpus";
        case SplitField::micro_batches: return "micro-batches";
        case SplitField::placement: return "placement";
        case SplitField::hardware: return "hardware";
        case SplitField::schedule: return "schedule";
    }
    return "?";
}

std::string_view step_phase_name(StepPhase p) {
    switch (p) {
        case StepPhase::forward: return "forward";
        case StepPhase::backward: return "backward";
        case StepPhase::update: return "update";
    }
    return "?";
}

std::string_view exchange_op_name(ExchangeOp op) {
    switch (op) {
        case ExchangeOp::all_reduce: return "all-reduce";
        case ExchangeOp::all_gather: return "all-gather";
        case ExchangeOp::reduce_scatter: return "reduce-scatter";
        case ExchangeOp::send: return "send";
    }
    return "?";
}

std::string_view step_task_kind_name(StepTaskKind k) {
    switch (k) {
        case StepTaskKind::forward: return "forward";
        case StepTaskKind::backward: return "backward";
        case StepTaskKind::communication: return "comm";
        case StepTaskKind::update: return "update";
        case StepTaskKind::idle: return "idle";
    }
    return "?";
}

std::vector<Example> step_batch() {
    std::vector<Example> all = corpus_examples();
    all.resize(static_cast<std::size_t>(step_prompts));
    return all;
}

SplitDegrees split_degrees(Strategy s, int gpus) {
    switch (s) {
        case Strategy::data: return {gpus, 1, 1};
        case Strategy::tensor: return {1, gpus, 1};
        case Strategy::pipeline: return {1, 1, gpus};
        case Strategy::three_d: return {2, 2, 2};
    }
    return {};
}

namespace {

constexpr int dense_layer_count = hidden_layers + 1;

std::string list_ints(const std::vector<int>& v) {
    std::string out;
    for (std::size_t i = 0; i < v.size(); ++i)
        out += (i == 0 ? "" : i + 1 == v.size() ? " or " : ", ") + std::to_string(v[i]);
    return out;
}

bool contains(const std::vector<int>& v, int x) { return std::find(v.begin(), v.end(), x) != v.end(); }

}  // namespace

std::vector<int> accepted_gpu_counts(Strategy s) {
    std::vector<int> out;
    for (int g = 1; g <= max_split_gpus; ++g) {
        bool ok = false;
        switch (s) {
            case Strategy::data: ok = step_prompts % g == 0; break;
            // Every layer's neurons split into equal slices; the embedding splits by its
            // dimensions (see NextWordModel), so G must divide those too.
            case Strategy::tensor:
                ok = embedding_dims % g == 0 && hidden_width % g == 0 && output_words() % g == 0;
                break;
            case Strategy::pipeline: ok = dense_layer_count % g == 0; break;
            case Strategy::three_d: ok = g == 8; break;
        }
        if (ok) out.push_back(g);
    }
    return out;
}

std::vector<int> accepted_micro_batches(const SplitSetup& setup) {
    const SplitDegrees d = split_degrees(setup.strategy, setup.gpus);
    if (d.pipeline <= 1 || d.data < 1 || step_prompts % d.data != 0) return {1};
    const int prompts = step_prompts / d.data;
    std::vector<int> out;
    for (int m = 1; m <= prompts; ++m)
        if (prompts % m == 0) out.push_back(m);
    return out;
}

std::optional<SplitProblem> check_split(const SplitSetup& setup, bool check_hardware) {
    const std::vector<int> accepted = accepted_gpu_counts(setup.strategy);
    const std::string label(strategy_label(setup.strategy));
    if (setup.gpus < 1 || setup.gpus > max_split_gpus || !contains(accepted, setup.gpus)) {
        std::string why;
        switch (setup.strategy) {
            case Strategy::data:
                why = "data parallel gives every GPU an equal share of the step's " + std::to_string(step_prompts) +
                      " prompts";
                break;
            case Strategy::tensor:
                why = "tensor parallel gives every GPU an equal slice of every layer (" +
                      std::to_string(embedding_dims) + " embedding dimensions, " + std::to_string(hidden_width) +
                      " hidden and " + std::to_string(output_words()) + " output neurons)";
                break;
            case Strategy::pipeline:
                why = "pipeline parallel gives every GPU an equal run of the " + std::to_string(dense_layer_count) +
                      " weight layers (the embedding goes with the first)";
                break;
            case Strategy::three_d: why = "3d splits 2 ways in data, tensor and pipeline: 2 x 2 x 2 GPUs"; break;
        }
        return SplitProblem{SplitField::gpus, why + ", so it takes " + list_ints(accepted) + " GPUs (got " +
                                                  std::to_string(setup.gpus) + ")"};
    }
    if (setup.micro_batches < 1)
        return SplitProblem{SplitField::micro_batches,
                            "micro-batches must be at least 1 (got " + std::to_string(setup.micro_batches) + ")"};
    const SplitDegrees d = split_degrees(setup.strategy, setup.gpus);
    if (d.pipeline > 1) {
        const std::vector<int> ms = accepted_micro_batches(setup);
        if (!contains(ms, setup.micro_batches))
            return SplitProblem{SplitField::micro_batches,
                                "the pipeline cuts each copy's " + std::to_string(step_prompts / d.data) +
                                    " prompts into equal micro-batches, so it takes " + list_ints(ms) + " (got " +
                                    std::to_string(setup.micro_batches) + ")"};
    }
    if (setup.schedule != PipelineSchedule::gpipe && setup.schedule != PipelineSchedule::one_f_one_b)
        return SplitProblem{SplitField::schedule, "Lesson 3's pipeline runs the 1f1b or gpipe schedule (got " +
                                                      std::string(schedule_name(setup.schedule)) +
                                                      "); interleaving several chunks of layers on each GPU is in "
                                                      "the real-scale estimator (sim estimate --schedule interleaved)"};
    if (setup.placement == Placement::two_nodes && setup.gpus < 2)
        return SplitProblem{SplitField::placement, "two nodes need at least 2 GPUs; with 1 GPU use node"};
    if (check_hardware) {
        const SplitHardware& h = setup.hardware;
        if (!(h.tensor_flops > 0) || !(h.gpu.memory_bandwidth_Bps > 0) || h.gpu.layer_overhead_s < 0)
            return SplitProblem{SplitField::hardware, "the GPU '" + h.gpu.id +
                                                          "' needs a positive tensor-core rate and memory bandwidth"};
        for (const LinkSpec* l : {&h.system.nvlink, &h.system.pcie, &h.system.infiniband})
            if (!(l->effective_GBps() > 0) || l->latency_s < 0)
                return SplitProblem{SplitField::hardware, "the system '" + h.system.id + "' needs link '" + l->name +
                                                              "' with a positive bandwidth"};
    }
    return std::nullopt;
}

// [SECTION] layout: which GPU holds which neurons ---------------------------------------------

namespace {

struct Coord {
    int data = 0;
    int tensor = 0;
    int stage = 0;
};

// Megatron-LM's rank order: tensor rank fastest, then data, then pipeline stage, so a
// tensor-parallel group is always neighbouring GPUs (inside one node when it can be).
Coord coord_of(const SplitDegrees& d, int gpu) {
    return {(gpu / d.tensor) % d.data, gpu % d.tensor, gpu / (d.tensor * d.data)};
}
int gpu_at(const SplitDegrees& d, int data, int tensor, int stage) {
    return stage * d.data * d.tensor + data * d.tensor + tensor;
}

// The first ceil(G/2) GPUs in node 0, the rest in node 1 (cluster GPU 8 + i).
int node_of(const SplitSetup& s, int gpu) {
    return s.placement == Placement::two_nodes && gpu >= (s.gpus + 1) / 2 ? 1 : 0;
}
// Two nodes of Lesson 2's cluster in one rack, each as ClusterShape makes a node (8 GPUs, a
// DGX): enough for every placement the lesson offers.
ClusterShape split_cluster_shape() {
    ClusterShape shape;
    shape.nodes_per_rack = 2;
    shape.racks = 1;
    return shape;
}
GpuId cluster_gpu_of(const SplitSetup& s, int gpu) {
    return node_of(s, gpu) == 0 ? static_cast<GpuId>(gpu)
                                : split_cluster_shape().gpus_per_node + static_cast<GpuId>(gpu - (s.gpus + 1) / 2);
}

// Tensor rank t of T holds neurons [t w/T, (t+1) w/T) of a layer w wide. For the embedding
// (24 = 3 positions x 8 dimensions, dimension-major) that is dimensions [t 8/T, (t+1) 8/T).
NeuronRange tensor_range(const std::vector<LayerInfo>& layers, int layer, int rank, int ranks) {
    const int per = layers[static_cast<std::size_t>(layer)].neurons / ranks;
    return {rank * per, per};
}

// First network layer of each stage: stage 0 starts with the embedding, and the dense
// layers are dealt out in equal runs.
std::vector<int> stage_starts(int layer_count, int stages) {
    const int per = (layer_count - 1) / stages;
    std::vector<int> out(static_cast<std::size_t>(stages));
    for (int s = 0; s < stages; ++s) out[static_cast<std::size_t>(s)] = s == 0 ? 0 : 1 + s * per;
    return out;
}
int stage_last(const std::vector<int>& starts, int layer_count, int stage) {
    return stage + 1 < static_cast<int>(starts.size()) ? starts[static_cast<std::size_t>(stage) + 1] - 1
                                                         : layer_count - 1;
}

std::int64_t layer_params_held(const NextWordModel& model, int layer, const NeuronRange& r) {
    if (r.count == 0) return 0;
    if (layer == 0) return static_cast<std::int64_t>(vocabulary_size()) * (r.count / context_words);
    const DenseLayer& d = model.dense[static_cast<std::size_t>(layer - 1)];
    return static_cast<std::int64_t>(r.count) * (d.inputs + 1);
}

}  // namespace

// [SECTION] exchanges -------------------------------------------------------------------------

namespace {

LinkType group_link(const SplitSetup& s, const std::vector<int>& gpus) {
    for (int g : gpus)
        if (node_of(s, g) != node_of(s, gpus.front())) return LinkType::infiniband;
    return LinkType::nvlink;
}

std::string range_text(const NeuronRange& r) {
    return r.count == 1 ? std::to_string(r.first) : std::to_string(r.first) + "-" + std::to_string(r.end() - 1);
}

void add_exchanges(const SplitResult& r, std::vector<Exchange>& out) {
    const SplitSetup& s = r.setup;
    const SplitDegrees& d = r.degrees;
    const int m = r.micro_batches;
    const int rows = step_prompts / d.data / m;  // prompts per micro-batch
    const int layers = static_cast<int>(r.layers.size());
    auto width = [&](int l) { return r.layers[static_cast<std::size_t>(l)].neurons; };
    auto name = [&](int l) { return r.layers[static_cast<std::size_t>(l)].name; };
    auto push = [&](StepPhase ph, ExchangeOp op, int layer, std::vector<int> gpus, Bytes bytes, int times,
                    std::string what) {
        Exchange e;
        e.phase = ph;
        e.op = op;
        e.layer = layer;
        e.link = group_link(s, gpus);
        e.gpus = std::move(gpus);
        e.bytes = bytes;
        e.times = times;
        e.what = std::move(what);
        out.push_back(std::move(e));
    };
    auto tensor_group = [&](int data, int stage) {
        std::vector<int> g;
        for (int t = 0; t < d.tensor; ++t) g.push_back(gpu_at(d, data, t, stage));
        return g;
    };

    // Forward: with a column split each GPU finishes whole neurons, so a layer's outputs
    // only need gathering (an all-gather of rows x width bf16 values); a stage hands its
    // last layer's outputs to the same tensor rank of the next stage.
    for (int st = 0; st < d.pipeline; ++st) {
        const int first = r.stage_first_layer[static_cast<std::size_t>(st)];
        const int last = stage_last(r.stage_first_layer, layers, st);
        for (int l = first; l <= last; ++l)
            if (d.tensor > 1)
                for (int dr = 0; dr < d.data; ++dr)
                    push(StepPhase::forward, ExchangeOp::all_gather, l, tensor_group(dr, st),
                         Bytes{rows} * width(l) * activation_bytes_per_value, m, "outputs of " + name(l));
        if (st + 1 < d.pipeline)
            for (int dr = 0; dr < d.data; ++dr)
                for (int t = 0; t < d.tensor; ++t)
                    push(StepPhase::forward, ExchangeOp::send, last, {gpu_at(d, dr, t, st), gpu_at(d, dr, t, st + 1)},
                         Bytes{rows} * width(last) * activation_bytes_per_value, m,
                         "outputs of " + name(last) + " (activations)");
    }
    // Backward: every neuron of layer l adds to the gradient of every input, so each GPU
    // holds partial sums of the gradient for layer l-1's outputs: a reduce-scatter adds them
    // and leaves each GPU the slice for the neurons it owns. Across a stage boundary that
    // slice goes back to the GPU that owns those neurons.
    for (int st = d.pipeline - 1; st >= 0; --st) {
        const int first = r.stage_first_layer[static_cast<std::size_t>(st)];
        const int last = stage_last(r.stage_first_layer, layers, st);
        for (int l = last; l >= std::max(first, 1); --l)
            if (d.tensor > 1)
                for (int dr = 0; dr < d.data; ++dr)
                    push(StepPhase::backward, ExchangeOp::reduce_scatter, l - 1, tensor_group(dr, st),
                         Bytes{rows} * width(l - 1) * activation_bytes_per_value, m,
                         "gradients for the outputs of " + name(l - 1));
        if (st > 0)
            for (int dr = 0; dr < d.data; ++dr)
                for (int t = 0; t < d.tensor; ++t)
                    push(StepPhase::backward, ExchangeOp::send, first - 1,
                         {gpu_at(d, dr, t, st), gpu_at(d, dr, t, st - 1)},
                         Bytes{rows} * (width(first - 1) / d.tensor) * activation_bytes_per_value, m,
                         "gradients for the outputs of " + name(first - 1));
    }
    // Update: copies that saw different prompts add their gradients (all-reduce), so every
    // copy takes the same averaged step and they stay identical.
    if (d.data > 1)
        for (int st = 0; st < d.pipeline; ++st)
            for (int t = 0; t < d.tensor; ++t) {
                std::vector<int> group;
                for (int dr = 0; dr < d.data; ++dr) group.push_back(gpu_at(d, dr, t, st));
                const std::int64_t params = r.gpus[static_cast<std::size_t>(group.front())].parameters;
                push(StepPhase::update, ExchangeOp::all_reduce, -1, group, params * gradient_bytes_per_parameter, 1,
                     "gradients of its " + format_count(params) + " parameters");
            }
}

}  // namespace

// [SECTION] one training step on the scheduler ------------------------------------------------

namespace {

// Roofline of one kernel (Williams et al. 2009): the launch overhead, then the longer of
// its arithmetic at the tensor-core rate and its memory traffic at HBM bandwidth.
double kernel_seconds(const SplitHardware& h, double flops, double bytes) {
    return h.gpu.layer_overhead_s + std::max(flops / h.tensor_flops, bytes / h.gpu.memory_bandwidth_Bps);
}

// Forward of `rows` prompts through `own` of a layer's neurons: embedding rows are a
// gather (read and write each value once); a dense layer is a GEMM of 2 rows in own FLOPs
// reading the weights and the inputs and writing the outputs, all bf16.
double forward_seconds(const SplitHardware& h, const std::vector<LayerInfo>& layers, int layer, int own, int rows) {
    const double b = static_cast<double>(activation_bytes_per_value);
    if (layer == 0) return kernel_seconds(h, 0, 2.0 * b * rows * own);
    const double in = layers[static_cast<std::size_t>(layer)].inputs;
    return kernel_seconds(h, 2.0 * rows * in * own, b * (in * own + rows * in + rows * own));
}
// Backward is two GEMMs of the forward's size (input gradients dY W, weight gradients
// dY^T X): twice the forward's work, the "4 of 6 x parameters x tokens" of training FLOPs.
double backward_seconds(const SplitHardware& h, const std::vector<LayerInfo>& layers, int layer, int own, int rows) {
    if (layer == 0) return forward_seconds(h, layers, 0, own, rows);  // scatter-add into the table
    return 2.0 * forward_seconds(h, layers, layer, own, rows);
}
// A fused Adam step is memory bound: adam_step_bytes_per_parameter (28) per parameter.
double update_seconds(const SplitHardware& h, std::int64_t params) {
    return kernel_seconds(h, 0, static_cast<double>(adam_step_bytes_per_parameter) * static_cast<double>(params));
}

// Adds every stage's passes to a graph in the stage's own order. A pass can only be added after the
// tasks it waits for, so the stages take turns, each adding passes until `place` says the next one
// is not ready yet, until a whole round adds nothing.
template <class Place>
void place_in_stage_order(const std::vector<std::vector<PipelinePass>>& orders, Place place) {
    std::vector<std::size_t> next(orders.size(), 0);
    for (bool progress = true; progress;) {
        progress = false;
        for (std::size_t st = 0; st < orders.size(); ++st)
            while (next[st] < orders[st].size() && place(static_cast<int>(st), orders[st][next[st]])) {
                ++next[st];
                progress = true;
            }
    }
    for (std::size_t st = 0; st < orders.size(); ++st)
        if (next[st] != orders[st].size()) throw std::logic_error("pipeline program could not be placed");
}

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
        const SplitHardware& h = m_plan.setup.hardware;
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
        const SplitHardware& h = m_plan.setup.hardware;
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
        const SplitHardware& h = m_plan.setup.hardware;
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

Cluster split_cluster(const SplitSetup& s) { return Cluster(split_cluster_shape(), s.hardware.system); }

}  // namespace

Timeline schedule_pipeline(int stages, int micro_batches, PipelineSchedule schedule, SimTime forward, SimTime backward,
                           SimTime transfer) {
    if (stages < 1 || micro_batches < 1 || forward < 0 || backward < 0 || transfer < 0)
        throw std::invalid_argument("a pipeline needs at least 1 stage and 1 micro-batch, and no negative time");
    WorkGraph g;
    for (int s = 0; s < stages; ++s) g.add_pool("stage " + std::to_string(s), ResourceKind::gpu_core, 1);
    const PoolId wire = g.add_pool("wire", ResourceKind::nvlink, static_cast<std::uint32_t>(2 * stages));
    std::vector<std::vector<PipelinePass>> orders;
    for (int s = 0; s < stages; ++s) orders.push_back(stage_order(schedule, stages, s, micro_batches));
    std::map<std::pair<int, int>, TaskId> fwd_arrive, bwd_arrive, fwd_done;  // (stage, mb)
    std::vector<std::optional<TaskId>> last(static_cast<std::size_t>(stages));
    place_in_stage_order(orders, [&](int s, const PipelinePass& pass) {
        const int i = static_cast<int>(pass.micro_batch);
        // What the pass waits for: the previous stage's activations, or the next stage's gradients
        // (the last stage turns its own forward around).
        const auto& src = pass.forward ? fwd_arrive : s + 1 == stages ? fwd_done : bwd_arrive;
        if ((!pass.forward || s > 0) && !src.count({s, i})) return false;
        const TaskId t = g.add_task(pass.forward ? forward : backward, {static_cast<PoolId>(s)});
        if (!pass.forward || s > 0) g.add_dependency(src.at({s, i}), t);
        if (last[static_cast<std::size_t>(s)]) g.add_dependency(*last[static_cast<std::size_t>(s)], t);
        last[static_cast<std::size_t>(s)] = t;
        auto pass_on = [&](std::map<std::pair<int, int>, TaskId>& to, int stage) {
            if (transfer > 0) {
                const TaskId w = g.add_task(transfer, {wire});
                g.add_dependency(t, w);
                to[{stage, i}] = w;
            } else {
                to[{stage, i}] = t;
            }
        };
        if (pass.forward && s + 1 < stages) pass_on(fwd_arrive, s + 1);
        if (pass.forward && s + 1 == stages) fwd_done[{s, i}] = t;
        if (!pass.forward && s > 0) pass_on(bwd_arrive, s - 1);
        return true;
    });
    return core::schedule(g);
}

// [SECTION] sentences -------------------------------------------------------------------------

namespace {

std::string join_and(const std::vector<std::string>& parts) {
    std::string out;
    for (std::size_t i = 0; i < parts.size(); ++i)
        out += (i == 0 ? "" : i + 1 == parts.size() ? " and " : ", ") + parts[i];
    return out;
}

std::string layer_run_text(const std::vector<LayerInfo>& layers, int first, int last) {
    std::vector<std::string> names;
    for (int l = first; l <= last; ++l) names.push_back(layers[static_cast<std::size_t>(l)].name);
    return join_and(names);
}

std::string gpu_sentence(const SplitResult& r, const GpuHolding& g) {
    std::string s = "GPU " + std::to_string(g.gpu) + " (node " + std::to_string(g.node) + ") holds ";
    std::vector<std::string> parts;
    for (int l = g.first_layer; l <= g.last_layer; ++l) {
        const NeuronRange& n = g.neurons[static_cast<std::size_t>(l)];
        const LayerInfo& info = r.layers[static_cast<std::size_t>(l)];
        parts.push_back(n.count == info.neurons ? "all of " + info.name
                                                : info.name + " " + (l == 0 ? "values " : "neurons ") + range_text(n));
    }
    s += join_and(parts) + ": " + format_count(g.parameters) + " parameters, " + format_bytes(static_cast<double>(g.bytes.total())) +
         " in all (weights " + format_bytes(static_cast<double>(g.bytes.weights)) + ", gradients " +
         format_bytes(static_cast<double>(g.bytes.gradients)) + ", Adam state " +
         format_bytes(static_cast<double>(g.bytes.optimizer)) + ", activations " +
         format_bytes(static_cast<double>(g.bytes.activations)) + "); " +
         (g.prompts == step_prompts ? "all " + std::to_string(step_prompts) + " prompts of the step pass through it."
                                    : "it computes " + std::to_string(g.prompts) + " of the step's " +
                                          std::to_string(step_prompts) + " prompts.");
    return s;
}

std::string stage_list(const SplitResult& r) {
    std::vector<std::string> parts;
    const int layers = static_cast<int>(r.layers.size());
    for (int st = 0; st < r.degrees.pipeline; ++st)
        parts.push_back("stage " + std::to_string(st + 1) + ": " +
                        layer_run_text(r.layers, r.stage_first_layer[static_cast<std::size_t>(st)],
                                       stage_last(r.stage_first_layer, layers, st)));
    std::string out;
    for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? "; " : "") + parts[i];
    return out;
}

std::string holds_sentence(const SplitResult& r) {
    const SplitDegrees& d = r.degrees;
    std::int64_t total = 0, lo = r.gpus.front().parameters, hi = lo;
    Bytes most = 0;
    for (const LayerInfo& l : r.layers) total += l.parameters;
    for (const GpuHolding& g : r.gpus) {
        lo = std::min(lo, g.parameters);
        hi = std::max(hi, g.parameters);
        most = std::max(most, g.bytes.total());
    }
    std::string what;
    if (d.tensor > 1 && d.pipeline > 1)
        what = "a 1/" + std::to_string(d.tensor) + " slice of the neurons of one pipeline stage's layers (" +
               stage_list(r) + ")";
    else if (d.tensor > 1)
        what = "a 1/" + std::to_string(d.tensor) + " slice of every layer's neurons";
    else if (d.pipeline > 1)
        what = "whole layers in a row (" + stage_list(r) + ")";
    else
        what = "the whole network";
    const std::string params = lo == total ? "all " + format_count(total) + " parameters"
                               : lo == hi  ? format_count(lo) + " of the " + format_count(total) + " parameters"
                                           : format_count(lo) + " to " + format_count(hi) + " of the " +
                                                 format_count(total) + " parameters";
    std::string s = "Each GPU holds: " + what + ", " + params + " (" + (lo == hi ? "" : "up to ") +
                    format_bytes(static_cast<double>(most)) +
                    " with their gradients, Adam state and saved activations); ";
    const int prompts = step_prompts / d.data;
    if (d.data > 1)
        s += "it is one of " + std::to_string(d.data) + " copies, each working on its own " + std::to_string(prompts) +
             " of the step's " + std::to_string(step_prompts) + " prompts";
    else
        s += "all " + std::to_string(step_prompts) + " prompts of the step pass through it";
    if (d.pipeline > 1)
        s += ", in " + format_counted(r.micro_batches, "micro-batch", "micro-batches") + " of " +
             std::to_string(prompts / r.micro_batches);
    return s + ".";
}

std::string link_text(bool nvlink, bool ib) {
    return nvlink && ib ? "over NVLink and InfiniBand" : ib ? "over InfiniBand" : "over NVLink";
}

std::string exchange_sentence(const SplitResult& r) {
    if (r.exchanges.empty()) return "GPUs must exchange: nothing; a single GPU holds everything it needs.";
    long long ag = 0, rs = 0, sends = 0, ar = 0, count = 0;
    bool nv = false, ib = false;
    std::vector<std::string> on_ib;
    for (const Exchange& e : r.exchanges) {
        count += e.times;
        (e.op == ExchangeOp::all_gather ? ag : e.op == ExchangeOp::reduce_scatter ? rs : e.op == ExchangeOp::send ? sends : ar) +=
            e.times;
        (e.link == LinkType::infiniband ? ib : nv) = true;
        const std::string kind =
            e.op == ExchangeOp::send ? "pipeline sends" : e.op == ExchangeOp::all_reduce ? "gradient all-reduces" : "tensor-parallel collectives";
        if (e.link == LinkType::infiniband && std::find(on_ib.begin(), on_ib.end(), kind) == on_ib.end())
            on_ib.push_back(kind);
    }
    std::vector<std::string> parts;
    if (ag + rs > 0)
        parts.push_back("every layer's outputs going forward (" + format_counted(ag, "all-gather", "all-gathers") +
                        ") and the gradients for them coming back (" + format_counted(rs, "reduce-scatter", "reduce-scatters") + ")");
    if (sends > 0)
        parts.push_back("activations forward and their gradients back between neighbouring stages (" +
                        format_counted(sends, "point-to-point send", "point-to-point sends") + ")");
    if (ar > 0)
        parts.push_back("their gradients once per step so every copy takes the same update (" +
                        format_counted(ar, "all-reduce", "all-reduces") + ")");
    std::string s = "GPUs must exchange: " + join_and(parts) + "; " + format_counted(count, "exchange", "exchanges") + " moving " +
                    format_bytes(static_cast<double>(r.exchanged_bytes)) + " per step " + link_text(nv, ib) + ".";
    if (ib) s += " InfiniBand carries the " + join_and(on_ib) + ", because those GPUs sit in different nodes.";
    return s;
}

std::string why_sentence(const SplitResult& r) {
    const SplitDegrees& d = r.degrees;
    std::vector<std::string> parts;
    if (d.tensor > 1)
        parts.push_back(
            "Tensor parallel uses all-gather going forward because each GPU owns whole neurons (a column split of every "
            "weight matrix): its outputs are finished values, not partial sums, and the next layer needs all of them, so "
            "the pieces only need collecting. Going back, every neuron adds to the gradient of every input, so each GPU "
            "holds partial sums that must be added, and each keeps only the slice it owns: a reduce-scatter. Splitting "
            "each neuron's inputs instead (a row split) would leave partial sums going forward, and those need an "
            "all-reduce.");
    if (d.pipeline > 1)
        parts.push_back("Pipeline parallel sends point to point because only the next stage needs a stage's outputs; "
                        "while the first micro-batches fill the pipeline and the last ones drain it, some stages wait: "
                        "the bubble, (p-1)/(m+p-1) = " +
                        format_percent(r.bubble_fraction, 0) + " of the step here.");
    if (d.data > 1)
        parts.push_back("Data parallel all-reduces the gradients because each copy learned from different prompts: "
                        "adding them gives every copy the same total, so all copies take the same step and stay "
                        "identical.");
    if (parts.empty()) return "One GPU needs no exchange: everything it reads is already in its own memory.";
    std::string out;
    for (const std::string& p : parts) out += (out.empty() ? "" : " ") + p;
    return out;
}

std::string time_sentence(const SplitResult& r) {
    const StepTimeline& t = r.step;
    std::string s = "One training step on " + r.setup.hardware.gpu.name + " GPUs takes " + format_seconds(t.step_time_s) +
                    "; on average each GPU spends " + format_seconds(t.compute_s) + " computing, " +
                    format_seconds(t.communication_s) + " waiting on exchanges and " +
                    (t.idle_s > 0 ? format_seconds(t.idle_s) + " idle." : "no time idle.");
    if (r.degrees.pipeline > 1)
        s += " The ideal pipeline bubble is " + format_percent(r.bubble_fraction, 0) + " of a step; this step is " +
             format_percent(t.idle_fraction, 0) + " idle.";
    return s;
}

}  // namespace


std::string step_task_text(const SplitResult& r, const StepTask& t) {
    auto layer_name = [&](int l) {
        return l >= 0 && l < static_cast<int>(r.layers.size()) ? r.layers[static_cast<std::size_t>(l)].name : std::string("?");
    };
    const std::string mb = t.micro_batch >= 0 && r.micro_batches > 1
                               ? " \xc2\xb7 micro-batch " + std::to_string(t.micro_batch + 1) + " of " +
                                     std::to_string(r.micro_batches)
                               : "";
    switch (t.kind) {
        case StepTaskKind::forward: return "forward \xc2\xb7 " + layer_name(t.layer) + mb;
        case StepTaskKind::backward: return "backward \xc2\xb7 " + layer_name(t.layer) + mb;
        case StepTaskKind::update: return "update \xc2\xb7 Adam step on its own parameters";
        case StepTaskKind::communication: {
            if (t.exchange < 0 || t.exchange >= static_cast<int>(r.exchanges.size())) return "exchanging";
            const Exchange& e = r.exchanges[static_cast<std::size_t>(t.exchange)];
            return std::string(exchange_op_name(e.op)) + " \xc2\xb7 " + e.what + " \xc2\xb7 " +
                   format_bytes(static_cast<double>(e.bytes)) + " over " + std::string(link_type_label(e.link)) + mb;
        }
        case StepTaskKind::idle:
            return r.degrees.pipeline > 1 ? "idle \xc2\xb7 waiting for a neighbouring stage (the bubble)"
                                          : "idle \xc2\xb7 waiting for the others";
    }
    return "";
}

SplitResult plan_split(const NextWordModel& model, const SplitSetup& setup) {
    if (auto p = check_split(setup, false)) throw std::invalid_argument(p->message);
    SplitResult r;
    r.setup = setup;
    r.degrees = split_degrees(setup.strategy, setup.gpus);
    const SplitDegrees& d = r.degrees;
    r.micro_batches = d.pipeline > 1 ? setup.micro_batches : 1;
    r.layers = layer_infos(model);
    const int layers = static_cast<int>(r.layers.size());
    if (layers != 1 + dense_layer_count) throw std::invalid_argument("the model does not have Lesson 3's shape");
    r.stage_first_layer = stage_starts(layers, d.pipeline);
    const int prompts = step_prompts / d.data;
    const int rows = prompts / r.micro_batches;
    for (int g = 0; g < d.gpus(); ++g) {
        const Coord c = coord_of(d, g);
        GpuHolding h;
        h.gpu = g;
        h.cluster_gpu = cluster_gpu_of(setup, g);
        h.node = node_of(setup, g);
        h.data_rank = c.data;
        h.tensor_rank = c.tensor;
        h.stage = c.stage;
        h.first_layer = r.stage_first_layer[static_cast<std::size_t>(c.stage)];
        h.last_layer = stage_last(r.stage_first_layer, layers, c.stage);
        h.prompts = prompts;
        h.micro_batches = r.micro_batches;
        // Activations kept for the backward pass: all micro-batches with GPipe; at most p - s
        // of them on stage s with 1F1B (Narayanan et al. 2021).
        const int kept = static_cast<int>(
            activations_in_flight(setup.schedule, d.pipeline, c.stage, r.micro_batches));
        h.rows_in_flight = kept * rows;
        std::int64_t saved_values = 0;
        for (int l = 0; l < layers; ++l) {
            const bool held = l >= h.first_layer && l <= h.last_layer;
            const NeuronRange n = held ? tensor_range(r.layers, l, c.tensor, d.tensor) : NeuronRange{};
            h.neurons.push_back(n);
            h.layer_parameters.push_back(layer_params_held(model, l, n));
            h.neuron_count += n.count;
            h.parameters += h.layer_parameters.back();
            // Each layer keeps its full input (dW = dY^T X needs it) and its own outputs
            // (the ReLU's on/off pattern): (inputs + own outputs) values per prompt.
            if (held) saved_values += r.layers[static_cast<std::size_t>(l)].inputs + n.count;
        }
        h.bytes.weights = h.parameters * weight_bytes_per_parameter;
        h.bytes.gradients = h.parameters * gradient_bytes_per_parameter;
        h.bytes.optimizer = h.parameters * optimizer_bytes_per_parameter;
        h.bytes.activations = saved_values * h.rows_in_flight * activation_bytes_per_value;
        r.gpus.push_back(std::move(h));
    }
    for (GpuHolding& h : r.gpus) h.sentence = gpu_sentence(r, h);
    add_exchanges(r, r.exchanges);
    for (const Exchange& e : r.exchanges) r.exchanged_bytes += e.total_bytes();
    r.bubble_fraction = pipeline_bubble_fraction(d.pipeline, r.micro_batches);
    r.holds_sentence = holds_sentence(r);
    r.exchange_sentence = exchange_sentence(r);
    r.why_sentence = why_sentence(r);
    return r;
}

SplitResult run_split(const NextWordModel& model, const SplitSetup& setup) {
    if (auto p = check_split(setup, true)) throw std::invalid_argument(p->message);
    SplitResult r = plan_split(model, setup);
    const Cluster cluster = split_cluster(setup);
    for (Exchange& e : r.exchanges) {
        if (e.op == ExchangeOp::send) {
            const Route route = cluster.route(cluster_gpu_of(setup, e.gpus[0]), cluster_gpu_of(setup, e.gpus[1]));
            e.link = route.type;
            e.seconds = transfer_seconds(route, static_cast<double>(e.bytes));
        } else {
            CollectiveSetup cs;
            cs.op = e.op == ExchangeOp::all_reduce   ? CollectiveOp::all_reduce
                    : e.op == ExchangeOp::all_gather ? CollectiveOp::all_gather
                                                     : CollectiveOp::reduce_scatter;
            cs.bytes = e.bytes;
            for (int g : e.gpus) cs.group.push_back(cluster_gpu_of(setup, g));
            const CollectiveResult c = run_collective(cluster, cs);
            e.link = c.slowest;
            e.seconds = c.time_s;
        }
    }
    StepBuilder builder(r, cluster, r.step.graph);
    builder.build();
    r.step.timeline = schedule(r.step.graph);
    summarise_rows(r, builder, r.step);
    r.time_sentence = time_sentence(r);
    return r;
}

// [SECTION] the split network, really run -----------------------------------------------------

namespace {

struct Mat {
    int rows = 0;
    int cols = 0;
    std::vector<float> v;
    Mat() = default;
    Mat(int r, int c) : rows(r), cols(c), v(static_cast<std::size_t>(r) * static_cast<std::size_t>(c), 0.0f) {}
    float* row(int r) { return v.data() + static_cast<std::size_t>(r) * static_cast<std::size_t>(cols); }
    const float* row(int r) const { return v.data() + static_cast<std::size_t>(r) * static_cast<std::size_t>(cols); }
};

// One GPU's memory: the slices it holds (copied out of the model once), their gradients,
// and the activations of the micro-batch in flight.
struct Shard {
    struct Layer {
        int layer = 0;
        NeuronRange own;
        DenseLayer part;  ///< rows own.first .. own.end() of the model's layer
        DenseLayer grad;
        bool last = false;
    };
    Coord c;
    int first_layer = 0;
    int last_layer = 0;
    NeuronRange embedding_own;  ///< context values held (count 0: no embedding here)
    int dims_first = 0;
    int dims = 0;
    std::vector<float> table;   ///< [token][dims held]
    std::vector<float> table_grad;
    std::vector<Layer> dense;
    std::map<int, Mat> saved_in;   ///< layer -> its full input (this micro-batch)
    std::map<int, Mat> saved_out;  ///< layer -> this GPU's outputs of it

    Layer& layer(int l) {
        for (Layer& x : dense)
            if (x.layer == l) return x;
        throw std::logic_error("a GPU was asked for a layer it does not hold");
    }
};

class SplitMachine {
public:
    SplitMachine(const NextWordModel& model, SplitDegrees d) : m_d(d), m_layers(layer_infos(model)) {
        m_starts = stage_starts(static_cast<int>(m_layers.size()), d.pipeline);
        for (int g = 0; g < d.gpus(); ++g) {
            Shard s;
            s.c = coord_of(d, g);
            s.first_layer = m_starts[static_cast<std::size_t>(s.c.stage)];
            s.last_layer = stage_last(m_starts, static_cast<int>(m_layers.size()), s.c.stage);
            for (int l = s.first_layer; l <= s.last_layer; ++l) {
                const NeuronRange own = tensor_range(m_layers, l, s.c.tensor, d.tensor);
                if (l == 0) {
                    s.embedding_own = own;
                    s.dims_first = own.first / context_words;
                    s.dims = own.count / context_words;
                    for (int tok = 0; tok < vocabulary_size(); ++tok)
                        for (int k = 0; k < s.dims; ++k)
                            s.table.push_back(model.embeddings[static_cast<std::size_t>(tok * embedding_dims + s.dims_first + k)]);
                    s.table_grad.assign(s.table.size(), 0.0f);
                    continue;
                }
                const DenseLayer& full = model.dense[static_cast<std::size_t>(l - 1)];
                Shard::Layer x;
                x.layer = l;
                x.own = own;
                x.last = l + 1 == static_cast<int>(m_layers.size());
                x.part.inputs = full.inputs;
                x.part.outputs = own.count;
                x.part.weights.assign(full.weights.begin() + static_cast<std::ptrdiff_t>(own.first) * full.inputs,
                                      full.weights.begin() + static_cast<std::ptrdiff_t>(own.end()) * full.inputs);
                x.part.biases.assign(full.biases.begin() + own.first, full.biases.begin() + own.end());
                x.grad = x.part;
                std::fill(x.grad.weights.begin(), x.grad.weights.end(), 0.0f);
                std::fill(x.grad.biases.begin(), x.grad.biases.end(), 0.0f);
                s.dense.push_back(std::move(x));
            }
            m_shards.push_back(std::move(s));
        }
    }

    /// One micro-batch of copy `dr` through the split network; returns its logits (as
    /// tensor rank 0 of the last stage holds them). With `train`, also the backward pass,
    /// adding to each GPU's gradients and to `loss_sum`.
    Mat micro_batch(int dr, std::span<const Example> rows, bool train, double* loss_sum) {
        const int n = static_cast<int>(rows.size());
        const int T = m_d.tensor;
        std::vector<Mat> cur(static_cast<std::size_t>(T));
        for (int st = 0; st < m_d.pipeline; ++st) {
            const int first = m_starts[static_cast<std::size_t>(st)];
            const int last = stage_last(m_starts, static_cast<int>(m_layers.size()), st);
            if (st > 0)
                for (int t = 0; t < T; ++t) {
                    const Mat received = cur[static_cast<std::size_t>(t)];  // copied over the wire
                    cur[static_cast<std::size_t>(t)] = received;
                    record(StepPhase::forward, ExchangeOp::send, first - 1,
                           {gpu_at(m_d, dr, t, st - 1), gpu_at(m_d, dr, t, st)}, received.v.size());
                }
            for (int l = first; l <= last; ++l) {
                std::vector<Mat> slice(static_cast<std::size_t>(T));
                for (int t = 0; t < T; ++t) {
                    Shard& sh = shard(dr, t, st);
                    Mat& out = slice[static_cast<std::size_t>(t)];
                    if (l == 0) {
                        out = Mat(n, sh.embedding_own.count);
                        for (int r = 0; r < n; ++r)
                            for (int k = 0; k < out.cols; ++k) {
                                const int neuron = sh.embedding_own.first + k;  // = dim * 3 + position
                                const int dim = neuron / context_words - sh.dims_first;
                                const int tok = rows[static_cast<std::size_t>(r)].context[neuron % context_words];
                                out.row(r)[k] = sh.table[static_cast<std::size_t>(tok * sh.dims + dim)];
                            }
                    } else {
                        Shard::Layer& x = sh.layer(l);
                        out = Mat(n, x.own.count);
                        for (int r = 0; r < n; ++r)
                            for (int k = 0; k < out.cols; ++k)
                                out.row(r)[k] = neuron_output(x.part, k, cur[static_cast<std::size_t>(t)].row(r), x.last);
                        if (train) sh.saved_in[l] = cur[static_cast<std::size_t>(t)];
                    }
                    if (train) sh.saved_out[l] = out;
                }
                if (T > 1) {
                    std::vector<int> group;
                    for (int t = 0; t < T; ++t) group.push_back(gpu_at(m_d, dr, t, st));
                    const int width = m_layers[static_cast<std::size_t>(l)].neurons;
                    record(StepPhase::forward, ExchangeOp::all_gather, l, group, static_cast<std::size_t>(n) * width);
                    for (int t = 0; t < T; ++t) {  // every GPU assembles its own copy
                        Mat full(n, width);
                        int col = 0;
                        for (const Mat& piece : slice) {
                            for (int r = 0; r < n; ++r)
                                std::copy(piece.row(r), piece.row(r) + piece.cols, full.row(r) + col);
                            col += piece.cols;
                        }
                        cur[static_cast<std::size_t>(t)] = std::move(full);
                    }
                } else {
                    cur[0] = std::move(slice[0]);
                }
            }
        }
        Mat logits = cur[0];
        if (train) backward(dr, rows, cur, loss_sum);
        return logits;
    }

    /// Data-parallel copies add their gradients (all-reduce, summing copy 0, 1, ... in order).
    void all_reduce_gradients() {
        if (m_d.data <= 1) return;
        for (int st = 0; st < m_d.pipeline; ++st)
            for (int t = 0; t < m_d.tensor; ++t) {
                std::vector<int> group;
                for (int dr = 0; dr < m_d.data; ++dr) group.push_back(gpu_at(m_d, dr, t, st));
                Shard sum = m_shards[static_cast<std::size_t>(group[0])];
                std::size_t values = sum.table_grad.size();
                for (std::size_t k = 1; k < group.size(); ++k) {
                    const Shard& o = m_shards[static_cast<std::size_t>(group[k])];
                    for (std::size_t j = 0; j < sum.table_grad.size(); ++j) sum.table_grad[j] += o.table_grad[j];
                    for (std::size_t L = 0; L < sum.dense.size(); ++L) {
                        auto& a = sum.dense[L].grad;
                        const auto& b = o.dense[L].grad;
                        for (std::size_t j = 0; j < a.weights.size(); ++j) a.weights[j] += b.weights[j];
                        for (std::size_t j = 0; j < a.biases.size(); ++j) a.biases[j] += b.biases[j];
                    }
                }
                for (const auto& L : sum.dense) values += L.grad.weights.size() + L.grad.biases.size();
                record(StepPhase::update, ExchangeOp::all_reduce, -1, group, values);
                for (int g : group) {
                    Shard& dst = m_shards[static_cast<std::size_t>(g)];
                    dst.table_grad = sum.table_grad;
                    for (std::size_t L = 0; L < dst.dense.size(); ++L) dst.dense[L].grad = sum.dense[L].grad;
                }
            }
    }

    /// The model-shaped gradient assembled from copy 0's slices, times `scale`.
    NextWordModel gathered_gradient(const NextWordModel& shape, float scale) const {
        NextWordModel g = shape;
        std::fill(g.embeddings.begin(), g.embeddings.end(), 0.0f);
        for (const Shard& s : m_shards) {
            if (s.c.data != 0) continue;
            for (int tok = 0; tok < vocabulary_size() && s.dims > 0; ++tok)
                for (int k = 0; k < s.dims; ++k)
                    g.embeddings[static_cast<std::size_t>(tok * embedding_dims + s.dims_first + k)] =
                        s.table_grad[static_cast<std::size_t>(tok * s.dims + k)] * scale;
            for (const Shard::Layer& x : s.dense) {
                DenseLayer& full = g.dense[static_cast<std::size_t>(x.layer - 1)];
                for (std::size_t j = 0; j < x.grad.weights.size(); ++j)
                    full.weights[static_cast<std::size_t>(x.own.first) * static_cast<std::size_t>(full.inputs) + j] =
                        x.grad.weights[j] * scale;
                for (std::size_t j = 0; j < x.grad.biases.size(); ++j)
                    full.biases[static_cast<std::size_t>(x.own.first) + j] = x.grad.biases[j] * scale;
            }
        }
        return g;
    }

    std::vector<MovedData> moved;

private:
    Shard& shard(int dr, int t, int st) { return m_shards[static_cast<std::size_t>(gpu_at(m_d, dr, t, st))]; }

    void record(StepPhase ph, ExchangeOp op, int layer, std::vector<int> gpus, std::size_t values) {
        moved.push_back({ph, op, layer, std::move(gpus), static_cast<Bytes>(values) * activation_bytes_per_value});
    }

    void backward(int dr, std::span<const Example> rows, std::vector<Mat>& logits, double* loss_sum) {
        const int n = static_cast<int>(rows.size());
        const int T = m_d.tensor;
        const int L = static_cast<int>(m_layers.size());
        std::vector<Mat> delta(static_cast<std::size_t>(T));
        // Each tensor rank of the last stage has every logit, so it forms dLoss/dlogits
        // = softmax - one-hot itself and keeps the part for the neurons it owns.
        for (int t = 0; t < T; ++t) {
            const NeuronRange own = tensor_range(m_layers, L - 1, t, T);
            Mat& d = delta[static_cast<std::size_t>(t)] = Mat(n, own.count);
            for (int r = 0; r < n; ++r) {
                const Mat& lg = logits[static_cast<std::size_t>(t)];
                std::vector<float> p = softmax(std::vector<float>(lg.row(r), lg.row(r) + lg.cols));
                const auto target = static_cast<std::size_t>(rows[static_cast<std::size_t>(r)].next - 1);
                if (t == 0 && loss_sum) *loss_sum -= std::log(std::max(p[target], 1e-30f));
                p[target] -= 1.0f;
                for (int k = 0; k < own.count; ++k) d.row(r)[k] = p[static_cast<std::size_t>(own.first + k)];
            }
        }
        for (int st = m_d.pipeline - 1; st >= 0; --st) {
            const int first = m_starts[static_cast<std::size_t>(st)];
            const int last = stage_last(m_starts, L, st);
            if (st + 1 < m_d.pipeline) mask(dr, st, last, delta);  // arrived from the next stage
            for (int l = last; l >= std::max(first, 1); --l) {
                std::vector<Mat> partial(static_cast<std::size_t>(T));
                const int inputs = m_layers[static_cast<std::size_t>(l)].inputs;
                for (int t = 0; t < T; ++t) {
                    Shard::Layer& x = shard(dr, t, st).layer(l);
                    const Mat& in = shard(dr, t, st).saved_in.at(l);
                    Mat& dx = partial[static_cast<std::size_t>(t)] = Mat(n, inputs);
                    const Mat& dy = delta[static_cast<std::size_t>(t)];
                    for (int r = 0; r < n; ++r)
                        for (int k = 0; k < x.own.count; ++k) {
                            const float g = dy.row(r)[k];
                            if (g == 0.0f) continue;
                            x.grad.biases[static_cast<std::size_t>(k)] += g;
                            const std::size_t base = static_cast<std::size_t>(k) * static_cast<std::size_t>(inputs);
                            for (int i = 0; i < inputs; ++i) {
                                x.grad.weights[base + static_cast<std::size_t>(i)] += g * in.row(r)[i];
                                dx.row(r)[i] += g * x.part.weights[base + static_cast<std::size_t>(i)];
                            }
                        }
                }
                // Gradients for layer l-1's outputs: add the partial sums, keep your slice.
                std::vector<Mat> next(static_cast<std::size_t>(T));
                if (T > 1) {
                    std::vector<int> group;
                    for (int t = 0; t < T; ++t) group.push_back(gpu_at(m_d, dr, t, st));
                    record(StepPhase::backward, ExchangeOp::reduce_scatter, l - 1, group,
                           static_cast<std::size_t>(n) * inputs);
                    for (int t = 0; t < T; ++t) {
                        const NeuronRange own = tensor_range(m_layers, l - 1, t, T);
                        Mat& mine = next[static_cast<std::size_t>(t)] = Mat(n, own.count);
                        for (int r = 0; r < n; ++r)
                            for (int k = 0; k < own.count; ++k) {
                                float sum = 0.0f;
                                for (int u = 0; u < T; ++u) sum += partial[static_cast<std::size_t>(u)].row(r)[own.first + k];
                                mine.row(r)[k] = sum;
                            }
                    }
                } else {
                    next[0] = std::move(partial[0]);
                }
                if (l - 1 >= first) {
                    if (l - 1 >= 1) mask(dr, st, l - 1, next);
                } else {  // layer l-1 lives on the previous stage: send each slice to its owner
                    for (int t = 0; t < T; ++t)
                        record(StepPhase::backward, ExchangeOp::send, l - 1,
                               {gpu_at(m_d, dr, t, st), gpu_at(m_d, dr, t, st - 1)}, next[static_cast<std::size_t>(t)].v.size());
                }
                delta = std::move(next);
            }
            if (first == 0)
                for (int t = 0; t < T; ++t) {
                    Shard& sh = shard(dr, t, st);
                    const Mat& d = delta[static_cast<std::size_t>(t)];
                    for (int r = 0; r < n; ++r)
                        for (int k = 0; k < sh.embedding_own.count; ++k) {
                            const int neuron = sh.embedding_own.first + k;
                            const int dim = neuron / context_words - sh.dims_first;
                            const int tok = rows[static_cast<std::size_t>(r)].context[neuron % context_words];
                            sh.table_grad[static_cast<std::size_t>(tok * sh.dims + dim)] += d.row(r)[k];
                        }
                }
        }
    }

    // Through the ReLU of `layer`: zero where this GPU's own outputs of it were off.
    void mask(int dr, int st, int layer, std::vector<Mat>& grads) {
        for (int t = 0; t < m_d.tensor; ++t) {
            const Mat& out = shard(dr, t, st).saved_out.at(layer);
            Mat& g = grads[static_cast<std::size_t>(t)];
            for (std::size_t j = 0; j < g.v.size(); ++j)
                if (out.v[j] <= 0.0f) g.v[j] = 0.0f;
        }
    }

    SplitDegrees m_d;
    std::vector<LayerInfo> m_layers;
    std::vector<int> m_starts;
    std::vector<Shard> m_shards;
};

// Copy d gets prompts [d n/D, (d+1) n/D); micro-batch i of it the i-th equal run of those.
template <typename Fn>
void for_each_micro_batch(std::span<const Example> batch, int copies, int micro_batches, Fn fn) {
    const std::size_t per_copy = batch.size() / static_cast<std::size_t>(copies);
    const std::size_t per_mb = per_copy / static_cast<std::size_t>(micro_batches);
    for (int dr = 0; dr < copies; ++dr)
        for (int i = 0; i < micro_batches; ++i)
            fn(dr, batch.subspan(static_cast<std::size_t>(dr) * per_copy + static_cast<std::size_t>(i) * per_mb, per_mb));
}

void check_batch(const SplitSetup& setup, std::size_t size, int copies, int micro_batches) {
    if (auto p = check_split(setup, false)) throw std::invalid_argument(p->message);
    const std::size_t parts = static_cast<std::size_t>(copies) * static_cast<std::size_t>(micro_batches);
    if (size == 0 || size % parts != 0)
        throw std::invalid_argument("the batch of " + std::to_string(size) + " prompts does not split into " +
                                    std::to_string(parts) + " equal micro-batches");
}

}  // namespace

SplitForwardRun run_split_forward(const NextWordModel& model, const SplitSetup& setup, std::span<const Example> batch) {
    const SplitDegrees d = split_degrees(setup.strategy, setup.gpus);
    const int m = d.pipeline > 1 ? setup.micro_batches : 1;
    check_batch(setup, batch.size(), d.data, m);
    SplitMachine machine(model, d);
    SplitForwardRun out;
    for_each_micro_batch(batch, d.data, m, [&](int dr, std::span<const Example> rows) {
        const Mat logits = machine.micro_batch(dr, rows, false, nullptr);
        for (int r = 0; r < logits.rows; ++r) {
            out.logits.emplace_back(logits.row(r), logits.row(r) + logits.cols);
            out.predicted.push_back(static_cast<int>(std::max_element(logits.row(r), logits.row(r) + logits.cols) -
                                                     logits.row(r)) +
                                    1);
        }
    });
    out.moved = std::move(machine.moved);
    return out;
}

SplitTrainingRun run_split_training_step(const NextWordModel& model, const SplitSetup& setup,
                                         std::span<const Example> batch) {
    const SplitDegrees d = split_degrees(setup.strategy, setup.gpus);
    const int m = d.pipeline > 1 ? setup.micro_batches : 1;
    check_batch(setup, batch.size(), d.data, m);
    SplitMachine machine(model, d);
    double loss = 0;
    for_each_micro_batch(batch, d.data, m,
                         [&](int dr, std::span<const Example> rows) { machine.micro_batch(dr, rows, true, &loss); });
    machine.all_reduce_gradients();
    SplitTrainingRun out;
    out.gradient = machine.gathered_gradient(model, 1.0f / static_cast<float>(batch.size()));
    out.loss = static_cast<float>(loss / static_cast<double>(batch.size()));
    out.moved = std::move(machine.moved);
    return out;
}

Prediction predict_split(const NextWordModel& model, const SplitSetup& setup, std::string_view prompt, int top_k) {
    if (auto p = check_split(setup, false)) throw std::invalid_argument(p->message);
    Prediction p = predict(model, prompt, top_k);  // reads the prompt; its logits are replaced below
    SplitMachine machine(model, split_degrees(setup.strategy, setup.gpus));
    Example ex;
    for (int i = 0; i < context_words; ++i) ex.context[i] = p.context_tokens[i];
    const Mat logits = machine.micro_batch(0, std::span<const Example>(&ex, 1), false, nullptr);
    finish_prediction(p, std::vector<float>(logits.row(0), logits.row(0) + logits.cols), top_k);
    return p;
}

}  // namespace m2m::core
