// What `sim transfer` and `sim collective` share: byte counts, the system preset and the cluster's shape.
#pragma once

#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>

#include "m2m/core/engine/text.hpp"
#include "m2m/core/rack/topology.hpp"
#include "m2m/presets/presets.hpp"

namespace m2m::cli::rack {

/// Largest tensor or collective buffer accepted: 1 PB, far past any GPU's memory.
inline constexpr double max_bytes = 1e15;

/// "1e9", "1073741824", "2.5e6", or with nccl-tests' suffixes "64K", "1M", "16G", "1T" (K, M, G, T:
/// powers of 1024, either case, as its -b and -e read them): a positive byte count, rounded to a
/// whole byte; nullopt for anything else (not a number, <= 0, under one byte, over max_bytes).
inline std::optional<core::Bytes> parse_bytes(const std::string& text) {
    if (text.empty()) return std::nullopt;
    char* end = nullptr;
    double v = std::strtod(text.c_str(), &end);
    const char* const last = text.c_str() + text.size();
    if (end == text.c_str()) return std::nullopt;
    if (end + 1 == last) {
        switch (*end) {
            case 'K': case 'k': v *= 0x1p10; break;
            case 'M': case 'm': v *= 0x1p20; break;
            case 'G': case 'g': v *= 0x1p30; break;
            case 'T': case 't': v *= 0x1p40; break;
            default: return std::nullopt;
        }
        end = const_cast<char*>(last);
    }
    if (end != last || !std::isfinite(v) || v > max_bytes) return std::nullopt;
    const double whole = std::round(v);
    if (whole < 1) return std::nullopt;
    return static_cast<core::Bytes>(whole);
}

inline std::string bytes_accepted() {
    return "a positive number of bytes such as 1e9, 1073741824 or 64M (K, M, G, T: powers of 1024, as nccl-tests "
           "reads them; at most 1e15)";
}

/// Reads --bytes into `bytes`; what is wrong with the text, if anything, for the refusal.
inline std::optional<std::string> read_bytes(const std::string& text, core::Bytes& bytes) {
    const auto parsed = parse_bytes(text);
    if (!parsed) return "expected " + bytes_accepted() + ", got '" + text + "'";
    bytes = *parsed;
    return std::nullopt;
}

struct Options {
    std::string hardware = "h100";
    std::uint32_t gpus_per_node = 8;
    std::uint32_t nodes_per_rack = 8;
    std::uint32_t racks = 2;
};

inline void add_options(CLI::App& app, Options& o, const char* racks_help) {
    app.add_option("--hardware", o.hardware, "node generation: its NVLink and InfiniBand presets")
        ->check(CLI::IsMember(presets::builtin().system_ids()));
    app.add_option("--gpus-per-node", o.gpus_per_node, "GPUs per node, around one NVSwitch (default 8)")
        ->check(CLI::Range(1u, core::max_gpus_per_node));
    app.add_option("--nodes-per-rack", o.nodes_per_rack, "nodes under each rack's leaf switch (default 8)")
        ->check(CLI::Range(1u, static_cast<std::uint32_t>(core::max_cluster_gpus)));
    app.add_option("--racks", o.racks, racks_help)->check(CLI::Range(1u, static_cast<std::uint32_t>(core::max_cluster_gpus)));
}

inline core::ClusterShape shape(const Options& o) {
    core::ClusterShape s;
    s.gpus_per_node = o.gpus_per_node;
    s.nodes_per_rack = o.nodes_per_rack;
    s.racks = o.racks;
    return s;
}

/// The flags a bad cluster shape is reported against.
inline constexpr const char* shape_flags = "--nodes-per-rack/--racks";

/// "2 racks x 8 nodes x 8 GPUs = 128 GPUs"
inline std::string describe(const core::ClusterShape& s) {
    return core::format_counted(s.racks, "rack") + " x " + core::format_counted(s.nodes_per_rack, "node") + " x " +
           core::format_counted(s.gpus_per_node, "GPU") + " = " +
           core::format_counted(static_cast<std::int64_t>(s.gpu_count()), "GPU");
}

inline nlohmann::json cluster_json(const core::Cluster& c) {
    return {{"gpus_per_node", c.shape().gpus_per_node},
            {"nodes_per_rack", c.shape().nodes_per_rack},
            {"racks", c.shape().racks},
            {"gpus", c.gpu_count()}};
}

}  // namespace m2m::cli::rack
