// A decoder-only transformer as the real-scale formulas see it: its shape (dense or mixture of
// experts), parameter and FLOP counts, and the activation bytes one layer keeps [Narayanan et al.
// 2021; Korthikanti et al. 2022; Fedus et al. 2022 for the experts].
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace m2m::core {

enum class MlpKind {
    gelu,   ///< two matrices, h -> ffn -> h (GPT-2, GPT-3, Megatron)
    swiglu  ///< three matrices: gate and up h -> ffn, down ffn -> h (Llama)
};

/// What the formulas need to know about a model; presets fill it from assets/models.json.
struct TransformerShape {
    std::string id = "custom";
    std::string name = "custom model";
    std::int64_t layers = 0;      ///< l
    std::int64_t hidden = 0;      ///< h
    std::int64_t heads = 0;       ///< a (query heads)
    std::int64_t kv_heads = 0;    ///< key/value heads (grouped-query attention); 0 means = heads
    std::int64_t ffn_hidden = 0;  ///< inner width of the MLP; 0 means 4h
    std::int64_t vocab = 0;       ///< V
    std::int64_t seq = 0;         ///< s, tokens per sequence
    MlpKind mlp = MlpKind::gelu;
    bool tied_embeddings = true;    ///< the output layer reuses the input embedding matrix
    bool learned_positions = true;  ///< a learned s x h position table (GPT) rather than RoPE (Llama)
    bool biases = true;             ///< linear layers and norms carry biases (GPT) or not (Llama)
    bool dropout = true;            ///< trained with dropout (its masks are kept for backward)
    // Mixture of experts [Shazeer et al. 2017; Fedus et al. 2022]: each MoE layer's MLP is `experts`
    // MLPs of width expert_ffn, and a router sends each token to `top_k` of them; `shared_experts`
    // more see every token (DeepSeek). The first `dense_layers` layers keep a dense MLP of ffn_hidden.
    std::int64_t experts = 0;         ///< routed experts per MoE layer; 0: a dense model
    std::int64_t top_k = 0;           ///< experts each token is routed to
    std::int64_t expert_ffn = 0;      ///< inner width of one expert's MLP; 0 means ffn_hidden
    std::int64_t shared_experts = 0;  ///< experts every token passes through as well
    std::int64_t dense_layers = 0;    ///< leading layers with a dense MLP (DeepSeek-V3: 3)
    bool moe() const { return experts > 0; }
};

/// Empty when the shape is usable, else "field: what is wrong" (field is layers, hidden, ...).
std::string validate(const TransformerShape& m);
std::int64_t effective_kv_heads(const TransformerShape& m);
std::int64_t effective_ffn_hidden(const TransformerShape& m);
std::int64_t effective_expert_ffn(const TransformerShape& m);
/// Whether layer i (0-based) has a mixture-of-experts MLP.
bool is_moe_layer(const TransformerShape& m, std::int64_t layer);
std::int64_t moe_layer_count(const TransformerShape& m);

struct ParameterCount {
    std::int64_t matmul_per_layer = 0;  ///< weights of a layer's matrix multiplies (MoE: a MoE layer's, every expert)
    std::int64_t per_layer = 0;         ///< + biases and norms (MoE: a MoE layer)
    std::int64_t embeddings = 0;        ///< token (and position) tables, plus an untied output matrix
    std::int64_t total = 0;
    std::int64_t experts_per_layer = 0; ///< MoE: the routed experts' weights in one MoE layer (in per_layer)
    std::int64_t active = 0;            ///< weights one token passes through (MoE: top_k + shared experts)
};
/// Exact count from the shape. GPT: 12 l h^2 + 13 l h + (V + s) h + 2h
/// [Narayanan et al. 2021, Eq. 2, plus the final layer norm].
ParameterCount count_parameters(const TransformerShape& m);

/// Parameters of layer i split by how they are sharded: `shared` is split by tensor parallelism
/// and copied by every data-parallel replica; `experts` (routed experts) are split over the
/// expert-parallel ranks too. `matmul_active` is the weights one token multiplies in that layer.
struct LayerParameters {
    double shared = 0;
    double experts = 0;
    double matmul_active = 0;
};
LayerParameters layer_parameters(const TransformerShape& m, std::int64_t layer);

/// Model FLOPs of one training token (forward + backward, no recompute):
/// 6 (l P_matmul + V h) + 12 l s h, which for GPT is 72 l h^2 (1 + s/(6h) + V/(12 l h))
/// [Korthikanti et al. 2022, sec. 6; the attention scores and softmax-times-values are 12 l s h].
/// For a mixture of experts P_matmul is what a token passes through: top_k + shared experts.
double model_flops_per_token(const TransformerShape& m);

enum class Recompute { none, selective, full };

/// How attention is computed. standard: the s x s scores are written to memory and kept for
/// the backward pass (Megatron-LM in 2022, what Korthikanti et al. measured); flash: a fused
/// kernel that never stores them and recomputes them in its backward pass [Dao et al. 2022].
enum class AttentionKernel { standard, flash };

/// Hardware FLOPs of one token: model FLOPs plus what is computed twice. Selective recompute
/// and flash attention redo the attention scores (4 l s h); full recompute redoes every
/// layer's forward pass, so 72 -> 96 in the GPT formula [Narayanan et al. 2021, Eq. 3].
double hardware_flops_per_token(const TransformerShape& m, Recompute recompute,
                                AttentionKernel attention = AttentionKernel::standard);

/// Activation bytes one layer keeps for one micro-batch on one GPU [Korthikanti et al. 2022,
/// sec. 4]: 34 s b h + 5 a s^2 b without parallelism; with tensor parallel t,
/// s b h (10 + 24/t + 5 a s/(h t)); with sequence parallelism (s b h/t)(34 + 5 a s/h);
/// selective recompute (or flash attention) drops the a s^2 b term; full recompute keeps the
/// layer input, 2 s b h (/t with sequence parallelism). GQA, other FFN widths, SwiGLU and
/// training without dropout are the same accounting with the tensors resized or removed. A MoE
/// layer keeps, per token, top_k dispatched copies of its input and of its output and each
/// expert's SwiGLU (or GeLU) tensors. This is layer `layer`'s figure (default: the last layer).
double activation_bytes_per_layer(const TransformerShape& m, std::int64_t micro_batch, int tp,
                                  bool sequence_parallel, Recompute recompute,
                                  AttentionKernel attention = AttentionKernel::standard, std::int64_t layer = -1);

std::string_view recompute_name(Recompute r);         ///< "none", "selective", "full"
std::string_view attention_name(AttentionKernel a);   ///< "standard", "flash"

}  // namespace m2m::core
