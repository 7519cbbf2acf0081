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
};

struct PipelineTimes {
    std::vector<double> stage_end_s;  ///< per GPU stage: when its last pass ends
    double end_s = 0;                 ///< the last pass of all
    double busy_s = 0;                ///< sum of every pass's duration
    std::vector<PassTime> passes;     ///< with keep: every pass, in the order it was timed
    std::vector<PassTime> sends;
};

/// Each stage runs stage_order()'s passes one after another; a pass starts when the stage is
/// free and its input has arrived (the previous virtual stage's send forward; the next one's
/// send backward; its own forward for the last virtual stage's backward). A link carries one
/// send at a time, first come first served, one link per boundary and direction. These are the
/// shared scheduler's rules for the step graph (build_step_graph), so the times are the same up
/// to its picosecond rounding (a test checks it); passes are evaluated once each, in an order
/// that follows the dependencies, so the cost is linear in the number of passes.
/// Throws std::logic_error if the orders deadlock (they never do for the schedules offered).
PipelineTimes time_pipeline(const PipelineTiming& p, bool keep = false);

}  // namespace m2m::core
