// What is on screen this frame, by name: the test hook that tells a window test (xdotool) and the
// soak test's monkey where a person would click. The app owns one registry and clears it at the
// start of every frame, so it only ever holds what the current frame drew.
#pragma once

#include <imgui.h>

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace m2m::ui {

class ItemRegistry {
public:
    /// Remembers the screen rectangle of the last ImGui item under `name` (a later note of the
    /// same name in the frame wins). Costs a map insert.
    void note(std::string_view name);
    /// Remembers `r` (x0, y0, x1, y1) under `name`, for a rectangle that is not one ImGui item
    /// (a lesson's picture: "scene"). A later note or set of the same name in the frame wins.
    void set(std::string_view name, ImVec4 r);
    /// A measured figure of this frame (e.g. "neuron_radius_px"), printed by --log-state as
    /// "name value". A later measure of the same name wins.
    void measure(std::string_view name, float value);
    /// Every measure as "name value" lines, in name order.
    std::string measure_lines() const;
    /// The rectangle noted under `name` this frame (x0, y0, x1, y1), if any.
    std::optional<ImVec4> rect(std::string_view name) const;
    /// Every noted item as "name x0 y0 x1 y1" lines, in name order.
    std::string lines() const;
    /// Forgets everything: the app calls it before drawing each frame.
    void clear() {
        m_items.clear();
        m_measures.clear();
    }

private:
    std::map<std::string, ImVec4, std::less<>> m_items;
    std::map<std::string, float, std::less<>> m_measures;
};

}  // namespace m2m::ui
