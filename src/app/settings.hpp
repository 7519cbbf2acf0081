// The user's settings (theme, scale, last lesson, window size, playback speed) kept between runs.
#pragma once

#include <string>

namespace m2m::app {

struct Settings {
    std::string theme = "dark";  ///< dark | projector
    float scale = 1.0f;
    std::string lesson = "home";  ///< a lesson's id, or "home": the home screen (nothing saved yet)
    int window_width = 1280, window_height = 720;
    double speed = 1.0;
};

inline constexpr int settings_version = 1;

struct LoadedSettings {
    Settings settings;
    std::string message;  ///< non-empty when the file was broken: what happened, and where it was kept
};

/// Reads settings.json from `dir`. A missing file gives defaults quietly. A broken, wrong-typed
/// or newer-version file is reported once and kept as settings.json.bak; defaults are used.
LoadedSettings load_settings(const std::string& dir);
/// Parses settings text; throws std::invalid_argument naming the problem.
Settings parse_settings(const std::string& text);
std::string settings_json(const Settings& s);
/// Writes atomically; returns an error message or empty.
std::string save_settings(const std::string& dir, const Settings& s);

}  // namespace m2m::app
