// Keys, text and mouse buttons reach ImGui at most one change per key or button per frame.
// ImGui 1.86 samples key state once a frame (io.KeysDown), so a key pressed and released
// inside one frame never happened as far as it knows: on a slow machine (software GL, a
// classroom VM, the sanitizer build) a quick Return in a typed slider value, or the Ctrl of a
// quick Ctrl+click, was lost. ImGui 1.87 added the same rule to its own input queue
// ("trickle fast inputs"); this is that rule for 1.86's GLFW backend. Pure: no GLFW, no ImGui.
#pragma once

#include <cstddef>
#include <deque>
#include <vector>

namespace m2m::app {

/// One input event as GLFW reported it (codes and actions are GLFW's).
struct InputEvent {
    enum class Kind { key, text, mouse_button };
    Kind kind = Kind::key;
    int code = 0;       ///< key or mouse button; for text, the code point
    int scancode = 0;
    int action = 0;     ///< GLFW_PRESS, GLFW_RELEASE or GLFW_REPEAT (keys and buttons)
    int mods = 0;
    bool operator==(const InputEvent&) const = default;
};

class InputTrickle {
public:
    /// Past this many waiting events everything is delivered at once: a flood (a key held down
    /// on a stalled frame) must not turn into seconds of lag.
    static constexpr std::size_t max_waiting = 256;

    void push(const InputEvent& e) { m_waiting.push_back(e); }
    bool empty() const { return m_waiting.empty(); }
    std::size_t waiting() const { return m_waiting.size(); }

    /// The events for the next frame, in the order they came. It stops before an event that
    /// would change a key or button already changed in this frame, before a key change after
    /// text, before a key change or text after a mouse button change, and (while a text field
    /// has the keyboard) before text after a key change, so every change is seen for a frame.
    std::vector<InputEvent> take_frame(bool text_field_active);

private:
    std::deque<InputEvent> m_waiting;
};

}  // namespace m2m::app
