// Fuzz target: `math-to-metal sim layers` (Lesson 1's network run layer by layer on a CPU and a GPU), one flag or value a line.
#include "fuzz_sim.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return m2m::fuzz::fuzz_sim("layers", data, size);
}
