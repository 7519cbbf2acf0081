// The keyboard: input from the window's callbacks reaches ImGui at most one change per key a
// frame (input_trickle.hpp), every press is latched for the shortcuts, and the shortcuts act.
#pragma once

#include "app/app_state.hpp"

namespace m2m::app {

/// Sets up ImGui's GLFW backend on the app's window with the app's callbacks around it: the key
/// latch first (ImGui's own key callback chains to it), then the queues that deliver_input empties.
void connect_input(App& app);
/// Hands ImGui this frame's share of the queued input. Call before ImGui_ImplGlfw_NewFrame().
void deliver_input(App& app);
/// Acts on the keys pressed since the last frame. Shortcuts act only when no text field has the
/// keyboard (typing "r" in a box must not reset); Ctrl+ zoom, F11, Ctrl+E and Ctrl+Q always do.
void handle_keys(App& app);

}  // namespace m2m::app
