// A decoder-only transformer's size: parameters, FLOPs per token and activation bytes per layer,
// each the published formula generalised to GQA, SwiGLU, untied embeddings, no dropout and
// mixtures of experts.
//
// [SECTION] shape   [SECTION] parameters   [SECTION] FLOPs   [SECTION] activations
#include "m2m/core/scale/transformer.hpp"

#include "m2m/core/engine/text.hpp"
#include "scale_parts.hpp"

namespace m2m::core {

// [SECTION] shape ---------------------------------------------------------------------------

std::int64_t effective_kv_heads(const TransformerShape& m) { return m.kv_heads > 0 ? m.kv_heads : m.heads; }
std::int64_t effective_ffn_hidden(const TransformerShape& m) { return m.ffn_hidden > 0 ? m.ffn_hidden : 4 * m.hidden; }
std::int64_t effective_expert_ffn(const TransformerShape& m) { return m.expert_ffn > 0 ? m.expert_ffn : effective_ffn_hidden(m); }
bool is_moe_layer(const TransformerShape& m, std::int64_t layer) { return m.moe() && layer >= m.dense_layers; }
std::int64_t moe_layer_count(const TransformerShape& m) { return m.moe() ? m.layers - m.dense_layers : 0; }

namespace {

std::string validate_experts(const TransformerShape& m) {
    if (m.experts < 0 || m.experts > 4096) return "experts: must be a whole number from 0 (dense) to 4,096";
    if (!m.moe()) {
        if (m.top_k != 0 || m.expert_ffn != 0 || m.shared_experts != 0 || m.dense_layers != 0)
            return "experts: top-k, expert width, shared experts and dense layers need a number of experts";
        return {};
    }
    if (m.top_k < 1 || m.top_k > m.experts)
        return "top_k: must be a whole number from 1 to the number of experts (" + format_count(m.experts) + ")";
    if (m.expert_ffn < 0 || m.expert_ffn > 10'000'000) return "expert_ffn: must be a whole number up to 10,000,000";
    if (m.shared_experts < 0 || m.shared_experts > 64) return "shared_experts: must be a whole number from 0 to 64";
    if (m.dense_layers < 0 || m.dense_layers >= m.layers)
        return "dense_layers: must leave at least one mixture-of-experts layer (fewer than " + format_count(m.layers) + ")";
    return {};
}

}  // namespace

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
    return validate_experts(m);
}

// [SECTION] parameters ----------------------------------------------------------------------

namespace {

// One MLP of inner width f: two matrices (GeLU) or three (SwiGLU), and their biases.
std::int64_t mlp_matmul(const TransformerShape& m, std::int64_t f) { return (m.mlp == MlpKind::swiglu ? 3 : 2) * m.hidden * f; }
std::int64_t mlp_biases(const TransformerShape& m, std::int64_t f) {
    return m.biases ? (m.mlp == MlpKind::swiglu ? 2 * f : f) + m.hidden : 0;
}

// Attention's weights: Q and the output projection h x h, K and V h x kv_dim each (GQA), and
// their biases; the two norms of the layer.
std::int64_t attention_matmul(const TransformerShape& m) {
    const std::int64_t h = m.hidden, kv_dim = h / m.heads * effective_kv_heads(m);
    return 2 * h * h + 2 * h * kv_dim;
}
std::int64_t attention_and_norms_extra(const TransformerShape& m) {
    const std::int64_t h = m.hidden, kv_dim = h / m.heads * effective_kv_heads(m);
    const std::int64_t norm = m.biases ? 2 * h : h;  // layer norm: scale and shift; RMSNorm: scale only
    return (m.biases ? (h + 2 * kv_dim) + h : 0) + 2 * norm;
}

}  // namespace

LayerParameters layer_parameters(const TransformerShape& m, std::int64_t layer) {
    LayerParameters p;
    const double attention = static_cast<double>(attention_matmul(m));
    p.shared = attention + static_cast<double>(attention_and_norms_extra(m));
    if (!is_moe_layer(m, layer)) {
        const std::int64_t f = effective_ffn_hidden(m);
        p.shared += static_cast<double>(mlp_matmul(m, f) + mlp_biases(m, f));
        p.matmul_active = attention + static_cast<double>(mlp_matmul(m, f));
        return p;
    }
    const std::int64_t fe = effective_expert_ffn(m);
    const double expert = static_cast<double>(mlp_matmul(m, fe) + mlp_biases(m, fe));
    const double router = static_cast<double>(m.hidden * m.experts);  // one score per expert per token
    p.shared += router + static_cast<double>(m.shared_experts) * expert;
    p.experts = static_cast<double>(m.experts) * expert;
    p.matmul_active = attention + router + static_cast<double>(m.top_k + m.shared_experts) * static_cast<double>(mlp_matmul(m, fe));
    return p;
}

ParameterCount count_parameters(const TransformerShape& m) {
    const std::int64_t h = m.hidden;
    const std::int64_t norm = m.biases ? 2 * h : h;
    ParameterCount p;
    const std::int64_t last = m.layers - 1;  // a MoE layer when the model has any
    const LayerParameters lp = layer_parameters(m, last);
    p.matmul_per_layer = attention_matmul(m) + (is_moe_layer(m, last)
                                                    ? h * m.experts + (m.experts + m.shared_experts) * mlp_matmul(m, effective_expert_ffn(m))
                                                    : mlp_matmul(m, effective_ffn_hidden(m)));
    p.per_layer = static_cast<std::int64_t>(lp.shared + lp.experts);
    p.experts_per_layer = static_cast<std::int64_t>(lp.experts);
    p.embeddings = m.vocab * h + (m.learned_positions ? m.seq * h : 0) + (m.tied_embeddings ? 0 : m.vocab * h) + norm;
    std::int64_t layers = 0, active = 0;
    for (std::int64_t i = 0; i < m.layers; ++i) {
        const LayerParameters li = i == last ? lp : layer_parameters(m, i);
        layers += static_cast<std::int64_t>(li.shared + li.experts);
        active += static_cast<std::int64_t>(li.matmul_active);
    }
    p.total = layers + p.embeddings;
    p.active = active + p.embeddings;
    return p;
}

// [SECTION] FLOPs ---------------------------------------------------------------------------

namespace {

// Weights of the matrix multiplies one token passes through, over every layer.
double active_matmul_weights(const TransformerShape& m) {
    double sum = 0;
    for (std::int64_t i = 0; i < m.layers; ++i) sum += layer_parameters(m, i).matmul_active;
    return sum;
}

}  // namespace

double model_flops_per_token(const TransformerShape& m) {
    const double l = static_cast<double>(m.layers), s = static_cast<double>(m.seq), h = static_cast<double>(m.hidden);
    // 2 FLOPs per weight per token forward, 4 backward; attention scores and weighted values
    // add 4 s h per layer forward (QK^T and AV, 2 s h each) [Korthikanti et al. 2022, sec. 6].
    return 6.0 * (active_matmul_weights(m) + static_cast<double>(m.vocab) * h) + 12.0 * l * s * h;
}

double hardware_flops_per_token(const TransformerShape& m, Recompute recompute, AttentionKernel attention) {
    const double l = static_cast<double>(m.layers), s = static_cast<double>(m.seq), h = static_cast<double>(m.hidden);
    const double scores = 4.0 * l * s * h;  // the attention core's forward: QK^T and AV
    double extra = 0;
    if (attention == AttentionKernel::flash) extra += scores;  // its backward recomputes the scores
    if (recompute == Recompute::selective) extra += scores;  // Megatron-Core recomputes the core, either kernel
    if (recompute == Recompute::full) extra += 2.0 * active_matmul_weights(m) + scores;  // every layer's forward again
    return model_flops_per_token(m) + extra;
}

// [SECTION] activations ---------------------------------------------------------------------

namespace {

// Korthikanti et al. 2022, sec. 4.1, bytes of one layer for one micro-batch, split into the part
// linear in s b h and the attention-score part 5 a s^2 b (softmax output 2, dropout mask 1,
// dropout output 2 bytes per score). The linear part is 34 s b h for GPT: attention 11
// (QKV input 2, Q and K 4, V 2, projection input 2, dropout mask 1), MLP 19 (input 2, GeLU
// input 8, GeLU output 8, dropout mask 1), two layer norms 4. Here K and V shrink by
// kv_heads/heads, the GeLU terms are 4 s b f for any width f, SwiGLU keeps its two inputs and
// its output (6 s b f), and without dropout the masks and the dropout output go (2 a s^2 b left).
// A MoE layer's MLP keeps, per token, its router input 2h, top_k dispatched copies of it (2h
// each), each chosen expert's activation tensors, and top_k expert outputs before the combine.
struct LayerActivations {
    double linear = 0;     ///< bytes linear in s b h, whole layer, no parallelism
    double unsplit = 0;    ///< of which tensor parallelism alone does not split
    double attention = 0;  ///< the a s^2 b part (0 with flash attention)
};

double mlp_activation_per_token(const TransformerShape& m, std::int64_t f) {
    return (m.mlp == MlpKind::swiglu ? 6.0 : 4.0) * static_cast<double>(f);
}

LayerActivations layer_activations(const TransformerShape& m, std::int64_t micro_batch, AttentionKernel kernel,
                                   std::int64_t layer) {
    const double s = static_cast<double>(m.seq), b = static_cast<double>(micro_batch);
    const double h = static_cast<double>(m.hidden), sb = s * b, sbh = sb * h;
    const double kv_ratio = static_cast<double>(effective_kv_heads(m)) / static_cast<double>(m.heads);
    const double mask = m.dropout ? 1.0 : 0.0;
    const double attention_linear = sbh * (2.0 + 2.0 + 4.0 * kv_ratio + 2.0 + mask);
    double mlp = sbh * (2.0 + mask);
    if (is_moe_layer(m, layer)) {
        const double k = static_cast<double>(m.top_k), expert = mlp_activation_per_token(m, effective_expert_ffn(m));
        mlp += sb * (k * (4.0 * h + expert) + static_cast<double>(m.shared_experts) * expert);
    } else {
        mlp += sb * mlp_activation_per_token(m, effective_ffn_hidden(m));
    }
    LayerActivations a;
    a.linear = attention_linear + mlp + 4.0 * sbh;
    a.unsplit = sbh * (4.0 + 2.0 * mask + 4.0);  // layer-norm inputs, dropout masks, inputs to QKV and the MLP
    if (kernel == AttentionKernel::standard)
        a.attention = (m.dropout ? 5.0 : 2.0) * static_cast<double>(m.heads) * s * s * b;
    return a;
}

}  // namespace

std::pair<double, double> scale_detail::split_activations(const TransformerShape& m, std::int64_t micro_batch, int tp,
                                                          bool sequence_parallel, AttentionKernel kernel,
                                                          std::int64_t layer) {
    const LayerActivations a = layer_activations(m, micro_batch, kernel, layer < 0 ? m.layers - 1 : layer);
    const double t = tp;
    double linear = a.linear;
    if (tp > 1) linear = sequence_parallel ? a.linear / t : a.unsplit + (a.linear - a.unsplit) / t;
    return {linear, a.attention / t};
}

double activation_bytes_per_layer(const TransformerShape& m, std::int64_t micro_batch, int tp, bool sequence_parallel,
                                  Recompute recompute, AttentionKernel attention, std::int64_t layer) {
    const auto [linear, scores] =
        scale_detail::split_activations(m, micro_batch, tp, sequence_parallel, attention, layer);
    switch (recompute) {
        case Recompute::none: return linear + scores;
        case Recompute::selective: return linear;
        case Recompute::full: {
            // Only the layer's input is kept: 2 s b h [Korthikanti, Table 2]; with sequence
            // parallelism that input is itself split along the sequence, so 2 s b h / t.
            const double input = scale_detail::bf16_bytes * static_cast<double>(m.seq * micro_batch * m.hidden);
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

}  // namespace m2m::core
