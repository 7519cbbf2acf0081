// Screenshots, scenarios and CSV timelines, written atomically (files.hpp) and reported to the user.
#include "app/file_actions.hpp"

#include <GLFW/glfw3.h>

#include <exception>

#include "app/files.hpp"
#include "app/scenario.hpp"
#include "app/window.hpp"

namespace m2m::app {

std::string scenario_dir() { return config_dir() + "/scenarios"; }

void save_screenshot(App& app, const std::string& path) {
    int w = 0, h = 0;
    glfwGetFramebufferSize(app.window, &w, &h);
    std::string error;
    app.tell(save_png(w, h, path, error) ? "saved " + path : error);
}

void save_scenario(App& app, const std::string& path) {
    const Scenario s{std::string(app.lesson().id()), app.lesson().save_state()};
    const std::string error = write_file_atomically(path, scenario_json(s));
    app.tell(error.empty() ? "saved scenario " + path : error);
}

std::string load_scenario(App& app, const std::string& path) {
    std::string error;
    const auto text = read_file(path, error);
    if (!text) return error;
    try {
        const Scenario s = parse_scenario(*text);
        for (std::size_t i = 0; i < app.lessons.size(); ++i)
            if (app.lessons[i]->id() == s.lesson) {
                app.lessons[i]->load_state(s.state);
                app.go_to(i);
            }
    } catch (const std::exception& e) {
        return path + ": " + e.what();
    }
    return {};
}

void export_csv(App& app, const std::string& path) {
    const std::string csv = app.lesson().timeline_csv();
    if (csv.empty()) {
        app.tell("no timeline to export yet: play the run to its end first");
        return;
    }
    const std::string error = write_file_atomically(path, csv);
    app.tell(error.empty() ? "saved timeline " + path : error);
}

}  // namespace m2m::app
