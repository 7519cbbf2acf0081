// Keys, text and mouse buttons reach ImGui one change per key or button per frame (see the header).
#include "app/input_trickle.hpp"

#include <algorithm>

namespace m2m::app {

namespace {
constexpr int press = 1, release = 0;  // GLFW_PRESS and GLFW_RELEASE; GLFW_REPEAT (2) changes nothing
}

std::vector<InputEvent> InputTrickle::take_frame(bool text_field_active) {
    std::vector<InputEvent> out;
    if (m_waiting.size() > max_waiting) {
        out.assign(m_waiting.begin(), m_waiting.end());
        m_waiting.clear();
        return out;
    }
    std::vector<int> keys_changed, buttons_changed;
    bool text_given = false;
    auto changed = [](const std::vector<int>& v, int code) { return std::find(v.begin(), v.end(), code) != v.end(); };
    while (!m_waiting.empty()) {
        const InputEvent& e = m_waiting.front();
        const bool changes = e.action == press || e.action == release;
        if (e.kind == InputEvent::Kind::key && changes) {
            if (changed(keys_changed, e.code) || text_given || !buttons_changed.empty()) break;
            keys_changed.push_back(e.code);
        } else if (e.kind == InputEvent::Kind::mouse_button && changes) {
            if (changed(buttons_changed, e.code)) break;
            buttons_changed.push_back(e.code);
        } else if (e.kind == InputEvent::Kind::text) {
            if (!buttons_changed.empty() || (text_field_active && !keys_changed.empty())) break;
            text_given = true;
        }
        out.push_back(e);
        m_waiting.pop_front();
    }
    return out;
}

}  // namespace m2m::app
