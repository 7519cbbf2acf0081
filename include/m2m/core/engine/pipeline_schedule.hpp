// The order of forward and backward micro-batch passes on each pipeline stage: one enum, one name
// table and one ordering function, shared by Lesson 3's toy pipeline and the real-scale estimator;
// and a bare pipeline on the shared scheduler.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "m2m/core/engine/scheduler.hpp"

namespace m2m::core {

/// How each pipeline stage orders its micro-batches [Narayanan et al. 2021, sec. 2.2]:
///   - gpipe: all forwards, then all backwards [Huang et al. 2019]; keeps all m micro-batches'
///     activations;
///   - one_f_one_b: 1F1B (PipeDream-Flush): p-k-1 warm-up forwards on stage k, then one forward and
///     one backward in turn; keeps at most p micro-batches' activations;
///   - interleaved: 1F1B over `chunks` non-adjacent slices of the layers per GPU (virtual stages).
/// GPipe and 1F1B idle for the same bubble, (p-1)/(m+p-1) of the step; interleaving with v chunks
/// shrinks it to (p-1)/(v m + p-1) at v times the point-to-point traffic.
enum class PipelineSchedule { gpipe, one_f_one_b, interleaved };

/// "gpipe", "1f1b", "interleaved": the spelling of the command line and of saved files.
std::string_view schedule_name(PipelineSchedule s);
/// The schedule with that name; nullopt for any other text.
std::optional<PipelineSchedule> parse_schedule(std::string_view name);

/// One pass of one micro-batch through one of a stage's model chunks.
struct PipelinePass {
    bool forward = true;
    std::int64_t micro_batch = 0;
    int chunk = 0;  ///< the model chunk (virtual stage chunk * p + k); 0 unless interleaved
    bool operator==(const PipelinePass&) const = default;
};

/// The passes that stage `stage` (0-based) of a `stages`-stage pipeline runs, in order, for
/// `micro_batches` micro-batches: 2 x micro_batches x chunks of them [Megatron-LM
/// schedules.py]. `chunks` counts only for the interleaved schedule, which walks the chunks in
/// groups of `stages` micro-batches (forwards chunk 0 first, backwards the last chunk first) and
/// needs micro_batches to be a multiple of `stages`.
std::vector<PipelinePass> stage_order(PipelineSchedule schedule, int stages, int stage, std::int64_t micro_batches,
                                      int chunks = 1);

/// The n-th pass of stage_order() (0 <= n < 2 x micro_batches x chunks), without building the list.
PipelinePass stage_pass(PipelineSchedule schedule, int stages, int stage, std::int64_t micro_batches, int chunks,
                        std::int64_t n);
/// Forward passes stage `stage` runs before its first backward (all of them for GPipe).
std::int64_t stage_warmup(PipelineSchedule schedule, int stages, int stage, std::int64_t micro_batches, int chunks = 1);

/// Micro-batches whose activations stage `stage` holds at once (interleaved: chunk passes / chunks):
/// gpipe m; 1F1B min(p - k, m); interleaved Megatron's warm-up plus the pass in progress,
/// min(2 (p-k-1) + (v-1) p + 1, v m) / v.
double activations_in_flight(PipelineSchedule schedule, int stages, int stage, std::int64_t micro_batches,
                             int chunks = 1);

/// The ideal bubble: (p-1)/(v m + p-1) of the step [Narayanan et al. 2021, sec. 2.2: bubble time /
/// ideal time = (p-1)/(v m)]; v = 1 without interleaving; 0 for one stage or no micro-batch.
double pipeline_bubble_fraction(int stages, std::int64_t micro_batches, int chunks = 1);

/// Adds every stage's passes to a work graph in the stage's own order (`orders[k]` is stage k's
/// stage_order()). A pass can only be added after the tasks it waits for, so the stages take turns,
/// each adding passes until `place(stage, pass)` returns false (not ready yet), until a whole round
/// adds nothing. Throws std::logic_error if a pass never becomes ready.
template <class Place>
void place_in_stage_order(const std::vector<std::vector<PipelinePass>>& orders, Place place) {
    std::vector<std::size_t> next(orders.size(), 0);
    for (bool progress = true; progress;) {
        progress = false;
        for (std::size_t st = 0; st < orders.size(); ++st)
            while (next[st] < orders[st].size() && place(static_cast<int>(st), orders[st][next[st]])) {
                ++next[st];
                progress = true;
            }
    }
    for (std::size_t st = 0; st < orders.size(); ++st)
        if (next[st] != orders[st].size()) throw std::logic_error("pipeline program could not be placed");
}

/// A bare pipeline on the scheduler: `stages` GPUs, each stage's forward taking `forward`
/// and its backward `backward` per micro-batch, activations passed on in `transfer` (0: no
/// wire). Lets a test check the bubble formula on equal stages; Lesson 3's timeline places its
/// passes by the same rules.
Timeline schedule_pipeline(int stages, int micro_batches, PipelineSchedule schedule, SimTime forward,
                           SimTime backward, SimTime transfer = 0);

/// The estimator's name for the same enum and table, from before there was one module.
using ScheduleKind = PipelineSchedule;
inline std::string_view schedule_kind_name(ScheduleKind s) { return schedule_name(s); }

}  // namespace m2m::core
