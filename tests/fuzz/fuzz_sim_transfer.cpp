// Fuzz target: `math-to-metal sim transfer` (Lesson 2's tensor sent between two GPUs of a cluster), one flag or value a line.
#include "fuzz_sim.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return m2m::fuzz::fuzz_sim("transfer", data, size);
}
