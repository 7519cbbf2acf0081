// Fuzz target: `math-to-metal sim estimate` (the training-step estimator and its layout search), one flag or value a line.
#include "fuzz_sim.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return m2m::fuzz::fuzz_sim("estimate", data, size);
}
