// The floor under the app's time to first frame: what this host pays, from process start, to open
// the app's window (app::open_window: a 1920x1080 window with an OpenGL 4.3 or 3.3 core context,
// GL loaded), clear it once and show it. No ImGui, no fonts, no lessons: the app's own share is
// its first frame less this. Prints "first-frame-floor: ms=..." for scripts/bench.
#include <glad/gl.h>

#include <GLFW/glfw3.h>

#include <chrono>
#include <cstdio>

#include "app/window.hpp"

namespace {

using Clock = std::chrono::steady_clock;
const Clock::time_point process_start = Clock::now();  // static init: before main's first line

}  // namespace

int main() {
    const m2m::app::OpenedWindow win = m2m::app::open_window(1920, 1080, "first frame floor", true);
    if (!win.window) {
        std::fprintf(stderr, "bench_first_frame: %s\n", win.error.c_str());
        return 1;
    }
    m2m::app::clear_frame(1920, 1080, 0.05f, 0.05f, 0.06f);
    glfwSwapBuffers(win.window);
    glFinish();
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - process_start).count();
    std::printf("first-frame-floor: ms=%.1f\n", ms);
    m2m::app::close_window(win.window);
    return 0;
}
