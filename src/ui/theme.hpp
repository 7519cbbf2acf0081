// Colours and sizes every panel draws with; one place to change the look of the app.
#pragma once

#include <imgui.h>

#include "m2m/core/rack/topology.hpp"

namespace m2m::ui {

enum class ThemeKind { dark, projector };

/// Colours chosen from the Okabe-Ito colour-blind-safe palette, so CPU, GPU and the two
/// link types stay distinguishable for every student.
struct Theme {
    ThemeKind kind = ThemeKind::dark;
    ImU32 cpu, gpu, nvlink, infiniband;
    ImU32 idle, done_dim, text, text_dim, panel, grid, accent, warning;
    float line_thickness = 1.5f;

    /// The one place a link type gets its colour (every lesson, legend and drawing asks here):
    /// NVLink inside a node, InfiniBand between nodes. PCIe only ever carries a tensor from a GPU
    /// to its NIC on the way onto InfiniBand, so it is drawn in InfiniBand's colour; a local
    /// "link" (no wire at all) in the text colour.
    ImU32 link(core::LinkType type) const;
};

/// The colours of `kind` (the app keeps the current one in its ui::View).
Theme make_theme(ThemeKind kind);
/// ImGui's own style for `theme` (its frames, text and window colours), sizes scaled by `scale`.
void apply_imgui_style(const Theme& theme, float scale);
/// Colour `c` with its alpha multiplied by `a`.
ImU32 fade(ImU32 c, float a);
/// `top` blended over an opaque `bottom`: the colour ImGui's blending would give, as an opaque colour.
ImU32 blend_over(ImVec4 top, ImVec4 bottom);

}  // namespace m2m::ui
