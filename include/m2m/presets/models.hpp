// Model presets read from assets/models.json (embedded at build time), and the GPU and CPU specs the estimator takes.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "m2m/core/scale/estimator.hpp"
#include "m2m/presets/presets.hpp"

namespace m2m::presets {

struct ModelPreset {
    core::TransformerShape shape;
    double published_parameters = 0;  ///< the size its authors quote
    std::string simplified;           ///< what the estimator leaves out of this model (MoE presets)
    std::vector<SourcedFigure> figures;
};

struct ModelCatalog {
    std::vector<ModelPreset> models;
    const ModelPreset* find(std::string_view id) const;
    std::vector<std::string> ids() const;
};

/// Parses a model preset document; throws PresetError with a one-line reason.
ModelCatalog parse_models(std::string_view json_text);
/// The models shipped in assets/models.json, parsed once.
const ModelCatalog& builtin_models();
/// "gpt2-small, gpt3-175b, ...": the ids --model accepts (without "custom").
std::string joined_model_ids();

/// The hardware preset id behind a name the estimator accepts ("a100-80gb" -> "a100");
/// empty when it is not a GPU with a BF16 rate, a memory size and a "gemm_efficiency".
std::string resolve_gpu_id(std::string_view id);
/// The GPU presets the estimator can take (a BF16 rate, a memory size, an efficiency constant,
/// a node), in the order of assets/hardware.json, without aliases; computed once.
const std::vector<std::string>& estimator_gpu_ids();
/// The ids and aliases --hardware accepts: "a100, a100-80gb, h100, h200, b200".
std::string joined_estimator_gpu_ids();
/// The GPU as the estimator needs it: BF16 peak, memory, bandwidth and the efficiency constant
/// ("gemm_efficiency") with its source, all from assets/hardware.json. nullopt for an unknown id.
std::optional<core::GpuSpec> estimator_gpu(std::string_view id);
/// Lesson 2's node wiring for that GPU (hardware.json "systems"). An H200 node is wired as a DGX
/// H100: the same NVLink 4, and 8x InfiniBand NDR 400 Gb/s per node (MLCommons system
/// descriptions). nullopt for an unknown id.
std::optional<core::SystemSpec> estimator_system(std::string_view gpu_id);
/// A model on a GPU type, ready for a layout: the setup the command line and lessons start from.
std::optional<core::EstimateSetup> estimator_setup(const core::TransformerShape& model, std::string_view gpu_id);
/// A CPU preset's sustained FP32 rate for the one-CPU-vs-one-GPU-vs-a-cluster comparison: its
/// peak times its "gemm_efficiency", the basis that figure's source. nullopt without one.
std::optional<core::SustainedRate> cpu_rate(std::string_view id);

}  // namespace m2m::presets

namespace m2m::core {

// The efficiency constants used to live in the core; they are data now (assets/hardware.json).
// These two keep Lesson 1's Real scale and Lesson 3's Frontier scale panels compiling until
// they call presets::gemm_efficiency(); then they go.
inline std::optional<EfficiencyConstant> achievable_fraction(std::string_view gpu_id) {
    return presets::gemm_efficiency(gpu_id);
}
/// The measured CPU figure (Core i7-6700) that the other CPU presets borrow.
inline EfficiencyConstant cpu_achievable_fraction() {
    return presets::gemm_efficiency("desktop-cpu").value_or(EfficiencyConstant{});
}

}  // namespace m2m::core
