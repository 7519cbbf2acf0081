// Lesson 1's roofline: FLOPs and bytes of a layer, each machine's roofs, one layer's time.
#include "m2m/core/layers/roofline.hpp"

#include <algorithm>
#include <cmath>

namespace m2m::core {

std::string_view precision_id(Precision p) {
    switch (p) {
    case Precision::fp32: return "fp32";
    case Precision::bf16: return "bf16";
    case Precision::fp8: return "fp8";
    }
    return "fp32";
}

std::string_view precision_label(Precision p) {
    switch (p) {
    case Precision::fp32: return "FP32";
    case Precision::bf16: return "BF16";
    case Precision::fp8: return "FP8";
    }
    return "FP32";
}

std::optional<Precision> precision_from_id(std::string_view id) {
    for (Precision p : {Precision::fp32, Precision::bf16, Precision::fp8})
        if (precision_id(p) == id) return p;
    return std::nullopt;
}

int bytes_per_value(Precision p) {
    switch (p) {
    case Precision::fp32: return 4;
    case Precision::bf16: return 2;
    case Precision::fp8: return 1;
    }
    return 4;
}

std::string_view cache_id(CacheState c) { return c == CacheState::cold ? "cold" : "warm"; }

std::string_view bound_id(Bound b) {
    switch (b) {
    case Bound::memory: return "memory";
    case Bound::compute: return "compute";
    case Bound::launch: return "launch";
    case Bound::latency: return "latency";
    }
    return "memory";
}

std::string_view efficiency_words(const EfficiencyConstant& e) {
    switch (e.basis) {
    case EfficiencyConstant::Basis::measured: return "its measured matrix-multiply share";
    case EfficiencyConstant::Basis::fitted: return "its matrix-multiply share, fitted once to a training run";
    case EfficiencyConstant::Basis::borrowed: return "a matrix-multiply share borrowed from another chip (none was found for this one)";
    case EfficiencyConstant::Basis::peak: break;
    }
    return "no measured share: the peak itself";
}

std::string_view bound_label(Bound b, bool gpu) {
    switch (b) {
    case Bound::memory: return "memory-bound";
    case Bound::compute: return "compute-bound";
    case Bound::launch: return gpu ? "launch-bound" : "add-chain-bound";
    case Bound::latency: return "add-latency-bound";
    }
    return "memory-bound";
}

LayerCounts layer_counts(int n_in, int n_out, int batch, Precision p) {
    const double in = n_in, out = n_out, b = batch, size = bytes_per_value(p);
    return {2.0 * in * out * b, in * out * size, b * in * size, b * out * size};
}

std::optional<double> ridge_batch(int n_in, int n_out, Precision p, double ridge) {
    // 2 n_in n_out B = R b (n_in n_out + B (n_in + n_out))  =>  B = R b n_in n_out / (2 n_in n_out - R b (n_in + n_out))
    const double in = n_in, out = n_out, b = bytes_per_value(p);
    const double denominator = 2.0 * in * out - ridge * b * (in + out);
    if (!(denominator > 0)) return std::nullopt;
    return ridge * b * in * out / denominator;
}

std::uint32_t cores_in_play(std::uint32_t cores, int widest_layer) {
    return std::max<std::uint32_t>(1, std::min<std::uint32_t>(cores, static_cast<std::uint32_t>(std::max(widest_layer, 1))));
}

Roof machine_roof(const ComputeSpec& spec, std::uint32_t cores, Precision p, CacheState cache, double weight_bytes,
                  int widest) {
    Roof roof;
    // The asked precision, else the next wider one with units: FP8, then BF16, then FP32 (which
    // every chip has: its cores x their FP32 rate where no units are named).
    roof.runs_as = p;
    while (roof.runs_as != Precision::fp32 && !(spec.rates[static_cast<std::size_t>(roof.runs_as)].flops > 0))
        roof.runs_as = roof.runs_as == Precision::fp8 ? Precision::bf16 : Precision::fp32;
    roof.fallback = roof.runs_as != p;
    const PrecisionRate& used = spec.rates[static_cast<std::size_t>(roof.runs_as)];
    roof.peak_flops = used.flops > 0 ? used.flops : spec.flops_per_core * spec.cores;
    roof.units = used.units.empty() ? "cores" : used.units;
    // The cores in use hold their share of the chip's peak: one core of four, a quarter.
    const double share = static_cast<double>(std::clamp<std::uint32_t>(cores, 1, std::max<std::uint32_t>(spec.cores, 1))) /
                         std::max<std::uint32_t>(spec.cores, 1);
    roof.peak_flops *= share;
    roof.compute_flops = roof.peak_flops * spec.efficiency.fraction;
    roof.bandwidth_Bps = spec.memory_bandwidth_Bps;
    roof.level = spec.kind == ResourceKind::gpu_core ? "HBM" : "DRAM";
    if (cache == CacheState::cold) return roof;
    const std::uint32_t in_play = cores_in_play(cores, widest);
    for (const CacheLevel& c : spec.caches) {
        const double instances = std::ceil(static_cast<double>(in_play) / std::max<std::uint32_t>(c.cores_sharing, 1));
        const double capacity = c.bytes * instances;
        if (capacity < weight_bytes) continue;
        roof.bandwidth_Bps = c.bandwidth_Bps * (c.per_core ? static_cast<double>(in_play) : instances);
        roof.level = c.name;
        roof.level_bytes = capacity;
        break;
    }
    return roof;
}

std::int64_t dependent_adds(int n, int partial_sums) {
    const std::int64_t k = std::max(partial_sums, 1);
    const std::int64_t into_each = (std::max(n, 1) + k - 1) / k;
    return into_each + static_cast<std::int64_t>(std::ceil(std::log2(static_cast<double>(k))));
}

int tuned_partial_sums(const ComputeSpec& spec) {
    if (!(spec.clock_Hz > 0)) return 1;
    const double fma_lanes = spec.flops_per_core / spec.clock_Hz / 2.0;  // lanes x pipes
    return std::max(1, static_cast<int>(std::lround(fma_lanes * std::max(spec.add_latency_cycles, 1.0))));
}

double add_chain_seconds(const ComputeSpec& spec, std::int64_t adds) {
    if (!(spec.add_latency_cycles > 0) || !(spec.clock_Hz > 0)) return 0;
    return static_cast<double>(adds) * spec.add_latency_cycles / spec.clock_Hz;
}

LayerTiming layer_timing(const ComputeSpec& spec, std::uint32_t cores, const Roof& roof, int n_in, int n_out, int batch,
                         Precision p, CpuLoop loop) {
    LayerTiming t;
    cores = std::max<std::uint32_t>(cores, 1);
    const auto neurons = static_cast<std::uint32_t>(std::max(n_out, 1));
    const LayerCounts counts = layer_counts(n_in, n_out, batch, p);
    t.rounds = (neurons + cores - 1) / cores;
    // The cores that share the bandwidth, on average over the rounds: a last round with idle cores
    // moves only its own neurons' bytes (charging it for every core made 4 cores slower than 3 on
    // 6 neurons), so a memory-bound layer moves all its bytes in bytes / bandwidth, however split.
    const double busy = static_cast<double>(neurons) / static_cast<double>(t.rounds);
    // Fewer neurons than cores: each neuron's B dot products spread over the idle cores too.
    const double spread = neurons < cores ? std::min<double>(cores, static_cast<double>(neurons) * batch) / neurons : 1.0;
    // The roof is the cores' own (machine_roof), so each core holds an equal part of it.
    const double per_core = roof.compute_flops / std::clamp<std::uint32_t>(cores, 1, std::max<std::uint32_t>(spec.cores, 1));
    t.compute_s = 2.0 * n_in * batch / (per_core * spread);
    t.memory_s = counts.bytes() / neurons * busy / roof.bandwidth_Bps;
    const bool plain = loop == CpuLoop::plain;
    // A plain loop: one input after the other, each dot product a chain of n_in dependent adds.
    if (plain) t.latency_s = static_cast<double>(batch) * add_chain_seconds(spec, dependent_adds(n_in, 1));
    t.fixed_s = spec.layer_overhead_s + (plain ? 0.0 : add_chain_seconds(spec, dependent_adds(n_in, tuned_partial_sums(spec))));
    const double task_s = std::max({t.compute_s, t.memory_s, t.latency_s});
    t.task = picoseconds_from_seconds(task_s);
    t.fixed = t.fixed_s > 0 ? picoseconds_from_seconds(t.fixed_s) : 0;
    if (t.fixed_s >= static_cast<double>(t.rounds) * task_s) t.bound = Bound::launch;
    else if (t.latency_s >= std::max(t.compute_s, t.memory_s)) t.bound = Bound::latency;
    else t.bound = t.compute_s >= t.memory_s ? Bound::compute : Bound::memory;
    return t;
}

}  // namespace m2m::core
