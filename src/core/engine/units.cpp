// Conversions between the core's integer time and seconds.
#include "m2m/core/engine/units.hpp"

#include <cmath>
#include <cstdio>

namespace m2m::core {

std::string_view time_unit_name(TimeUnit unit) {
    return unit == TimeUnit::ticks ? "ticks" : "seconds";
}

double seconds_per_step(TimeUnit unit) {
    return unit == TimeUnit::ticks ? 0.0 : 1.0 / picoseconds_per_second;
}

SimTime picoseconds_from_seconds(double seconds) {
    if (!(seconds > 0.0)) return 0;
    const double ps = std::llround(seconds * picoseconds_per_second);
    return ps < 1.0 ? 1 : static_cast<SimTime>(ps);
}

std::string format_seconds(double s) {
    struct Scale {
        double seconds;
        const char* unit;
    };
    // Small units for the hardware lessons, calendar units for training runs.
    static const Scale scales[] = {{365.25 * 86400, "years"}, {30.44 * 86400, "months"}, {86400, "days"},
                                   {3600, "hours"},           {60, "minutes"},           {1, "s"},
                                   {1e-3, "ms"},              {1e-6, "\u00b5s"},          {1e-9, "ns"},
                                   {1e-12, "ps"}};
    if (!(s > 0) || !std::isfinite(s)) return "0 s";
    for (const Scale& sc : scales) {
        // calendar units only once they read better than the next smaller one
        const double v = s / sc.seconds;
        if (v >= (sc.seconds > 60 ? 2.0 : 1.0) || sc.seconds == 1e-12) {
            char buf[48];
            std::snprintf(buf, sizeof buf, v >= 100 ? "%.0f %s" : v >= 10 ? "%.1f %s" : "%.2f %s", v, sc.unit);
            return buf;
        }
    }
    return "0 s";
}

std::string format_count(std::int64_t n) {
    std::string digits = std::to_string(n < 0 ? -n : n);
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return n < 0 ? "-" + out : out;
}

}  // namespace m2m::core
