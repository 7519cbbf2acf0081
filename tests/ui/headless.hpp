// ImGui without a window, as ImPlot's CI does it: a context, a display size, a built font
// atlas, and frames run on demand. Panels are tested by what they report.
#pragma once

#include <imgui.h>

#include <functional>

namespace m2m::test {

class Headless {
public:
    explicit Headless(float width = 1920, float height = 1080, float scale = 1.0f);
    ~Headless();
    Headless(const Headless&) = delete;
    Headless& operator=(const Headless&) = delete;

    /// One frame: `body` runs inside a full-screen window, as the app's lesson area does.
    void frame(const std::function<void()>& body, float dt_s = 1.0f / 60.0f);
    /// Largest amount by which any item drawn in the last frame stuck out of its window.
    float worst_overflow() const { return m_overflow; }
    /// Where that worst vertex was, to find the culprit.
    ImVec2 worst_position() const { return m_worst; }

private:
    ImGuiContext* m_ctx;
    float m_overflow = 0;
    ImVec2 m_worst{0, 0};
};

}  // namespace m2m::test
