// Settings read with nlohmann-json; a broken file is kept aside, never overwritten silently.
#include "app/settings.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "app/files.hpp"
#include "lessons/catalog.hpp"
#include "ui/view.hpp"

namespace m2m::app {

using nlohmann::json;

Settings parse_settings(const std::string& text) {
    const json j = json::parse(text, nullptr, false);
    if (j.is_discarded()) throw std::invalid_argument("it is not valid JSON");
    if (!j.is_object()) throw std::invalid_argument("it is not a JSON object");
    if (j.contains("version") && (!j["version"].is_number_integer() || j["version"].get<int>() > settings_version))
        throw std::invalid_argument("it comes from a newer version of Math to Metal");
    Settings s;
    auto get_string = [&](const char* key, std::string& out, std::initializer_list<std::string> allowed) {
        if (!j.contains(key)) return;
        if (!j[key].is_string()) throw std::invalid_argument(std::string("\"") + key + "\" is not text");
        const std::string v = j[key].get<std::string>();
        if (allowed.size() && std::find(allowed.begin(), allowed.end(), v) == allowed.end())
            throw std::invalid_argument(std::string("\"") + key + "\" has an unknown value");
        out = v;
    };
    get_string("theme", s.theme, {"dark", "projector"});
    get_string("lesson", s.lesson, {});
    const auto ids = lessons::lesson_ids();
    if (s.lesson != "home" && std::find(ids.begin(), ids.end(), s.lesson) == ids.end()) s.lesson = "layers";  // a lesson since removed
    if (j.contains("scale")) {
        if (!j["scale"].is_number()) throw std::invalid_argument("\"scale\" is not a number");
        s.scale = std::clamp(j["scale"].get<float>(), ui::View::min_scale, ui::View::max_scale);
        if (!std::isfinite(s.scale)) s.scale = 1.0f;
    }
    if (j.contains("window")) {
        const json& w = j["window"];
        if (!w.is_array() || w.size() != 2 || !w[0].is_number_integer() || !w[1].is_number_integer())
            throw std::invalid_argument("\"window\" is not [width, height]");
        s.window_width = std::clamp(w[0].get<int>(), 320, 7680);
        s.window_height = std::clamp(w[1].get<int>(), 240, 4320);
    }
    if (j.contains("speed")) {
        if (!j["speed"].is_number()) throw std::invalid_argument("\"speed\" is not a number");
        s.speed = std::clamp(j["speed"].get<double>(), 0.125, 64.0);
    }
    return s;
}

std::string settings_json(const Settings& s) {
    const json j = {{"format", "math-to-metal settings"},
                    {"version", settings_version},
                    {"theme", s.theme},
                    {"scale", s.scale},
                    {"lesson", s.lesson},
                    {"window", {s.window_width, s.window_height}},
                    {"speed", s.speed}};
    return j.dump(2) + "\n";
}

LoadedSettings load_settings(const std::string& dir) {
    LoadedSettings out;
    const std::string path = dir + "/settings.json";
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) return out;
    std::string error;
    const auto text = read_file(path, error);
    try {
        if (!text) throw std::invalid_argument(error);
        out.settings = parse_settings(*text);
        return out;
    } catch (const std::invalid_argument& e) {
        // Keep what the user had: move it aside (a folder in its place is left where it is).
        std::string kept = "left in place";
        if (std::filesystem::is_regular_file(path, ec)) {
            std::filesystem::rename(path, path + ".bak", ec);
            kept = ec ? "left in place (" + ec.message() + ")" : "kept as " + path + ".bak";
        }
        out.message = "settings " + path + " could not be used (" + e.what() + "); it was " + kept +
                      ", and the app starts on defaults";
        out.settings = Settings{};
    }
    return out;
}

std::string save_settings(const std::string& dir, const Settings& s) {
    return write_file_atomically(dir + "/settings.json", settings_json(s));
}

}  // namespace m2m::app
