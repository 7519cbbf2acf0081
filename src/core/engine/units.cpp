// Conversions between the core's integer time and seconds.
#include "m2m/core/engine/units.hpp"

#include <cmath>

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

}  // namespace m2m::core
