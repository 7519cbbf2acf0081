// A pipeline's passes timed in each stage's schedule order by the shared scheduler's own rules,
// without building the work graph: what makes one estimate of 64 stages x 512 micro-batches fast.
#pragma once

#include <cstdint>
#include <vector>

#include "m2m/core/engine/pipeline_schedule.hpp"

namespace m2m::core {

/// Per virtual stage j (pp x chunks of them; j runs on GPU stage j % pp): its forward and
/// backward pass for one micro-batch, and its send to virtual stage j + 1 (each way).
struct PipelineTiming {
    PipelineSchedule schedule = PipelineSchedule::one_f_one_b;
    int stages = 1;  ///< pp
    int chunks = 1;  ///< interleaved: chunks per GPU, else 1
    std::int64_t micro_batches = 1;
    std::vector<double> forward_s, backward_s, send_s;
    bool sends_block = false;  ///< no overlap: a stage waits for its own send before its next pass
};

/// One pass (or one send) as it ran. A send's `virtual_stage` is its sender's.
struct PassTime {
    bool forward = true;
    int virtual_stage = 0;
    std::int64_t micro_batch = 0;
    double start_s = 0, end_s = 0;
    bool late = false;  ///< one of its stage's last passes (the drain), after the steady state
};

/// The steady state of one stage, summarised: `passes` passes between start_s and end_s that
/// repeat the same work, not listed one by one. 1F1B and interleaving take forwards and backwards
/// in turn; GPipe (`blocks`) runs the span's `forwards` forwards first, ending at forward_end_s,
/// and its backwards from backward_start_s on, the bubble between them.
struct SteadySpan {
    int stage = 0;
    std::int64_t passes = 0;
    double start_s = 0, end_s = 0;
    bool blocks = false;
    std::int64_t forwards = 0;
    double forward_end_s = 0, backward_start_s = 0;
};

struct PipelineTimes {
    std::vector<double> stage_end_s;  ///< per GPU stage: when its last pass ends
    double end_s = 0;                 ///< the last pass of all
    double busy_s = 0;                ///< sum of every pass's duration
    /// With keep: each stage's first and last (pp + 2) x chunks passes (the fill and the drain, and
    /// the sends they make), in the order they were timed; the passes between are the steady state,
    /// one span per stage (passes 0 when a stage has none to summarise).
    std::vector<PassTime> passes;
    std::vector<PassTime> sends;
    std::vector<SteadySpan> steady;
};

/// Each stage runs stage_order()'s passes one after another; a pass starts when the stage is
/// free and its input has arrived (the previous virtual stage's send forward; the next one's
/// send backward; its own forward for the last virtual stage's backward). A link carries one
/// send at a time, first come first served, one link per boundary and direction. These are the
/// shared scheduler's rules for the step graph (build_step_graph), so the times are the same up
/// to its picosecond rounding (a test checks it); passes are evaluated once each, in an order
/// that follows the dependencies, and each stage's order is computed pass by pass (stage_pass),
/// so the cost is linear in the number of passes and nothing the size of the schedule is built.
///
/// A long pipeline is summarised: every micro-batch does the same work, so once the pipeline is
/// full each further micro-batch (each group of pp with interleaving) adds the same time, the
/// steady state's period. time_pipeline() times a short pipeline (pp + 3 micro-batches; 3 pp
/// interleaved) and reads the period from it where every stage shows the same time from its first
/// summarised pass to that pass one group later (1F1B); otherwise from its difference with one a
/// group shorter. It adds the period for the micro-batches between; the fill and the drain are
/// timed exactly. time_pipeline_fully()
/// times every pass; a test checks the two agree within 1% on every schedule.
/// Throws std::logic_error if the orders deadlock (they never do for the schedules offered).
PipelineTimes time_pipeline(const PipelineTiming& p, bool keep = false);
PipelineTimes time_pipeline_fully(const PipelineTiming& p, bool keep = false);

}  // namespace m2m::core
