// A seeded monkey for the soak test: random input, one frame at a time, that replays exactly
// from its seed. This part is pure (no window, no ImGui): the same seed and the same views give
// the same frames. monkey_driver.cpp feeds the frames to the real window.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <random>
#include <string>
#include <vector>

namespace m2m::app {

struct MonkeyRect {
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    bool contains(float x, float y) const { return x >= x0 && x < x1 && y >= y0 && y < y1; }
};

/// What the monkey knows before a frame: what the frame before it drew.
struct MonkeyView {
    float width = 1280, height = 720;  ///< the display in pixels (a 1x1 window is allowed)
    float menu_height = 0;  ///< the menu bar is never pressed: it holds Quit and the file dialogs
    std::vector<MonkeyRect> targets;  ///< items worth aiming at: sliders, buttons, combos, GPUs
    std::vector<MonkeyRect> avoid;    ///< never pressed: Measure and Sweep start long real runs
};

/// One key event in GLFW's codes, sent through the window's key callback.
struct MonkeyKey {
    int key = 0;
    int action = 0;  ///< GLFW_PRESS or GLFW_RELEASE
    int mods = 0;
    bool operator==(const MonkeyKey&) const = default;
};

/// Everything injected before one frame.
struct MonkeyFrame {
    int index = 0;
    float mouse_x = -1, mouse_y = -1;  ///< where the pointer is this frame (may be off the window)
    bool left_down = false, right_down = false;
    float wheel = 0;
    std::vector<MonkeyKey> keys;     ///< releases of last frame's keys first, then this frame's presses
    std::string text;                ///< typed characters, UTF-8
    int focus = -1;                  ///< 0: the window loses focus, 1: gets it back, -1: unchanged
    int resize_w = 0, resize_h = 0;  ///< a new window size in screen pixels; 0: unchanged
    bool minimise = false, restore = false;
    bool sample_rss = false;  ///< read resident memory now (the frames before it settled the window)
};

/// One line per frame: what the determinism test compares.
std::string describe(const MonkeyFrame& f);

/// The input a restless user would give: clicks and drags (far past a slider's ends), Ctrl+click
/// on a slider and a typed value (huge, negative, not a number), text, shortcuts, scrolling,
/// window sizes down to 1x1, minimising, losing focus, and a lesson switch every few hundred
/// frames. Never Ctrl+E, Ctrl+Q, Ctrl+S or Ctrl+O (files, quitting), never the menu bar.
/// Random numbers come from std::mt19937_64 through our own reductions (not <random>'s
/// distributions, whose results differ between standard libraries), so a seed replays anywhere.
class Monkey {
public:
    /// `frames`: the run's length, which places the memory samples: after warm-up (a tenth of
    /// the run, at most 2,000 frames), then every 1,000 frames, and on the last frame. `lessons`: how many lessons the
    /// keys 1..N reach. `home_w` x `home_h`: the window size restored before each sample.
    Monkey(std::uint64_t seed, int frames, int lessons, int home_w, int home_h);

    MonkeyFrame next(const MonkeyView& view);

    int warm_frame() const { return m_warm; }
    int end_frame() const { return m_frames - 1; }
    /// Memory is sampled after warm-up, every `sample_every` frames after it (the trend: a leak
    /// climbs, a high-water mark levels off) and on the last frame.
    bool samples(int frame) const;
    static constexpr int sample_every = 1000;
    /// Frames spent putting the window back (size, scale, fullscreen) before a memory sample.
    static constexpr int settle_frames = 30;

private:
    std::uint64_t draw() { return m_rng(); }
    int pick(int lo, int hi);  ///< uniform in [lo, hi]
    float pick(float lo, float hi);
    bool chance(double p);
    bool point(const MonkeyView& v, float& x, float& y);  ///< a pressable point, or false
    bool target_point(const MonkeyView& v, float& x, float& y);

    void plan(const MonkeyView& v);  ///< queues the frames of the next action
    void plan_settle();
    void plan_lesson_switch();
    void rest();  ///< a frame with the pointer where it is
    void plan_rest(const MonkeyView& v);
    void plan_click(const MonkeyView& v, bool anywhere);
    void plan_drag(const MonkeyView& v);
    void plan_typed_value(const MonkeyView& v);
    void plan_typed_text(const MonkeyView& v);
    void plan_double_click(const MonkeyView& v);
    void plan_right_click(const MonkeyView& v);
    void plan_wheel(const MonkeyView& v);
    void plan_shortcut();
    template <std::size_t N>
    void plan_keys(const int (&keys)[N], int mods);  ///< one of `keys` with `mods`
    void plan_fullscreen();
    void plan_resize();
    void plan_minimise();
    void plan_blur();
    MonkeyFrame at(float x, float y, bool left = false) const;
    void press(MonkeyFrame& f, int key, int mods = 0) const;
    std::string typed_value();
    std::string typed_text();

    std::mt19937_64 m_rng;
    int m_frames, m_lessons, m_home_w, m_home_h;
    int m_warm;
    int m_frame = 0;
    int m_next_lesson_at = 0, m_lesson_turn = 0;
    bool m_fullscreen = false;  // F11 presses so far, odd or even
    float m_mouse_x = -1, m_mouse_y = -1;
    std::vector<int> m_held;  // keys pressed last frame, released at the start of this one
    std::deque<MonkeyFrame> m_queue;  // the rest of an action that spans frames
};

}  // namespace m2m::app
