// Scenario files: one lesson's whole set-up, saved tonight for tomorrow's lecture.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace m2m::app {

inline constexpr int scenario_version = 1;

struct Scenario {
    std::string lesson;     ///< a catalog id
    nlohmann::json state;   ///< what the lesson's save_state() gave
};

/// Throws std::invalid_argument with one sentence naming the problem.
Scenario parse_scenario(const std::string& text);
std::string scenario_json(const Scenario& s);

}  // namespace m2m::app
