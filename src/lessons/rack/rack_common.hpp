// Lesson 2's files share these: the system presets in the app's order, and a preset's short name.
#pragma once

#include <string>
#include <vector>

#include "m2m/presets/presets.hpp"

namespace m2m::lessons::rack_detail {

inline const std::vector<std::string>& system_ids() {
    static const auto ids = presets::builtin().system_ids();
    return ids;
}

inline const presets::SystemPreset& system_preset(std::size_t i) { return *presets::builtin().find_system(system_ids()[i]); }

// "DGX H100" from "DGX H100: 8x H100 SXM 80GB, ...".
inline std::string short_name(const std::string& name) { return name.substr(0, name.find(':')); }

}  // namespace m2m::lessons::rack_detail
