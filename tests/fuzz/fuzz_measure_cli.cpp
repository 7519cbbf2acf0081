// Fuzz target: `math-to-metal measure`'s flags, one a line. Only the parse step runs: a fuzzer
// must not open a GL context or spend seconds timing matrix multiplies.
#include <sstream>

#include "fuzz_input.hpp"
#include "m2m/core/layers/layer_run.hpp"
#include "measure/measure_cli.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace m2m;
    measure::CliOptions options;
    std::ostringstream out, err;
    const auto code = measure::parse_cli(fuzz::arguments(data, size), options, out, err);
    fuzz::check_cli_outcome(code, out.str(), err.str());
    if (!code) {  // accepted: what runs next must be within the limits the flags promise
        const measure::MeasureConfig& c = options.config;
        if (c.batch < 1 || c.batch > measure::max_batch || c.repeats < 1 || c.repeats > measure::max_repeats)
            fuzz::broken("--batch and --repeats stay within their ranges");
        for (int w : c.widths)
            if (w < 1 || w > core::max_layer_width) fuzz::broken("every accepted width is within 1 .. max_layer_width");
    }
    return 0;
}
