// Numbers as a reader sees them (see text.hpp for the rules and examples).
#include "m2m/core/engine/text.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <utility>
#include <cmath>
#include <cstdio>

namespace m2m::core {

namespace {

std::string printf_text(const char* format, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

// "1.50" -> "1.5", "2.00" -> "2": trailing zeros after a decimal point say nothing.
std::string trimmed(std::string s) {
    if (s.find('.') == std::string::npos) return s;
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
    return s;
}

}  // namespace

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
    // Three significant figures before the unit is chosen, so 999.5 us reads "1.00 ms", not "1000 us"
    // (the small units are a thousand apart; the calendar ones keep their whole count).
    if (s < 100) s = std::strtod(printf_text("%.3g", s).c_str(), nullptr);
    for (const Scale& sc : scales) {
        // calendar units only once they read better than the next smaller one
        const double v = s / sc.seconds;
        if (v >= (sc.seconds > 60 ? 2.0 : 1.0) || sc.seconds == 1e-12) {
            if (v >= 1000 && v < 9e18) return format_count(std::llround(v)) + " " + sc.unit;  // "36,367 years"
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

std::string format_bytes(double bytes) {
    static const char* units[] = {"B", "KB", "MB", "GB", "TB", "PB"};
    int u = 0;
    while (bytes >= 999.5 && u < 5) {
        bytes /= 1000.0;
        ++u;
    }
    return printf_text("%.3g", bytes) + " " + units[u];
}

namespace {

// The text with the thousands' commas taken out, as format_count writes them ("1,024 B"); nullopt
// where a comma stands anywhere else ("1,5", a decimal comma) or the number is hexadecimal
// ("0x400", which strtod would take).
std::optional<std::string> without_thousands(std::string_view text) {
    std::string t;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == 'x' || c == 'X') return std::nullopt;
        if (c != ',') {
            t += c;
            continue;
        }
        std::size_t digits = 0;
        while (i + 1 + digits < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 1 + digits]))) ++digits;
        if (digits != 3 || i == 0 || !std::isdigit(static_cast<unsigned char>(text[i - 1]))) return std::nullopt;
    }
    return t;
}

}  // namespace

std::optional<double> parse_bytes_text(std::string_view text) {
    const std::optional<std::string> t = without_thousands(text);
    if (!t) return std::nullopt;
    char* end = nullptr;
    const double v = std::strtod(t->c_str(), &end);
    if (end == t->c_str()) return std::nullopt;
    std::string unit;
    for (const char* c = end; *c; ++c)
        if (!std::isspace(static_cast<unsigned char>(*c))) unit += static_cast<char>(std::tolower(static_cast<unsigned char>(*c)));
    static const std::pair<const char*, double> units[] = {
        {"", 1},     {"b", 1},       {"byte", 1},    {"bytes", 1},   {"kb", 1e3},    {"mb", 1e6},    {"gb", 1e9},
        {"tb", 1e12}, {"k", 0x1p10}, {"kib", 0x1p10}, {"m", 0x1p20}, {"mib", 0x1p20}, {"g", 0x1p30}, {"gib", 0x1p30},
        {"t", 0x1p40}, {"tib", 0x1p40}};
    for (const auto& [name, scale] : units)
        if (unit == name) {
            const double bytes = v * scale;
            if (!std::isfinite(bytes)) return std::nullopt;  // 0 or below is a number: a slider clamps it
            return bytes;
        }
    return std::nullopt;
}

std::optional<double> parse_count_text(std::string_view text) {
    const std::optional<std::string> t = without_thousands(text);
    if (!t) return std::nullopt;
    char* end = nullptr;
    const double v = std::strtod(t->c_str(), &end);
    if (end == t->c_str() || !std::isfinite(v)) return std::nullopt;
    for (const char* c = end; *c; ++c)
        if (!std::isspace(static_cast<unsigned char>(*c))) return std::nullopt;
    return v;
}

std::string format_gpu_memory(double bytes) {
    return format_bytes(bytes) + " (" + format_significant(bytes / 1073741824.0, 3) + " GiB)";
}

std::string format_rate_GBps(double GBps) {
    // Under 1 GB/s in MB/s, under 1 MB/s in KB/s (the app's bytes' "KB", 1000 bytes): an 8-byte
    // all-reduce's 1.06 MB/s, not "0.00106 GB/s". The thresholds sit where three figures would
    // round up to the next unit.
    if (GBps >= 999.5) return printf_text("%.0f GB/s", GBps);
    if (GBps >= 0.9995) return printf_text("%.3g GB/s", GBps);
    if (GBps * 1e3 >= 0.9995) return printf_text("%.3g MB/s", GBps * 1e3);
    return printf_text("%.3g KB/s", GBps * 1e6);
}

std::string format_ratio(double ratio) {
    return printf_text(ratio >= 9.95 ? "%.0f" : "%.2g", ratio) + "\u00d7";
}

std::string format_fixed(double value, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
    return buf;
}

std::string format_significant(double value, int digits) {
    // %g switches to an exponent once the whole part has more digits than asked for.
    if (std::abs(value) >= std::min(std::pow(10.0, digits), 1e6)) return printf_text("%.0f", value);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*g", digits, value);
    return buf;
}

std::string format_percent(double fraction) {
    const double p = fraction * 100;
    return trimmed(printf_text(p >= 99.95 ? "%.0f" : p >= 9.995 ? "%.1f" : "%.2f", p)) + "%";
}

std::string format_share(double fraction) {
    if (fraction >= 0.999) return "over 99.9%";
    if (fraction >= 0.995) return "over 99%";
    return format_percent(std::max(fraction, 0.0), 0);
}

std::string format_percent(double fraction, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f%%", decimals, fraction * 100);
    return buf;
}

std::string format_words(double v) {
    static const std::pair<double, const char*> scales[] = {{1e12, "trillion"}, {1e9, "billion"}, {1e6, "million"}};
    for (const auto& [scale, word] : scales)
        if (v >= scale) return printf_text("%.3g", v / scale) + " " + word;
    return printf_text("%.3g", v);
}

std::string format_scientific(double v) {
    if (!(v > 0)) return "0";
    const int exponent = static_cast<int>(std::floor(std::log10(v)));
    return printf_text("%.3g", v / std::pow(10.0, exponent)) + "e" + std::to_string(exponent);
}

std::string format_counted(std::int64_t n, const std::string& singular, const std::string& plural) {
    return format_count(n) + " " + (n == 1 ? singular : plural.empty() ? singular + "s" : plural);
}

std::string format_count_word(std::int64_t n) {
    static const char* words[] = {"none", "one", "two", "three", "four", "five",
                                  "six",  "seven", "eight", "nine", "ten"};
    return n >= 0 && n <= 10 ? words[n] : format_count(n);
}

}  // namespace m2m::core
