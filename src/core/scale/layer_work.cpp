// One layer's compute and exchanges for one micro-batch on one GPU: matrix multiplies and attention
// at the GPU's achievable rate, memory-bound kernels at HBM bandwidth, and the tensor-, context-,
// expert-parallel and ZeRO traffic with what may hide it.
//
// [SECTION] compute   [SECTION] exchanges   [SECTION] what overlap hides
#include "layer_work.hpp"

#include <algorithm>

#include "scale_parts.hpp"

namespace m2m::core::scale_detail {

namespace {

// [SECTION] compute -------------------------------------------------------------------------

// What eager PyTorch moves beyond fused kernels, per GPU and micro-batch, as {forward, backward}.
// Rotary embeddings, as torchtitan's apply_rotary_emb writes them, per bf16 q or k element: cast
// to fp32 (2 bytes read, 4 written), complex multiply (4, 4), cast back (4, 2): 20 bytes where a
// fused kernel moves 4, 16 more, and the same again backward. SwiGLU per element of each branch:
// SiLU (2, 2) then the product (4, 2), 10 bytes against the fused 6, 4 more; backward the
// product's two gradients (6 read, 4 written) and SiLU's (4, 2), 16 against the fused 10, 6 more.
std::pair<double, double> eager_extra_bytes(const TransformerShape& m, const Layout& l, std::int64_t layer,
                                            double tokens) {
    const double t = l.tp, h = static_cast<double>(m.hidden);
    const double kv = static_cast<double>(effective_kv_heads(m)) / static_cast<double>(m.heads);
    const double rotary = m.learned_positions ? 0.0 : 16.0 * tokens * h * (1.0 + kv) / t;
    // Each token's MLP width: dense, or its top-k routed experts and the shared ones.
    const double width = is_moe_layer(m, layer)
                             ? static_cast<double>(effective_expert_ffn(m) * (m.top_k + m.shared_experts))
                             : static_cast<double>(effective_ffn_hidden(m));
    const double swiglu = m.mlp == MlpKind::swiglu ? tokens * width / t : 0.0;
    return {rotary + 4.0 * swiglu, rotary + 6.0 * swiglu};
}

void add_compute(const EstimateSetup& setup, std::int64_t layer, LayerWork& w) {
    const TransformerShape& m = setup.model;
    const Layout& l = setup.layout;
    const double rate = setup.gpu.peak_bf16_flops * setup.gpu.achievable_fraction;
    const double hbm = setup.gpu.memory_bandwidth_Bps;
    const double t = l.tp, tokens = tokens_per_gpu(m, l), s = static_cast<double>(m.seq);
    const double h = static_cast<double>(m.hidden);
    const double matmul = 2.0 * layer_parameters(m, layer).matmul_active * tokens / t;
    // QK^T and AV for this GPU's s/cp queries against all s keys: 4 (s b / cp) s h / t. A flash
    // kernel with a causal mask skips the blocks above the diagonal, half of them [Dao 2023, FA2];
    // standard attention computes every score and masks after.
    const bool flash = l.attention == AttentionKernel::flash;
    const double scores = 4.0 * tokens * s * h / t * (flash ? 0.5 : 1.0);
    double bwd_scores = 2.0 * scores;
    if (flash) bwd_scores = 2.5 * scores;  // its backward: 5 matrix multiplies to the forward's 2
    // Selective recompute runs the attention core's forward again, flash or not: Megatron-Core
    // checkpoints core_attention whatever the kernel (attention.py at f2e5db4, July 2024:
    // checkpoint_core_attention = recompute_granularity == 'selective').
    if (l.recompute == Recompute::selective) bwd_scores += scores;
    double bwd_matmul = 2.0 * matmul;  // gradients for inputs and for weights
    if (l.recompute == Recompute::full) {
        bwd_matmul += matmul;
        bwd_scores += scores;
    }
    w.forward_attention_s = scores / rate;
    w.backward_attention_s = bwd_scores / rate;
    // Each matrix multiply is a roofline [Williams et al. 2009]: its FLOPs at the achievable rate,
    // or its weights streamed from HBM (read forward; read, and the gradient read and written,
    // backward), whichever is longer. Few tokens per GPU (a large cp, a tiny micro-batch) make it
    // memory bound: the weights are read for too little arithmetic.
    const double weights = bf16_bytes * layer_parameters_per_gpu(m, l, layer);
    const double again = l.recompute == Recompute::full ? 1.0 : 0.0;
    w.forward_compute_s = std::max(matmul / rate, weights / hbm) + w.forward_attention_s;
    w.backward_compute_s = std::max(bwd_matmul / rate, (3.0 + again) * weights / hbm) + w.backward_attention_s;
    // Memory-bound kernels (norms, activation functions, softmax, dropout, residual adds, the
    // experts' token shuffles) move each saved activation byte about twice forward (written, read)
    // and four times backward; recompute moves its part again.
    const auto [linear, attention] = split_activations(m, l.micro_batch, l.tp, l.sequence_parallel, l.attention, layer);
    const double act = (linear + attention) / l.cp;
    w.forward_memory_s = 2.0 * act / hbm;
    w.backward_memory_s = 4.0 * act / hbm;
    if (l.recompute == Recompute::selective) w.backward_memory_s += 2.0 * attention / l.cp / hbm;
    if (l.recompute == Recompute::full) w.backward_memory_s += 2.0 * act / hbm;
    if (l.eager_kernels) {  // full recompute runs the forward's kernels again
        const auto [forward, backward] = eager_extra_bytes(m, l, layer, tokens);
        w.forward_memory_s += forward / hbm;
        w.backward_memory_s += (backward + (l.recompute == Recompute::full ? forward : 0.0)) / hbm;
    }
}

// [SECTION] exchanges -----------------------------------------------------------------------

// One kind of exchange: `forward` and `backward` occurrences of `bytes` among `group`.
Traffic* add_traffic(LayerWork& w, LayoutLinks& links, const char* what, GroupKind group, CollectiveKind op,
                     double bytes, double forward, double backward, Hiding hiding) {
    if (links.size(group) < 2 || !(bytes > 0) || forward + backward <= 0) return nullptr;
    Traffic t;
    t.what = what;
    t.group = group;
    t.op = op;
    t.bytes = bytes;
    t.forward = forward;
    t.backward = backward;
    t.hiding = hiding;
    const ExchangeCost c = links.cost(t.group, t.op, t.bytes);
    t.seconds = c.seconds;
    t.algorithm = c.algorithm;
    t.protocol = c.protocol;
    w.traffic.push_back(t);
    return &w.traffic.back();
}

void add_exchanges(const EstimateSetup& setup, LayoutLinks& links, std::int64_t layer, LayerWork& w) {
    const TransformerShape& m = setup.model;
    const Layout& l = setup.layout;
    const double t = l.tp, tokens = tokens_per_gpu(m, l), h = static_cast<double>(m.hidden);
    const double again = l.recompute == Recompute::full ? 1.0 : 0.0;  // the forward's exchanges, recomputed
    // Tensor parallel [Korthikanti et al. 2022, sec. 4.2.2]: with sequence parallelism each of the
    // two blocks all-gathers its input and reduce-scatters its output going forward, the reverse
    // going back; without it, one all-reduce each way. S = the s b h / cp layer tensor in bf16.
    const Hiding tp_hide = l.tp_overlap ? Hiding::matmuls : Hiding::none;
    const double layer_tensor = bf16_bytes * tokens * h;
    if (l.sequence_parallel) {
        add_traffic(w, links, "tensor-parallel all-gathers of each block's input", GroupKind::tensor,
                               CollectiveKind::all_gather, layer_tensor, 2, 2 + 2 * again, tp_hide);
        Traffic* rs = add_traffic(w, links, "tensor-parallel reduce-scatters of each block's output", GroupKind::tensor,
                                  CollectiveKind::reduce_scatter, layer_tensor, 2, 2 + 2 * again, tp_hide);
        // Overlapped, each forward reduce-scatter runs in Transformer Engine's "pipeline" method:
        // its GEMM in 4 splits, each split's reduce-scatter beside the next split's GEMM, so the
        // last quarter has nothing beside it (TE 1.8 initialize_ub: proj_fprop and fc2_fprop,
        // num_splits 4). The backward's run in bulk beside the weight-gradient GEMMs.
        if (rs && l.tp_overlap) rs->unhidden_forward_s = 2.0 * rs->seconds / 4.0;
    } else {
        add_traffic(w, links, "tensor-parallel all-reduces of each block's output", GroupKind::tensor,
                               CollectiveKind::all_reduce, layer_tensor, 2, 2 + 2 * again, tp_hide);
    }
    // Context parallel, ring attention [Liu et al. 2023]: each GPU's keys and values (this tensor
    // rank's kv heads) pass cp - 1 times round the ring forward; backward they go round again
    // with their gradients beside them.
    const double kv = bf16_bytes * 2.0 * tokens * h * static_cast<double>(effective_kv_heads(m)) / m.heads / t;
    add_traffic(w, links, "context-parallel key/value blocks round the ring", GroupKind::context, CollectiveKind::send, kv,
                           l.cp - 1.0, (l.cp - 1.0) * (2.0 + again), Hiding::attention);
    // Expert parallel: each token's hidden vector goes to its top_k experts (dispatch) and comes
    // back (combine), an all-to-all each, forward and backward [Lepikhin et al. 2020, GShard].
    if (is_moe_layer(m, layer)) {
        const double routed = bf16_bytes * tokens / (l.sequence_parallel ? t : 1.0) * static_cast<double>(m.top_k) * h;
        add_traffic(w, links, "expert-parallel all-to-alls (dispatch and combine)", GroupKind::experts,
                               CollectiveKind::all_to_all, routed, 2, 2 + 2 * again, Hiding::none);
    }
    // ZeRO 3 gathers the layer's weights before its forward and its backward; ZeRO 2 and 3
    // reduce-scatter its gradients in every backward (PyTorch FSDP and DeepSpeed do not keep
    // whole gradients between micro-batches). Experts shard over their own replicas.
    if (l.zero_stage < 2) return;
    const LayerParameters p = layer_parameters(m, layer);
    const double shared = p.shared / t, experts = p.experts / (t * l.ep), grad = gradient_bytes_of(l);
    const double gathers = l.zero_stage == 3 ? 1.0 : 0.0;
    for (const auto& [group, params] : {std::pair{GroupKind::shard, shared}, {GroupKind::expert_data, experts}}) {
        add_traffic(w, links, "ZeRO all-gathers of the layer's weights", group, CollectiveKind::all_gather,
                               weight_bytes * params, gathers, gathers, Hiding::next_layer);
        add_traffic(w, links, "ZeRO reduce-scatters of the layer's gradients", group, CollectiveKind::reduce_scatter,
                               grad * params, 0, 1, Hiding::next_layer);
    }
    if (l.zero_stage == 3) {
        // PyTorch FSDP2 gathers into one flat buffer and copies each weight out of it (read and
        // write, bf16) before the forward and again before the backward; it copies the gradients
        // into the reduce-scatter's buffer, cast to the reduce type [PyTorch's FSDP2 tracker,
        // pytorch#114299; the all-gather's copy-in and copy-out, #117950]. Memory bound.
        const double params = shared + experts, hbm = setup.gpu.memory_bandwidth_Bps;
        w.forward_memory_s += 2.0 * weight_bytes * params / hbm;
        w.backward_memory_s += (2.0 * weight_bytes + weight_bytes + grad) * params / hbm;
    }
    if (l.hybrid_shard)  // each node's shard of the gradients, all-reduced across the nodes
        add_traffic(w, links, "hybrid-shard all-reduces of each node's gradient shard", GroupKind::replicas,
                               CollectiveKind::all_reduce, grad * shared / links.size(GroupKind::shard), 0, 1,
                               Hiding::next_layer);
}

}  // namespace

LayerWork layer_work(const EstimateSetup& setup, LayoutLinks& links, std::int64_t layer) {
    LayerWork w;
    add_compute(setup, layer, w);
    add_exchanges(setup, links, layer, w);
    return w;
}

// [SECTION] what overlap hides --------------------------------------------------------------

double exposed_seconds(const Traffic& t, double count, double compute_s, std::int64_t layers, bool overlap) {
    const double per_layer = count * t.seconds, n = static_cast<double>(layers);
    if (per_layer <= 0 || layers <= 0) return 0;
    switch (t.hiding) {
        case Hiding::none: return n * per_layer;
        case Hiding::matmuls:
        case Hiding::attention: return overlap ? n * std::max(0.0, per_layer - compute_s) : n * per_layer;
        case Hiding::next_layer:
            // One layer ahead (or behind), on its own stream beside compute: each layer's exchange
            // hides behind a neighbour's compute, passes back to back. Only the very first gather
            // and the very last reduce-scatter of a step have nothing beside them (update_tail_s).
            return overlap ? n * std::max(0.0, per_layer - compute_s) : n * per_layer;
    }
    return n * per_layer;
}

}  // namespace m2m::core::scale_detail
