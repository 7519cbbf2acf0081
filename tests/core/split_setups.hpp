// Lesson 3's set-ups for the core's tests: a strategy on G GPUs of a preset node, its figures from
// the built-in presets (test_split*.cpp share it).
#pragma once

#include <catch2/catch.hpp>

#include "m2m/core/split/split.hpp"
#include "m2m/presets/presets.hpp"

namespace m2m::test {

inline core::SplitSetup split_setup(core::Strategy s, int gpus, int micro_batches = 4,
                                    core::Placement placement = core::Placement::one_node,
                                    core::SplitTiming timing = core::SplitTiming::lesson, const char* hardware = "h100") {
    core::SplitSetup setup;
    setup.strategy = s;
    setup.gpus = gpus;
    setup.micro_batches = micro_batches;
    setup.placement = placement;
    setup.timing = timing;
    const auto* system = presets::builtin().find_system(hardware);
    REQUIRE(system);
    const auto* gpu = presets::builtin().find(system->gpu_id);
    REQUIRE(gpu);
    setup.hardware.system = system->spec;
    setup.hardware.gpu = gpu->spec;
    setup.hardware.tensor_flops = gpu->bf16_flops;
    return setup;
}

}  // namespace m2m::test
