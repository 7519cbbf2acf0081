// The windowed app: ImGui on GLFW/OpenGL, the lesson tabs, keyboard control and the frame loop.
#pragma once

#include "app/options.hpp"

namespace m2m::app {

/// Runs the app until the window closes (or --frames/--screenshot/--bench-frames end it).
/// Returns the process exit code.
int run(const Options& options);

}  // namespace m2m::app
