// Fuzz target: `math-to-metal sim collective` (Lesson 2's ring all-reduce, all-gather or reduce-scatter), one flag or value a line.
#include "fuzz_sim.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return m2m::fuzz::fuzz_sim("collective", data, size);
}
