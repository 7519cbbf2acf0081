// Moving between lessons, messages to the user, fullscreen and zoom.
#include "app/app_state.hpp"

#include <GLFW/glfw3.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <iostream>

namespace m2m::app {

void App::go_to(std::size_t i) {
    if (i < lessons.size() && (i != current || at_home)) {
        current = i;
        at_home = false;
        select_tab = true;
    }
}

void App::go_home() {
    if (at_home) return;
    at_home = true;
    home_pick = static_cast<int>(current);
    select_tab = true;
}

void App::tell(const std::string& message) {
    notice = message;
    std::cout << "notice: " << message << std::endl;
}

std::string timestamp() {
    char buf[32];
    const std::time_t now = std::time(nullptr);
    std::strftime(buf, sizeof buf, "%Y%m%d-%H%M%S", std::localtime(&now));
    return buf;
}

void set_fullscreen(App& app, bool on) {
    if (on == app.fullscreen) return;
    GLFWmonitor* monitor = glfwGetPrimaryMonitor();
    if (on && monitor) {
        glfwGetWindowPos(app.window, &app.windowed[0], &app.windowed[1]);
        glfwGetWindowSize(app.window, &app.windowed[2], &app.windowed[3]);
        const GLFWvidmode* mode = glfwGetVideoMode(monitor);
        glfwSetWindowMonitor(app.window, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
        app.fullscreen = true;
    } else if (!on) {
        glfwSetWindowMonitor(app.window, nullptr, app.windowed[0], app.windowed[1], app.windowed[2], app.windowed[3], 0);
        app.fullscreen = false;
    }
}

void zoom(App& app, float scale) {
    app.pending_scale = std::clamp(std::round(scale * 4.0f) / 4.0f, ui::View::min_scale, ui::View::max_scale);
}

}  // namespace m2m::app
