// Numbers as a reader sees them: the one place where the core (and every panel, through the core's
// stories) turns counts, bytes, times, rates and ratios into text.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace m2m::core {

/// A duration as a person reads it: "850 ps", "12.3 µs", "4.10 ms", "2.00 s", "3.50 hours",
/// "41.0 days", "2.30 years"; three significant figures at most.
std::string format_seconds(double seconds);

/// A count with thousands separators: 16896 -> "16,896".
std::string format_count(std::int64_t n);

/// Bytes in decimal units, as link rates and memory sizes are quoted (1 KB = 1,000 bytes), three
/// significant figures: 512 -> "512 B", 1000 -> "1 KB", 58200 -> "58.2 KB", 2.79e12 -> "2.79 TB".
std::string format_bytes(double bytes);
/// A size as a person types it back: "16 GB", "1.5 MB", "1e9", "1024", "1,024 B", "100 bytes";
/// KB, MB, GB, TB in powers of 1000 as format_bytes writes them; KiB, MiB, GiB, TiB and
/// nccl-tests' K, M, G, T in powers of 1024. Spaces around the unit and its case do not matter;
/// commas only as thousands' commas. nullopt for anything else (hexadecimal included) or a number
/// that is not finite; 0 and below are numbers (a slider clamps them to its smallest).
std::optional<double> parse_bytes_text(std::string_view text);
/// A count as a person types it: "1024", "1,024", "1e4", spaces around it allowed. nullopt for
/// anything else (words, a unit, a comma that is no thousands' comma as in "1,5", hexadecimal, a
/// number that is not finite); 0 and below are numbers.
std::optional<double> parse_count_text(std::string_view text);

/// A GPU's memory in decimal units with the binary ones its maker's name counts in: an "80GB"
/// card holds 80 GiB, so 85.9e9 -> "85.9 GB (80 GiB)", 150.8e9 -> "151 GB (140 GiB)".
std::string format_gpu_memory(double bytes);

/// A rate in GB/s (1 GB = 1e9 bytes), three significant figures: "371 GB/s", "48 GB/s", "1200 GB/s";
/// under 1 GB/s in MB/s ("1.06 MB/s"), under 1 MB/s in KB/s ("933 KB/s"), as format_bytes.
std::string format_rate_GBps(double GBps);

/// A share of a whole in whole percent that never rounds up to all of it: 0.42 -> "42%",
/// 0.993 -> "99%", 0.996 -> "over 99%", 0.9998 -> "over 99.9%".
std::string format_share(double fraction);

/// A ratio "how many times": 5 -> "5×", 7.7 -> "7.7×", 12.3 -> "12×", 141.2 -> "141×", 0.68 -> "0.68×".
std::string format_ratio(double ratio);

/// `value` with `decimals` digits after the point: (0.5134, 3) -> "0.513".
std::string format_fixed(double value, int decimals);

/// `value` to `digits` significant figures, never with an exponent from 0.0001 up: (46.27, 3) ->
/// "46.3"; a value with more whole digits than `digits` is rounded to a whole number instead
/// ((7372.8, 3) -> "7373"), as is anything from 1e6 up.
std::string format_significant(double value, int digits = 3);

/// A share as a percentage: 0.513 -> "51.3%", 0.04 -> "4%" (three significant figures at most).
std::string format_percent(double fraction);
/// A share as a percentage with `decimals` digits after the point, for sentences that round:
/// (0.4286, 0) -> "43%", (0.0986, 1) -> "9.9%".
std::string format_percent(double fraction, int decimals);

/// A large count as a teacher says it: 3e11 -> "300 billion", 1.56e13 -> "15.6 trillion".
std::string format_words(double value);

/// Scientific notation without "+": 3.15e23 -> "3.15e23".
std::string format_scientific(double value);

/// `n` and the noun, singular or plural: (1, "core") -> "1 core", (6, "core") -> "6 cores".
std::string format_counted(std::int64_t n, const std::string& singular, const std::string& plural = {});

/// A small count in words, as in "two of the six ideas": 1 -> "one" ... 10 -> "ten", 0 -> "none";
/// larger counts as format_count() writes them.
std::string format_count_word(std::int64_t n);

}  // namespace m2m::core
