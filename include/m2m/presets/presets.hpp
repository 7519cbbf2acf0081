// Hardware presets read from assets/hardware.json (embedded at build time), every figure
// with the source it came from, turned into the core's plain specs.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "m2m/core/engine/machine.hpp"
#include "m2m/core/rack/topology.hpp"

namespace m2m::presets {

/// A bad preset file: the message names the entry and field that is wrong.
struct PresetError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// One figure as a teacher would quote it: "Memory bandwidth: 3,350 GB/s", and where it is from.
struct SourcedFigure {
    std::string label;
    std::string value;
    std::string source;
};

struct ComputePreset {
    core::ComputeSpec spec;
    double bf16_flops = 0;      ///< dense tensor-core rate (GPUs), FLOP/s
    double memory_bytes = 0;    ///< GPU memory (0 when not given)
    /// "gemm_efficiency": the share of peak (dense BF16 on a GPU, FP32 on a CPU) that large matrix
    /// multiplies sustain, with its source; the estimator's one tuned figure per machine. Absent:
    /// the estimator cannot take this preset.
    std::optional<core::EfficiencyConstant> gemm_efficiency;
    std::vector<SourcedFigure> figures;
};

/// A node generation's wires (Lesson 2): NVLink inside the node, PCIe to each GPU's NIC,
/// InfiniBand to the leaf and spine. From hardware.json's "systems" list.
struct SystemPreset {
    core::SystemSpec spec;
    std::string gpu_id;                 ///< the compute preset of its GPUs, e.g. "h100"
    std::uint32_t nvswitch_chips = 0;   ///< NVSwitch chips per 8-GPU node (for drawing)
    std::vector<SourcedFigure> figures;
};

struct Catalog {
    std::vector<ComputePreset> compute;
    std::vector<SystemPreset> systems;
    const ComputePreset* find(std::string_view id) const;
    std::vector<std::string> ids(core::ResourceKind kind) const;
    const SystemPreset* find_system(std::string_view id) const;
    std::vector<std::string> system_ids() const;
};

/// Parses a preset document; throws PresetError with a one-line reason.
Catalog parse_catalog(std::string_view json_text);
/// The presets shipped in assets/hardware.json, parsed once.
const Catalog& builtin();
/// "a, b, c": the ids a flag accepts, for error messages.
std::string joined_ids(core::ResourceKind kind);
/// "a100, h100, b200": the system presets --hardware accepts.
std::string joined_system_ids();
/// The built-in compute preset's "gemm_efficiency"; nullopt for an unknown id or a preset without one.
std::optional<core::EfficiencyConstant> gemm_efficiency(std::string_view id);

}  // namespace m2m::presets
