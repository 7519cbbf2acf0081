// `math-to-metal measure ...`: the three paths measured on this machine, printed as JSON or a table.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "measure/cpu_paths.hpp"

namespace m2m::measure {

/// What `math-to-metal measure`'s flags ask for.
struct CliOptions {
    MeasureConfig config;
    bool no_gpu = false;   ///< --no-gpu: the CPU paths alone
    bool as_json = false;  ///< --json instead of a table
};

/// The parse step alone (no display, no memory, no run; the fuzzer calls it): `args` starts after
/// "measure". Returns an exit code when the program should stop now (help printed: 0; bad input
/// reported in one line: 2), nullopt to go on.
std::optional<int> parse_cli(const std::vector<std::string>& args, CliOptions& options, std::ostream& out,
                             std::ostream& err);

/// `args` excludes the program name and starts at "measure". Exit codes as cli.hpp: 0 done,
/// 2 bad input, too big for memory, or no display for the GPU path without --no-gpu.
int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace m2m::measure
