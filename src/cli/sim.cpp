// Dispatch of `math-to-metal sim <what>` and the one-line error convention all subcommands share.
#include <CLI/CLI.hpp>
#include <ostream>

#include "cli/cli.hpp"

namespace m2m::cli {

namespace {

struct Subcommand {
    const char* name;
    int (*run)(const std::vector<std::string>&, std::ostream&, std::ostream&);
    const char* what;
};

const Subcommand subcommands[] = {
    {"layers", sim_layers, "Lesson 1: a network layer by layer on a CPU and a GPU"},
    {"transfer", sim_transfer, "Lesson 2: a tensor from one GPU to another, over NVLink or InfiniBand"},
    {"collective", sim_collective, "Lesson 2: a collective over N GPUs (all-reduce, all-gather, reduce-scatter, broadcast, all-to-all) as NCCL runs it"},
    {"split", sim_split, "Lesson 3: one next-word network split across GPUs (data, tensor, pipeline, 3d, fsdp)"},
    {"estimate", sim_estimate, "Real scale: one training step of a real model on a GPU cluster, or the best layouts"},
};

std::string accepted() {
    std::string out;
    for (const auto& s : subcommands) out += (out.empty() ? "" : ", ") + std::string(s.name);
    return out;
}

}  // namespace

std::optional<int> parse_or_exit(CLI::App& app, const std::vector<std::string>& args, std::ostream& out,
                                 std::ostream& err) {
    std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes them back to front
    try {
        app.parse(reversed);
    } catch (const CLI::CallForHelp&) {
        out << app.help();
        return exit_ok;
    } catch (const CLI::ParseError& e) {
        err << app.get_name() << ": " << e.what() << " (see '" << app.get_name() << " --help')\n";
        return exit_bad_input;
    }
    return std::nullopt;
}

int run_sim(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    if (args.size() < 2) {
        err << "math-to-metal sim: name a simulation (accepted: " << accepted() << "); usage: math-to-metal sim <"
            << accepted() << "> [options] --json\n";
        return exit_bad_input;
    }
    if (args[1] == "--help" || args[1] == "-h") {
        out << "usage: math-to-metal sim <" << accepted() << "> [options] --json\n";
        for (const auto& s : subcommands) out << "  " << s.name << "  " << s.what << "\n";
        return exit_ok;
    }
    for (const auto& s : subcommands)
        if (args[1] == s.name) return s.run(std::vector<std::string>(args.begin() + 2, args.end()), out, err);
    err << "math-to-metal sim: unknown simulation '" << args[1] << "' (accepted: " << accepted() << ")\n";
    return exit_bad_input;
}

}  // namespace m2m::cli
