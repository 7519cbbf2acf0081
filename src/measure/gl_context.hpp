// A hidden window whose OpenGL context the command line and the tests measure on.
#pragma once

#include <string>

struct GLFWwindow;

namespace m2m::measure {

/// Opens a hidden 1x1 GLFW window with an OpenGL 4.3 core context (3.3 where 4.3 is not
/// offered), makes it current and loads glad. Closes it again when destroyed.
class HiddenGlContext {
public:
    HiddenGlContext();
    ~HiddenGlContext();
    HiddenGlContext(const HiddenGlContext&) = delete;
    HiddenGlContext& operator=(const HiddenGlContext&) = delete;

    bool ok() const { return m_window != nullptr; }
    /// No DISPLAY or WAYLAND_DISPLAY: nothing was tried.
    bool no_display() const { return m_no_display; }
    /// Why there is no context, when ok() is false.
    const std::string& error() const { return m_error; }

private:
    GLFWwindow* m_window = nullptr;
    bool m_no_display = false;
    bool m_initialised = false;
    std::string m_error;
};

}  // namespace m2m::measure
