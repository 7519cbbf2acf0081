// Drawing only what changed since the last frame, under software GL. llvmpipe pays for every
// pixel it shades (README, Benchmarks: ~5 ns a pixel of every 4x4 block a shape touches), and
// while a lesson plays, the menu, the tabs, the intro and the control panel stay the same from one
// frame to the next. Where the back buffer still holds the last frame after a swap (llvmpipe
// under X does; a GPU driver need not, and its frames are cheap anyway), a frame clears and
// redraws only the rectangle covering the windows whose drawing changed (ui/frame_damage.hpp).
#pragma once

#include <imgui.h>

#include <vector>

#include "ui/frame_damage.hpp"

struct GLFWwindow;

namespace m2m::app {

class DamageRenderer {
public:
    /// Once, before the first frame: whether the back buffer keeps what was drawn across a swap.
    /// Only asked of a software renderer; elsewhere every frame is drawn whole. The probe shows the
    /// window's `background` (RGB) a step off in blue, so nobody sees it.
    void probe(GLFWwindow* window, bool software, ImVec4 background);
    /// Draws `dd` into the back buffer cleared to `clear` (RGB): all of it, or only the rectangle
    /// where it differs from the last frame drawn (nothing at all when nothing changed). `whole`
    /// forces all of it (new fonts or colours).
    void render(ImDrawData* dd, int fb_w, int fb_h, ImVec4 clear, bool whole);

private:
    bool m_preserved = false;
    bool m_have_last = false;
    ImVec2 m_last_size{0, 0};
    std::vector<ui::DrawListCopy> m_last;
};

}  // namespace m2m::app
