// Before the first frame and after the last: settings, the lessons (and a scenario), the window,
// ImGui with its backends, the theme and scale; at the end the settings are kept.
#pragma once

#include <optional>

#include "app/app_state.hpp"

namespace m2m::app {

/// Everything before the first frame. Returns an exit code when the app must stop now (a bad
/// --scenario, no window), after saying why on stderr; else nothing.
std::optional<int> start(App& app, const Options& options);
/// Switches to the app's theme at `scale` and rebuilds the font atlas at that size (between
/// frames only).
void apply_scale_and_theme(App& app, float scale);
/// After the last frame: the settings are saved (interactive runs only), ImGui and the window closed.
void finish(App& app);

}  // namespace m2m::app
