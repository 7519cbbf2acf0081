// The menu bar (File, View, Lessons, Help, the latest notice and the GL renderer) and the windows
// it opens: the file-path popups and the keyboard shortcuts.
#pragma once

#include "app/app_state.hpp"

namespace m2m::app {

/// The main window's menu bar; call between its Begin and End.
void draw_menu(App& app);
/// The path popup a File menu item asked for (save, open, export) and the shortcuts window.
void draw_popups(App& app);

}  // namespace m2m::app
