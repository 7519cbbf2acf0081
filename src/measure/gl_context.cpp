// The hidden window: GLFW for the context, glad for the functions.
#include "measure/gl_context.hpp"

#include <glad/gl.h>
#include <GLFW/glfw3.h>

#include <cstdlib>

namespace m2m::measure {

namespace {

std::string g_error;

void on_error(int, const char* description) { g_error = description ? description : "unknown GLFW error"; }

GLFWwindow* try_context(int major, int minor) {
    glfwDefaultWindowHints();
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, major);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, minor);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
    return glfwCreateWindow(1, 1, "Math to Metal: measure", nullptr, nullptr);
}

bool has(const char* name) {
    const char* v = std::getenv(name);
    return v && *v;
}

}  // namespace

HiddenGlContext::HiddenGlContext() {
    if (!has("DISPLAY") && !has("WAYLAND_DISPLAY")) {
        m_no_display = true;
        m_error = "no display (DISPLAY is not set)";
        return;
    }
    glfwSetErrorCallback(on_error);
    if (!glfwInit()) {
        m_error = "could not open the display (" + g_error + ")";
        return;
    }
    m_initialised = true;
    GLFWwindow* w = try_context(4, 3);
    if (!w) w = try_context(3, 3);
    if (!w) {
        m_error = "no OpenGL 3.3 or 4.3 core context is offered here (" + g_error + ")";
        return;
    }
    glfwMakeContextCurrent(w);
    if (!gladLoadGL(glfwGetProcAddress)) {
        m_error = "could not load the OpenGL functions";
        glfwDestroyWindow(w);
        return;
    }
    m_window = w;
}

HiddenGlContext::~HiddenGlContext() {
    if (m_window) glfwDestroyWindow(m_window);
    if (m_initialised) glfwTerminate();
}

}  // namespace m2m::measure
