// Units of the simulation core: time, bytes and rates, each named for what it measures.
#pragma once

#include <cstdint>
#include <string_view>

namespace m2m::core {

/// Event time and durations, as an integer count of the timeline's TimeUnit:
/// whole ticks in lesson mode, picoseconds in hardware mode. Integers keep every
/// schedule exact and identical from run to run.
using SimTime = std::int64_t;

enum class TimeUnit { ticks, picoseconds };

/// "ticks" or "seconds": what a user reads (picoseconds are shown as seconds).
std::string_view time_unit_name(TimeUnit unit);

/// Seconds in one SimTime step of `unit`; ticks have no physical length and return 0.
double seconds_per_step(TimeUnit unit);

inline constexpr double picoseconds_per_second = 1e12;

/// Seconds -> whole picoseconds, rounded to nearest; never 0 for a positive input.
SimTime picoseconds_from_seconds(double seconds);

using Bytes = std::int64_t;


}  // namespace m2m::core
