// `math-to-metal measure ...`: the three paths measured on this machine, printed as JSON or a table.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace m2m::measure {

/// `args` excludes the program name and starts at "measure". Exit codes as cli.hpp: 0 done,
/// 2 bad input, too big for memory, or no display for the GPU path without --no-gpu.
int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace m2m::measure
