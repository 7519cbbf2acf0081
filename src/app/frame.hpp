// One frame of the window's contents: the menu bar, the lesson tabs, the lesson's intro and the
// lesson (or the home screen), then the popups.
#pragma once

#include "app/app_state.hpp"

namespace m2m::app {

/// Draws everything for one frame; `dt_s` moves the open lesson's playback.
void draw_frame(App& app, float dt_s);

}  // namespace m2m::app
