// A decoder-only transformer's size: parameters, FLOPs per token and activation bytes per layer,
// each the published formula generalised to GQA, SwiGLU, untied embeddings and no dropout.
#include "m2m/core/scale/transformer.hpp"

#include "m2m/core/engine/text.hpp"
#include "scale_parts.hpp"

namespace m2m::core {

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

}  // namespace

std::pair<double, double> scale_detail::split_activations(const TransformerShape& m, std::int64_t micro_batch, int tp,
                                            bool sequence_parallel, AttentionKernel kernel) {
    const LayerActivations a = layer_activations(m, micro_batch, kernel);
    const double t = tp;
    double linear = a.linear;
    if (tp > 1) linear = sequence_parallel ? a.linear / t : a.unsplit + (a.linear - a.unsplit) / t;
    return {linear, a.attention / t};
}

double activation_bytes_per_layer(const TransformerShape& m, std::int64_t micro_batch, int tp, bool sequence_parallel,
                                  Recompute recompute, AttentionKernel attention) {
    const auto [linear, scores] = scale_detail::split_activations(m, micro_batch, tp, sequence_parallel, attention);
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
