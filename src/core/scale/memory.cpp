// What one GPU of a real-scale layout holds: its share of the layers (how the layers are dealt to
// pipeline stages), weights, gradients and Adam state per ZeRO stage, the activations of the
// micro-batches in flight, and what frameworks add.
//
// [SECTION] layers per stage   [SECTION] parameters per GPU   [SECTION] memory
#include <algorithm>
#include <vector>

#include "m2m/core/scale/step_estimate.hpp"
#include "scale_parts.hpp"

namespace m2m::core {

namespace scale_detail {

// [SECTION] layers per stage ----------------------------------------------------------------

std::int64_t layers_of_virtual_stage(const TransformerShape& m, const Layout& l, int j) {
    const std::int64_t v = virtual_stages(l), base = m.layers / v, extra = m.layers % v;
    return base + (j >= 1 && j <= extra ? 1 : 0);
}

std::int64_t first_layer_of_virtual_stage(const TransformerShape& m, const Layout& l, int j) {
    const std::int64_t v = virtual_stages(l), base = m.layers / v, extra = m.layers % v;
    return j * base + (j >= 1 ? std::min<std::int64_t>(j - 1, extra) : 0);
}

std::int64_t layers_of_stage(const TransformerShape& m, const Layout& l, int k) {
    std::int64_t layers = 0;
    for (int c = 0; c < chunks_of(l); ++c) layers += layers_of_virtual_stage(m, l, c * l.pp + k);
    return layers;
}

// [SECTION] parameters per GPU --------------------------------------------------------------

double layer_parameters_per_gpu(const TransformerShape& m, const Layout& l, std::int64_t layer) {
    const LayerParameters p = layer_parameters(m, layer);
    return p.shared / l.tp + p.experts / (static_cast<double>(l.ep) * l.tp);
}

LayerKinds layer_kinds(const TransformerShape& m, std::int64_t first, std::int64_t count) {
    const std::int64_t dense = m.moe() ? std::clamp<std::int64_t>(m.dense_layers - first, 0, count) : count;
    return {dense, count - dense};
}

// Megatron splits every layer's matrices over tp and the experts over ep as well; the first stage
// holds the token (and position) tables, the last the final norm and an output matrix (its own if
// untied, or a copy of the tied embedding when pp > 1).
StageParameters stage_parameters(const TransformerShape& m, const Layout& l, int k) {
    StageParameters out;
    const double t = l.tp, e = static_cast<double>(l.ep) * t;
    const LayerParameters dense = layer_parameters(m, 0), moe = layer_parameters(m, m.layers - 1);
    for (int c = 0; c < chunks_of(l); ++c) {
        const int j = c * l.pp + k;
        const LayerKinds n = layer_kinds(m, first_layer_of_virtual_stage(m, l, j), layers_of_virtual_stage(m, l, j));
        const double nd = static_cast<double>(n.dense), nm = static_cast<double>(n.moe);
        out.shared += (nd * dense.shared + nm * moe.shared) / t;
        out.experts += (nd * dense.experts + nm * moe.experts) / e;
    }
    const double vh = static_cast<double>(m.vocab * m.hidden);
    const double norm = static_cast<double>(m.biases ? 2 * m.hidden : m.hidden);
    if (k == 0) out.shared += vh / t + (m.learned_positions ? static_cast<double>(m.seq * m.hidden) : 0.0);
    if (k == l.pp - 1) out.shared += norm + ((!m.tied_embeddings || l.pp > 1) ? vh / t : 0.0);
    return out;
}

int shard_group(const Layout& l, int replicas, int replica_stride, std::uint32_t gpus_per_node) {
    if (!l.hybrid_shard) return replicas;
    // Replicas replica_stride GPUs apart: as many as one node holds, and a divisor of the whole.
    int in_node = std::max(1, static_cast<int>(gpus_per_node) / std::max(replica_stride, 1));
    while (in_node > 1 && replicas % in_node != 0) --in_node;
    return std::min(replicas, in_node);
}

}  // namespace scale_detail

// [SECTION] memory --------------------------------------------------------------------------

namespace {

using namespace scale_detail;

// Bytes of weights, gradients and Adam state for `params` shared over `shard` GPUs at a ZeRO
// stage [Rajbhandari et al. 2020, Fig. 1: (2 + 2 + K) psi, 2 psi + 2 psi + K psi / N_d,
// 2 psi + (2 + K) psi / N_d, (2 + 2 + K) psi / N_d with K = 12]. fp32 gradients take 4 bytes; with
// them ZeRO 3 is PyTorch FSDP2's mixed precision, whose shard is the fp32 weight itself (cast to
// bf16 only to be gathered) and so also Adam's master copy: 4 + 4 + 8 bytes a parameter, / N_d.
void add_state(MemoryUse& u, double params, const Layout& l, double shard) {
    const int zero = l.zero_stage;
    const bool fsdp2 = zero >= 3 && l.fp32_gradients;  // the fp32 shard moves from Adam's state to the weights
    u.weights_bytes += (fsdp2 ? 4.0 : weight_bytes) * params / (zero >= 3 ? shard : 1.0);
    u.gradients_bytes += gradient_bytes_of(l) * params / (zero >= 2 ? shard : 1.0);
    u.optimizer_bytes += (fsdp2 ? optimizer_bytes - 4.0 : optimizer_bytes) * params / (zero >= 1 ? shard : 1.0);
}

// Activation bytes one micro-batch leaves on stage k's layers (before any in-flight count).
double stage_activations(const EstimateSetup& s, int k, Recompute recompute) {
    const TransformerShape& m = s.model;
    const Layout& l = s.layout;
    const auto per_layer = [&](std::int64_t i) {
        return activation_bytes_per_layer(m, l.micro_batch, l.tp, l.sequence_parallel, recompute, l.attention, i);
    };
    const double dense = per_layer(0), moe = per_layer(m.layers - 1);
    // A chunk's received input is its first layer's first norm input [Korthikanti: 2 s b h, split
    // over tp with sequence parallelism]; full recompute keeps only that input, so nothing to free.
    const bool frees = l.free_stage_inputs && l.pp > 1 && recompute != Recompute::full;
    const double input = bf16_bytes * static_cast<double>(m.seq * l.micro_batch * m.hidden) /
                         (l.tp > 1 && l.sequence_parallel ? l.tp : 1);
    double sum = 0;
    for (int c = 0; c < chunks_of(l); ++c) {
        const int j = c * l.pp + k;
        const LayerKinds n = layer_kinds(m, first_layer_of_virtual_stage(m, l, j), layers_of_virtual_stage(m, l, j));
        sum += static_cast<double>(n.dense) * dense + static_cast<double>(n.moe) * moe;
        if (frees && j > 0 && n.dense + n.moe > 0) sum -= input;  // the first chunk's input is made here
    }
    return sum / l.cp;
}

MemoryUse stage_memory(const EstimateSetup& setup, int k, std::int64_t micro_batches) {
    const TransformerShape& m = setup.model;
    const Layout& l = setup.layout;
    const double t = l.tp, s = static_cast<double>(m.seq) / l.cp, b = static_cast<double>(l.micro_batch);
    const double h = static_cast<double>(m.hidden), V = static_cast<double>(m.vocab);
    MemoryUse u;
    u.stage = k;
    const StageParameters p = stage_parameters(m, l, k);
    u.parameters = p.total();
    u.expert_parameters = p.experts;
    const int shard = shard_group(l, weight_replicas(l), l.tp, setup.gpus_per_node);
    add_state(u, p.shared, l, shard);
    add_state(u, p.experts, l, expert_replicas(l));
    if (l.zero_stage == 3) {  // whole layers in flight: one computing and (with overlap) the next prefetched, one's gradients
        double largest = 0;  // the first layer is dense, the last a MoE layer when there are any
        for (std::int64_t i : {std::int64_t{0}, m.layers - 1}) largest = std::max(largest, layer_parameters_per_gpu(m, l, i));
        u.gathered_bytes = (weight_bytes * (l.overlap ? 2.0 : 1.0) + gradient_bytes_of(l)) * largest;
    }
    u.in_flight_micro_batches = activations_in_flight(l.schedule, l.pp, k, micro_batches, l.chunks);
    u.activations_bytes = u.in_flight_micro_batches * stage_activations(setup, k, l.recompute);
    if (l.recompute == Recompute::full) {  // the layer being recomputed needs its full activations
        double largest = 0;
        for (std::int64_t i : {std::int64_t{0}, m.layers - 1})
            largest = std::max(largest, activation_bytes_per_layer(m, l.micro_batch, l.tp, l.sequence_parallel,
                                                                   Recompute::none, l.attention, i));
        u.activations_bytes += largest / l.cp;
    }
    if (k == 0 && m.dropout) u.activations_bytes += u.in_flight_micro_batches * s * b * h / t;  // embedding dropout mask
    if (k == l.pp - 1) u.activations_bytes += 4.0 * s * b * h / t * (1.0 + V / h);  // output layer [Korthikanti 4.3]
    const double tensors = u.state_bytes() + u.gathered_bytes + u.activations_bytes;
    u.framework_bytes = framework_fixed_bytes + framework_fragmentation * tensors;
    u.total_bytes = tensors + u.framework_bytes;
    u.capacity_bytes = setup.gpu.memory_bytes;
    u.fits = u.total_bytes <= u.capacity_bytes;
    return u;
}

}  // namespace

MemoryUse memory_use(const EstimateSetup& setup) {
    const std::int64_t mb = setup.layout.micro_batches();
    MemoryUse worst;
    for (int k = 0; k < setup.layout.pp; ++k) {
        // Stages other than the first and last repeat the first middle stage's figures when the
        // layers split evenly; the loop is short anyway (pp <= layers).
        const MemoryUse u = stage_memory(setup, k, mb);
        if (k == 0 || u.total_bytes > worst.total_bytes) worst = u;
    }
    return worst;
}

}  // namespace m2m::core
