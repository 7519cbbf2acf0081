// Reading and writing scenario files; the lesson checks its own state when it loads it.
#include "app/scenario.hpp"

#include <algorithm>
#include <stdexcept>

#include "lessons/catalog.hpp"

namespace m2m::app {

using nlohmann::json;

Scenario parse_scenario(const std::string& text) {
    if (text.size() > 16 * 1024 * 1024) throw std::invalid_argument("the file is over 16 MB: not a scenario");
    const json j = json::parse(text, nullptr, false);
    if (j.is_discarded()) throw std::invalid_argument("the file is not valid JSON");
    if (!j.is_object() || j.value("format", "") != "math-to-metal scenario")
        throw std::invalid_argument("the file is not a Math to Metal scenario (no \"format\": \"math-to-metal scenario\")");
    if (!j.contains("version") || !j["version"].is_number_integer())
        throw std::invalid_argument("the scenario has no \"version\" number");
    if (j["version"].get<int>() > scenario_version)
        throw std::invalid_argument("the scenario comes from a newer version of Math to Metal");
    if (!j.contains("lesson") || !j["lesson"].is_string()) throw std::invalid_argument("the scenario names no \"lesson\"");
    Scenario s;
    s.lesson = j["lesson"].get<std::string>();
    const auto ids = lessons::lesson_ids();
    if (std::find(ids.begin(), ids.end(), s.lesson) == ids.end())
        throw std::invalid_argument("the scenario's lesson \"" + s.lesson + "\" does not exist");
    s.state = j.contains("state") ? j["state"] : json::object();
    if (!s.state.is_object()) throw std::invalid_argument("the scenario's \"state\" is not an object");
    return s;
}

std::string scenario_json(const Scenario& s) {
    const json j = {{"format", "math-to-metal scenario"}, {"version", scenario_version}, {"lesson", s.lesson}, {"state", s.state}};
    return j.dump(2) + "\n";
}

}  // namespace m2m::app
