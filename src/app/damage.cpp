// Drawing only what changed since the last frame (damage.hpp).
#include "app/damage.hpp"

#include <glad/gl.h>
#include <GLFW/glfw3.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <cmath>

namespace m2m::app {

namespace {

void clear_all(ImVec4 clear) {
    glDisable(GL_SCISSOR_TEST);
    glClearColor(clear.x, clear.y, clear.z, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
}

// A command's clip rectangle cut to one damaged rectangle (`px`: framebuffer pixels, top down),
// such that the scissor made of it is exactly the pixels the command's own scissor covers in a
// whole frame, cut to the rectangle. Both imgui_impl_opengl3 and clear_rect truncate: x (int)x0,
// y (int)(fb_h - y1), width (int)(x1 - x0), height (int)(y1 - y0). Cutting the clip rectangle
// before that rounding moved an edge by a row at a fractional scale (Lesson 3's cursor at 1.5x:
// 22 pixels that a frame drawn whole did not have). The result sits a quarter pixel inside each
// rounding, so it comes back as the same whole pixels.
ImVec4 clip_inside(ImVec4 clip, ImVec4 px, ImVec2 pos, ImVec2 s, float fb_h) {
    const float x0 = (clip.x - pos.x) * s.x, y0 = (clip.y - pos.y) * s.y;
    const float x1 = (clip.z - pos.x) * s.x, y1 = (clip.w - pos.y) * s.y;
    if (x1 <= x0 || y1 <= y0) return ImVec4(0, 0, 0, 0);
    const float left = std::trunc(x0), right = left + std::trunc(x1 - x0);
    const float bottom = fb_h - std::trunc(fb_h - y1), top = bottom - std::trunc(y1 - y0);
    const float l = std::max(left, px.x), r = std::min(right, px.z), t = std::max(top, px.y), b = std::min(bottom, px.w);
    if (r <= l || b <= t) return ImVec4(0, 0, 0, 0);
    return ImVec4((l + 0.25f) / s.x + pos.x, (t - 0.25f) / s.y + pos.y, (r + 0.25f) / s.x + pos.x, (b - 0.25f) / s.y + pos.y);
}

}  // namespace

void DamageRenderer::probe(GLFWwindow* window, bool software, ImVec4 background) {
    m_preserved = false;
    m_have_last = false;
    if (!software || !window) return;
    // The background a step off in blue (no frame clears to it, and it looks the same), in whole
    // 8-bit steps so that it reads back exactly; swapped out, then read back from the back buffer.
    // The bright colour used before flashed on screen until the first frame.
    const auto byte = [](float v) { return static_cast<int>(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f)); };
    const int r = byte(background.x), g = byte(background.y), b0 = byte(background.z);
    const int b = b0 < 255 ? b0 + 1 : b0 - 1;
    clear_all(ImVec4(static_cast<float>(r) / 255.0f, static_cast<float>(g) / 255.0f, static_cast<float>(b) / 255.0f, 1.0f));
    glfwSwapBuffers(window);
    unsigned char px[4] = {0, 0, 0, 0};
    glReadBuffer(GL_BACK);
    glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
    m_preserved = px[0] == r && px[1] == g && px[2] == b;
}

void DamageRenderer::render(ImDrawData* dd, int fb_w, int fb_h, ImVec4 clear, bool whole) {
    const ImVec4 display(dd->DisplayPos.x, dd->DisplayPos.y, dd->DisplayPos.x + dd->DisplaySize.x,
                         dd->DisplayPos.y + dd->DisplaySize.y);
    std::vector<ui::DrawListCopy> now = m_preserved ? ui::copy_draw_lists(*dd) : std::vector<ui::DrawListCopy>{};
    const bool same_size = m_last_size.x == dd->DisplaySize.x && m_last_size.y == dd->DisplaySize.y;
    const bool all = !m_preserved || whole || !m_have_last || !same_size;
    const ui::DamageRects damage = all ? ui::DamageRects{{display}} : ui::changed_rects(m_last, now, display);
    m_have_last = m_preserved;
    m_last_size = dd->DisplaySize;
    glViewport(0, 0, fb_w, fb_h);
    if (damage.rects.empty()) {  // the back buffer already holds this frame
        m_last = std::move(now);
        return;
    }
    // Most of the window changed: clear it all (llvmpipe clears a whole buffer far faster than
    // most of one inside a scissor) and draw everything.
    if (damage.total_area() >= 0.75f * dd->DisplaySize.x * dd->DisplaySize.y) {
        m_last = std::move(now);
        clear_all(clear);
        ImGui_ImplOpenGL3_RenderDrawData(dd);
        return;
    }
    // Each rectangle on its own: cleared, then every window drawn again inside it only (those
    // that did not change still cover parts of it), from the commands' own clip rectangles.
    const ImVec2 s = dd->FramebufferScale;
    for (const ImVec4& d : damage.rects) {
        // Whole framebuffer pixels, y counted from the bottom as GL does.
        const int x0 = static_cast<int>(std::floor((d.x - display.x) * s.x));
        const int y0 = static_cast<int>(std::floor((d.y - display.y) * s.y));
        const int x1 = static_cast<int>(std::ceil((d.z - display.x) * s.x));
        const int y1 = static_cast<int>(std::ceil((d.w - display.y) * s.y));
        glEnable(GL_SCISSOR_TEST);
        glScissor(x0, fb_h - y1, x1 - x0, y1 - y0);
        glClearColor(clear.x, clear.y, clear.z, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        glDisable(GL_SCISSOR_TEST);
        const ImVec4 pixels(static_cast<float>(x0), static_cast<float>(y0), static_cast<float>(x1), static_cast<float>(y1));
        const ImVec2 pos(display.x, display.y);
        for (int n = 0; n < dd->CmdListsCount; ++n) {
            ImVector<ImDrawCmd>& cmds = dd->CmdLists[n]->CmdBuffer;
            for (int c = 0; c < cmds.Size; ++c)
                cmds[c].ClipRect = clip_inside(now[static_cast<std::size_t>(n)].cmds[static_cast<std::size_t>(c)].ClipRect, pixels, pos, s,
                                               static_cast<float>(fb_h));
        }
        ImGui_ImplOpenGL3_RenderDrawData(dd);
    }
    m_last = std::move(now);
}

}  // namespace m2m::app
