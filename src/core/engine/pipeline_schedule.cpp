// The order of a pipeline stage's forward and backward passes, and a bare pipeline on the scheduler
// (see pipeline_schedule.hpp).
#include "m2m/core/engine/pipeline_schedule.hpp"

#include <algorithm>
#include <map>
#include <string>

namespace m2m::core {

namespace {

constexpr PipelineSchedule all_schedules[] = {PipelineSchedule::gpipe, PipelineSchedule::one_f_one_b,
                                              PipelineSchedule::interleaved};

int chunks_of(PipelineSchedule schedule, int chunks) {
    return schedule == PipelineSchedule::interleaved ? std::max(chunks, 1) : 1;
}

}  // namespace

std::string_view schedule_name(PipelineSchedule s) {
    switch (s) {
        case PipelineSchedule::gpipe: return "gpipe";
        case PipelineSchedule::one_f_one_b: return "1f1b";
        case PipelineSchedule::interleaved: return "interleaved";
    }
    return "?";
}

std::optional<PipelineSchedule> parse_schedule(std::string_view name) {
    for (PipelineSchedule s : all_schedules)
        if (schedule_name(s) == name) return s;
    return std::nullopt;
}

std::int64_t stage_warmup(PipelineSchedule schedule, int p, int k, std::int64_t m, int chunks) {
    const int v = chunks_of(schedule, chunks);
    if (schedule == PipelineSchedule::gpipe) return m;
    // Warm-up forwards before the first backward: p-k-1 (1F1B); with chunks, the passes that fill
    // every chunk of the later stages, all of them when there are only p micro-batches.
    const std::int64_t total = m * v;
    return v == 1  ? std::min<std::int64_t>(p - k - 1, m)
           : m == p ? total
                    : std::min<std::int64_t>(2 * (p - k - 1) + (v - 1) * p, total);
}

PipelinePass stage_pass(PipelineSchedule schedule, int p, int k, std::int64_t m, int chunks, std::int64_t n) {
    const int v = chunks_of(schedule, chunks);
    const std::int64_t total = m * v, warmup = stage_warmup(schedule, p, k, m, chunks);
    // Chunk passes go in groups of p micro-batches per chunk; backwards start at the last chunk.
    const auto pass = [&](std::int64_t i, bool forward) {
        if (v == 1) return PipelinePass{forward, i, 0};
        const std::int64_t group = static_cast<std::int64_t>(p) * v, in_group = i % group;
        const int chunk = static_cast<int>(in_group / p);
        return PipelinePass{forward, (i / group) * p + in_group % p, forward ? chunk : v - 1 - chunk};
    };
    if (n < warmup) return pass(n, true);
    const std::int64_t steady = n - warmup;
    if (steady < 2 * (total - warmup)) return steady % 2 == 0 ? pass(warmup + steady / 2, true) : pass(steady / 2, false);
    return pass(n - total, false);  // cool-down: the backwards still owed
}

std::vector<PipelinePass> stage_order(PipelineSchedule schedule, int p, int k, std::int64_t m, int chunks) {
    std::vector<PipelinePass> ops;
    if (m < 1) return ops;
    const std::int64_t passes = 2 * m * chunks_of(schedule, chunks);
    ops.reserve(static_cast<std::size_t>(passes));
    for (std::int64_t n = 0; n < passes; ++n) ops.push_back(stage_pass(schedule, p, k, m, chunks, n));
    return ops;
}

double activations_in_flight(PipelineSchedule schedule, int p, int k, std::int64_t m, int chunks) {
    switch (schedule) {
        case PipelineSchedule::gpipe: return static_cast<double>(m);  // every forward before any backward
        case PipelineSchedule::one_f_one_b: return static_cast<double>(std::min<std::int64_t>(p - k, m));
        case PipelineSchedule::interleaved: {
            // Megatron's warm-up plus the one in progress, in chunk passes: (p-k-1) 2 + (v-1) p + 1.
            const int v = chunks_of(schedule, chunks);
            const std::int64_t passes = std::min<std::int64_t>(2 * (p - k - 1) + (v - 1) * p + 1, m * v);
            return static_cast<double>(passes) / v;
        }
    }
    return 0;
}

double pipeline_bubble_fraction(int stages, std::int64_t micro_batches, int chunks) {
    if (stages <= 1 || micro_batches < 1) return 0.0;
    const double pm1 = stages - 1.0;
    return pm1 / (static_cast<double>(std::max(chunks, 1)) * static_cast<double>(micro_batches) + pm1);
}

Timeline schedule_pipeline(int stages, int micro_batches, PipelineSchedule schedule, SimTime forward, SimTime backward,
                           SimTime transfer) {
    if (stages < 1 || micro_batches < 1 || forward < 0 || backward < 0 || transfer < 0)
        throw std::invalid_argument("a pipeline needs at least 1 stage and 1 micro-batch, and no negative time");
    WorkGraph g;
    for (int s = 0; s < stages; ++s) g.add_pool("stage " + std::to_string(s), ResourceKind::gpu_core, 1);
    const PoolId wire = g.add_pool("wire", ResourceKind::nvlink, static_cast<std::uint32_t>(2 * stages));
    std::vector<std::vector<PipelinePass>> orders;
    for (int s = 0; s < stages; ++s) orders.push_back(stage_order(schedule, stages, s, micro_batches));
    std::map<std::pair<int, int>, TaskId> fwd_arrive, bwd_arrive, fwd_done;  // (stage, mb)
    std::vector<std::optional<TaskId>> last(static_cast<std::size_t>(stages));
    place_in_stage_order(orders, [&](int s, const PipelinePass& pass) {
        const int i = static_cast<int>(pass.micro_batch);
        // What the pass waits for: the previous stage's activations, or the next stage's gradients
        // (the last stage turns its own forward around).
        const auto& src = pass.forward ? fwd_arrive : s + 1 == stages ? fwd_done : bwd_arrive;
        if ((!pass.forward || s > 0) && !src.count({s, i})) return false;
        const TaskId t = g.add_task(pass.forward ? forward : backward, {static_cast<PoolId>(s)});
        if (!pass.forward || s > 0) g.add_dependency(src.at({s, i}), t);
        if (last[static_cast<std::size_t>(s)]) g.add_dependency(*last[static_cast<std::size_t>(s)], t);
        last[static_cast<std::size_t>(s)] = t;
        auto pass_on = [&](std::map<std::pair<int, int>, TaskId>& to, int stage) {
            if (transfer > 0) {
                const TaskId w = g.add_task(transfer, {wire});
                g.add_dependency(t, w);
                to[{stage, i}] = w;
            } else {
                to[{stage, i}] = t;
            }
        };
        if (pass.forward && s + 1 < stages) pass_on(fwd_arrive, s + 1);
        if (pass.forward && s + 1 == stages) fwd_done[{s, i}] = t;
        if (!pass.forward && s > 0) pass_on(bwd_arrive, s - 1);
        return true;
    });
    return core::schedule(g);
}

}  // namespace m2m::core
