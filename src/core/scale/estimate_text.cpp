// What an estimate counts and what it leaves out, in sentences with the setup's own figures.
#include <string>
#include <vector>

#include "m2m/core/engine/text.hpp"
#include "m2m/core/scale/step_estimate.hpp"
#include "scale_parts.hpp"

namespace m2m::core {

namespace {

std::string link_word(LinkType t) { return t == LinkType::infiniband ? "InfiniBand" : "NVLink"; }

std::string compute_sentence(const EstimateSetup& setup) {
    const GpuSpec& gpu = setup.gpu;
    return "Matrix multiplies and attention run at " + format_percent(gpu.achievable_fraction, 0) + " of the " + gpu.name +
           "'s dense BF16 peak (" + format_fixed(gpu.peak_bf16_flops / 1e12, 0) +
           " TFLOP/s), one constant for this GPU type" +
           (gpu.achievable_source.empty() ? "." : " (" + gpu.achievable_source + ").") +
           " Memory-bound kernels (norms, activation functions, softmax, dropout, the experts' token shuffles) move "
           "each saved activation byte twice forward and four times backward, and the loss (Megatron-Core's "
           "cross entropy, one kernel per step) 52 bytes per logit, at " +
           format_rate_GBps(gpu.memory_bandwidth_Bps / 1e9) + "." +
           (setup.layout.eager_kernels
                ? " Eager kernels: rotary embeddings and SwiGLU run op by op as torchtitan writes them, 16 more bytes "
                  "per query and key element each way and 4 (6 backward) per SwiGLU element than fused kernels."
                : "") +
           (setup.layout.zero_stage == 3
                ? " FSDP copies each gathered layer out of its buffer before the forward and the backward, and the "
                  "gradients into the reduce-scatter's (PyTorch FSDP2)."
                : "");
}

std::string flops_sentence(const EstimateSetup& setup) {
    const Layout& l = setup.layout;
    return "Model FLOPs per token: 6 x (the weights a token multiplies + V h) + 12 l s h (Korthikanti et al. 2022; "
           "a mixture of experts counts its top-k and shared experts only); hardware FLOPs also count " +
           [&] {  // what runs a second time, in words that read with "none" too
               const bool flash = l.attention == AttentionKernel::flash, again = l.recompute != Recompute::none;
               const std::string recompute = std::string(recompute_name(l.recompute)) + " recompute";
               if (flash && again) return "what flash attention's backward pass and " + recompute + " compute a second time.";
               if (flash) return std::string("what flash attention's backward pass computes a second time.");
               if (again) return "what " + recompute + " computes a second time.";
               return std::string("nothing more: without recompute and with standard attention nothing runs twice.");
           }() +
           (l.recompute == Recompute::selective
                ? " Selective recompute runs each layer's attention core forward again in the backward pass "
                  "(Megatron-Core checkpoints it whatever the kernel)."
                : "") +
           (l.attention == AttentionKernel::flash
                ? " The flash kernel skips the masked half of the causal scores and keeps them on chip; both FLOP counts "
                  "still count every score, as the papers do, so MFU and HFU can pass the share of peak the matrix "
                  "multiplies reach where attention is a large part of the work (long sequences)."
                : " Standard attention computes every score, writes them to memory and keeps them for the backward pass.");
}

std::string parallel_sentence(const EstimateSetup& setup, const LayoutLinks& links) {
    const Layout& l = setup.layout;
    std::string s =
        l.tp <= 1 ? "Tensor parallel: none (TP 1), so no layer's matrices are split and no collective runs inside a layer."
                  : "Tensor parallel: per layer, 2 all-gathers and 2 reduce-scatters forward and backward (sequence "
                    "parallel; 2 all-reduces each way without it) over " + link_word(links.tp_link()) +
                        (l.tp_overlap ? ", hidden behind the layer's matrix multiplies where they are longer, except the last "
                                        "quarter of each forward reduce-scatter (Transformer Engine splits its GEMM in 4)."
                                      : ", on the compute stream: nothing hides them (Megatron-LM's default).");
    if (l.cp > 1)
        s += " Context parallel: each GPU keeps 1/" + std::to_string(l.cp) +
             " of every sequence; its keys and values pass round the ring of " + std::to_string(l.cp) +
             " GPUs while attention works on the blocks at hand" + (l.overlap ? "." : " (no overlap: after them).");
    if (l.ep > 1)
        s += " Expert parallel: each MoE layer's experts are spread over " + std::to_string(l.ep) +
             " GPUs; tokens go to their experts and back by all-to-all, twice forward and twice backward, and compute "
             "waits for them.";
    return s;
}

std::string data_sentence(const EstimateSetup& setup, const LayoutLinks& links) {
    const Layout& l = setup.layout;
    static const char* const zero[] = {
        "every replica keeps the whole state; the gradients are all-reduced once a step",
        "the Adam state is split over the replicas; the gradients are reduce-scattered once a step and the updated "
        "weights all-gathered",
        "Adam state and gradients are split; every micro-batch's gradients are reduce-scattered layer by layer during "
        "its backward, and the updated weights all-gathered after the step",
        "weights, gradients and Adam state are split (FSDP's full shard); each layer's weights are all-gathered before "
        "its forward and again before its backward, one layer ahead, and its gradients reduce-scattered",
    };
    std::string s = "Data parallel (ZeRO-" + std::to_string(l.zero_stage) + "): " + zero[l.zero_stage] + ", over " +
                    link_word(links.dp_link()) + ".";
    if (l.hybrid_shard) s += " Hybrid sharding splits only inside a node and all-reduces each node's share across nodes.";
    s += l.overlap ? " Overlap: the sync runs in buckets of max(40M, 1M x dp) parameters (Megatron-Core's default) "
                     "beside the last backward pass, leaving the last bucket exposed; pipeline sends run beside the next pass."
                   : " Overlap is off: every sync and send waits for compute and compute waits for it.";
    return s + " Adam then moves " + std::to_string(adam_step_bytes_per_parameter) +
           " bytes per parameter it updates at HBM bandwidth.";
}

std::string memory_sentence(const EstimateSetup& setup, const Estimate& e) {
    const Layout& l = setup.layout;
    // fp32 gradients add 2 bytes, except that ZeRO 3 then keeps PyTorch FSDP2's fp32 shard as Adam's master copy.
    const std::string state =
        !l.fp32_gradients    ? "Memory: bf16 weights and gradients and fp32 Adam state, " + std::to_string(state_bytes_per_parameter)
        : l.zero_stage >= 3 ? "Memory: fp32 weight shards (gathered in bf16; PyTorch FSDP2's, Adam's master copy too), fp32 "
                               "gradients and Adam's two fp32 moments, 16"
                             : "Memory: bf16 weights, fp32 gradients (accumulated and reduced in fp32, Megatron-LM's bf16 "
                               "default) and fp32 Adam state, " + std::to_string(state_bytes_per_parameter + 2);
    return state + " bytes per parameter split as ZeRO-" + std::to_string(l.zero_stage) +
           " splits them (Rajbhandari et al. 2020); activations per Korthikanti et al. 2022 for the " +
           std::string(schedule_name(l.schedule)) + " schedule's " +
           format_significant(e.memory.in_flight_micro_batches, 3) +
           (e.memory.in_flight_micro_batches == 1 ? " micro-batch" : " micro-batches") + " in flight on the fullest stage" +
           (l.free_stage_inputs && l.pp > 1 && l.recompute != Recompute::full
                ? ", less each chunk's received input, freed once its first norm has read it (Meta, Llama 3 paper, "
                  "sec. 3.3.2)"
                : "") +
           "; plus " + format_bytes(framework_fixed_bytes) +
           " and 5% for what frameworks add (CUDA context and workspaces: ~0.4 GB per PyTorch's maintainers; "
           "NCCL buffers; allocator fragmentation, an assumption).";
}

}  // namespace

std::vector<std::string> estimate_assumptions(const EstimateSetup& setup, const Estimate& e, const LayoutLinks& links) {
    const Layout& l = setup.layout;
    std::vector<std::string> out = {
        compute_sentence(setup),
        flops_sentence(setup),
        parallel_sentence(setup, links),
        "Pipeline: one s x b x h bf16 tensor per stage boundary per micro-batch each way, 1/(tp cp) per GPU; the " +
            std::string(schedule_name(l.schedule)) + " schedule's ideal bubble is " + format_percent(e.bubble_fraction, 1) +
            " of the step; an uneven split gives its extra layers to the middle stages.",
        data_sentence(setup, links),
        memory_sentence(setup, e),
        "Links: " + setup.system.name + "; every exchange is timed on Lesson 2's ring and route model.",
        "Not modelled: kernel launch gaps, exchanges sharing a NIC, compute slowed by overlapped communication, network "
        "congestion, uneven expert load, stragglers, failures and restarts.",
    };
    if (setup.model.moe())
        out.push_back("Mixture of experts as modelled: a router, routed experts of equal width and perfectly even load; "
                      "shared experts are counted as always-active experts; attention is plain multi-head or grouped-query "
                      "attention (DeepSeek-V3's multi-head latent attention is modelled as ordinary attention with its head "
                      "count, which under-counts its attention FLOPs) and multi-token prediction is left out.");
    return out;
}

}  // namespace m2m::core
