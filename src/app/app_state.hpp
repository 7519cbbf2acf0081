// The windowed app's state between frames: which lesson or the home screen is open, the window,
// the input its callbacks collect, and what every lesson shares. One App lives in run(); each part
// of the app (start-up, keyboard, menus, files, the frame loop) is handed it.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "app/damage.hpp"
#include "app/input_trickle.hpp"
#include "app/options.hpp"
#include "app/settings.hpp"
#include "lessons/lesson.hpp"

struct GLFWwindow;

namespace m2m::app {

using Clock = std::chrono::steady_clock;

// ImGui 1.86 reads keys as "down this frame", so a key pressed and released between two frames
// (a quick tap, or a remote clicker) would be lost. GLFW's callback latches every press until the
// next frame reads it; ImGui's own callback is chained after ours.
struct KeyPress {
    int key;
    int mods;  // as they were at the press: a quick Ctrl+= may be fully released by the frame
};

/// What the window's callbacks collect between frames. The app owns it; GLFW hands the callbacks
/// the window, whose user pointer leads back here (keyboard.cpp).
struct Input {
    std::vector<KeyPress> presses;  // every press since the last frame read them
    // The window's keys, text and clicks wait here and reach ImGui's backend (and, through it,
    // the key latch) at most one change per key or button per frame: see input_trickle.hpp.
    InputTrickle trickle;
};

struct App {
    Options options;
    Settings settings;
    std::string settings_dir;
    bool keep_settings = false;  // interactive runs only: tests and screenshots leave them alone
    GLFWwindow* window = nullptr;
    int opened_width = 0, opened_height = 0;  // the size the window was opened at
    Input input;              // the window's user pointer: its callbacks fill this
    lessons::Context shared;  // what every lesson shares (view, item registry, run log); outlives them
    std::vector<std::unique_ptr<lessons::Lesson>> lessons;
    std::vector<bool> intro_hidden;
    std::size_t current = 0;
    bool at_home = false;    // the home screen is showing (`current` is the lesson it came from)
    int home_pick = 0;       // the home screen's highlighted row: Enter opens it
    bool select_tab = true;  // tell the tab bar to follow `current` on the next frame
    bool show_shortcuts = false;
    int help_scroll = 0;      // while the keyboard window is open, this frame's Down/Up scroll it
    float pending_scale = 0;  // a new UI scale, applied between frames
    ui::ThemeKind theme = ui::ThemeKind::dark;
    bool fullscreen = false;
    int windowed[4] = {100, 100, 1280, 720};  // position and size to return to from fullscreen
    std::string notice;  // one message shown in the menu bar (a saved file, a problem)
    std::string renderer;
    DamageRenderer damage;    // under software GL, only what changed is drawn again (damage.hpp)
    bool redraw_whole = true; // the next frame is drawn whole (new fonts, theme, scale)
    std::string last_status;
    std::string open_popup;  // "save", "open", "csv" when a path popup should open
    std::string path_buffer;

    lessons::Lesson& lesson() { return *lessons[current]; }
    /// Opens lesson `i` (ignored past the last one).
    void go_to(std::size_t i);
    /// Opens the home screen, its highlighted row on the lesson it came from.
    void go_home();
    /// "home", or the lesson's id: where --log-state says the app is.
    std::string at() const { return at_home ? std::string("home") : std::string(lessons[current]->id()); }
    /// Shows `message` in the menu bar and prints it as "notice: ..." (the tests read it).
    void tell(const std::string& message);
};

/// The local time as "20261204-153000", for the names of files the user saves.
std::string timestamp();
void set_fullscreen(App& app, bool on);
/// Asks for a UI scale (rounded to a quarter, clamped to the View's range); the fonts are rebuilt
/// between frames.
void zoom(App& app, float scale);

}  // namespace m2m::app
