// A compute machine as the lessons model it: identical cores sharing one memory.
#pragma once

#include <cstdint>
#include <string>

#include "m2m/core/engine/work_graph.hpp"

namespace m2m::core {

/// A CPU or a GPU reduced to the figures the roofline needs. Every figure comes from a
/// preset that names its source (assets/hardware.json), so `source` travels with it.
struct ComputeSpec {
    std::string id;    ///< preset key, e.g. "h100"
    std::string name;  ///< shown to the user, e.g. "NVIDIA H100 SXM"
    ResourceKind kind = ResourceKind::cpu_core;
    std::uint32_t cores = 1;
    double flops_per_core = 1.0;        ///< FP32 FLOP/s one core can sustain at peak
    double memory_bandwidth_Bps = 1.0;  ///< bytes/s of main memory, shared by all cores
    double layer_overhead_s = 0.0;      ///< per layer: kernel launch and grid-wide sync (GPUs)
    std::string source;                 ///< where the figures come from
};

/// The share of a machine's peak that its large matrix multiplies sustain, with where that figure
/// comes from (assets/hardware.json, "gemm_efficiency" of each compute preset).
struct EfficiencyConstant {
    double fraction = 0;
    std::string source;
};

}  // namespace m2m::core
