// Feeds the monkey's frames (monkey.hpp) to the real window, and measures resident memory.
#pragma once

#include <cstdint>
#include <iosfwd>

#include "app/monkey.hpp"
#include "ui/item_registry.hpp"

struct GLFWwindow;

namespace m2m::app {

class MonkeyDriver {
public:
    /// Prints "monkey: seed=SEED ..." at once, so a failing run can be replayed.
    MonkeyDriver(std::uint64_t seed, int frames, int lessons, GLFWwindow* window);

    /// Injects one frame's input: keys and characters through the window's GLFW callbacks (the
    /// app's own key latch, then ImGui's), the mouse and the wheel through ImGui's IO, window
    /// size, minimising and focus through GLFW. Call after ImGui_ImplGlfw_NewFrame() (which
    /// reads the real mouse) and before ImGui::NewFrame(); `items` is what the last frame drew.
    void inject(const ui::ItemRegistry& items);
    /// The frame loop found the window minimised: bring it back (the monkey's own minimise).
    void while_minimised();
    /// "monkey: frames=N rss_warm_kb=A rss_end_kb=B growth=P%".
    void report(std::ostream& out) const;

private:
    MonkeyView view(const ui::ItemRegistry& items) const;

    Monkey m_monkey;
    GLFWwindow* m_window;
    int m_injected = 0;
    long m_rss_warm_kb = 0, m_rss_end_kb = 0;
};

/// Resident memory of this process in KiB, from /proc/self/statm (0 where it cannot be read).
long resident_kb();

}  // namespace m2m::app
