// What every fuzz target shares: the entry point libFuzzer (or replay_main.cpp) calls, the
// fuzzer's bytes as a command line, and the checks that make a broken promise a crash.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);
/// Optional (libFuzzer calls it once before fuzzing when a target defines it): slow set-up.
extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv);

namespace m2m::fuzz {

inline std::string text(const std::uint8_t* data, std::size_t size) {
    return size == 0 ? std::string() : std::string(reinterpret_cast<const char*>(data), size);
}

/// One argument a line, so corpus files read as command lines: "--widths\n4,6,6,3\n--json\n".
/// A final newline ends the last argument; an empty line is an empty argument.
inline std::vector<std::string> arguments(const std::uint8_t* data, std::size_t size) {
    std::vector<std::string> args;
    std::string all = text(data, size), arg;
    if (!all.empty() && all.back() == '\n') all.pop_back();
    if (all.empty()) return args;
    for (char c : all) {
        if (c == '\n') {
            args.push_back(std::move(arg));
            arg.clear();
        } else {
            arg += c;
        }
    }
    args.push_back(std::move(arg));
    return args;
}

/// A broken promise: say which, then abort so the fuzzer keeps the input as a crash.
[[noreturn]] inline void broken(const char* promise, const std::string& detail = {}) {
    std::fprintf(stderr, "fuzz: broken promise: %s\n%s\n", promise, detail.c_str());
    std::abort();
}

/// The command line's convention (cli.hpp): exit 0 with something printed, or exit 2 with exactly
/// one line on stderr saying what was wrong and what is accepted.
inline void check_cli_outcome(std::optional<int> code, const std::string& out, const std::string& err) {
    if (!code) return;  // parsed: the program goes on
    if (*code == 0) {
        if (out.empty()) broken("exit 0 prints something", err);
        return;
    }
    if (*code != 2) broken("the command line exits 0 or 2", "exit " + std::to_string(*code));
    std::size_t newlines = 0;
    for (char c : err) newlines += c == '\n';
    if (newlines != 1 || err.back() != '\n' || !out.empty()) broken("exit 2 says why in one line on stderr", err);
}

}  // namespace m2m::fuzz
