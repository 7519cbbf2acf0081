// math-to-metal: `sim ...` runs the core headless; anything else opens the window.
#include <iostream>
#include <string>
#include <vector>

#include "app/app.hpp"
#include "cli/cli.hpp"
#include "measure/gl_path.hpp"
#include "measure/measure_cli.hpp"

int main(int argc, char** argv) {
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (!args.empty() && args.front() == "sim") return m2m::cli::run_sim(args, std::cout, std::cerr);
    if (!args.empty() && args.front() == "measure") return m2m::measure::run_cli(args, std::cout, std::cerr);
    m2m::measure::use_gl_path();  // Lesson 1's Measure section runs its GPU row through OpenGL
    m2m::app::Options options;
    if (auto code = m2m::app::parse_options(args, options, std::cout, std::cerr)) return *code;
    return m2m::app::run(options);
}
