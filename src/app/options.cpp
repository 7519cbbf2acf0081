// Parsing `math-to-metal [options]` with CLI11; bad input is one line and exit code 2.
#include "app/options.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <ostream>

#include "cli/cli.hpp"
#include "lessons/catalog.hpp"
#include "m2m/core/engine/text.hpp"
#include "m2m/core/layers/layer_run.hpp"
#include "lessons/layers/layer_run_panel.hpp"

#ifndef M2M_VERSION
#define M2M_VERSION "dev"
#endif

namespace m2m::app {

namespace {

// --lesson accepts the catalog's ids or "home"; the help lists the ids between braces (scripts
// read that list) and says "home" in words.
CLI::Validator lesson_or_home() {
    std::string ids;
    for (const std::string& id : lessons::lesson_ids()) ids += (ids.empty() ? "" : ",") + id;
    return CLI::Validator(
        [ids](std::string& v) -> std::string {
            const auto known = lessons::lesson_ids();
            if (v == "home" || std::find(known.begin(), known.end(), v) != known.end()) return {};
            return v + " not in {" + ids + "} or home";
        },
        "{" + ids + "} or home", "lesson");
}

void add_run_flags(CLI::App& app, Options& o, std::string& size) {
    app.add_option("--lesson", o.lesson, "the lesson to open (its id), or home: the page listing every lesson")->check(lesson_or_home());
    app.add_option("--size", size, "window size WxH, e.g. 1920x1080 (320x240 to 7680x4320)");
    app.add_option("--screenshot", o.screenshot, "save a PNG of the window to FILE, then exit");
    app.add_option("--frames", o.frames, "render N frames, then exit (with --screenshot: before saving)")
        ->check(CLI::Range(1, 1000000));
    app.add_option("--bench-frames", o.bench_frames, "render N frames with the run animating; print p50/p95/p99 frame times")
        ->check(CLI::Range(1, 1000000));
    app.add_flag("--play", o.play, "start the lesson's run at once");
    app.add_flag("--log-state", o.log_state, "print the lesson's state line whenever it changes");
}

void add_view_flags(CLI::App& app, Options& o) {
    app.add_option("--theme", o.theme, "dark, or projector (light, high contrast, thick lines)")
        ->check(CLI::IsMember({"dark", "projector"}));
    app.add_option("--scale", o.scale, "UI scale from 1.0 to 3.0 (text is re-rendered, not stretched)")
        ->check(CLI::Range(1.0f, 3.0f));
    app.add_flag("--fullscreen", o.fullscreen, "start fullscreen (F11 toggles)");
    app.add_flag("--presenter", o.presenter, "start in presenter view: scene and readouts only (H toggles)");
    app.add_option("--scenario", o.scenario, "open a saved scenario file (File > Save scenario)");
}

void add_lesson1_flags(CLI::App& app, Options& o) {
    app.add_option("--widths", o.widths, "Lesson 1: every layer's width, inputs to outputs, e.g. 4,6,6,3")
        ->delimiter(',')
        ->check(CLI::Range(1, core::max_layer_width));
    app.add_option("--mode", o.mode, "Lesson 1 timing: lesson or hardware")->check(CLI::IsMember({"lesson", "hardware"}));
    app.add_option("--cpu-cores", o.cpu_cores, "Lesson 1: CPU cores")->check(CLI::Range(1u, core::max_cores));
    app.add_option("--gpu-cores", o.gpu_cores, "Lesson 1: GPU cores")->check(CLI::Range(1u, core::max_cores));
}

// The test-only flags; returns --monkey's option, to see whether it was given.
CLI::Option* add_test_flags(CLI::App& app, Options& o) {
    CLI::Option* monkey = app.add_option("--monkey", o.monkey_seed,
                                         "soak test: N frames (--frames, default 20000) of random input from this seed")
                              ->check(CLI::Validator(
                                  [](std::string& v) {
                                      const bool digits = !v.empty() && v.size() <= 19 &&
                                                          v.find_first_not_of("0123456789") == std::string::npos;
                                      return digits ? std::string() : "a seed is a whole number of up to 19 digits, not '" + v + "'";
                                  },
                                  "SEED"))
                              ->excludes("--bench-frames", "--screenshot");
    app.add_flag("--bench-empty", o.bench_empty,
                 "with --bench-frames: draw an empty frame (the app's fonts, no lesson), the baseline scripts/bench compares with")
        ->needs("--bench-frames");
    app.add_flag("--bench-whole", o.bench_whole,
                 "with --bench-frames: draw every frame whole, as on a GPU or after any change, not only what changed")
        ->needs("--bench-frames");
    app.add_option("--slow-frames", o.slow_frames_ms,
                   "make every frame take at least MS milliseconds, as on a slow machine (for tests)")
        ->check(CLI::Range(1, 1000));
    return monkey;
}

// --size WxH and --widths, checked after parsing: an exit code when one is bad.
std::optional<int> check_size_and_widths(const std::string& size, Options& o, std::ostream& cerr) {
    if (!size.empty()) {
        int w = 0, h = 0;
        char x = 0, extra = 0;
        if (std::sscanf(size.c_str(), "%d%c%d%c", &w, &x, &h, &extra) != 3 || (x != 'x' && x != 'X') || w < 320 ||
            h < 240 || w > 7680 || h > 4320) {
            cerr << "math-to-metal: --size: '" << size << "' is not WxH between 320x240 and 7680x4320\n";
            return cli::exit_bad_input;
        }
        o.width = w, o.height = h;
        o.size_given = true;
    }
    if (!o.widths.empty()) {
        if (auto why = core::validate(core::Network{o.widths}); !why.empty()) {
            cerr << "math-to-metal: --widths: " << why << "\n";
            return cli::exit_bad_input;
        }
    }
    // A scenario opens with its own set-up; a Lesson 1 flag beside it would be silently overruled.
    if (!o.scenario.empty())
        for (const auto& [flag, given] : {std::pair{"--widths", !o.widths.empty()}, std::pair{"--mode", !o.mode.empty()},
                                          std::pair{"--cpu-cores", o.cpu_cores > 0}, std::pair{"--gpu-cores", o.gpu_cores > 0}})
            if (given) {
                cerr << "math-to-metal: " << flag << ": not with --scenario (a scenario opens with its own set-up; drop one of them)\n";
                return cli::exit_bad_input;
            }
    // Hardware timing runs the chips Lesson 1 opens with, with no more cores than they have.
    if (o.mode == "hardware") {
        for (const auto& [flag, chip, cores] : {std::tuple{"--cpu-cores", &lessons::opening_cpu(), o.cpu_cores},
                                                std::tuple{"--gpu-cores", &lessons::opening_gpu(), o.gpu_cores}}) {
            if (cores > chip->cores) {
                cerr << "math-to-metal: " << flag << ": with --mode hardware the " << chip->name << " has "
                     << core::format_count(chip->cores) << " cores: 1 to " << core::format_count(chip->cores)
                     << " (lesson mode takes up to " << core::format_count(core::max_cores) << ")\n";
                return cli::exit_bad_input;
            }
        }
    }
    return std::nullopt;
}

}  // namespace

std::optional<int> parse_options(const std::vector<std::string>& args, Options& o, std::ostream& cout,
                                 std::ostream& cerr) {
    CLI::App app{"Math to Metal: why AI runs on GPUs, and on thousands of them.\n"
                 "Headless simulations: math-to-metal sim --help\n"
                 "Measure this machine: math-to-metal measure --help",
                 "math-to-metal"};
    std::string size;
    bool version = false;
    add_run_flags(app, o, size);
    add_lesson1_flags(app, o);
    add_view_flags(app, o);
    CLI::Option* monkey = add_test_flags(app, o);
    app.add_flag("--version", version, "print the version and exit");
    if (auto code = cli::parse_or_exit(app, args, cout, cerr)) return code;
    if (version) {
        cout << "math-to-metal " << M2M_VERSION << "\n";
        return cli::exit_ok;
    }
    if (monkey->count() > 0) {
        o.monkey = true;
        if (o.frames == 0) o.frames = 20000;
    }
    return check_size_and_widths(size, o, cerr);
}

}  // namespace m2m::app
