// The floor under the app's time to first frame: what this host pays, from process start, to open
// a 1920x1080 window with an OpenGL core context (4.3, else 3.3, as the app asks), load GL, clear
// once and show it. No ImGui, no fonts, no lessons: the app's own share is its first frame less
// this. Prints "first-frame-floor: ms=..." for scripts/bench.
#include <glad/gl.h>

#include <GLFW/glfw3.h>

#include <chrono>
#include <cstdio>

namespace {

using Clock = std::chrono::steady_clock;
const Clock::time_point process_start = Clock::now();  // static init: before main's first line

GLFWwindow* core_window(int major, int minor) {
    glfwDefaultWindowHints();
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, major);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, minor);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    return glfwCreateWindow(1920, 1080, "first frame floor", nullptr, nullptr);
}

}  // namespace

int main() {
    if (!glfwInit()) {
        std::fprintf(stderr, "bench_first_frame: no display (run it under xvfb-run)\n");
        return 1;
    }
    GLFWwindow* w = core_window(4, 3);
    if (!w) w = core_window(3, 3);
    if (!w) {
        std::fprintf(stderr, "bench_first_frame: no OpenGL 3.3 core context\n");
        glfwTerminate();
        return 1;
    }
    glfwMakeContextCurrent(w);
    if (!gladLoadGL(glfwGetProcAddress)) {
        std::fprintf(stderr, "bench_first_frame: could not load OpenGL\n");
        glfwTerminate();
        return 1;
    }
    glClearColor(0.05f, 0.05f, 0.06f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glfwSwapBuffers(w);
    glFinish();
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - process_start).count();
    std::printf("first-frame-floor: ms=%.1f\n", ms);
    glfwDestroyWindow(w);
    glfwTerminate();
    return 0;
}
