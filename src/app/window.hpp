// The OS window and its OpenGL context: GLFW, the glad loader, and reading pixels back.
#pragma once

#include <imgui.h>

#include <string>

struct GLFWwindow;

namespace m2m::app {

struct OpenedWindow {
    GLFWwindow* window = nullptr;
    std::string error;  ///< why no window, with what to do about it
    int gl_major = 0, gl_minor = 0;
    std::string renderer, vendor, glsl_version;  ///< "#version 330 core" or "#version 430 core"
};

/// Opens a window with an OpenGL 4.3 core context, or 3.3 core where 4.3 is not offered.
/// On failure `window` is null and `error` says why (no display, GL too old) and how to fix it.
OpenedWindow open_window(int width, int height, const char* title, bool visible);
void close_window(GLFWwindow* window);

/// An ImGui draw callback that clears its command's clip rectangle to the opaque colour in
/// UserCallbackData (ui::fill_opaque's renderer: far cheaper than a blended quad under llvmpipe).
void clear_rect(const ImDrawList* list, const ImDrawCmd* cmd);

void clear_frame(int fb_width, int fb_height, float r, float g, float b);

/// Reads the back buffer and writes it as a PNG.
bool save_png(int fb_width, int fb_height, const std::string& path, std::string& error);

}  // namespace m2m::app
