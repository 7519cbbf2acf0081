// Feeds the monkey's frames to the real window through the same paths a person's input takes.
#include "app/monkey_driver.hpp"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <malloc.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>


namespace m2m::app {

namespace {

/// Decodes UTF-8 into code points (a broken sequence becomes U+FFFD, as a keyboard never sends).
template <class F>
void for_each_code_point(const std::string& s, F&& f) {
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        const int n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
        if (n == 0 || i + static_cast<std::size_t>(n) > s.size()) {
            f(0xfffdu);
            ++i;
            continue;
        }
        unsigned cp = n == 1 ? c : c & (0xffu >> (n + 1));
        for (int k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]) & 0x3fu);
        f(cp);
        i += static_cast<std::size_t>(n);
    }
}

int window_width(GLFWwindow* w) {
    int x = 0, y = 0;
    glfwGetWindowSize(w, &x, &y);
    return x;
}

int window_height(GLFWwindow* w) {
    int x = 0, y = 0;
    glfwGetWindowSize(w, &x, &y);
    return y;
}

}  // namespace

long resident_kb() {
    std::FILE* f = std::fopen("/proc/self/statm", "r");
    if (!f) return 0;
    long size = 0, resident = 0;
    const int read = std::fscanf(f, "%ld %ld", &size, &resident);
    std::fclose(f);
    return read == 2 ? resident * (sysconf(_SC_PAGESIZE) / 1024) : 0;
}

MonkeyDriver::MonkeyDriver(std::uint64_t seed, int frames, int lessons, GLFWwindow* window)
    : m_monkey(seed, frames, lessons, window_width(window), window_height(window)), m_window(window) {
    std::cout << "monkey: seed=" << seed << " frames=" << frames << " warm_up=" << m_monkey.warm_frame()
              << " (replay: --monkey " << seed << " --frames " << frames << ")" << std::endl;
}

MonkeyView MonkeyDriver::view(const ui::ItemRegistry& items) const {
    const ImGuiIO& io = ImGui::GetIO();
    MonkeyView v;
    v.width = io.DisplaySize.x, v.height = io.DisplaySize.y;
    // The menu bar is one frame high at the top of the main window; a little margin below it.
    const float font_px = io.Fonts->Fonts.Size > 0 ? io.Fonts->Fonts[0]->FontSize : 13.0f;
    v.menu_height = font_px + ImGui::GetStyle().FramePadding.y * 2 + 2;
    std::istringstream lines(items.lines());
    std::string name;
    MonkeyRect r;
    while (lines >> name >> r.x0 >> r.y0 >> r.x1 >> r.y1) {
        if (name == "measure_button" || name == "sweep_button") {
            // a margin: the button may have moved a little since the frame that noted it
            v.avoid.push_back({r.x0 - 8, r.y0 - 8, r.x1 + 8, r.y1 + 8});
        } else {
            v.targets.push_back(r);
        }
    }
    return v;
}

void MonkeyDriver::inject(const ui::ItemRegistry& items) {
    const MonkeyFrame f = m_monkey.next(view(items));
    ++m_injected;
    ImGuiIO& io = ImGui::GetIO();
    if (f.resize_w > 0) glfwSetWindowSize(m_window, f.resize_w, f.resize_h);
    if (f.minimise) glfwIconifyWindow(m_window);
    if (f.restore) glfwRestoreWindow(m_window);
    if (f.focus >= 0) ImGui_ImplGlfw_WindowFocusCallback(m_window, f.focus);
    for (const MonkeyKey& k : f.keys) ImGui_ImplGlfw_KeyCallback(m_window, k.key, glfwGetKeyScancode(k.key), k.action, k.mods);
    for_each_code_point(f.text, [&](unsigned cp) { ImGui_ImplGlfw_CharCallback(m_window, cp); });
    io.MousePos = ImVec2(f.mouse_x, f.mouse_y);
    io.MouseDown[0] = f.left_down;
    io.MouseDown[1] = f.right_down;
    io.MouseWheel += f.wheel;
    io.DeltaTime = 1.0f / 60.0f;  // ImGui's own timing (double clicks, key repeat) replays exactly
    if (f.sample_rss) {
        // Free heap pages go back to the system first, so the figure is memory in use rather
        // than what glibc keeps cached from the largest frame so far.
        malloc_trim(0);
        const long kb = resident_kb();
        std::cout << "monkey: frame=" << f.index << " rss_kb=" << kb << std::endl;
        if (f.index == m_monkey.warm_frame()) m_rss_warm_kb = kb;
        if (f.index == m_monkey.end_frame()) m_rss_end_kb = kb;
    }
}

void MonkeyDriver::while_minimised() { glfwRestoreWindow(m_window); }

void MonkeyDriver::report(std::ostream& out) const {
    const double growth =
        m_rss_warm_kb > 0 ? 100.0 * static_cast<double>(m_rss_end_kb - m_rss_warm_kb) / static_cast<double>(m_rss_warm_kb) : 0;
    char buf[160];
    std::snprintf(buf, sizeof buf, "monkey: frames=%d rss_warm_kb=%ld rss_end_kb=%ld growth=%.2f%%", m_injected,
                  m_rss_warm_kb, m_rss_end_kb, growth);
    out << buf << std::endl;
}

}  // namespace m2m::app
