// The `math-to-metal sim <what>` targets: the fuzzer's lines are the flags after "sim <what>", run
// in-process exactly as main() runs them: parsed, checked and, when accepted, simulated.
#pragma once

#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/cli.hpp"
#include "fuzz_input.hpp"

namespace m2m::fuzz {

inline int fuzz_sim(const char* what, const std::uint8_t* data, std::size_t size) {
    std::vector<std::string> args{"sim", what};
    for (std::string& a : arguments(data, size)) args.push_back(std::move(a));
    std::ostringstream out, err;
    const int code = cli::run_sim(args, out, err);
    const std::string printed = out.str();
    check_cli_outcome(code, printed, err.str());
    // Exit 0 prints help text or one JSON object that parses.
    if (code == 0 && printed.front() == '{' && !nlohmann::json::accept(printed))
        broken("sim prints valid JSON", printed.substr(0, 400));
    return 0;
}

}  // namespace m2m::fuzz
