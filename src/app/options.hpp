// The windowed app's command line.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace m2m::app {

struct Options {
    std::string lesson;          ///< a lesson's id or "home"; empty: what was open last time (settings), else home
    int width = 1280, height = 720;
    std::string screenshot;      ///< save a PNG of the window after the frames and exit
    int frames = 0;              ///< stop after this many frames (0: run until closed)
    int bench_frames = 0;        ///< render this many frames with the animation running; print percentiles
    bool play = false;           ///< start the lesson's run at once
    bool log_state = false;      ///< print the lesson's state whenever it changes (for tests)
    bool size_given = false;     ///< --size wins over the saved window size
    std::string theme;           ///< dark | projector (empty: the saved setting)
    float scale = 0;             ///< 1.0 to 3.0 (0: the saved setting)
    bool fullscreen = false;
    bool presenter = false;
    std::string scenario;        ///< a scenario file to open at start
    std::vector<int> widths;     ///< Lesson 1's network, inputs to outputs
    std::string mode;            ///< Lesson 1's timing mode: lesson | hardware
    unsigned cpu_cores = 0, gpu_cores = 0;
    bool monkey = false;              ///< the soak test: random input from a seed (src/app/monkey.hpp)
    std::uint64_t monkey_seed = 0;
    bool bench_empty = false;         ///< with bench_frames: an empty ImGui frame (the fonts, no lesson), the baseline
    bool bench_whole = false;         ///< with bench_frames: every frame drawn whole (no damage rectangle)
    int slow_frames_ms = 0;           ///< every frame takes at least this long: a slow machine, for tests
};

/// Parses the app's flags; returns an exit code when the program should stop now.
std::optional<int> parse_options(const std::vector<std::string>& args, Options& out, std::ostream& cout,
                                 std::ostream& cerr);

}  // namespace m2m::app
