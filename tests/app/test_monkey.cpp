// The soak test's monkey without a window: a seed replays the same input, and the input stays
// away from what would end or stall a soak (quitting, file dialogs, minutes-long measurements).
#include <GLFW/glfw3.h>

#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <vector>

#include "app/monkey.hpp"

using namespace m2m::app;

namespace {

MonkeyView test_view() {
    MonkeyView v;
    v.width = 1280, v.height = 720, v.menu_height = 24;
    v.targets = {{100, 100, 400, 124}, {100, 140, 200, 164}, {900, 300, 1200, 600}};
    v.avoid = {{100, 200, 220, 230}};
    return v;
}

std::vector<MonkeyFrame> run(std::uint64_t seed, int frames, int lessons = 4) {
    Monkey m(seed, frames, lessons, 1280, 720);
    const MonkeyView v = test_view();
    std::vector<MonkeyFrame> out;
    for (int i = 0; i < frames; ++i) out.push_back(m.next(v));
    return out;
}

std::vector<std::string> lines(const std::vector<MonkeyFrame>& frames) {
    std::vector<std::string> out;
    for (const auto& f : frames) out.push_back(describe(f));
    return out;
}

bool pressed(const MonkeyFrame& f, int key) {
    for (const MonkeyKey& k : f.keys)
        if (k.key == key && k.action == GLFW_PRESS) return true;
    return false;
}

}  // namespace

TEST_CASE("the same seed gives the same input, frame for frame") {
    const auto a = lines(run(20261202, 5000));
    const auto b = lines(run(20261202, 5000));
    REQUIRE(a.size() == 5000);
    CHECK(a == b);
}

TEST_CASE("another seed gives other input") {
    const auto a = lines(run(1, 500));
    const auto b = lines(run(2, 500));
    int same = 0;
    for (std::size_t i = 0; i < a.size(); ++i) same += a[i] == b[i];
    CHECK(same < 250);  // only idle frames at the same spot can match
}

TEST_CASE("the monkey never presses Ctrl+E, Ctrl+Q, Ctrl+S or Ctrl+O") {
    bool ctrl = false;
    int ctrl_presses = 0;
    for (const MonkeyFrame& f : run(7, 20000)) {
        for (const MonkeyKey& k : f.keys) {
            if (k.key == GLFW_KEY_LEFT_CONTROL) ctrl = k.action == GLFW_PRESS;
            if (k.action != GLFW_PRESS || !(ctrl || (k.mods & GLFW_MOD_CONTROL))) continue;
            ++ctrl_presses;
            INFO(describe(f));
            CHECK(k.key != GLFW_KEY_E);
            CHECK(k.key != GLFW_KEY_Q);
            CHECK(k.key != GLFW_KEY_S);
            CHECK(k.key != GLFW_KEY_O);
        }
    }
    CHECK(ctrl_presses > 500);  // it does use Ctrl: zoom, select all, paste, Ctrl+click
}

TEST_CASE("the monkey never presses a button on the menu bar or on a region it must avoid") {
    const MonkeyView v = test_view();
    bool left = false, right = false;
    int presses = 0;
    for (const MonkeyFrame& f : run(11, 20000)) {
        const bool press = (f.left_down && !left) || (f.right_down && !right);
        left = f.left_down, right = f.right_down;
        if (!press) continue;
        ++presses;
        INFO(describe(f));
        CHECK(f.mouse_y >= v.menu_height);
        CHECK_FALSE(v.avoid[0].contains(f.mouse_x, f.mouse_y));
    }
    CHECK(presses > 3000);
}

TEST_CASE("every key the monkey presses is released on the next frame") {
    const auto frames = run(3, 3000);
    for (std::size_t i = 0; i + 1 < frames.size(); ++i) {
        for (const MonkeyKey& k : frames[i].keys) {
            if (k.action != GLFW_PRESS) continue;
            bool released = false;
            for (const MonkeyKey& r : frames[i + 1].keys) released |= r.key == k.key && r.action == GLFW_RELEASE;
            INFO(describe(frames[i]) << " then " << describe(frames[i + 1]));
            CHECK(released);
        }
    }
}

TEST_CASE("a 2,000-frame run samples memory after its 200 warm-up frames, at frame 1,000 and at its end") {
    std::vector<int> samples;
    for (const auto& f : run(4, 2000))
        if (f.sample_rss) samples.push_back(f.index);
    CHECK(samples == std::vector<int>{200, 1000, 1999});
}

TEST_CASE("in 2,000 frames the monkey's round of lesson keys reaches every lesson and the home screen") {
    std::set<int> keys;
    for (const MonkeyFrame& f : run(1, 2000, 4))
        for (int k : {GLFW_KEY_1, GLFW_KEY_2, GLFW_KEY_3, GLFW_KEY_4, GLFW_KEY_HOME})
            if (pressed(f, k)) keys.insert(k);
    CHECK(keys == std::set<int>{GLFW_KEY_1, GLFW_KEY_2, GLFW_KEY_3, GLFW_KEY_4, GLFW_KEY_HOME});
}

TEST_CASE("in 20,000 frames the monkey shrinks the window to 1x1, minimises it, drags past its edge and types") {
    int one_by_one = 0, minimised = 0, restored = 0, blurred = 0, typed = 0, off_window = 0, wheel = 0, f11 = 0;
    bool left = false;
    for (const MonkeyFrame& f : run(5, 20000)) {
        one_by_one += f.resize_w == 1 && f.resize_h == 1;
        minimised += f.minimise;
        restored += f.restore;
        blurred += f.focus == 0;
        typed += !f.text.empty();
        off_window += left && f.left_down && (f.mouse_x < 0 || f.mouse_x > 1280);
        wheel += f.wheel != 0;
        f11 += pressed(f, GLFW_KEY_F11);
        left = f.left_down;
    }
    CHECK(one_by_one > 0);
    CHECK(minimised > 0);
    CHECK(restored >= minimised);
    CHECK(blurred > 0);
    CHECK(typed > 500);
    CHECK(off_window > 100);
    CHECK(wheel > 100);
    CHECK(f11 > 0);
}

TEST_CASE("memory is sampled after warm-up, every 1,000 frames and on the last frame, each time at the starting size and scale") {
    const auto frames = run(9, 20000);
    Monkey m(9, 20000, 4, 1280, 720);
    CHECK(m.warm_frame() == 2000);
    CHECK(m.end_frame() == 19999);
    std::vector<int> samples;
    for (const auto& f : frames)
        if (f.sample_rss) samples.push_back(f.index);
    std::vector<int> expected;
    for (int i = 2000; i < 20000; i += 1000) expected.push_back(i);
    expected.push_back(19999);
    CHECK(samples == expected);
    for (const int s : samples) {
        bool home = false, actual_size = false;
        for (int i = s - Monkey::settle_frames; i < s; ++i) {
            const MonkeyFrame& f = frames[static_cast<std::size_t>(i)];
            home |= f.resize_w == 1280 && f.resize_h == 720;
            actual_size |= pressed(f, GLFW_KEY_0);
        }
        INFO("sample at frame " << s);
        CHECK(home);
        CHECK(actual_size);
        for (int i = s - Monkey::settle_frames + 4; i <= s; ++i) {  // then nothing happens
            const MonkeyFrame& f = frames[static_cast<std::size_t>(i)];
            CHECK_FALSE(f.left_down);
            CHECK(f.resize_w == 0);
            CHECK(f.text.empty());
        }
    }
}
