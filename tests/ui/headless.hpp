// ImGui without a window, as ImPlot's CI does it: a context, a display size, a built font
// atlas, and frames run on demand. Panels are tested by what they report. The fixture owns what
// the app would share with its lessons (a lessons::Context), so no test sees another's.
#pragma once

#include <imgui.h>

#include <functional>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "lessons/context.hpp"

namespace m2m::test {

class Headless {
public:
    explicit Headless(float width = 1920, float height = 1080, float scale = 1.0f);
    ~Headless();
    Headless(const Headless&) = delete;
    Headless& operator=(const Headless&) = delete;

    /// What the app would hand its lessons: build a panel with it, read its run log.
    lessons::Context& context() { return m_ctx; }

    /// One frame: `body` runs inside a full-screen window, as the app's lesson area does.
    void frame(const std::function<void()>& body, float dt_s = 1.0f / 60.0f);
    /// Largest amount by which any item drawn in the last frame stuck out of its window.
    float worst_overflow() const { return m_overflow; }
    /// Where that worst vertex was, to find the culprit.
    ImVec2 worst_position() const { return m_worst; }

    /// Something a person could not read whole in the last frame.
    struct Clipped {
        std::string what;  ///< "items in window 'lesson/scene_1234'" or "a glyph in draw list 'lesson'"
        float overflow_px = 0;
        ImVec2 where{0, 0};
    };
    /// Everything cut off at the side of the window that holds it, found two ways: (1) a window
    /// that cannot scroll sideways whose items reach past its visible right edge (ImGui's
    /// CursorMaxPos: every Text, wrapped or not, and every widget); (2) a glyph that crosses the
    /// left or right edge of the clip rectangle it was drawn in by more than 1.5 px (text placed
    /// with AddText, which no item records; a 'Y' or a 'T' starts a pixel left of its pen). Text
    /// scrolled out of view vertically does not count: it can be scrolled to.
    const std::vector<Clipped>& clipped() const { return m_clipped; }
    /// clipped() as lines, for a test's failure message.
    std::string clipped_text() const;
    /// Windows whose name contains `part` are left out of check (1): for a widget's own inner
    /// window that scrolls its text itself, such as a multiline InputText box.
    void ignore_window(std::string part) { m_ignored.push_back(std::move(part)); }

private:
    void find_clipped();
    void collect_glyph_corners();

    ImGuiContext* m_imgui;
    lessons::Context m_ctx;
    float m_overflow = 0;
    ImVec2 m_worst{0, 0};
    std::vector<Clipped> m_clipped;
    std::vector<std::string> m_ignored;
    std::unordered_map<std::uint64_t, ImWchar> m_glyph_corners;  // texture corner -> the letter
};

}  // namespace m2m::test
