// How the whole app is being shown right now: presenter mode and UI scale, read by every panel.
#pragma once

#include <imgui.h>

namespace m2m::ui {

struct View {
    bool presenter = false;  ///< H: hide the controls, keep the scene and the readouts
    float scale = 1.0f;      ///< 1.0 to 3.0; fonts are rebuilt at this size
    static constexpr float min_scale = 1.0f;
    static constexpr float max_scale = 3.0f;
};

/// The one view state of the app (the app writes it; panels read it).
View& view();

/// Paints an opaque rectangle (clipped to the current clip rect). Under software GL a blended,
/// textured ImGui quad costs ~10 ns a pixel on 2 cores, so a panel's big backgrounds are what a
/// frame pays for; the app registers a draw callback that clears the rectangle instead (a
/// scissored glClear). Without one (headless tests) it is an ordinary filled rectangle.
void fill_opaque(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 colour);
/// The app's callback for fill_opaque: it gets the colour in UserCallbackData and the rectangle
/// as the command's ClipRect.
void set_opaque_filler(ImDrawCallback filler);

}  // namespace m2m::ui
