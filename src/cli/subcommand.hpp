// What every `sim` subcommand shares: the --json flag, printing its one JSON object, and the
// one-line refusal that names the flag to change.
#pragma once

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <string_view>

#include "cli/cli.hpp"

namespace m2m::cli {

/// --json: JSON is the only output format; the flag is accepted so that scripts read clearly.
inline void add_json_flag(CLI::App& app) {
    static const std::string what = "print one JSON object (the only output format)";
    app.add_flag("--json", what);
}

/// Prints the subcommand's one JSON object. Bytes that are not UTF-8 (a prompt echoed back) are
/// written as U+FFFD: a plain dump() throws on them and the program would abort (found by
/// fuzz_sim_split).
inline int print_json(std::ostream& out, const nlohmann::json& j) {
    out << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    return exit_ok;
}

/// "<me>: <flag>: <message>" on one line of `err`; returns the exit code for bad input.
inline int refuse(std::ostream& err, std::string_view me, std::string_view flag, std::string_view message) {
    err << me << ": " << flag << ": " << message << "\n";
    return exit_bad_input;
}

}  // namespace m2m::cli
