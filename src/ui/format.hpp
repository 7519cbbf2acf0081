// printf-style text for one number, for the few labels the core's text functions
// (m2m/core/engine/text.hpp) do not cover, such as "%.0f GB" on an axis. Prefer the core's.
#pragma once

#include <cstdio>
#include <string>

namespace m2m::ui {

/// `value` written with `printf_format` (one double conversion), e.g. ("%.1f%%", 51.34) -> "51.3%".
inline std::string formatted(const char* printf_format, double value) {
    char buf[64];
    std::snprintf(buf, sizeof buf, printf_format, value);
    return buf;
}

}  // namespace m2m::ui
