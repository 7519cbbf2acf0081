// Bytes of mixed-precision training (bf16 weights, gradients and activations, fp32 Adam state):
// the one source for Lesson 3's toy and the real-scale estimator.
#pragma once

#include "m2m/core/engine/units.hpp"

namespace m2m::core {

/// Mixed-precision Adam [Rajbhandari et al. 2020, ZeRO, sec. 3.1]: the kernels use a bf16 copy of
/// each weight and produce a bf16 gradient; the optimizer keeps an fp32 master weight, momentum
/// and variance. 2 + 2 + 12 = 16 bytes per parameter; ZeRO stage 1 splits the 12.
inline constexpr Bytes weight_bytes_per_parameter = 2;     ///< bf16
inline constexpr Bytes gradient_bytes_per_parameter = 2;   ///< bf16
inline constexpr Bytes optimizer_bytes_per_parameter = 12; ///< fp32 master weight, momentum, variance
/// bf16: activations kept from the forward pass for the backward, and every value on a wire.
inline constexpr Bytes activation_bytes_per_value = 2;

/// A parameter's whole training state: 16 bytes.
inline constexpr Bytes state_bytes_per_parameter =
    weight_bytes_per_parameter + gradient_bytes_per_parameter + optimizer_bytes_per_parameter;
/// Memory traffic of a fused Adam step per parameter it updates: it reads and writes the fp32
/// master weight, momentum and variance (2 x 12), reads the bf16 gradient and writes the bf16
/// weight: 28 bytes.
inline constexpr Bytes adam_step_bytes_per_parameter =
    2 * optimizer_bytes_per_parameter + gradient_bytes_per_parameter + weight_bytes_per_parameter;

}  // namespace m2m::core
