// Fuzz target: `math-to-metal sim collective` (Lesson 2's collectives as NCCL runs them), one flag or value a line.
#include "fuzz_sim.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return m2m::fuzz::fuzz_sim("collective", data, size);
}
