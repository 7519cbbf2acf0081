// Lesson 1's "Real scale": a frontier model's training on one CPU, one GPU and a cluster. The one-chip
// rows are Lesson 1's own model (a wide layer at a large batch, the same precision on both chips where
// the CPU has it); the cluster row is the estimator's step for the fastest layout that fits.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "m2m/core/layers/layer_run.hpp"
#include "m2m/core/scale/estimator.hpp"

namespace m2m::core {

/// The width and batch of the Lesson 1 run whose rates the one-chip rows use: a layer this wide at
/// this batch is a large matrix multiply, past both machines' ridge points.
inline constexpr int real_scale_width = 4096;
inline constexpr int real_scale_batch = 4096;

struct RealScaleInputs {
    TransformerShape model;
    ComputeSpec cpu;          ///< Lesson 1's CPU preset
    ComputeSpec gpu;          ///< Lesson 1's GPU preset, the same chip as `cluster.gpu`
    EstimateSetup cluster;    ///< the estimator's setup for that GPU (model, GpuSpec, SystemSpec)
    double tokens = 300e9;
    int cluster_gpus = 1024;
    std::int64_t tokens_per_step = std::int64_t{1} << 22;  ///< sets the cluster's global batch
};

struct RealScaleRow {
    std::string label;       ///< "One CPU: Server CPU (AMD EPYC 9654)"
    double seconds = 0;
    std::string duration;    ///< "679 years"
    std::string assumption;  ///< the rate, the units and where the figure is from
    bool shown = true;       ///< the cluster row: false when no layout of that many GPUs fits
};

struct RealScaleStory {
    std::int64_t parameters = 0;
    double flops = 0;                ///< the estimator's training FLOPs per token x tokens
    Precision precision = Precision::bf16;
    LayerRunSetup lesson1;           ///< the Lesson 1 run the one-chip rates come from
    double lesson1_speedup = 0;      ///< its CPU time / GPU time, equal to rows[0] / rows[1]
    std::array<RealScaleRow, 3> rows;  ///< one CPU, one GPU, the cluster
    EstimateSetup cluster_setup;     ///< with the fastest layout that fits (or the search's start)
    std::optional<LayoutScore> cluster_layout;
    std::string title;
    std::string flops_note;          ///< how the FLOPs are counted
    std::string factor_note;         ///< the one-chip factor is Lesson 1's
    std::string layout_note;         ///< the cluster's layout, GPU and batch
    std::string frontier_note;       ///< how this row relates to Lesson 3's Frontier tab
    std::string cluster_note;        ///< when no layout fits: why, and what to change
    std::vector<std::string> simple; ///< where this comparison is simple
};

/// Throws std::invalid_argument when the cluster's GPU count or tokens cannot be estimated.
RealScaleStory tell_real_scale(const RealScaleInputs& in);

/// Predict, then reveal on the Real scale tab: how long the asked row takes, as a person would say
/// it. Under a day; days (1 to 7); weeks (7 days to a month of 30.44 days); months (to a year of
/// 365.25 days); years.
enum class DurationGuess { under_a_day, days, weeks, months, years };
inline constexpr std::array<DurationGuess, 5> duration_guesses = {DurationGuess::under_a_day, DurationGuess::days,
                                                                  DurationGuess::weeks, DurationGuess::months,
                                                                  DurationGuess::years};
/// "under a day", "1 to 7 days", "a week to a month", "a month to a year", "a year or more"
std::string_view duration_guess_label(DurationGuess g);
DurationGuess duration_bucket(double seconds);
/// The row the question asks about: the cluster's (2), or one GPU's (1) where no layout fits the cluster.
std::size_t asked_row(const RealScaleStory& s);
/// "How long on 1,024 GPUs?" (or "How long on one GPU?").
std::string real_scale_question(const RealScaleStory& s);
struct RealScaleReveal {
    bool right = false;
    std::string line;  ///< empty without a guess
};
/// The guess against the asked row: "Right: 1,024 GPUs take 7.87 days (1.1 weeks)." or "You guessed
/// a month to a year: ... so a week to a month."
RealScaleReveal reveal_real_scale(std::optional<DurationGuess> guess, const RealScaleStory& s);

}  // namespace m2m::core
