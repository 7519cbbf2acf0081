// What one pipeline stage of a real-scale layout costs for one micro-batch (matrix multiplies,
// memory-bound kernels, tensor-parallel collectives, sends, gradient sync, Adam) and what the most
// loaded stage holds in memory.
#include <vector>

#include "m2m/core/scale/step_estimate.hpp"
#include "scale_parts.hpp"

namespace m2m::core {

namespace scale_detail {

std::int64_t layers_of_virtual_stage(const TransformerShape& m, const Layout& l, int j) {
    // As even as possible; uneven splits give the extra layers to the earliest stages.
    const std::int64_t v = virtual_stages(l);
    return m.layers / v + (j < m.layers % v ? 1 : 0);
}

std::int64_t layers_of_stage(const TransformerShape& m, const Layout& l, int k) {
    std::int64_t layers = 0;
    for (int c = 0; c < chunks_of(l); ++c) layers += layers_of_virtual_stage(m, l, c * l.pp + k);
    return layers;
}

// Megatron splits every layer's matrices over tp; the first stage holds the token (and position)
// tables, the last the final norm and an output matrix (its own if untied, or a copy of the tied
// embedding when pp > 1).
double stage_parameters(const TransformerShape& m, const Layout& l, int k) {
    const ParameterCount pc = count_parameters(m);
    const double t = l.tp;
    double p = static_cast<double>(layers_of_stage(m, l, k)) * static_cast<double>(pc.per_layer) / t;
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

}  // namespace scale_detail

namespace {

using namespace scale_detail;

// One transformer layer, one micro-batch, one GPU; and the output layer and a stage boundary's send.
struct LayerCosts {
    double fwd_flops = 0, bwd_flops = 0;
    double mem_fwd_s = 0, mem_bwd_s = 0;  ///< memory-bound kernels at HBM bandwidth
    double tp_fwd_s = 0, tp_bwd_s = 0;    ///< tensor-parallel collectives
    double logit_flops = 0, logit_bytes = 0;
    double send_bytes = 0;
};

LayerCosts layer_costs(const EstimateSetup& setup, LayoutLinks& links) {
    const TransformerShape& m = setup.model;
    const Layout& l = setup.layout;
    const double s = static_cast<double>(m.seq), b = static_cast<double>(l.micro_batch);
    const double h = static_cast<double>(m.hidden), V = static_cast<double>(m.vocab), t = l.tp;
    const double hbm = setup.gpu.memory_bandwidth_Bps;
    LayerCosts c;
    const double matmul = static_cast<double>(count_parameters(m).matmul_per_layer);
    const double scores_flops = 4.0 * b * s * s * h / t;  // QK^T and AV
    c.fwd_flops = 2.0 * matmul * s * b / t + scores_flops;
    c.bwd_flops = 2.0 * c.fwd_flops;  // gradients for inputs and for weights
    const bool flash = l.attention == AttentionKernel::flash;
    if (flash || l.recompute == Recompute::selective) c.bwd_flops += scores_flops;  // scores computed again
    if (l.recompute == Recompute::full) c.bwd_flops += c.fwd_flops;
    // Memory-bound kernels (norms, GeLU, softmax, dropout, residual adds) move each saved activation
    // byte about twice forward (written, read) and four times backward; recompute moves its part again.
    const auto [act_linear, act_attention] = split_activations(m, l.micro_batch, l.tp, l.sequence_parallel, l.attention);
    const double act = act_linear + act_attention;
    c.mem_fwd_s = 2.0 * act / hbm;
    c.mem_bwd_s = 4.0 * act / hbm;
    if (l.recompute == Recompute::selective) c.mem_bwd_s += 2.0 * act_attention / hbm;
    if (l.recompute == Recompute::full) c.mem_bwd_s += 2.0 * act / hbm;
    // Tensor parallelism: two all-reduces forward, two backward [Narayanan et al. 2021]; with sequence
    // parallelism each becomes an all-gather + reduce-scatter pair with the same traffic
    // [Korthikanti sec. 4.2.2]. Full recompute repeats the forward pair.
    const double ar = links.tp_collective_s(CollectiveOp::all_reduce, bf16_bytes * s * b * h);
    c.tp_fwd_s = 2.0 * ar;
    c.tp_bwd_s = (l.recompute == Recompute::full ? 4.0 : 2.0) * ar;
    // The output layer on the last stage: logits 2 V h s b / t forward, twice that backward; its
    // activations 4 s b h/t (1 + V/h) [Korthikanti sec. 4.3] move like a layer's.
    c.logit_flops = 2.0 * V * h * s * b / t;
    c.logit_bytes = 4.0 * s * b * h / t * (1.0 + V / h);
    // Point-to-point: one s x b x h bf16 tensor per boundary per micro-batch each way; with sequence
    // parallelism every GPU of the stage sends its 1/t share over its own link [Narayanan sec. 4.1].
    c.send_bytes = bf16_bytes * s * b * h / t;
    return c;
}

// Virtual stage j's passes: its layers' costs, the logits on the last, the send to the next.
StageCost virtual_stage_cost(const EstimateSetup& setup, const LayerCosts& lc, const LayoutLinks& links, int j) {
    const Layout& l = setup.layout;
    const int nv = virtual_stages(l);
    const double rate = setup.gpu.peak_bf16_flops * setup.gpu.achievable_fraction;
    const double hbm = setup.gpu.memory_bandwidth_Bps;
    StageCost c;
    c.stage = j % l.pp;
    c.chunk = j / l.pp;
    c.layers = layers_of_virtual_stage(setup.model, l, j);
    c.has_logits = j == nv - 1;
    const double n = static_cast<double>(c.layers);
    c.forward_compute_s = n * lc.fwd_flops / rate + (c.has_logits ? lc.logit_flops / rate : 0.0);
    c.backward_compute_s = n * lc.bwd_flops / rate + (c.has_logits ? 2.0 * lc.logit_flops / rate : 0.0);
    c.forward_memory_s = n * lc.mem_fwd_s + (c.has_logits ? 2.0 * lc.logit_bytes / hbm : 0.0);
    c.backward_memory_s = n * lc.mem_bwd_s + (c.has_logits ? 4.0 * lc.logit_bytes / hbm : 0.0);
    c.forward_tp_s = n * lc.tp_fwd_s;
    c.backward_tp_s = n * lc.tp_bwd_s;
    // Megatron runs these collectives on the compute stream, so nothing hides them.
    c.forward_s = c.forward_compute_s + c.forward_memory_s + c.forward_tp_s;
    c.backward_s = c.backward_compute_s + c.backward_memory_s + c.backward_tp_s;
    if (j + 1 < nv) {
        const Route route = links.stage_route(j % l.pp, (j + 1) % l.pp);
        c.send_link = route.type;
        c.send_s = transfer_seconds(route, lc.send_bytes);
    }
    return c;
}

// GPU stage k's gradient sync and Adam step, recorded on its first chunk.
void add_update_costs(const EstimateSetup& setup, LayoutLinks& links, int k, StageCost& c) {
    const Layout& l = setup.layout;
    const double params = stage_parameters(setup.model, l, k);
    const double grad_bytes = gradient_bytes * params;
    if (l.zero_stage == 1) {
        c.dp_reduce_s = links.dp_collective_s(CollectiveOp::reduce_scatter, grad_bytes);
        c.param_gather_s = links.dp_collective_s(CollectiveOp::all_gather, grad_bytes);
    } else {
        c.dp_reduce_s = links.dp_collective_s(CollectiveOp::all_reduce, grad_bytes);
    }
    // Adam is memory bound: adam_step_bytes_per_parameter (28) per parameter it updates.
    const double updated = l.zero_stage == 1 ? params / l.dp : params;
    c.optimizer_s = static_cast<double>(adam_step_bytes_per_parameter) * updated / setup.gpu.memory_bandwidth_Bps;
}

}  // namespace

std::vector<StageCost> stage_costs(const EstimateSetup& setup, LayoutLinks& links) {
    const LayerCosts lc = layer_costs(setup, links);
    std::vector<StageCost> out;
    for (int j = 0; j < virtual_stages(setup.layout); ++j) out.push_back(virtual_stage_cost(setup, lc, links, j));
    for (int k = 0; k < setup.layout.pp; ++k) add_update_costs(setup, links, k, out[static_cast<std::size_t>(k)]);
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
        u.in_flight_micro_batches = activations_in_flight(l.schedule, l.pp, k, mb, l.chunks);
        u.activations_bytes = u.in_flight_micro_batches * static_cast<double>(layers_of_stage(m, l, k)) * per_layer;
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

}  // namespace m2m::core
