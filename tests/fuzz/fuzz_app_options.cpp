// Fuzz target: the windowed app's flags (`math-to-metal --lesson ... --size ... --widths ...`),
// one a line, parsed as main() parses them; nothing opens a window.
#include <sstream>

#include "app/options.hpp"
#include "fuzz_input.hpp"
#include "lessons/catalog.hpp"
#include "m2m/core/layers/layer_run.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace m2m;
    app::Options o;
    std::ostringstream out, err;
    const auto code = app::parse_options(fuzz::arguments(data, size), o, out, err);
    fuzz::check_cli_outcome(code, out.str(), err.str());
    if (!code) {  // accepted: the window and Lesson 1 get what they can use
        if (o.width < 320 || o.width > 7680 || o.height < 240 || o.height > 4320) fuzz::broken("--size is within 320x240 .. 7680x4320");
        if (o.scale != 0 && !(o.scale >= 1.0f && o.scale <= 3.0f)) fuzz::broken("--scale is within 1 .. 3");
        if (!o.widths.empty() && !core::validate(core::Network{o.widths}).empty()) fuzz::broken("--widths is a valid network");
        if (o.cpu_cores > core::max_cores || o.gpu_cores > core::max_cores) fuzz::broken("core counts are within range");
    }
    return 0;
}
