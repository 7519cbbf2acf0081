// Lesson 3's "Frontier scale" story: a real model on a real cluster, whether it fits one GPU, what a
// layout holds per GPU, its step as timeline rows, and every sentence and readout the tab shows.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "m2m/core/scale/estimator.hpp"

namespace m2m::core {

/// What a bar of the step's timeline stands for: a pass, the update, or a transfer on `link`.
enum class StepBarKind { forward, backward, update, transfer };

/// Which traffic a transfer bar is: a pipeline stage's send, the gradient sync, the weights'
/// gather after the update (ZeRO 1/2), ZeRO 2/3's traffic during a pass, or the exposed part of a
/// pass's tensor-parallel collectives, context parallel's key/value ring or expert all-to-alls
/// (these run between a pass's kernels; the bar puts them together at the pass's end).
enum class StepTraffic { none, stage_send, gradient_sync, weight_gather, zero, tensor, context, experts };
std::string_view traffic_words(StepTraffic x);  ///< "stage sends", "gradient sync", ...

struct StepBar {
    double start_s = 0, end_s = 0;
    StepBarKind kind = StepBarKind::forward;
    LinkType link = LinkType::local;  ///< a transfer's link (NVLink or InfiniBand); local for compute
    StepTraffic what = StepTraffic::none;   ///< a transfer's traffic
    /// Passes the bar stands for: 1, or in a stage's summarised steady state, drawn as forward and
    /// backward stripes in turn, the passes of this stripe and the next (a forward and a backward);
    /// in GPipe's (`run`), a stripe of its forwards or, after the bubble, its backwards.
    std::int64_t stands_for = 1;
    bool run = false;
};

/// One pipeline stage: every GPU of a stage does the same, so one row stands for them all.
struct StepRow {
    std::string label;  ///< "stage 3"
    std::vector<StepBar> bars;  ///< in start order
};

/// One big number above the step: "STEP TIME" and "9.57 s", with what it means on hover.
struct FrontierReadout {
    std::string label, value, tooltip;
};

struct FrontierStory {
    EstimateSetup setup;                 ///< what was estimated (model, GPU, links, layout, tokens)
    std::optional<SetupProblem> problem; ///< check()'s objection (then no estimate, rows or readouts)
    Estimate estimate;

    // The whole model on one GPU, before any split.
    MemoryUse whole;                      ///< memory_use() of a one-GPU layout
    double state_bytes = 0;               ///< its weights, gradients and Adam state
    int min_gpus = 1;                     ///< at least this many GPUs' memory for that state alone
    bool fits_one_gpu = false;
    std::string whole_text;               ///< "The whole model: 175 billion parameters x 16 bytes = ..."
    std::array<std::string, 4> whole_legend;  ///< weights, gradients, Adam state, one GPU's memory
    std::string whole_verdict;            ///< does it fit, and if not how many GPUs at least

    std::string product_text;  ///< "TP x CP x PP x DP = 8 x 1 x 8 x 16 = 1,024 GPUs"
    std::string layout_text;   ///< the model, GPUs, batch and layout in words
    std::string problem_text;  ///< "This layout cannot run. field: message" (empty without a problem)

    // With no problem: the fullest stage's memory per GPU, the step and its links.
    std::string gpu_head;                   ///< its memory, and a change that fits it when it does not
    std::array<std::string, 6> gpu_legend;  ///< weights, gradients, Adam state, activations, framework, capacity
    std::string timeline_note;              ///< above the step's timeline: empty, or that it would not run
    std::vector<StepRow> rows;              ///< one per pipeline stage
    std::array<std::string, 2> link_legend; ///< NVLink, InfiniBand: what crosses it (empty: nothing)
    std::string links_text;                 ///< which link each group's traffic takes
    std::array<FrontierReadout, 5> readouts;  ///< step time, tokens/s, MFU, HFU, days to train
    std::string search_button;  ///< "Find the best layouts for 1,024 GPUs"
};

/// Checks the setup, sizes the whole model, estimates the step (timeline kept) and tells it.
/// A layout check() refuses, or one whose links the cluster model cannot build, is told as a problem.
FrontierStory tell_frontier(const EstimateSetup& setup);

/// The best layouts the search finds for the setup's model, GPU, GPU count and batch, with what a
/// table of them shows.
struct FrontierSearch {
    SearchResult result;
    std::string summary;   ///< "18,204 valid layouts, 3,310 fit in memory. Click a row to use it."
    std::string none_fit;  ///< when none fits: the smallest layout's memory, and what would help
    std::string days_head; ///< "days on 300 billion"
    /// The columns' heads: "TP x CP x PP x DP", "micro-batch", "schedule, ZeRO, recompute", "step",
    /// "tokens/s", "MFU", "per GPU", then days_head.
    static const std::array<const char*, 7> heads;
    /// Per row: the split ("2 x 4 x 2 x 4", with " (EP 8)" where experts are split), micro-batch,
    /// the rest of what the search chose ("interleaved 8 chunks, ZeRO-1, selective"), step time,
    /// tokens/s, MFU, memory per GPU, days to train: every row a different layout in words.
    std::vector<std::array<std::string, 8>> cells;
};
/// Searches from the setup's GPU count and batch (the split, ZeRO, recompute, micro-batch and
/// schedule are the search's to choose) and keeps the `top` fastest that fit.
FrontierSearch search_frontier(const EstimateSetup& setup, int top);

}  // namespace m2m::core
