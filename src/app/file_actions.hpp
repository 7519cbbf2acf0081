// What the user saves and opens from the window: screenshots, scenarios and timelines as CSV.
#pragma once

#include <string>

#include "app/app_state.hpp"

namespace m2m::app {

/// Where File > Save scenario suggests saving: <config>/scenarios.
std::string scenario_dir();
/// Each tells the user (App::tell) what was saved, or why not.
void save_screenshot(App& app, const std::string& path);
void save_scenario(App& app, const std::string& path);
void export_csv(App& app, const std::string& path);
/// Loads a scenario into its lesson and opens it; on any problem the lesson stays as it was and
/// the problem comes back (empty: loaded).
std::string load_scenario(App& app, const std::string& path);

}  // namespace m2m::app
