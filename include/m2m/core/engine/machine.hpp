// A compute machine as the lessons model it: identical cores sharing one memory.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "m2m/core/engine/work_graph.hpp"

namespace m2m::core {

/// The number format a network's weights and arithmetic use.
enum class Precision { fp32, bf16, fp8 };
inline constexpr std::size_t precision_count = 3;

/// One precision's whole-chip peak on the units that run it, with where the figure is from.
/// flops == 0: the chip has no units for this precision (it then runs it at its FP32 rate).
struct PrecisionRate {
    double flops = 0;
    std::string units;   ///< "tensor cores", "AVX2 FMA units", "AMX tiles"
    std::string source;
};

/// One cache level: weights that fit it (all instances in play together) are read at its speed
/// when the network runs again.
struct CacheLevel {
    std::string name;               ///< "L2"
    double bytes = 0;               ///< one instance's capacity
    std::uint32_t cores_sharing = 1;  ///< cores that share one instance (1: private to a core)
    double bandwidth_Bps = 0;       ///< per core in play (per_core) or per instance
    bool per_core = true;
    std::string source;
};

/// The share of a machine's peak that its large matrix multiplies sustain, with where that figure
/// comes from (assets/hardware.json, "gemm_efficiency" of each compute preset).
struct EfficiencyConstant {
    /// How the share was found; its source says which, in its first word.
    enum class Basis { peak, measured, fitted, borrowed };
    double fraction = 0;
    std::string source;
    Basis basis = Basis::peak;
};


/// A CPU or a GPU reduced to the figures the roofline needs. Every figure comes from a
/// preset that names its source (assets/hardware.json), so `source` travels with it.
struct ComputeSpec {
    std::string id;    ///< preset key, e.g. "h100"
    std::string name;  ///< shown to the user, e.g. "NVIDIA H100 SXM"
    ResourceKind kind = ResourceKind::cpu_core;
    std::uint32_t cores = 1;
    double flops_per_core = 1.0;        ///< FP32 FLOP/s one core can sustain at peak
    double memory_bandwidth_Bps = 1.0;  ///< bytes/s of main memory, shared by all cores
    double layer_overhead_s = 0.0;      ///< per layer: kernel launch (GPUs)
    std::string source;                 ///< where the figures come from
    // The roofline's further figures (Lesson 1 hardware mode); defaults leave a plain FP32 chip.
    std::array<PrecisionRate, precision_count> rates{};  ///< by Precision; empty FP32: cores x flops_per_core
    std::vector<CacheLevel> caches;     ///< nearest the cores first
    EfficiencyConstant efficiency{1.0, "no measured share: the peak itself", EfficiencyConstant::Basis::peak};
    double clock_Hz = 0;                ///< CPUs: the clock the add latency is counted in
    double add_latency_cycles = 0;      ///< CPUs: one floating-point add's latency; 0: not modelled
    std::string launch_source;          ///< where layer_overhead_s is from
};

}  // namespace m2m::core
