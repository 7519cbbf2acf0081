// What each GPU's card in Lesson 3 says and shows at a moment of the step: its place in the
// split, what it is doing at the playback cursor, which neurons it has in memory then, its footer.
#pragma once

#include <string>
#include <vector>

#include "m2m/core/split/split.hpp"

namespace m2m::core {

/// What one GPU runs at a moment of the step: indices into its row of SplitResult::step.gpus
/// (-1: none). A kernel and an exchange may run at once; idle only while neither does.
struct StepActivity {
    int kernel = -1;
    int exchange = -1;
    int idle = -1;
};

/// The words of one GPU's card that stay the same while the step plays, each list longest first
/// (a card shows the first that fits).
struct GpuCardWords {
    /// Beside "GPU g" on a tall card: "node 0 · copy 1 · slice 2", "copy 1 · slice 2", "node 0".
    std::vector<std::string> roles;
    /// On a short card: "copy 1 · slice 2", then in letters "D1 T2" (D its data-parallel copy, T its
    /// tensor slice, P its pipeline stage, S its FSDP shard); empty when nothing is split.
    std::vector<std::string> places;
    /// "7,280 parameters · 116 KB · 24 prompts", "7,280 parameters · 116 KB", "116 KB".
    std::vector<std::string> footer;
    /// Per task of its row of the timeline: step_task_text().
    std::vector<std::string> tasks;
};

/// One GPU's card at one moment of the step.
struct GpuCardMoment {
    StepActivity activity;
    const StepTask* kernel = nullptr;   ///< the kernel it runs then, if any
    const Exchange* exchange = nullptr; ///< the exchange it takes part in then, if any
    /// What it is doing, longest wording first: "forward · hidden 2 · micro-batch 1 of 4",
    /// "forward · hidden 2", ("forward · hidden 2 + all-gather"), "forward"; "ready" before the
    /// step, "step done" after it.
    std::vector<std::string> doing;
    int active_layer = -1;  ///< the layer of its forward or backward kernel; -1 none
    bool updating = false;  ///< its Adam step runs: every parameter it holds changes
    /// Per layer, the neurons it keeps (GpuHolding::neurons).
    const std::vector<NeuronRange>* held = nullptr;
    /// FSDP: the layer whose whole weights it has borrowed from the other shards right now (from
    /// the start of their all-gather to the end of the kernel that uses them); -1 none.
    int borrowed_layer = -1;
    bool borrowed_arriving = false;  ///< its all-gather is still in flight
    LinkType borrowed_link = LinkType::nvlink;  ///< the link its all-gather crosses
};

/// Every GPU's card for one SplitResult, built once; moment() finds the tasks at a time in
/// O(log tasks) from per-GPU indices sorted by start.
class SplitCards {
public:
    SplitCards() = default;
    explicit SplitCards(const SplitResult& r);

    const GpuCardWords& words(int gpu) const { return m_words[static_cast<std::size_t>(gpu)]; }
    /// What GPU `gpu` of `r` (the result these cards were built from) runs at `t_s` seconds.
    StepActivity activity(const SplitResult& r, int gpu, double t_s) const;
    GpuCardMoment moment(const SplitResult& r, int gpu, double t_s) const;

private:
    /// An all-gather GPU `gpu` takes part in at `t` (its task index), or -1.
    int gather_running(const SplitResult& r, int gpu, double t) const;
    struct Lookup {
        std::vector<int> kernels, exchanges, idles;  ///< task indices in start order
        std::vector<double> exchange_end_max;        ///< running max of the exchanges' ends
    };
    std::vector<Lookup> m_lookup;
    std::vector<GpuCardWords> m_words;
};

}  // namespace m2m::core
