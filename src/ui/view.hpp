// How the whole app is being shown right now: presenter mode, UI scale, the theme's colours and
// the renderer behind fill_opaque. The app owns one View (in its lessons::Context) and writes it
// between frames; panels and widgets are handed it and only read it.
#pragma once

#include <imgui.h>

#include "ui/theme.hpp"

namespace m2m::ui {

struct View {
    bool presenter = false;  ///< H: hide the menus, tabs and controls; keep the scene and the readouts
    bool controls_collapsed = false;  ///< C: the lesson's control panel folded to a thin strip
    float controls_share = 1.0f;      ///< the control panel's width as a share of its natural one (dragged)
    static constexpr float min_controls_share = 0.5f;
    static constexpr float max_controls_share = 1.6f;
    float scale = 1.0f;      ///< 1.0 to 3.0; fonts are rebuilt at this size
    Theme theme = make_theme(ThemeKind::dark);
    /// The app's renderer for fill_opaque (a draw callback that clears the command's clip
    /// rectangle to the colour in UserCallbackData); null: a plain filled rectangle.
    ImDrawCallback opaque_filler = nullptr;
    static constexpr float min_scale = 1.0f;
    static constexpr float max_scale = 3.0f;
};

/// Switches `view` to the theme `kind` at `scale`: its colours, its scale and ImGui's style.
void apply_theme(View& view, ThemeKind kind, float scale);

/// Paints an opaque rectangle (clipped to the current clip rect). Under software GL a blended,
/// textured ImGui quad costs ~10 ns a pixel on 2 cores, so a panel's big backgrounds are what a
/// frame pays for; the app sets view.opaque_filler to a draw callback that clears the rectangle
/// instead (a scissored glClear). Without one (headless tests) it is an ordinary filled rectangle.
void fill_opaque(const View& view, ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 colour);

}  // namespace m2m::ui
