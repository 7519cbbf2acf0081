// Lesson 1's roofline: a dense layer's FLOPs and bytes at a batch and precision, each machine's
// compute and memory roofs, and one layer's time on a machine (a fixed cost, then its neurons).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "m2m/core/engine/machine.hpp"
#include "m2m/core/engine/units.hpp"

namespace m2m::core {

inline constexpr int max_batch = 4096;

std::string_view precision_id(Precision p);     ///< "fp32", "bf16", "fp8"
std::string_view precision_label(Precision p);  ///< "FP32", "BF16", "FP8"
/// What a chip's matrix-multiply share is, in words: "its measured matrix-multiply share", "its
/// matrix-multiply share, fitted once to a training run", "a matrix-multiply share borrowed from
/// another chip (none was found for this one)", "no measured share: the peak itself".
std::string_view efficiency_words(const EfficiencyConstant& e);
std::optional<Precision> precision_from_id(std::string_view id);
/// Bytes one value takes: 4, 2 or 1.
int bytes_per_value(Precision p);

/// Where the weights are when a pass starts: in main memory (a first pass) or in the caches
/// that hold them from the pass before.
enum class CacheState { cold, warm };
std::string_view cache_id(CacheState c);  ///< "cold", "warm"

/// What limits a layer on a machine: its memory, its arithmetic, its fixed per-layer cost (the
/// GPU's kernel launch, the CPU's chain of dependent adds), or, in a plain one-accumulator loop,
/// the latency of every add waiting for the one before.
enum class Bound { memory, compute, launch, latency };
std::string_view bound_id(Bound b);  ///< "memory", "compute", "launch", "latency"
/// A plot's short label: "memory-bound", "compute-bound", "launch-bound" on a GPU but
/// "add-chain-bound" on a CPU (its fixed cost is a chain of dependent adds: no kernel launch), and
/// "add-latency-bound".
std::string_view bound_label(Bound b, bool gpu);

/// How the CPU sums a dot product: a tuned loop keeps enough partial sums to hide the add
/// latency; a plain loop keeps one, so every add waits for the one before.
enum class CpuLoop { tuned, plain };

/// One dense layer of n_in inputs and n_out neurons at batch B in a precision of b bytes:
/// FLOPs 2 n_in n_out B; bytes: weights n_in n_out b, inputs B n_in b, outputs B n_out b.
struct LayerCounts {
    double flops = 0;
    double weight_bytes = 0;
    double input_bytes = 0;
    double output_bytes = 0;
    double bytes() const { return weight_bytes + input_bytes + output_bytes; }
    double intensity() const { return flops / bytes(); }  ///< FLOPs per byte moved
};
LayerCounts layer_counts(int n_in, int n_out, int batch, Precision p);

/// The batch at which the layer's intensity reaches `ridge` FLOP/byte, solved from
/// 2 n_in n_out B = ridge b (n_in n_out + B (n_in + n_out)); nullopt when no batch does.
std::optional<double> ridge_batch(int n_in, int n_out, Precision p, double ridge);

/// One machine's roofs for a network, at a precision and a cache state.
struct Roof {
    double peak_flops = 0;      ///< the peak of the units that run the precision
    double compute_flops = 0;   ///< peak x the chip's one efficiency constant
    /// No units for the precision: it runs at the rate of the next wider one the chip has units
    /// for (FP8 on an A100's BF16 tensor cores, as weight-only FP8 kernels do on Ampere; BF16 on a
    /// laptop CPU's FP32 FMAs), its values still taking the precision's bytes.
    bool fallback = false;
    Precision runs_as = Precision::fp32;  ///< the precision whose units run it
    std::string units;          ///< the units that run it, e.g. "tensor cores"
    double bandwidth_Bps = 0;   ///< of the level the weights come from
    std::string level;          ///< "DRAM", "HBM", "L2", ...
    double level_bytes = 0;     ///< that level's capacity in play (0: main memory)
    double ridge() const { return compute_flops / bandwidth_Bps; }  ///< FLOP/byte
};

/// The cores whose caches hold the weights: each neuron's weights stay with the core that
/// computes it, so min(cores, widest layer).
std::uint32_t cores_in_play(std::uint32_t cores, int widest_layer);
/// The roofs of `spec` on `cores` cores for a network of `weight_bytes` of weights whose widest
/// layer has `widest` neurons. Compute: the share of the chip's roof those cores hold (all of it
/// from the chip's own count up; memory bandwidth stays the chip's, shared by them). Warm: the nearest cache level whose capacity in play (one
/// instance per `cores_sharing` cores in play) holds all the weights; else, and cold, main memory.
Roof machine_roof(const ComputeSpec& spec, std::uint32_t cores, Precision p, CacheState cache, double weight_bytes,
                  int widest);

/// The dependent adds on one dot product's critical path when its n products are summed into
/// k partial sums: ceil(n / k) adds into each, then ceil(log2 k) adds to combine them.
std::int64_t dependent_adds(int n, int partial_sums);
/// The partial sums a tuned loop keeps: FMA lanes x pipes (FP32 FLOP per cycle / 2) x the add
/// latency, the number in flight that hides the latency.
int tuned_partial_sums(const ComputeSpec& spec);
/// Seconds for `adds` dependent adds (0 when the spec gives no add latency).
double add_chain_seconds(const ComputeSpec& spec, std::int64_t adds);

/// One layer on one machine: a fixed cost, then `rounds` rounds of one neuron's task (each task
/// is one neuron's dot products for all B inputs, reading its weights once).
struct LayerTiming {
    SimTime fixed = 0;        ///< GPU: the kernel launch; CPU (tuned): one dot product's add chain
    SimTime task = 0;
    std::int64_t rounds = 0;  ///< ceil(neurons / cores)
    double fixed_s = 0;
    double compute_s = 0;     ///< one task's arithmetic at its cores' share of the compute roof
    double memory_s = 0;      ///< one task's share of the layer's bytes at its share of bandwidth
    double latency_s = 0;     ///< plain loop: one task's chains of dependent adds
    Bound bound = Bound::memory;
    SimTime total() const { return fixed + rounds * task; }
};
/// Compute: a task gets one core's share of the compute roof (`roof` is the `cores`' own, as
/// machine_roof gives it), or, when the layer has fewer neurons
/// than cores, as many cores as its B dot products can use (min(cores, n_out B) / n_out).
/// Memory: the busy tasks share the roof's bandwidth. The bound is the largest of the three.
LayerTiming layer_timing(const ComputeSpec& spec, std::uint32_t cores, const Roof& roof, int n_in, int n_out, int batch,
                         Precision p, CpuLoop loop = CpuLoop::tuned);

}  // namespace m2m::core
