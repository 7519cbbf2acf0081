// A real-scale training setup: one GPU type, how N GPUs split the work (tensor x context x pipeline x
// data parallel, experts over the data-parallel ranks, micro-batches, schedule, recompute, ZeRO,
// overlap), and check(), which says what is wrong.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "m2m/core/engine/pipeline_schedule.hpp"
#include "m2m/core/rack/topology.hpp"
#include "m2m/core/scale/transformer.hpp"

namespace m2m::core {

// One GPU type (its links are Lesson 2's SystemSpec).

/// A GPU as the estimator needs it; presets::estimator_gpu() fills it from assets/hardware.json.
struct GpuSpec {
    std::string id;    ///< "a100", "h100", "h200", "b200"
    std::string name;
    double peak_bf16_flops = 0;       ///< dense tensor-core rate, FLOP/s
    double memory_bytes = 0;          ///< HBM capacity
    double memory_bandwidth_Bps = 0;  ///< HBM bandwidth
    /// The one efficiency constant of a GPU type: the fraction of dense BF16 peak its large matrix
    /// multiplies sustain in training, the same for every model and layout; everything else
    /// (memory-bound kernels, collectives, sends, the bubble, the optimizer) is modelled apart.
    double achievable_fraction = 0;
    std::string achievable_source;  ///< where achievable_fraction comes from (hardware.json)
};

/// How N GPUs share the work: tensor x context x pipeline x data parallel, experts spread over the
/// data-parallel ranks, and how a step is cut up. GPUs are ranked as Megatron-LM ranks them:
/// tensor fastest, then context, then data (expert-parallel groups are consecutive data ranks),
/// then pipeline stage.
struct Layout {
    int gpus = 1;
    int tp = 1;  ///< tensor parallel: splits every layer's matrices (NVLink when <= a node)
    int pp = 1;  ///< pipeline parallel: consecutive layers on different GPUs
    int dp = 1;  ///< data parallel: replicas, each on its share of the batch
    int cp = 1;  ///< context parallel: splits every sequence; keys and values pass round a ring
    int ep = 1;  ///< expert parallel: a MoE layer's experts split over ep data-parallel ranks (divides dp)
    std::int64_t micro_batch = 1;   ///< sequences per micro-batch
    std::int64_t global_batch = 1;  ///< sequences per optimizer step, over all replicas
    PipelineSchedule schedule = PipelineSchedule::one_f_one_b;  ///< engine/pipeline_schedule.hpp
    int chunks = 2;  ///< interleaved: model chunks (virtual stages) per GPU
    Recompute recompute = Recompute::selective;
    AttentionKernel attention = AttentionKernel::standard;
    /// ZeRO [Rajbhandari et al. 2020] over the data-parallel replicas: 1 splits the optimizer
    /// state, 2 the gradients too, 3 the weights too (PyTorch FSDP's full shard: each layer's
    /// weights are all-gathered before its forward and its backward, its gradients reduce-scattered).
    int zero_stage = 0;
    /// Hybrid sharding (FSDP's HYBRID_SHARD, ZeRO++'s hpZ): shard over the data-parallel ranks of
    /// one node, replicate across nodes (gradients then also all-reduced across the nodes).
    bool hybrid_shard = false;
    /// Communication overlapped with compute: the gradient sync in buckets during the backward
    /// pass, ZeRO 3's all-gathers one layer ahead, pipeline sends beside the next pass, context
    /// parallelism's key/value blocks during attention. Off: each waits for, and blocks, compute.
    bool overlap = true;
    /// Tensor-parallel collectives overlapped with their matrix multiplies (Megatron's
    /// --tp-comm-overlap, PyTorch's async TP), but for the last of Transformer Engine's 4 splits of
    /// each forward reduce-scatter; off by default, as in Megatron-LM.
    bool tp_overlap = false;
    /// Each pipeline chunk's received input freed once its first norm has read it, the norm keeping
    /// its output for the backward pass instead (Apex's memory-efficient norms do this): what Meta
    /// did to train Llama 3 405B without activation checkpointing [Llama 3 paper, sec. 3.3.2:
    /// "proactively deallocate ... the input and output tensors of each pipeline stage"]. Saves one
    /// s x b x h bf16 tensor per chunk in flight; off by default, as in Megatron-LM, which keeps it.
    bool free_stage_inputs = false;
    /// Gradients accumulated over the micro-batches and reduced in fp32 (4 bytes a parameter):
    /// Megatron-LM forces it for bf16 training ("bfloat16 requires gradient accumulation and
    /// all-reduce to be done in fp32", arguments.py until --grad-reduce-in-bf16 in 2025), PyTorch
    /// FSDP2 reduces in fp32 by default, and Meta trained Llama 3 so [Llama 3 paper, sec. 3.3.2].
    /// Off: bf16 gradients, 2 bytes, as the ZeRO paper counts them and fp16 Megatron-LM kept them.
    bool fp32_gradients = false;
    /// Eager PyTorch (torchtitan with compile off): rotary embeddings run as separate fp32 kernels
    /// (cast, complex multiply, cast back) and SwiGLU as a SiLU then a multiply, where Megatron
    /// fuses each into one pass. Off: fused, as Megatron-Core and torch.compile run them.
    bool eager_kernels = false;
    bool sequence_parallel = true;  ///< with tp > 1 (Megatron's default with selective recompute)
    std::int64_t micro_batches() const { return dp > 0 && micro_batch > 0 ? global_batch / (dp * micro_batch) : 0; }
    bool operator==(const Layout&) const = default;
};

struct EstimateSetup {
    TransformerShape model;
    GpuSpec gpu;
    SystemSpec system;                 ///< Lesson 2's node: NVLink, PCIe and InfiniBand figures
    std::uint32_t gpus_per_node = 8;
    std::uint32_t nodes_per_rack = 8;  ///< nodes under one leaf switch (Lesson 2's ClusterShape)
    Layout layout;
    double train_tokens = 0;  ///< > 0: also report the days to train on this many tokens
};

/// What is wrong with a setup: `field` is the layout or shape member at fault ("tp", "dp",
/// "global_batch", "layers", ...), `message` one sentence saying what is accepted.
struct SetupProblem {
    std::string field;
    std::string message;
};
std::optional<SetupProblem> check(const EstimateSetup& setup);

/// The layout in words, every dimension the search chooses: "TP 8 x CP 1 x PP 16 x DP 64,
/// micro-batch 1, 1F1B, selective recompute, ZeRO-1, flash attention" (EP, interleaved chunks,
/// hybrid sharding and overlap off only where they apply).
std::string layout_words(const Layout& l);

}  // namespace m2m::core
