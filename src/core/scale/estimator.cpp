// The training-step estimator: formulas for size, FLOPs and memory; one step as a work graph on the shared scheduler.
//
// [SECTION] Model: parameters, FLOPs, activations
// [SECTION] Layout checks
// [SECTION] Links: Lesson 2's cluster, routes and ring collectives
// [SECTION] Stage costs and memory
// [SECTION] The step's work graph and the estimate
// [SECTION] Closed form and search
// [SECTION] Real scale
#include "m2m/core/scale/estimator.hpp"
#include "m2m/core/engine/text.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace m2m::core {

namespace {

// engine/training_bytes.hpp's figures as the formulas here use them.
constexpr double bf16_bytes = static_cast<double>(activation_bytes_per_value);
constexpr double gradient_bytes = static_cast<double>(gradient_bytes_per_parameter);

}  // namespace

// [SECTION] Model: parameters, FLOPs, activations ------------------------------------------------

std::int64_t effective_kv_heads(const TransformerShape& m) { return m.kv_heads > 0 ? m.kv_heads : m.heads; }
std::int64_t effective_ffn_hidden(const TransformerShape& m) { return m.ffn_hidden > 0 ? m.ffn_hidden : 4 * m.hidden; }

std::string validate(const TransformerShape& m) {
    // Bounds keep every product below 2^63 and every graph buildable; they are far above any real model.
    if (m.layers < 1 || m.layers > 1000) return "layers: must be a whole number from 1 to 1,000";
    if (m.hidden < 1 || m.hidden > 1'000'000) return "hidden: must be a whole number from 1 to 1,000,000";
    if (m.heads < 1 || m.heads > m.hidden || m.hidden % m.heads != 0)
        return "heads: must divide the hidden size (" + format_count(m.hidden) + ")";
    if (m.kv_heads < 0 || (m.kv_heads > 0 && (m.kv_heads > m.heads || m.heads % m.kv_heads != 0)))
        return "kv_heads: must divide the number of heads (" + format_count(m.heads) + ")";
    if (m.ffn_hidden < 0 || m.ffn_hidden > 10'000'000) return "ffn_hidden: must be a whole number up to 10,000,000";
    if (m.vocab < 1 || m.vocab > 10'000'000) return "vocab: must be a whole number from 1 to 10,000,000";
    if (m.seq < 1 || m.seq > 10'000'000) return "seq: must be a whole number from 1 to 10,000,000";
    return {};
}

ParameterCount count_parameters(const TransformerShape& m) {
    const std::int64_t h = m.hidden, f = effective_ffn_hidden(m);
    const std::int64_t kv_dim = h / m.heads * effective_kv_heads(m);  // K and V widths under GQA
    const bool gated = m.mlp == MlpKind::swiglu;
    ParameterCount p;
    // Q and output projection h x h each, K and V h x kv_dim each; MLP 2 (or 3 gated) h x f.
    p.matmul_per_layer = 2 * h * h + 2 * h * kv_dim + (gated ? 3 : 2) * h * f;
    const std::int64_t norm = m.biases ? 2 * h : h;  // layer norm: scale and shift; RMSNorm: scale only
    std::int64_t biases = 0;
    if (m.biases) biases = (h + 2 * kv_dim) + h + (gated ? 2 * f : f) + h;  // QKV, output, MLP in and out
    p.per_layer = p.matmul_per_layer + biases + 2 * norm;
    p.embeddings = m.vocab * h + (m.learned_positions ? m.seq * h : 0) + (m.tied_embeddings ? 0 : m.vocab * h) + norm;
    p.total = m.layers * p.per_layer + p.embeddings;
    return p;
}

double model_flops_per_token(const TransformerShape& m) {
    const double l = static_cast<double>(m.layers), s = static_cast<double>(m.seq), h = static_cast<double>(m.hidden);
    const double matmul = static_cast<double>(count_parameters(m).matmul_per_layer);
    // 2 FLOPs per weight per token forward, 4 backward; attention scores and weighted values
    // add 4 s h per layer forward (QK^T and AV, 2 s h each) [Korthikanti et al. 2022, sec. 6].
    return 6.0 * (l * matmul + static_cast<double>(m.vocab) * h) + 12.0 * l * s * h;
}

double hardware_flops_per_token(const TransformerShape& m, Recompute recompute, AttentionKernel attention) {
    const double l = static_cast<double>(m.layers), s = static_cast<double>(m.seq), h = static_cast<double>(m.hidden);
    const double matmul = static_cast<double>(count_parameters(m).matmul_per_layer);
    const double scores = 4.0 * l * s * h;  // the attention core's forward: QK^T and AV
    double extra = 0;
    if (attention == AttentionKernel::flash) extra += scores;  // its backward recomputes the scores
    if (recompute == Recompute::selective && attention == AttentionKernel::standard) extra += scores;
    if (recompute == Recompute::full) extra += l * 2.0 * matmul + scores;  // every layer's forward again
    return model_flops_per_token(m) + extra;
}

namespace {

// Korthikanti et al. 2022, sec. 4.1, bytes of one layer for one micro-batch, split into the part
// linear in s b h and the attention-score part 5 a s^2 b (softmax output 2, dropout mask 1,
// dropout output 2 bytes per score). The linear part is 34 s b h for GPT: attention 11
// (QKV input 2, Q and K 4, V 2, projection input 2, dropout mask 1), MLP 19 (input 2, GeLU
// input 8, GeLU output 8, dropout mask 1), two layer norms 4. Here K and V shrink by
// kv_heads/heads, the GeLU terms are 4 s b f for any width f, SwiGLU keeps its two inputs and
// its output (6 s b f), and without dropout the masks and the dropout output go (2 a s^2 b left).
struct LayerActivations {
    double linear = 0;     ///< bytes linear in s b h, whole layer, no parallelism
    double unsplit = 0;    ///< of which tensor parallelism alone does not split
    double attention = 0;  ///< the a s^2 b part (0 with flash attention)
};

LayerActivations layer_activations(const TransformerShape& m, std::int64_t micro_batch, AttentionKernel kernel) {
    const double s = static_cast<double>(m.seq), b = static_cast<double>(micro_batch);
    const double h = static_cast<double>(m.hidden), f = static_cast<double>(effective_ffn_hidden(m));
    const double sbh = s * b * h, sbf = s * b * f;
    const double kv_ratio = static_cast<double>(effective_kv_heads(m)) / static_cast<double>(m.heads);
    const double mask = m.dropout ? 1.0 : 0.0;
    const double attention_linear = sbh * (2.0 + 2.0 + 4.0 * kv_ratio + 2.0 + mask);
    const double mlp = sbh * (2.0 + mask) + (m.mlp == MlpKind::swiglu ? 6.0 : 4.0) * sbf;
    LayerActivations a;
    a.linear = attention_linear + mlp + 4.0 * sbh;
    a.unsplit = sbh * (4.0 + 2.0 * mask + 4.0);  // layer-norm inputs, dropout masks, inputs to QKV and the MLP
    if (kernel == AttentionKernel::standard)
        a.attention = (m.dropout ? 5.0 : 2.0) * static_cast<double>(m.heads) * s * s * b;
    return a;
}

// Bytes one GPU keeps per layer per micro-batch with no recompute, as [linear part, attention part].
std::pair<double, double> split_activations(const TransformerShape& m, std::int64_t micro_batch, int tp,
                                            bool sequence_parallel, AttentionKernel kernel) {
    const LayerActivations a = layer_activations(m, micro_batch, kernel);
    const double t = tp;
    double linear = a.linear;
    if (tp > 1) linear = sequence_parallel ? a.linear / t : a.unsplit + (a.linear - a.unsplit) / t;
    return {linear, a.attention / t};
}

}  // namespace

double activation_bytes_per_layer(const TransformerShape& m, std::int64_t micro_batch, int tp, bool sequence_parallel,
                                  Recompute recompute, AttentionKernel attention) {
    const auto [linear, scores] = split_activations(m, micro_batch, tp, sequence_parallel, attention);
    switch (recompute) {
        case Recompute::none: return linear + scores;
        case Recompute::selective: return linear;
        case Recompute::full: {
            // Only the layer's input is kept: 2 s b h [Korthikanti, Table 2]; with sequence
            // parallelism that input is itself split along the sequence, so 2 s b h / t.
            const double input = bf16_bytes * static_cast<double>(m.seq * micro_batch * m.hidden);
            return tp > 1 && sequence_parallel ? input / tp : input;
        }
    }
    return 0;
}

std::string_view recompute_name(Recompute r) {
    switch (r) {
        case Recompute::none: return "none";
        case Recompute::selective: return "selective";
        case Recompute::full: return "full";
    }
    return "?";
}

std::string_view attention_name(AttentionKernel a) { return a == AttentionKernel::flash ? "flash" : "standard"; }

std::string_view training_task_name(TrainingTaskKind k) {
    switch (k) {
        case TrainingTaskKind::forward: return "forward";
        case TrainingTaskKind::backward: return "backward";
        case TrainingTaskKind::send_forward: return "send_forward";
        case TrainingTaskKind::send_backward: return "send_backward";
        case TrainingTaskKind::dp_reduce: return "dp_reduce";
        case TrainingTaskKind::optimizer: return "optimizer";
        case TrainingTaskKind::param_gather: return "param_gather";
        case TrainingTaskKind::join: return "join";
    }
    return "?";
}

// [SECTION] Layout checks ------------------------------------------------------------------------

namespace {

constexpr std::int64_t max_graph_tasks = 4'000'000;  // a step graph larger than this is refused

int chunks_of(const Layout& l) { return l.schedule == PipelineSchedule::interleaved ? l.chunks : 1; }

}  // namespace

std::optional<SetupProblem> check(const EstimateSetup& setup) {
    const TransformerShape& m = setup.model;
    const Layout& l = setup.layout;
    if (auto why = validate(m); !why.empty()) {
        const auto colon = why.find(':');
        return SetupProblem{why.substr(0, colon), why.substr(colon + 2)};
    }
    const GpuSpec& g = setup.gpu;
    if (!(g.peak_bf16_flops > 0) || !(g.memory_bytes > 0) || !(g.memory_bandwidth_Bps > 0) ||
        !(g.achievable_fraction > 0 && g.achievable_fraction <= 1))
        return SetupProblem{"gpu", "the GPU needs a BF16 rate, a memory size, a memory bandwidth and an efficiency "
                                   "constant in (0, 1]"};
    for (const LinkSpec* link : {&setup.system.nvlink, &setup.system.pcie, &setup.system.infiniband})
        if (!(link->effective_GBps() > 0))
            return SetupProblem{"gpu", "the system's NVLink, PCIe and InfiniBand links need positive bandwidths"};
    if (setup.gpus_per_node < 1 || setup.gpus_per_node > max_gpus_per_node || setup.nodes_per_rack < 1)
        return SetupProblem{"gpu", "a node needs 1 to " + std::to_string(max_gpus_per_node) +
                                       " GPUs and a rack at least one node"};
    if (l.gpus < 1 || static_cast<std::uint64_t>(l.gpus) > max_cluster_gpus)
        return SetupProblem{"gpus", "must be a whole number from 1 to " +
                                        format_count(static_cast<std::int64_t>(max_cluster_gpus))};
    if (l.tp < 1) return SetupProblem{"tp", "must be at least 1"};
    if (l.pp < 1) return SetupProblem{"pp", "must be at least 1"};
    if (l.dp < 1) return SetupProblem{"dp", "must be at least 1"};
    if (static_cast<std::int64_t>(l.tp) * l.pp * l.dp != l.gpus)
        return SetupProblem{"gpus", "tp x pp x dp must equal the GPU count: " + std::to_string(l.tp) + " x " +
                                        std::to_string(l.pp) + " x " + std::to_string(l.dp) + " = " +
                                        format_count(static_cast<std::int64_t>(l.tp) * l.pp * l.dp) + ", not " +
                                        format_count(l.gpus)};
    if (m.heads % l.tp != 0)
        return SetupProblem{"tp", "must divide the model's " + format_count(m.heads) + " attention heads"};
    if (l.pp > m.layers)
        return SetupProblem{"pp", "cannot exceed the model's " + format_count(m.layers) + " layers"};
    if (l.micro_batch < 1) return SetupProblem{"micro_batch", "must be at least 1"};
    if (l.global_batch < 1) return SetupProblem{"global_batch", "must be at least 1"};
    if (l.global_batch % l.dp != 0)
        return SetupProblem{"global_batch", "must split evenly over the " + format_count(l.dp) +
                                                " data-parallel replicas (" + format_count(l.global_batch) +
                                                " sequences given)"};
    if ((l.global_batch / l.dp) % l.micro_batch != 0)
        return SetupProblem{"micro_batch", "must divide each replica's " + format_count(l.global_batch / l.dp) +
                                               " sequences (global batch / dp)"};
    if (l.zero_stage != 0 && l.zero_stage != 1) return SetupProblem{"zero_stage", "must be 0 or 1"};
    const std::int64_t m_mb = l.micro_batches();
    if (l.schedule == PipelineSchedule::interleaved) {
        if (l.chunks < 2) return SetupProblem{"chunks", "the interleaved schedule needs at least 2 chunks per GPU"};
        if (l.pp < 2) return SetupProblem{"schedule", "interleaved needs pipeline parallelism (pp of 2 or more)"};
        if (static_cast<std::int64_t>(l.pp) * l.chunks > m.layers)
            return SetupProblem{"chunks", "pp x chunks (" + std::to_string(l.pp * l.chunks) +
                                              ") cannot exceed the model's " + format_count(m.layers) + " layers"};
        if (m_mb % l.pp != 0)
            return SetupProblem{"micro_batch", "interleaved needs the micro-batches per replica (" + format_count(m_mb) +
                                                   ") to be a multiple of pp (" + std::to_string(l.pp) + ")"};
    }
    if (4 * m_mb * l.pp * chunks_of(l) > max_graph_tasks)
        return SetupProblem{"global_batch", "too many micro-batches to simulate one step (" + format_count(m_mb) +
                                                " per replica); use a larger micro-batch or more data parallelism"};
    return std::nullopt;
}

// [SECTION] Links: Lesson 2's cluster, routes and ring collectives ----------------------------------

namespace {

ClusterShape shape_for(const EstimateSetup& setup) {
    ClusterShape shape;
    shape.gpus_per_node = setup.gpus_per_node;
    shape.nodes_per_rack = setup.nodes_per_rack;
    const std::uint64_t per_rack = std::uint64_t{setup.gpus_per_node} * setup.nodes_per_rack;
    const auto gpus = static_cast<std::uint64_t>(std::max(setup.layout.gpus, 1));
    shape.racks = static_cast<std::uint32_t>((gpus + per_rack - 1) / per_rack);
    return shape;
}

// One ring per member the group has in a node, when it spans nodes: each ring leaves the node
// through a different GPU's NIC, as NCCL's rail-aligned rings do.
std::uint32_t rings_for(const Cluster& c, const std::vector<GpuId>& group) {
    if (group.size() < 2 || c.node_of(group.front()) == c.node_of(group.back())) return 1;
    std::uint32_t in_first_node = 0;
    for (GpuId g : group) in_first_node += c.node_of(g) == c.node_of(group.front()) ? 1 : 0;
    return std::max<std::uint32_t>(in_first_node, 1);
}

LinkType group_link(const Cluster& c, const std::vector<GpuId>& group) {
    if (group.size() < 2) return LinkType::local;
    return c.node_of(group.front()) == c.node_of(group.back()) ? LinkType::nvlink : LinkType::infiniband;
}

}  // namespace

LayoutLinks::LayoutLinks(const EstimateSetup& setup, Mode mode)
    : m_mode(mode), m_cluster(shape_for(setup), setup.system), m_layout(setup.layout) {
    const Layout& l = setup.layout;
    CollectiveSetup& tp = m_groups[0];
    for (int r = 0; r < l.tp; ++r) tp.group.push_back(static_cast<GpuId>(r));
    CollectiveSetup& dp = m_groups[1];
    for (int r = 0; r < l.dp; ++r) dp.group.push_back(static_cast<GpuId>(r) * static_cast<GpuId>(l.tp));
    for (CollectiveSetup& g : m_groups) g.rings = rings_for(m_cluster, g.group);
    m_tp_type = group_link(m_cluster, tp.group);
    m_dp_type = group_link(m_cluster, dp.group);
}

double LayoutLinks::run_s(int group, CollectiveOp op, double bytes) const {
    CollectiveSetup s = m_groups[group];
    s.op = op;
    s.bytes = static_cast<Bytes>(std::llround(bytes));
    return run_collective(m_cluster, s).time_s;
}

double LayoutLinks::collective_s(int group, CollectiveOp op, double bytes) {
    if (m_groups[group].group.size() < 2 || bytes <= 0) return 0;
    if (m_mode == Mode::exact) {
        for (const Memo& m : m_memo)
            if (m.group == group && m.op == op && m.bytes == bytes) return m.seconds;
        const double t = run_s(group, op, bytes);
        m_memo.push_back({group, op, bytes, t});
        return t;
    }
    // Linear: a ring's time is latency + bytes / bandwidth, so two sizes fix the line.
    constexpr double small = 1 << 24, large = 1 << 30;
    double t_small = -1, t_large = -1;
    for (const Memo& m : m_memo)
        if (m.group == group && m.op == op) (m.bytes == small ? t_small : t_large) = m.seconds;
    if (t_small < 0) {
        t_small = run_s(group, op, small);
        m_memo.push_back({group, op, small, t_small});
    }
    if (t_large < 0) {
        t_large = run_s(group, op, large);
        m_memo.push_back({group, op, large, t_large});
    }
    return t_small + (bytes - small) * (t_large - t_small) / (large - small);
}

double LayoutLinks::tp_collective_s(CollectiveOp op, double bytes) { return collective_s(0, op, bytes); }
double LayoutLinks::dp_collective_s(CollectiveOp op, double bytes) { return collective_s(1, op, bytes); }

Route LayoutLinks::stage_route(int k, int k2) const {
    const std::int64_t stride = static_cast<std::int64_t>(m_layout.tp) * m_layout.dp;
    Route worst;
    double worst_s = -1;
    for (int r = 0; r < m_layout.tp; ++r) {
        const Route route = m_cluster.route(static_cast<GpuId>(k * stride + r), static_cast<GpuId>(k2 * stride + r));
        const double t = transfer_seconds(route, 1e8);
        if (t > worst_s) {
            worst_s = t;
            worst = route;
        }
    }
    return worst;
}

// [SECTION] Stage costs and memory -----------------------------------------------------------------

namespace {

int virtual_stages(const Layout& l) { return l.pp * chunks_of(l); }

std::int64_t layers_of_virtual_stage(const TransformerShape& m, const Layout& l, int j) {
    // As even as possible; uneven splits give the extra layers to the earliest stages.
    const std::int64_t v = virtual_stages(l);
    return m.layers / v + (j < m.layers % v ? 1 : 0);
}

// Parameters one GPU of physical stage k holds. Megatron splits every layer's matrices over tp;
// the first stage holds the token (and position) tables, the last the final norm and an output
// matrix (its own if untied, or a copy of the tied embedding when pp > 1).
double stage_parameters(const TransformerShape& m, const Layout& l, int k) {
    const ParameterCount pc = count_parameters(m);
    const double t = l.tp;
    std::int64_t layers = 0;
    for (int c = 0; c < chunks_of(l); ++c) layers += layers_of_virtual_stage(m, l, c * l.pp + k);
    double p = static_cast<double>(layers) * static_cast<double>(pc.per_layer) / t;
    const double vh = static_cast<double>(m.vocab * m.hidden);
    const double norm = static_cast<double>(m.biases ? 2 * m.hidden : m.hidden);
    if (k == 0) p += vh / t + (m.learned_positions ? static_cast<double>(m.seq * m.hidden) : 0.0);
    if (k == l.pp - 1) p += norm + ((!m.tied_embeddings || l.pp > 1) ? vh / t : 0.0);
    return p;
}

// The data-parallel group of stage 0 is GPUs 0, tp, ..., (dp-1) tp (Megatron's rank order).
bool dp_spans_nodes(const EstimateSetup& s) {
    return static_cast<std::int64_t>(s.layout.dp - 1) * s.layout.tp >= static_cast<std::int64_t>(s.gpus_per_node);
}

}  // namespace

std::vector<StageCost> stage_costs(const EstimateSetup& setup, LayoutLinks& links) {
    const TransformerShape& m = setup.model;
    const Layout& l = setup.layout;
    const GpuSpec& g = setup.gpu;
    const double s = static_cast<double>(m.seq), b = static_cast<double>(l.micro_batch);
    const double h = static_cast<double>(m.hidden), V = static_cast<double>(m.vocab), t = l.tp;
    const double rate = g.peak_bf16_flops * g.achievable_fraction;
    const double hbm = g.memory_bandwidth_Bps;

    // One layer, one micro-batch, one GPU.
    const double matmul = static_cast<double>(count_parameters(m).matmul_per_layer);
    const double scores_flops = 4.0 * b * s * s * h / t;  // QK^T and AV
    const double fwd_flops = 2.0 * matmul * s * b / t + scores_flops;
    double bwd_flops = 2.0 * fwd_flops;  // gradients for inputs and for weights
    const bool flash = l.attention == AttentionKernel::flash;
    if (flash || l.recompute == Recompute::selective) bwd_flops += scores_flops;  // scores computed again
    if (l.recompute == Recompute::full) bwd_flops += fwd_flops;
    // Memory-bound kernels (norms, GeLU, softmax, dropout, residual adds) move each saved activation
    // byte about twice forward (written, read) and four times backward; recompute moves its part again.
    const auto [act_linear, act_attention] = split_activations(m, l.micro_batch, l.tp, l.sequence_parallel, l.attention);
    const double act = act_linear + act_attention;
    const double mem_fwd = 2.0 * act / hbm;
    double mem_bwd = 4.0 * act / hbm;
    if (l.recompute == Recompute::selective) mem_bwd += 2.0 * act_attention / hbm;
    if (l.recompute == Recompute::full) mem_bwd += 2.0 * act / hbm;
    // Tensor parallelism: two all-reduces forward, two backward [Narayanan et al. 2021]; with sequence
    // parallelism each becomes an all-gather + reduce-scatter pair with the same traffic
    // [Korthikanti sec. 4.2.2]. Full recompute repeats the forward pair.
    const double tp_msg = bf16_bytes * s * b * h;
    const double ar = links.tp_collective_s(CollectiveOp::all_reduce, tp_msg);
    const double tp_fwd = 2.0 * ar;
    const double tp_bwd = (l.recompute == Recompute::full ? 4.0 : 2.0) * ar;

    // The output layer on the last stage: logits 2 V h s b / t forward, twice that backward; its
    // activations 4 s b h/t (1 + V/h) [Korthikanti sec. 4.3] move like a layer's.
    const double logit_flops = 2.0 * V * h * s * b / t;
    const double logit_bytes = 4.0 * s * b * h / t * (1.0 + V / h);

    // Point-to-point: one s x b x h bf16 tensor per boundary per micro-batch each way; with sequence
    // parallelism every GPU of the stage sends its 1/t share over its own link [Narayanan sec. 4.1].
    const double send_bytes = bf16_bytes * s * b * h / t;

    const int nv = virtual_stages(l);
    std::vector<StageCost> out(static_cast<std::size_t>(nv));
    for (int j = 0; j < nv; ++j) {
        StageCost& c = out[static_cast<std::size_t>(j)];
        c.stage = j % l.pp;
        c.chunk = j / l.pp;
        c.layers = layers_of_virtual_stage(m, l, j);
        c.has_logits = j == nv - 1;
        const double n = static_cast<double>(c.layers);
        c.forward_compute_s = n * fwd_flops / rate + (c.has_logits ? logit_flops / rate : 0.0);
        c.backward_compute_s = n * bwd_flops / rate + (c.has_logits ? 2.0 * logit_flops / rate : 0.0);
        c.forward_memory_s = n * mem_fwd + (c.has_logits ? 2.0 * logit_bytes / hbm : 0.0);
        c.backward_memory_s = n * mem_bwd + (c.has_logits ? 4.0 * logit_bytes / hbm : 0.0);
        c.forward_tp_s = n * tp_fwd;
        c.backward_tp_s = n * tp_bwd;
        // Megatron runs these collectives on the compute stream, so nothing hides them.
        c.forward_s = c.forward_compute_s + c.forward_memory_s + c.forward_tp_s;
        c.backward_s = c.backward_compute_s + c.backward_memory_s + c.backward_tp_s;
        if (j + 1 < nv) {
            const Route route = links.stage_route(j % l.pp, (j + 1) % l.pp);
            c.send_link = route.type;
            c.send_s = transfer_seconds(route, send_bytes);
        }
    }
    // Gradient sync and optimizer, per physical stage, recorded on its first chunk.
    for (int k = 0; k < l.pp; ++k) {
        StageCost& c = out[static_cast<std::size_t>(k)];
        const double params = stage_parameters(m, l, k);
        const double grad_bytes = gradient_bytes * params;
        if (l.zero_stage == 1) {
            c.dp_reduce_s = links.dp_collective_s(CollectiveOp::reduce_scatter, grad_bytes);
            c.param_gather_s = links.dp_collective_s(CollectiveOp::all_gather, grad_bytes);
        } else {
            c.dp_reduce_s = links.dp_collective_s(CollectiveOp::all_reduce, grad_bytes);
        }
        // Adam is memory bound: adam_step_bytes_per_parameter (28) per parameter it updates.
        const double updated = l.zero_stage == 1 ? params / l.dp : params;
        c.optimizer_s = static_cast<double>(adam_step_bytes_per_parameter) * updated / hbm;
    }
    return out;
}

MemoryUse memory_use(const EstimateSetup& setup) {
    const TransformerShape& m = setup.model;
    const Layout& l = setup.layout;
    const double t = l.tp, s = static_cast<double>(m.seq), b = static_cast<double>(l.micro_batch);
    const double h = static_cast<double>(m.hidden), V = static_cast<double>(m.vocab);
    const std::int64_t mb = l.micro_batches();
    const double per_layer =
        activation_bytes_per_layer(m, l.micro_batch, l.tp, l.sequence_parallel, l.recompute, l.attention);
    MemoryUse worst;
    for (int k = 0; k < l.pp; ++k) {
        MemoryUse u;
        u.stage = k;
        u.parameters = stage_parameters(m, l, k);
        // Mixed-precision Adam: 2 + 2 + 12 = 16 bytes per parameter; ZeRO-1 splits the 12 [Rajbhandari et al. 2020].
        u.weights_bytes = static_cast<double>(weight_bytes_per_parameter) * u.parameters;
        u.gradients_bytes = gradient_bytes * u.parameters;
        u.optimizer_bytes =
            static_cast<double>(optimizer_bytes_per_parameter) * u.parameters / (l.zero_stage == 1 ? l.dp : 1);
        std::int64_t layers = 0;
        for (int c = 0; c < chunks_of(l); ++c) layers += layers_of_virtual_stage(m, l, c * l.pp + k);
        u.in_flight_micro_batches = activations_in_flight(l.schedule, l.pp, k, mb, l.chunks);
        u.activations_bytes = u.in_flight_micro_batches * static_cast<double>(layers) * per_layer;
        if (l.recompute == Recompute::full)  // the layer being recomputed needs its full activations
            u.activations_bytes +=
                activation_bytes_per_layer(m, l.micro_batch, l.tp, l.sequence_parallel, Recompute::none, l.attention);
        if (k == 0 && m.dropout) u.activations_bytes += u.in_flight_micro_batches * s * b * h / t;  // embedding dropout mask
        if (k == l.pp - 1) u.activations_bytes += 4.0 * s * b * h / t * (1.0 + V / h);  // output layer [Korthikanti 4.3]
        u.total_bytes = u.weights_bytes + u.gradients_bytes + u.optimizer_bytes + u.activations_bytes;
        u.capacity_bytes = setup.gpu.memory_bytes;
        u.fits = u.total_bytes <= u.capacity_bytes;
        if (k == 0 || u.total_bytes > worst.total_bytes) worst = u;
    }
    return worst;
}

// [SECTION] The step's work graph and the estimate ------------------------------------------------

WorkGraph build_step_graph(const EstimateSetup& setup, const std::vector<StageCost>& stages,
                           std::vector<TrainingTask>* tasks) {
    const Layout& l = setup.layout;
    const int p = l.pp, v = chunks_of(l), nv = p * v;
    const std::int64_t m = l.micro_batches();
    WorkGraph g;
    const auto mbs = static_cast<std::size_t>(m);
    g.reserve(static_cast<std::size_t>(4 * nv) * mbs + 8 * static_cast<std::size_t>(p),
              static_cast<std::size_t>(8 * nv) * mbs + 8 * static_cast<std::size_t>(p));
    if (tasks) {
        tasks->clear();
        tasks->reserve(static_cast<std::size_t>(4 * nv) * mbs + 8 * static_cast<std::size_t>(p));
    }
    const auto note = [&](TaskId id, TrainingTaskKind kind, int stage, std::int64_t mb, int chunk) {
        if (!tasks) return;
        if (tasks->size() <= id) tasks->resize(id + 1);
        (*tasks)[id] = TrainingTask{kind, stage, static_cast<int>(mb), chunk, 0, 0};
    };

    std::vector<PoolId> stage_pool(static_cast<std::size_t>(p)), fwd_link(static_cast<std::size_t>(p)),
        bwd_link(static_cast<std::size_t>(p)), dp_pool(static_cast<std::size_t>(p));
    for (int k = 0; k < p; ++k)
        stage_pool[static_cast<std::size_t>(k)] = g.add_pool("stage " + std::to_string(k), ResourceKind::gpu_core, 1);
    // One link pool per boundary and direction: a link carries one send at a time.
    for (int k = 0; k < p && p > 1; ++k) {
        if (k == p - 1 && v == 1) break;  // only the interleaved schedule wraps from the last stage to the first
        const bool ib = stages[static_cast<std::size_t>(k)].send_link == LinkType::infiniband;
        const ResourceKind kind = ib ? ResourceKind::infiniband : ResourceKind::nvlink;
        const std::string a = std::to_string(k), b = std::to_string((k + 1) % p);
        fwd_link[static_cast<std::size_t>(k)] = g.add_pool("link " + a + "->" + b, kind, 1);
        bwd_link[static_cast<std::size_t>(k)] = g.add_pool("link " + b + "->" + a, kind, 1);
    }
    const bool dp_ib = l.dp > 1 && dp_spans_nodes(setup);
    if (l.dp > 1)
        for (int k = 0; k < p; ++k)
            dp_pool[static_cast<std::size_t>(k)] = g.add_pool(
                "data-parallel " + std::to_string(k), dp_ib ? ResourceKind::infiniband : ResourceKind::nvlink, 1);

    // Forward and backward passes of every virtual stage j for every micro-batch i: F[j m + i], B[j m + i].
    // They are the graph's first tasks (estimate() relies on it).
    std::vector<TaskId> F(static_cast<std::size_t>(nv) * mbs), B(F.size()), SB(F.size());
    for (int j = 0; j < nv; ++j) {
        const StageCost& c = stages[static_cast<std::size_t>(j)];
        const PoolId pool = stage_pool[static_cast<std::size_t>(j % p)];
        const SimTime fd = picoseconds_from_seconds(c.forward_s), bd = picoseconds_from_seconds(c.backward_s);
        for (std::int64_t i = 0; i < m; ++i) {
            const std::size_t x = static_cast<std::size_t>(j) * mbs + static_cast<std::size_t>(i);
            F[x] = g.add_task(fd, {pool});
            note(F[x], TrainingTaskKind::forward, j % p, i, j / p);
            B[x] = g.add_task(bd, {pool});
            note(B[x], TrainingTaskKind::backward, j % p, i, j / p);
        }
    }
    // Sends between consecutive virtual stages, forward (activations) and backward (their gradients).
    for (int j = 0; j + 1 < nv; ++j) {
        const std::size_t k = static_cast<std::size_t>(j % p);
        const SimTime sd = picoseconds_from_seconds(stages[static_cast<std::size_t>(j)].send_s);
        for (std::int64_t i = 0; i < m; ++i) {
            const std::size_t x = static_cast<std::size_t>(j) * mbs + static_cast<std::size_t>(i);
            const TaskId sf = g.add_task(sd, {fwd_link[k]});
            note(sf, TrainingTaskKind::send_forward, j % p, i, j / p);
            g.add_dependency(F[x], sf);
            g.add_dependency(sf, F[x + mbs]);
            const TaskId sb = g.add_task(sd, {bwd_link[k]});
            note(sb, TrainingTaskKind::send_backward, (j + 1) % p, i, (j + 1) / p);
            g.add_dependency(B[x + mbs], sb);
            g.add_dependency(sb, B[x]);
            SB[x] = sb;
        }
    }
    for (std::int64_t i = 0; i < m; ++i) {  // the last virtual stage turns each micro-batch around
        const std::size_t x = static_cast<std::size_t>(nv - 1) * mbs + static_cast<std::size_t>(i);
        g.add_dependency(F[x], B[x]);
    }

    // Each stage runs its passes in its schedule's order; the gradient sync starts with the last
    // backward (bucketed, as Megatron and PyTorch DDP overlap it) and what is left is exposed.
    std::vector<TaskId> stage_done(static_cast<std::size_t>(p));
    for (int k = 0; k < p; ++k) {
        const std::vector<PipelinePass> ops = stage_order(l.schedule, p, k, m, v);
        std::optional<TaskId> prev;
        for (std::size_t n = 0; n < ops.size(); ++n) {
            const PipelinePass& op = ops[n];
            const std::size_t x =
                static_cast<std::size_t>(op.chunk * p + k) * mbs + static_cast<std::size_t>(op.micro_batch);
            const TaskId id = op.forward ? F[x] : B[x];
            const bool last = n + 1 == ops.size();
            if (last && l.dp > 1) {
                const TaskId ready = g.add_join();  // the moment the last backward may start
                note(ready, TrainingTaskKind::join, k, -1, 0);
                if (prev) g.add_dependency(*prev, ready);
                const int j = op.chunk * p + k;  // what the last backward waits for, the sync waits for too
                g.add_dependency(j == nv - 1 ? F[x] : SB[x], ready);
                g.add_dependency(ready, id);
                const StageCost& c0 = stages[static_cast<std::size_t>(k)];
                const TaskId sync =
                    g.add_task(picoseconds_from_seconds(c0.dp_reduce_s), {dp_pool[static_cast<std::size_t>(k)]});
                note(sync, TrainingTaskKind::dp_reduce, k, -1, 0);
                g.add_dependency(ready, sync);
                const TaskId done = g.add_join();
                note(done, TrainingTaskKind::join, k, -1, 0);
                g.add_dependency(id, done);
                g.add_dependency(sync, done);
                stage_done[static_cast<std::size_t>(k)] = done;
            } else {
                if (prev) g.add_dependency(*prev, id);
                if (last) stage_done[static_cast<std::size_t>(k)] = id;
            }
            prev = id;
        }
    }
    // Gradient clipping needs the global gradient norm, so every stage's optimizer waits for all.
    const TaskId all_done = g.add_join();
    note(all_done, TrainingTaskKind::join, -1, -1, 0);
    for (TaskId d : stage_done) g.add_dependency(d, all_done);
    for (int k = 0; k < p; ++k) {
        const StageCost& c0 = stages[static_cast<std::size_t>(k)];
        const TaskId opt = g.add_task(picoseconds_from_seconds(c0.optimizer_s), {stage_pool[static_cast<std::size_t>(k)]});
        note(opt, TrainingTaskKind::optimizer, k, -1, 0);
        g.add_dependency(all_done, opt);
        if (l.zero_stage == 1 && l.dp > 1) {
            const TaskId gather =
                g.add_task(picoseconds_from_seconds(c0.param_gather_s), {dp_pool[static_cast<std::size_t>(k)]});
            note(gather, TrainingTaskKind::param_gather, k, -1, 0);
            g.add_dependency(opt, gather);
        }
    }
    if (tasks) tasks->resize(g.task_count());
    return g;
}

Estimate estimate(const EstimateSetup& setup, bool keep_timeline) {
    if (auto problem = check(setup)) throw std::invalid_argument(problem->field + ": " + problem->message);
    const TransformerShape& m = setup.model;
    const Layout& l = setup.layout;
    Estimate e;
    e.parameters = count_parameters(m);
    e.micro_batches = l.micro_batches();
    const double tokens_per_step = static_cast<double>(l.global_batch) * static_cast<double>(m.seq);
    e.model_flops_per_step = model_flops_per_token(m) * tokens_per_step;
    e.hardware_flops_per_step = hardware_flops_per_token(m, l.recompute, l.attention) * tokens_per_step;
    e.memory = memory_use(setup);
    LayoutLinks links(setup, LayoutLinks::Mode::exact);
    e.stages = stage_costs(setup, links);

    std::vector<TrainingTask> tasks;
    const WorkGraph g = build_step_graph(setup, e.stages, keep_timeline ? &tasks : nullptr);
    e.timeline = schedule(g);
    const double ps = 1.0 / picoseconds_per_second;
    e.step_time_s = static_cast<double>(e.timeline.makespan) * ps;

    // Idle share of the pipeline part, and what comes after the last backward. The graph's first
    // 2 x (virtual stages) x m tasks are the forward and backward passes.
    SimTime pipeline_end = 0;
    double busy = 0;
    const std::size_t passes = 2 * e.stages.size() * static_cast<std::size_t>(e.micro_batches);
    for (std::size_t i = 0; i < passes; ++i) {
        const TaskRun& r = e.timeline.runs[i];
        pipeline_end = std::max(pipeline_end, r.end);
        busy += static_cast<double>(r.end - r.start);
    }
    for (std::size_t i = 0; i < tasks.size(); ++i) {
        tasks[i].start_s = static_cast<double>(e.timeline.runs[i].start) * ps;
        tasks[i].end_s = static_cast<double>(e.timeline.runs[i].end) * ps;
    }
    e.idle_fraction = pipeline_end > 0 ? 1.0 - busy / (static_cast<double>(l.pp) * static_cast<double>(pipeline_end)) : 0;
    e.exposed_dp_s = static_cast<double>(e.timeline.makespan - pipeline_end) * ps;
    e.bubble_fraction = pipeline_bubble_fraction(l.pp, e.micro_batches, chunks_of(l));

    const double peak_all = setup.gpu.peak_bf16_flops * l.gpus;
    e.tokens_per_s = tokens_per_step / e.step_time_s;
    e.model_tflops_per_gpu = e.model_flops_per_step / e.step_time_s / l.gpus / 1e12;
    e.hardware_tflops_per_gpu = e.hardware_flops_per_step / e.step_time_s / l.gpus / 1e12;
    e.mfu = e.model_flops_per_step / (e.step_time_s * peak_all);
    e.hfu = e.hardware_flops_per_step / (e.step_time_s * peak_all);
    if (setup.train_tokens > 0) e.train_days = setup.train_tokens / e.tokens_per_s / 86400.0;
    if (keep_timeline) e.tasks = std::move(tasks);
    else e.timeline = Timeline{{}, {}, e.timeline.makespan};

    const GpuSpec& gpu = setup.gpu;
    e.assumptions = {
        "Matrix multiplies run at " + format_percent(gpu.achievable_fraction, 0) + " of the " + gpu.name +
            "'s dense BF16 peak (" + format_fixed(gpu.peak_bf16_flops / 1e12, 0) +
            " TFLOP/s), one constant for this GPU type" +
            (gpu.achievable_source.empty() ? "." : " (" + gpu.achievable_source + ")."),
        "Model FLOPs per token: 6 x (l x matrix weights per layer + V h) + 12 l s h, which for GPT is Korthikanti's "
        "72 B s l h^2 (1 + s/6h + V/12lh) per step; hardware FLOPs also count what " +
            std::string(l.attention == AttentionKernel::flash ? "flash attention's backward pass and " : "") +
            std::string(recompute_name(l.recompute)) + " recompute compute a second time.",
        "Memory-bound kernels (norms, activation functions, softmax, dropout) move each saved activation byte twice "
        "forward and four times backward at HBM bandwidth (" +
            format_rate_GBps(gpu.memory_bandwidth_Bps / 1e9) + "); " +
            (l.attention == AttentionKernel::flash ? "flash attention keeps the s x s scores on chip."
                                                   : "standard attention writes the s x s scores to memory."),
        "Tensor parallelism: 4 all-reduce-sized collectives per layer per micro-batch (6 with full recompute), ring "
        "over " +
            std::string(links.tp_link() == LinkType::infiniband ? "InfiniBand (tp spans nodes)" : "NVLink") +
            ", not overlapped with compute.",
        "Pipeline: one s x b x h bf16 tensor per stage boundary per micro-batch each way, 1/tp per GPU; the " +
            std::string(schedule_kind_name(l.schedule)) + " schedule's ideal bubble is " +
            format_percent(e.bubble_fraction, 1) + " of the step.",
        "Data parallelism: the gradient " + std::string(l.zero_stage == 1 ? "reduce-scatter" : "all-reduce") +
            " runs over " + (links.dp_link() == LinkType::infiniband ? "InfiniBand" : "NVLink") +
            " alongside the last micro-batch's backward pass; the rest is exposed, then Adam moves " +
            std::to_string(adam_step_bytes_per_parameter) + " bytes per parameter at HBM bandwidth" +
            (l.zero_stage == 1 ? " and the new weights are all-gathered." : "."),
        "Memory: " + std::to_string(state_bytes_per_parameter) +
            " bytes per parameter (bf16 weights and gradients, fp32 master weights, momentum, variance)" +
            (l.zero_stage == 1 ? ", the " + std::to_string(optimizer_bytes_per_parameter) +
                                     " optimizer bytes split over the data-parallel replicas"
                               : std::string()) +
            "; activations per Korthikanti et al. 2022 for the " + std::string(schedule_kind_name(l.schedule)) +
            " schedule's micro-batches in flight.",
        "Links: " + setup.system.name + "; collective and send times from Lesson 2's ring and route model.",
        "Not modelled: kernel launch gaps, pipeline and data-parallel traffic sharing a NIC, network congestion, "
        "stragglers, failures and restarts.",
    };
    return e;
}

// [SECTION] Closed form and search -------------------------------------------------------------------

double closed_form_step_time_s(const EstimateSetup& setup, const std::vector<StageCost>& stages) {
    const Layout& l = setup.layout;
    const int p = l.pp, v = chunks_of(l);
    const double m = static_cast<double>(l.micro_batches());
    // Per physical stage, one micro-batch through all its chunks.
    double slowest = 0, sum = 0, sends = 0;
    for (int k = 0; k < p; ++k) {
        double sk = 0;
        for (int c = 0; c < v; ++c) {
            const StageCost& sc = stages[static_cast<std::size_t>(c * p + k)];
            sk += sc.forward_s + sc.backward_s;
        }
        slowest = std::max(slowest, sk);
        sum += sk;
    }
    for (const StageCost& sc : stages) sends += 2.0 * sc.send_s;
    // (m - 1) x the slowest stage, plus one trip through every stage for fill and drain (1/v of it
    // with interleaving); for equal stages this is (m + (p - 1)/v) x one stage [Narayanan et al. 2021].
    const double pipeline = (m - 1.0) * slowest + sum * ((p - 1.0) / v + 1.0) / p + sends / v;
    const StageCost& first = stages.front();
    const double last_backward = first.backward_s;
    double tail_opt = 0, tail_gather = 0;
    for (int k = 0; k < p; ++k) {
        tail_opt = std::max(tail_opt, stages[static_cast<std::size_t>(k)].optimizer_s);
        tail_gather = std::max(tail_gather, stages[static_cast<std::size_t>(k)].param_gather_s);
    }
    return pipeline + std::max(0.0, first.dp_reduce_s - last_backward) + tail_opt + tail_gather;
}

namespace {

std::vector<std::int64_t> divisors(std::int64_t n) {
    std::vector<std::int64_t> low, high;
    for (std::int64_t d = 1; d * d <= n; ++d)
        if (n % d == 0) {
            low.push_back(d);
            if (d != n / d) high.push_back(n / d);
        }
    low.insert(low.end(), high.rbegin(), high.rend());
    return low;
}

bool faster(const LayoutScore& a, const LayoutScore& b) {
    if (a.tokens_per_s != b.tokens_per_s) return a.tokens_per_s > b.tokens_per_s;
    if (a.memory_bytes != b.memory_bytes) return a.memory_bytes < b.memory_bytes;
    if (a.layout.tp != b.layout.tp) return a.layout.tp < b.layout.tp;
    if (a.layout.pp != b.layout.pp) return a.layout.pp < b.layout.pp;
    return a.layout.micro_batch > b.layout.micro_batch;
}

}  // namespace

SearchResult search_layouts(const EstimateSetup& setup, int top) {
    SearchResult out;
    const int n = setup.layout.gpus;
    const double tokens_per_step = static_cast<double>(setup.layout.global_batch) * static_cast<double>(setup.model.seq);
    const double peak_all = setup.gpu.peak_bf16_flops * n;
    const double model_flops = model_flops_per_token(setup.model) * tokens_per_step;
    std::vector<LayoutScore> fitting;
    for (int tp : {1, 2, 4, 8}) {
        if (tp > static_cast<int>(setup.gpus_per_node) || n % tp != 0 || setup.model.heads % tp != 0) continue;
        for (int pp = 1; pp <= std::min<std::int64_t>(setup.model.layers, n / tp); ++pp) {
            if ((n / tp) % pp != 0) continue;
            const int dp = n / tp / pp;
            if (setup.layout.global_batch % dp != 0) continue;
            const std::int64_t per_replica = setup.layout.global_batch / dp;
            std::optional<LayoutLinks> links;  // one per (tp, pp): the micro-batch size does not change the groups
            for (std::int64_t mb : divisors(per_replica)) {
                EstimateSetup s = setup;
                s.layout.tp = tp;
                s.layout.pp = pp;
                s.layout.dp = dp;
                s.layout.micro_batch = mb;
                if (check(s)) continue;
                ++out.candidates;
                LayoutScore sc;
                sc.layout = s.layout;
                const MemoryUse mem = memory_use(s);
                sc.memory_bytes = mem.total_bytes;
                sc.fits = mem.fits;
                if (!links) links.emplace(s, LayoutLinks::Mode::linear);
                sc.step_time_s = closed_form_step_time_s(s, stage_costs(s, *links));
                sc.tokens_per_s = tokens_per_step / sc.step_time_s;
                sc.mfu = model_flops / (sc.step_time_s * peak_all);
                if (sc.fits) {
                    fitting.push_back(sc);
                } else if (!out.smallest || sc.memory_bytes < out.smallest->memory_bytes) {
                    out.smallest = sc;
                }
            }
        }
    }
    out.fitting = static_cast<int>(fitting.size());
    std::sort(fitting.begin(), fitting.end(), faster);
    // Confirm the leaders on the scheduler (a few more than asked for, so that a closed-form
    // near-miss can still move up), then rank those by the scheduler's step time.
    const std::size_t confirm = std::min(fitting.size(), static_cast<std::size_t>(std::max(top, 0)) + 3);
    for (std::size_t i = 0; i < confirm; ++i) {
        EstimateSetup s = setup;
        s.layout = fitting[i].layout;
        const Estimate e = estimate(s, false);
        fitting[i].step_time_s = e.step_time_s;
        fitting[i].tokens_per_s = e.tokens_per_s;
        fitting[i].mfu = e.mfu;
        fitting[i].confirmed = true;
    }
    std::sort(fitting.begin(), fitting.begin() + static_cast<std::ptrdiff_t>(confirm), faster);
    fitting.resize(std::min(fitting.size(), static_cast<std::size_t>(std::max(top, 0))));
    out.best = std::move(fitting);
    return out;
}

// [SECTION] Real scale -----------------------------------------------------------------------------

double training_flops(double parameters, double tokens) { return 6.0 * parameters * tokens; }

TrainingRunComparison compare_training_run(const std::string& model_name, double parameters, double tokens,
                                           const SustainedRate& cpu, const GpuSpec& gpu, int cluster_gpus,
                                           double cluster_mfu) {
    TrainingRunComparison out;
    out.flops = training_flops(parameters, tokens);
    const auto row = [&](std::string label, double rate, std::string assumption) {
        const double seconds = out.flops / rate;
        out.rows.push_back({std::move(label), seconds, format_seconds(seconds), std::move(assumption)});
    };
    const double cpu_rate = cpu.peak_flops * cpu.fraction;
    row("One CPU: " + cpu.name, cpu_rate,
        "FP32 vector units at " + format_significant(cpu.peak_flops / 1e12, 2) + " TFLOP/s peak x " +
            format_fixed(cpu.fraction, 2) + " sustained = " + format_significant(cpu_rate / 1e12, 2) + " TFLOP/s (" +
            cpu.basis + ")");
    const double gpu_rate = gpu.peak_bf16_flops * gpu.achievable_fraction;
    row("One GPU: " + gpu.name, gpu_rate,
        "BF16 tensor cores at " + format_fixed(gpu.peak_bf16_flops / 1e12, 0) + " TFLOP/s peak x " +
            format_fixed(gpu.achievable_fraction, 2) + " = " + format_fixed(gpu_rate / 1e12, 0) +
            " TFLOP/s, as if every FLOP were a large matrix multiply and the model fitted in memory");
    const double cluster_rate = gpu.peak_bf16_flops * cluster_gpus * cluster_mfu;
    row(format_count(cluster_gpus) + " GPUs: " + gpu.name, cluster_rate,
        format_percent(cluster_mfu, 0) +
            " model FLOPs utilization, from the estimator's timeline of a real layout (communication, pipeline "
            "bubble and memory-bound work included)");
    const double state_bytes = static_cast<double>(state_bytes_per_parameter) * parameters;
    out.assumptions = {
        "Training " + model_name + " on " + format_words(tokens) + " tokens takes about 6 x " + format_words(parameters) +
            " parameters x tokens = " + format_scientific(out.flops) +
            " FLOPs (2 per weight per token forward, 4 backward).",
        "Its weights, gradients and Adam state alone need " + std::to_string(state_bytes_per_parameter) +
            " bytes per parameter: " + format_bytes(state_bytes) + ", against " + format_bytes(gpu.memory_bytes) +
            " on one GPU, so the one-CPU and one-GPU rows are thought experiments: neither could hold the model.",
        "Every row runs around the clock with no failures, restarts or evaluation pauses.",
    };
    return out;
}

}  // namespace m2m::core
