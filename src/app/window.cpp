// GLFW window creation with a core-profile context, glad loading, and PNG read-back via stb.
#include "app/window.hpp"

#include <glad/gl.h>
#include <GLFW/glfw3.h>
#include <stb_image_write.h>

#include <cstdint>
#include <cstdlib>
#include <imgui.h>
#include <vector>

namespace m2m::app {

namespace {

// GLFW's description of the last error on this thread (GLFW 3.3 keeps it for us), and clears it.
std::string last_glfw_error() {
    const char* description = nullptr;
    glfwGetError(&description);
    return description ? description : "unknown GLFW error";
}

GLFWwindow* try_context(int major, int minor, int w, int h, const char* title, bool visible) {
    glfwDefaultWindowHints();
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, major);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, minor);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_VISIBLE, visible ? GLFW_TRUE : GLFW_FALSE);
    return glfwCreateWindow(w, h, title, nullptr, nullptr);
}

}  // namespace

OpenedWindow open_window(int width, int height, const char* title, bool visible) {
    OpenedWindow out;
    const char* display = std::getenv("DISPLAY");
    const char* wayland = std::getenv("WAYLAND_DISPLAY");
    if ((!display || !*display) && (!wayland || !*wayland)) {
        out.error = "no display found (DISPLAY is not set). Run it on a desktop, or without one: "
                    "xvfb-run -a -s '-screen 0 1920x1080x24' math-to-metal ...";
        return out;
    }
    if (!glfwInit()) {
        out.error = "could not open the display (" + last_glfw_error() +
                    "). Check DISPLAY, or run under xvfb-run -a math-to-metal ...";
        return out;
    }
    GLFWwindow* w = try_context(4, 3, width, height, title, visible);
    if (!w) w = try_context(3, 3, width, height, title, visible);
    if (!w) {
        out.error = "this computer offers no OpenGL 3.3 core context (" + last_glfw_error() +
                    "). Math to Metal needs OpenGL 3.3 or newer: update the graphics driver, or use Mesa's "
                    "software renderer (LIBGL_ALWAYS_SOFTWARE=1 math-to-metal).";
        glfwTerminate();
        return out;
    }
    glfwMakeContextCurrent(w);
    const int version = gladLoadGL(glfwGetProcAddress);
    if (!version) {
        out.error = "could not load the OpenGL functions";
        glfwDestroyWindow(w);
        glfwTerminate();
        return out;
    }
    out.gl_major = GLAD_VERSION_MAJOR(version);
    out.gl_minor = GLAD_VERSION_MINOR(version);
    if (out.gl_major < 3 || (out.gl_major == 3 && out.gl_minor < 3)) {
        out.error = "OpenGL " + std::to_string(out.gl_major) + "." + std::to_string(out.gl_minor) +
                    " is too old: Math to Metal needs 3.3 or newer (try LIBGL_ALWAYS_SOFTWARE=1)";
        glfwDestroyWindow(w);
        glfwTerminate();
        return out;
    }
    auto str = [](GLenum e) {
        const auto* s = reinterpret_cast<const char*>(glGetString(e));
        return std::string(s ? s : "");
    };
    out.renderer = str(GL_RENDERER);
    out.vendor = str(GL_VENDOR);
    out.glsl_version = out.gl_major > 4 || (out.gl_major == 4 && out.gl_minor >= 3) ? "#version 430 core" : "#version 330 core";
    out.window = w;
    return out;
}

void close_window(GLFWwindow* window) {
    if (window) glfwDestroyWindow(window);
    glfwTerminate();
}

void clear_rect(const ImDrawList*, const ImDrawCmd* cmd) {
    const ImDrawData* dd = ImGui::GetDrawData();
    const ImVec2 scale = dd->FramebufferScale;
    const float fb_h = dd->DisplaySize.y * scale.y;
    const float x0 = (cmd->ClipRect.x - dd->DisplayPos.x) * scale.x, y0 = (cmd->ClipRect.y - dd->DisplayPos.y) * scale.y;
    const float x1 = (cmd->ClipRect.z - dd->DisplayPos.x) * scale.x, y1 = (cmd->ClipRect.w - dd->DisplayPos.y) * scale.y;
    if (x1 <= x0 || y1 <= y0) return;
    const ImVec4 c = ImGui::ColorConvertU32ToFloat4(static_cast<ImU32>(reinterpret_cast<std::uintptr_t>(cmd->UserCallbackData)));
    glScissor(static_cast<GLint>(x0), static_cast<GLint>(fb_h - y1), static_cast<GLsizei>(x1 - x0), static_cast<GLsizei>(y1 - y0));
    glClearColor(c.x, c.y, c.z, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
}

void clear_frame(int fb_width, int fb_height, float r, float g, float b) {
    glViewport(0, 0, fb_width, fb_height);
    glClearColor(r, g, b, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
}

bool save_png(int fb_width, int fb_height, const std::string& path, std::string& error) {
    if (fb_width <= 0 || fb_height <= 0) {
        error = "the window has no pixels to save (minimised?)";
        return false;
    }
    std::vector<unsigned char> pixels(static_cast<std::size_t>(fb_width) * static_cast<std::size_t>(fb_height) * 4);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadBuffer(GL_BACK);
    glReadPixels(0, 0, fb_width, fb_height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
    for (std::size_t i = 3; i < pixels.size(); i += 4) pixels[i] = 255;  // the window is opaque
    stbi_flip_vertically_on_write(1);
    if (!stbi_write_png(path.c_str(), fb_width, fb_height, 4, pixels.data(), fb_width * 4)) {
        error = "could not write " + path + " (is the folder there and writable?)";
        return false;
    }
    return true;
}

}  // namespace m2m::app
