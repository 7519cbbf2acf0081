// The soak test's monkey: which input comes next, from a seed alone (see monkey.hpp).
//
// [SECTION] what it presses and types   [SECTION] describing a frame   [SECTION] random choices
// [SECTION] planning actions   [SECTION] the next frame
#include "app/monkey.hpp"

#include <GLFW/glfw3.h>  // key codes only; nothing here calls GLFW

#include <algorithm>
#include <cstdio>

namespace m2m::app {

// [SECTION] what it presses and types -------------------------------------------------------

namespace {

// Shortcuts the app knows (src/app/keyboard.cpp, handle_keys) and keys a text box reacts to.
constexpr int plain_keys[] = {
    GLFW_KEY_SPACE, GLFW_KEY_PERIOD, GLFW_KEY_R,      GLFW_KEY_LEFT_BRACKET, GLFW_KEY_RIGHT_BRACKET,
    GLFW_KEY_H,     GLFW_KEY_LEFT,   GLFW_KEY_RIGHT,  GLFW_KEY_UP,           GLFW_KEY_DOWN,
    GLFW_KEY_0,     GLFW_KEY_1,      GLFW_KEY_2,      GLFW_KEY_3,            GLFW_KEY_4,
    GLFW_KEY_5,     GLFW_KEY_9,      GLFW_KEY_ESCAPE, GLFW_KEY_HOME,         GLFW_KEY_END,
    GLFW_KEY_TAB,   GLFW_KEY_ENTER,  GLFW_KEY_KP_ENTER, GLFW_KEY_BACKSPACE,  GLFW_KEY_DELETE,
    GLFW_KEY_PAGE_UP, GLFW_KEY_PAGE_DOWN, GLFW_KEY_A, GLFW_KEY_Z,          GLFW_KEY_MINUS,
};
// Ctrl with these only: Ctrl+E (screenshot), Ctrl+Q (quit), Ctrl+S and Ctrl+O (files) never.
constexpr int ctrl_edit_keys[] = {GLFW_KEY_A, GLFW_KEY_C, GLFW_KEY_V, GLFW_KEY_X, GLFW_KEY_Z, GLFW_KEY_Y,
                                  GLFW_KEY_LEFT, GLFW_KEY_RIGHT, GLFW_KEY_BACKSPACE, GLFW_KEY_HOME, GLFW_KEY_END};
constexpr int ctrl_zoom_keys[] = {GLFW_KEY_EQUAL, GLFW_KEY_MINUS, GLFW_KEY_0, GLFW_KEY_KP_ADD, GLFW_KEY_KP_SUBTRACT};

// What a person might type into a number: extremes, beyond them, and things that are not numbers.
const char* const typed_values[] = {
    "0",     "1",    "-1",   "999999999", "-999999999", "2147483648", "-2147483649", "18446744073709551616",
    "1e308", "-1e308", "1e-300", "3.5",   "0.0001",     "nan",        "inf",         "-inf",
    "",      "abc",  "4096", "65536",     "  7  ",      "1,5",        "0x10",        "--3",
    "1e9999", "-0",  "7.",   ".5",        "+12",        "1024",       "3",           "100000",
};
const char* const typed_words[] = {
    "a GPU runs a whole layer at once", "NVLink", "all-reduce", "é", "\xe2\x86\x92", "\xcf\x83",
    "\xe6\x97\xa5\xe6\x9c\xac",  // CJK, absent from the font
    "\xf0\x9f\x98\x80",          // an emoji: outside the BMP
    "\n", "\t", "0", "because", "?", "%s%n%d", "\\", "\"", "  ",
};

struct Size {
    int w, h;
};
constexpr Size window_sizes[] = {{1, 1},     {2, 2},     {1, 600},   {800, 1},   {50, 50},    {160, 120},
                                 {320, 240}, {640, 480}, {800, 600}, {1024, 768}, {1280, 720}, {1366, 768},
                                 {1920, 1080}, {2560, 1440}};

template <class T, std::size_t N>
constexpr int count(const T (&)[N]) {
    return static_cast<int>(N);
}

}  // namespace

// [SECTION] describing a frame --------------------------------------------------------------

std::string describe(const MonkeyFrame& f) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "%d mouse=%.1f,%.1f%s%s", f.index, static_cast<double>(f.mouse_x),
                  static_cast<double>(f.mouse_y), f.left_down ? " L" : "", f.right_down ? " R" : "");
    std::string s = buf;
    if (f.wheel != 0) std::snprintf(buf, sizeof buf, " wheel=%.1f", static_cast<double>(f.wheel)), s += buf;
    for (const MonkeyKey& k : f.keys) {
        std::snprintf(buf, sizeof buf, " %s%d/%d", k.action == GLFW_PRESS ? "+" : "-", k.key, k.mods);
        s += buf;
    }
    if (!f.text.empty()) {
        s += " text=";
        for (const unsigned char c : f.text) {
            if (c >= 0x20 && c < 0x7f) s += static_cast<char>(c);
            else std::snprintf(buf, sizeof buf, "\\x%02x", c), s += buf;
        }
    }
    if (f.focus >= 0) s += f.focus ? " focus" : " blur";
    if (f.resize_w > 0) std::snprintf(buf, sizeof buf, " size=%dx%d", f.resize_w, f.resize_h), s += buf;
    if (f.minimise) s += " minimise";
    if (f.restore) s += " restore";
    if (f.sample_rss) s += " sample";
    return s;
}

// [SECTION] random choices ------------------------------------------------------------------

Monkey::Monkey(std::uint64_t seed, int frames, int lessons, int home_w, int home_h)
    : m_rng(seed),
      m_frames(std::max(frames, 1)),
      m_lessons(std::clamp(lessons, 1, 9)),
      m_home_w(home_w),
      m_home_h(home_h),
      m_warm(std::min(2000, m_frames / 10)) {
    m_next_lesson_at = pick(100, 300);
}

bool Monkey::samples(int frame) const {
    if (frame < m_warm || frame > end_frame()) return false;
    return frame == m_warm || frame == end_frame() || (frame % sample_every == 0 && frame + settle_frames < end_frame());
}

int Monkey::pick(int lo, int hi) {
    return lo + static_cast<int>(draw() % static_cast<std::uint64_t>(hi - lo + 1));
}

float Monkey::pick(float lo, float hi) {
    const double u = static_cast<double>(draw() >> 11) * 0x1.0p-53;  // [0, 1)
    return lo + static_cast<float>(u) * (hi - lo);
}

bool Monkey::chance(double p) { return static_cast<double>(draw() >> 11) * 0x1.0p-53 < p; }

bool Monkey::point(const MonkeyView& v, float& x, float& y) {
    for (int tries = 0; tries < 8; ++tries) {
        x = pick(0.0f, std::max(v.width, 1.0f));
        y = pick(0.0f, std::max(v.height, 1.0f));
        const bool bad = y < v.menu_height ||
                         std::any_of(v.avoid.begin(), v.avoid.end(), [&](const MonkeyRect& r) { return r.contains(x, y); });
        if (!bad) return true;
    }
    return false;
}

bool Monkey::target_point(const MonkeyView& v, float& x, float& y) {
    if (v.targets.empty()) return point(v, x, y);
    const MonkeyRect& r = v.targets[static_cast<std::size_t>(pick(0, static_cast<int>(v.targets.size()) - 1))];
    x = pick(r.x0, std::max(r.x1, r.x0 + 1));
    y = pick(r.y0, std::max(r.y1, r.y0 + 1));
    const bool bad = x < 0 || y < v.menu_height || x >= v.width || y >= v.height ||
                     std::any_of(v.avoid.begin(), v.avoid.end(), [&](const MonkeyRect& a) { return a.contains(x, y); });
    return !bad || point(v, x, y);
}

MonkeyFrame Monkey::at(float x, float y, bool left) const {
    MonkeyFrame f;
    f.mouse_x = x, f.mouse_y = y, f.left_down = left;
    return f;
}

void Monkey::press(MonkeyFrame& f, int key, int mods) const {
    if (mods & GLFW_MOD_CONTROL) f.keys.push_back({GLFW_KEY_LEFT_CONTROL, GLFW_PRESS, 0});
    if (mods & GLFW_MOD_SHIFT) f.keys.push_back({GLFW_KEY_LEFT_SHIFT, GLFW_PRESS, mods & GLFW_MOD_CONTROL});
    f.keys.push_back({key, GLFW_PRESS, mods});
}

std::string Monkey::typed_value() {
    if (chance(0.7)) return typed_values[pick(0, count(typed_values) - 1)];
    std::string s = chance(0.3) ? "-" : "";
    const int digits = pick(1, 25);
    for (int i = 0; i < digits; ++i) s += static_cast<char>('0' + pick(0, 9));
    if (chance(0.3)) s.insert(static_cast<std::size_t>(pick(0, static_cast<int>(s.size()))), ".");
    return s;
}

std::string Monkey::typed_text() {
    if (chance(0.5)) return typed_words[pick(0, count(typed_words) - 1)];
    std::string s;
    const int n = chance(0.05) ? pick(200, 2000) : pick(1, 40);  // now and then, far past any box's end
    for (int i = 0; i < n; ++i) s += static_cast<char>(pick(0x20, 0x7e));
    return s;
}

// [SECTION] planning actions ----------------------------------------------------------------

void Monkey::plan_settle() {
    // Memory is compared in the same state each time: nothing held, scale 1, not fullscreen,
    // the starting window size, the pointer off the window.
    m_queue.clear();
    MonkeyFrame f = at(-1, -1);
    f.focus = 1;
    f.restore = true;
    press(f, GLFW_KEY_ESCAPE);
    m_queue.push_back(f);
    f = at(-1, -1);
    if (m_fullscreen) press(f, GLFW_KEY_F11), m_fullscreen = false;
    m_queue.push_back(f);
    f = at(-1, -1);
    press(f, GLFW_KEY_0, GLFW_MOD_CONTROL);
    m_queue.push_back(f);
    f = at(-1, -1);
    f.resize_w = m_home_w, f.resize_h = m_home_h;
    m_queue.push_back(f);
    while (static_cast<int>(m_queue.size()) <= settle_frames) m_queue.push_back(at(-1, -1));  // through the sample
}

void Monkey::plan_lesson_switch() {
    // Escape first: while a text box has the keyboard, the app's shortcuts are off.
    MonkeyFrame f = at(m_mouse_x, m_mouse_y);
    press(f, GLFW_KEY_ESCAPE);
    m_queue.push_back(f);
    m_queue.push_back(at(m_mouse_x, m_mouse_y));
    f = at(m_mouse_x, m_mouse_y);
    if (m_frame >= m_next_lesson_at) {  // the round: every lesson in turn, then the home screen
        const int turn = m_lesson_turn++ % (m_lessons + 1);
        press(f, turn < m_lessons ? GLFW_KEY_1 + turn : GLFW_KEY_HOME);
        m_next_lesson_at = m_frame + pick(150, 400);
    } else {
        constexpr int keys[] = {GLFW_KEY_LEFT, GLFW_KEY_RIGHT, GLFW_KEY_HOME, GLFW_KEY_1, GLFW_KEY_2,
                                GLFW_KEY_3,    GLFW_KEY_4,     GLFW_KEY_5,    GLFW_KEY_9};
        press(f, keys[pick(0, count(keys) - 1)]);
    }
    m_queue.push_back(f);
}

// One action a frame's roll picks (out of 1,000): each queues the frames it spans. Actions that
// aim at a point and find none (the window is all menu bar) rest for a frame instead.
void Monkey::plan(const MonkeyView& v) {
    const int roll = pick(0, 999);
    if (m_frame >= m_next_lesson_at || roll < 20) return plan_lesson_switch();
    if (roll < 220) return plan_rest(v);
    if (roll < 500) return plan_click(v, roll < 380);
    if (roll < 570) return plan_drag(v);
    if (roll < 630) return plan_typed_value(v);
    if (roll < 670) return plan_typed_text(v);
    if (roll < 685) return plan_double_click(v);
    if (roll < 700) return plan_right_click(v);
    if (roll < 740) return plan_wheel(v);
    if (roll < 880) return plan_shortcut();
    if (roll < 930) return plan_keys(ctrl_edit_keys, GLFW_MOD_CONTROL);  // select all, copy, paste, cut, undo
    if (roll < 945) return plan_keys(ctrl_zoom_keys, GLFW_MOD_CONTROL);  // larger, smaller, actual size: fonts rebuilt
    if (roll < 950) return plan_fullscreen();
    if (roll < 975) return plan_resize();
    if (roll < 985) return plan_minimise();
    plan_blur();
}

void Monkey::rest() { m_queue.push_back(at(m_mouse_x, m_mouse_y)); }

void Monkey::plan_rest(const MonkeyView& v) {  // rest, or hover (tooltips)
    float x = 0, y = 0;
    if (chance(0.5) && point(v, x, y)) m_mouse_x = x, m_mouse_y = y;
    rest();
}

void Monkey::plan_click(const MonkeyView& v, bool anywhere) {  // a click, often on a named item
    float x = 0, y = 0;
    if (!(anywhere ? point(v, x, y) : target_point(v, x, y))) return rest();
    m_queue.push_back(at(x, y, true));
    m_queue.push_back(at(x, y));
}

void Monkey::plan_drag(const MonkeyView& v) {  // often far past the window's (and a slider's) ends
    float x = 0, y = 0;
    if (!(chance(0.6) ? target_point(v, x, y) : point(v, x, y))) return rest();
    const float to_x = pick(-v.width, 2 * v.width);
    const float to_y = chance(0.7) ? y + pick(-20.0f, 20.0f) : pick(-v.height, 2 * v.height);
    const int steps = pick(1, 12);
    m_queue.push_back(at(x, y, true));
    for (int i = 1; i <= steps; ++i) {
        const float t = static_cast<float>(i) / static_cast<float>(steps);
        m_queue.push_back(at(x + (to_x - x) * t, y + (to_y - y) * t, true));
    }
    m_queue.push_back(at(to_x, to_y));
}

void Monkey::plan_typed_value(const MonkeyView& v) {  // Ctrl+click makes a slider a text box: a value, then Enter
    float x = 0, y = 0;
    if (!(chance(0.7) ? target_point(v, x, y) : point(v, x, y))) return rest();
    MonkeyFrame f = at(x, y, true);
    press(f, GLFW_KEY_LEFT_CONTROL);
    f.keys.back().mods = GLFW_MOD_CONTROL;
    m_queue.push_back(f);
    m_queue.push_back(at(x, y));
    f = at(x, y);
    if (chance(0.5)) press(f, GLFW_KEY_A, GLFW_MOD_CONTROL);
    m_queue.push_back(f);
    f = at(x, y);
    f.text = typed_value();
    m_queue.push_back(f);
    f = at(x, y);
    constexpr int ends[] = {GLFW_KEY_ENTER, GLFW_KEY_ENTER, GLFW_KEY_KP_ENTER, GLFW_KEY_TAB, GLFW_KEY_ESCAPE};
    const int end = ends[pick(0, count(ends) - 1)];
    if (end != GLFW_KEY_ESCAPE || chance(0.5)) press(f, end);
    m_queue.push_back(f);
    m_queue.push_back(at(x, y));
}

void Monkey::plan_typed_text(const MonkeyView& v) {  // click into something, type text, maybe press Enter
    float x = 0, y = 0;
    if (!target_point(v, x, y)) return rest();
    m_queue.push_back(at(x, y, true));
    m_queue.push_back(at(x, y));
    MonkeyFrame f = at(x, y);
    f.text = typed_text();
    m_queue.push_back(f);
    if (chance(0.4)) {
        f = at(x, y);
        press(f, GLFW_KEY_ENTER);
        m_queue.push_back(f);
    }
}

void Monkey::plan_double_click(const MonkeyView& v) {
    float x = 0, y = 0;
    if (!target_point(v, x, y)) return rest();
    for (int i = 0; i < 2; ++i) m_queue.push_back(at(x, y, true)), m_queue.push_back(at(x, y));
}

void Monkey::plan_right_click(const MonkeyView& v) {
    float x = 0, y = 0;
    if (!point(v, x, y)) return rest();
    MonkeyFrame f = at(x, y);
    f.right_down = true;
    m_queue.push_back(f);
    m_queue.push_back(at(x, y));
}

void Monkey::plan_wheel(const MonkeyView& v) {  // over anything
    float x = 0, y = 0;
    if (!point(v, x, y)) x = m_mouse_x, y = m_mouse_y;
    MonkeyFrame f = at(x, y);
    f.wheel = static_cast<float>(pick(-10, 10));
    m_queue.push_back(f);
}

void Monkey::plan_shortcut() {  // a shortcut or an editing key, sometimes with Shift
    MonkeyFrame f = at(m_mouse_x, m_mouse_y);
    if (chance(0.05)) press(f, GLFW_KEY_SLASH, GLFW_MOD_SHIFT);  // "?"
    else press(f, plain_keys[pick(0, count(plain_keys) - 1)], chance(0.1) ? GLFW_MOD_SHIFT : 0);
    m_queue.push_back(f);
}

template <std::size_t N>
void Monkey::plan_keys(const int (&keys)[N], int mods) {
    MonkeyFrame f = at(m_mouse_x, m_mouse_y);
    press(f, keys[pick(0, static_cast<int>(N) - 1)], mods);
    m_queue.push_back(f);
}

void Monkey::plan_fullscreen() {  // fullscreen and back
    MonkeyFrame f = at(m_mouse_x, m_mouse_y);
    press(f, GLFW_KEY_F11);
    m_fullscreen = !m_fullscreen;
    m_queue.push_back(f);
}

void Monkey::plan_resize() {  // a new window size, down to 1x1
    MonkeyFrame f = at(m_mouse_x, m_mouse_y);
    if (chance(0.7)) {
        const Size s = window_sizes[pick(0, count(window_sizes) - 1)];
        f.resize_w = s.w, f.resize_h = s.h;
    } else {
        f.resize_w = pick(1, 2560), f.resize_h = pick(1, 1440);
    }
    m_queue.push_back(f);
}

void Monkey::plan_minimise() {  // minimise, then come back a few frames later
    MonkeyFrame f = at(m_mouse_x, m_mouse_y);
    f.minimise = true;
    m_queue.push_back(f);
    for (int i = pick(1, 5); i > 0; --i) rest();
    f = at(m_mouse_x, m_mouse_y);
    f.restore = true;
    m_queue.push_back(f);
}

void Monkey::plan_blur() {  // the window loses focus (keys held are dropped), then gets it back
    MonkeyFrame f = at(m_mouse_x, m_mouse_y);
    f.focus = 0;
    m_queue.push_back(f);
    for (int i = pick(1, 5); i > 0; --i) rest();
    f = at(m_mouse_x, m_mouse_y);
    f.focus = 1;
    m_queue.push_back(f);
}

// [SECTION] the next frame ------------------------------------------------------------------

MonkeyFrame Monkey::next(const MonkeyView& view) {
    const int i = m_frame;
    if (samples(i + settle_frames)) plan_settle();
    if (m_queue.empty()) plan(view);
    MonkeyFrame f = m_queue.front();
    m_queue.pop_front();
    f.index = i;
    f.sample_rss = samples(i);
    // Keys go down for one frame: what was pressed last frame is released first, in reverse.
    std::vector<MonkeyKey> keys;
    for (auto k = m_held.rbegin(); k != m_held.rend(); ++k) keys.push_back({*k, GLFW_RELEASE, 0});
    m_held.clear();
    for (const MonkeyKey& k : f.keys) {
        keys.push_back(k);
        if (k.action == GLFW_PRESS) m_held.push_back(k.key);
    }
    f.keys = std::move(keys);
    m_mouse_x = f.mouse_x, m_mouse_y = f.mouse_y;
    ++m_frame;
    return f;
}

}  // namespace m2m::app
