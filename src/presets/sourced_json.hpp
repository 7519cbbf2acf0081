// What every preset file shares: a figure is {"value": number, "source": text}, and text
// fields are non-empty strings. One reader, so hardware and model presets refuse the same way.
#pragma once

#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "m2m/presets/presets.hpp"

namespace m2m::presets::detail {

struct RawFigure {
    double value;
    std::string source;
};

/// The figure `key` of `entry`, checked for shape (a finite number and a non-empty source);
/// nullopt when absent and not required. Range checks stay with the caller.
inline std::optional<RawFigure> read_figure(const nlohmann::json& entry, const char* key, const std::string& where,
                                            bool required) {
    if (!entry.contains(key)) {
        if (required) throw PresetError(where + ": missing \"" + key + "\"");
        return std::nullopt;
    }
    const nlohmann::json& f = entry.at(key);
    if (!f.is_object() || !f.contains("value") || !f.at("value").is_number())
        throw PresetError(where + ": \"" + key + "\" needs a numeric \"value\"");
    if (!f.contains("source") || !f.at("source").is_string() || f.at("source").get<std::string>().empty())
        throw PresetError(where + ": \"" + key + "\" needs a \"source\" (every figure names where it is from)");
    const double v = f.at("value").get<double>();
    if (!std::isfinite(v)) throw PresetError(where + ": \"" + key + "\" must be a positive number");
    return RawFigure{v, f.at("source").get<std::string>()};
}

}  // namespace m2m::presets::detail
