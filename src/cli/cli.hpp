// The headless command line: `math-to-metal sim ...` runs the core and prints JSON.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace m2m::cli {

/// Exit codes: 0 done, 2 bad input (one line on stderr saying what and what is accepted).
inline constexpr int exit_ok = 0;
inline constexpr int exit_bad_input = 2;

/// `args` excludes the program name and starts at "sim".
int run_sim(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

/// Parses `args` with `app`; returns an exit code when the program should stop now
/// (help printed: 0; bad input reported in one line: 2), nullopt to go on.
std::optional<int> parse_or_exit(CLI::App& app, const std::vector<std::string>& args, std::ostream& out,
                                 std::ostream& err);

// One function per subcommand, each in its own file.
int sim_layers(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int sim_transfer(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int sim_collective(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int sim_split(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int sim_estimate(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace m2m::cli
