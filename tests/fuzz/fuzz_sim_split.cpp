// Fuzz target: `math-to-metal sim split` (Lesson 3's next-word network split across GPUs), one flag or value a line.
#include "fuzz_sim.hpp"
#include "m2m/core/split/next_word.hpp"

// Training the network takes seconds under the sanitizers: done once before fuzzing starts, so it
// does not count against the first input's time limit.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
    (void)m2m::core::trained_next_word_model();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return m2m::fuzz::fuzz_sim("split", data, size);
}
