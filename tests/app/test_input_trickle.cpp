// Input faster than a frame: every key press, release and click is seen by ImGui for at least
// one frame, in the order it came, however many arrive between two frames.
#include <GLFW/glfw3.h>

#include <catch2/catch.hpp>
#include <vector>

#include "app/input_trickle.hpp"

using namespace m2m::app;
using Kind = InputEvent::Kind;

namespace {

InputEvent key(int code, int action, int mods = 0) { return {Kind::key, code, 0, action, mods}; }
InputEvent text(unsigned cp) { return {Kind::text, static_cast<int>(cp), 0, 0, 0}; }
InputEvent button(int b, int action) { return {Kind::mouse_button, b, 0, action, 0}; }

std::vector<std::vector<InputEvent>> frames(InputTrickle& t, bool text_field = false) {
    std::vector<std::vector<InputEvent>> out;
    while (!t.empty()) out.push_back(t.take_frame(text_field));
    return out;
}

}  // namespace

TEST_CASE("a key pressed and released between two frames is down for one frame, then up") {
    InputTrickle t;
    t.push(key(GLFW_KEY_ENTER, GLFW_PRESS));
    t.push(key(GLFW_KEY_ENTER, GLFW_RELEASE));
    const auto f = frames(t);
    REQUIRE(f.size() == 2);
    CHECK(f[0] == std::vector{key(GLFW_KEY_ENTER, GLFW_PRESS)});
    CHECK(f[1] == std::vector{key(GLFW_KEY_ENTER, GLFW_RELEASE)});
}

TEST_CASE("different keys change in the same frame, and held-key repeats never wait") {
    InputTrickle t;
    t.push(key(GLFW_KEY_LEFT_CONTROL, GLFW_PRESS));
    t.push(key(GLFW_KEY_A, GLFW_PRESS, GLFW_MOD_CONTROL));
    t.push(key(GLFW_KEY_A, GLFW_REPEAT, GLFW_MOD_CONTROL));
    t.push(key(GLFW_KEY_A, GLFW_RELEASE, GLFW_MOD_CONTROL));
    t.push(key(GLFW_KEY_LEFT_CONTROL, GLFW_RELEASE));
    const auto f = frames(t);
    REQUIRE(f.size() == 2);
    CHECK(f[0].size() == 3);  // Ctrl down, A down, A repeat: Ctrl+A is seen
    CHECK(f[1].size() == 2);  // then both come up
}

TEST_CASE("a quick Ctrl+click keeps Ctrl down in the frame that sees the click") {
    InputTrickle t;
    // What `xdotool keydown ctrl click 1 keyup ctrl` sends, all before the next frame.
    t.push(key(GLFW_KEY_LEFT_CONTROL, GLFW_PRESS));
    t.push(button(GLFW_MOUSE_BUTTON_LEFT, GLFW_PRESS));
    t.push(button(GLFW_MOUSE_BUTTON_LEFT, GLFW_RELEASE));
    t.push(key(GLFW_KEY_LEFT_CONTROL, GLFW_RELEASE, GLFW_MOD_CONTROL));
    const auto f = frames(t);
    REQUIRE(f.size() == 3);
    CHECK(f[0] == std::vector{key(GLFW_KEY_LEFT_CONTROL, GLFW_PRESS), button(GLFW_MOUSE_BUTTON_LEFT, GLFW_PRESS)});
    CHECK(f[1] == std::vector{button(GLFW_MOUSE_BUTTON_LEFT, GLFW_RELEASE)});
    CHECK(f[2] == std::vector{key(GLFW_KEY_LEFT_CONTROL, GLFW_RELEASE, GLFW_MOD_CONTROL)});
}

TEST_CASE("in a text field, typed text then Return: the text lands before Return is seen") {
    InputTrickle t;
    for (unsigned cp : {'-', '2', '5'}) t.push(text(cp));
    t.push(key(GLFW_KEY_ENTER, GLFW_PRESS));
    t.push(key(GLFW_KEY_ENTER, GLFW_RELEASE));
    const auto f = frames(t, true);
    REQUIRE(f.size() == 3);
    CHECK(f[0] == std::vector{text('-'), text('2'), text('5')});
    CHECK(f[1] == std::vector{key(GLFW_KEY_ENTER, GLFW_PRESS)});
    CHECK(f[2] == std::vector{key(GLFW_KEY_ENTER, GLFW_RELEASE)});
}

TEST_CASE("in a text field, Ctrl+A takes effect before the typed text replaces the selection") {
    InputTrickle t;
    t.push(key(GLFW_KEY_LEFT_CONTROL, GLFW_PRESS));
    t.push(key(GLFW_KEY_A, GLFW_PRESS, GLFW_MOD_CONTROL));
    t.push(key(GLFW_KEY_A, GLFW_RELEASE, GLFW_MOD_CONTROL));
    t.push(key(GLFW_KEY_LEFT_CONTROL, GLFW_RELEASE, GLFW_MOD_CONTROL));
    t.push(key(GLFW_KEY_9, GLFW_PRESS));
    t.push(text('9'));
    t.push(key(GLFW_KEY_9, GLFW_RELEASE));
    const auto f = frames(t, true);
    REQUIRE(f.size() == 4);
    CHECK(f[0].size() == 2);                                       // Ctrl down, A down
    CHECK(f[1] == std::vector{key(GLFW_KEY_A, GLFW_RELEASE, GLFW_MOD_CONTROL),
                              key(GLFW_KEY_LEFT_CONTROL, GLFW_RELEASE, GLFW_MOD_CONTROL), key(GLFW_KEY_9, GLFW_PRESS)});
    CHECK(f[2] == std::vector{text('9')});
    CHECK(f[3] == std::vector{key(GLFW_KEY_9, GLFW_RELEASE)});
}

TEST_CASE("outside a text field, a key and its character arrive together") {
    InputTrickle t;
    t.push(key(GLFW_KEY_R, GLFW_PRESS));
    t.push(text('r'));
    t.push(key(GLFW_KEY_R, GLFW_RELEASE));
    const auto f = frames(t, false);
    REQUIRE(f.size() == 2);
    CHECK(f[0] == std::vector{key(GLFW_KEY_R, GLFW_PRESS), text('r')});
}

TEST_CASE("a double click between two frames is two clicks in two frames") {
    InputTrickle t;
    for (int i = 0; i < 2; ++i) {
        t.push(button(GLFW_MOUSE_BUTTON_LEFT, GLFW_PRESS));
        t.push(button(GLFW_MOUSE_BUTTON_LEFT, GLFW_RELEASE));
    }
    const auto f = frames(t);
    REQUIRE(f.size() == 4);
    for (const auto& one : f) CHECK(one.size() == 1);
    CHECK(f[2] == std::vector{button(GLFW_MOUSE_BUTTON_LEFT, GLFW_PRESS)});
}

TEST_CASE("a flood of waiting events is delivered at once rather than lagging for seconds") {
    InputTrickle t;
    for (std::size_t i = 0; i <= InputTrickle::max_waiting; ++i) t.push(key(GLFW_KEY_SPACE, i % 2 ? GLFW_RELEASE : GLFW_PRESS));
    CHECK(t.take_frame(false).size() == InputTrickle::max_waiting + 1);
    CHECK(t.empty());
}

TEST_CASE("nothing waiting gives an empty frame") {
    InputTrickle t;
    CHECK(t.take_frame(true).empty());
}
