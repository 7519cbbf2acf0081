// The summarised pipeline timing (steady state read from two short pipelines) against every pass timed.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "m2m/core/scale/pipeline_timing.hpp"

using m2m::core::PipelineSchedule;
using m2m::core::PipelineTiming;

namespace {

// Uneven stages (the first and last heavier, as an embedding and an output layer make them) and
// sends that matter, so the steady state is not a trivial one.
PipelineTiming uneven(PipelineSchedule schedule, int pp, int chunks, std::int64_t m, bool sends_block) {
    PipelineTiming p;
    p.schedule = schedule;
    p.stages = pp;
    p.chunks = chunks;
    p.micro_batches = m;
    p.sends_block = sends_block;
    for (int j = 0; j < pp * chunks; ++j) {
        const double extra = j == 0 ? 0.3 : j == pp * chunks - 1 ? 0.6 : 0.05 * (j % 3);
        p.forward_s.push_back(1.0 + extra);
        p.backward_s.push_back(2.0 + 2 * extra);
        p.send_s.push_back(0.08);
    }
    return p;
}

}  // namespace

TEST_CASE("the summarised pipeline ends within 1% of every pass timed, on every schedule") {
    struct Case { PipelineSchedule schedule; int pp, chunks; std::int64_t m; };
    const Case cases[] = {{PipelineSchedule::one_f_one_b, 4, 1, 64},  {PipelineSchedule::one_f_one_b, 16, 1, 128},
                          {PipelineSchedule::gpipe, 8, 1, 96},        {PipelineSchedule::interleaved, 4, 2, 64},
                          {PipelineSchedule::interleaved, 8, 4, 128}, {PipelineSchedule::one_f_one_b, 64, 1, 512}};
    for (const Case& c : cases)
        for (bool block : {false, true}) {
            const PipelineTiming p = uneven(c.schedule, c.pp, c.chunks, c.m, block);
            const auto full = m2m::core::time_pipeline_fully(p);
            const auto summary = m2m::core::time_pipeline(p, true);
            INFO(m2m::core::schedule_name(c.schedule) << " pp " << c.pp << " chunks " << c.chunks << " m " << c.m
                                                      << (block ? " sends block" : " sends overlap"));
            CHECK(summary.end_s == Approx(full.end_s).epsilon(0.01));
            CHECK(summary.busy_s == Approx(full.busy_s).epsilon(1e-9));
            for (int k = 0; k < c.pp; ++k)
                CHECK(summary.stage_end_s[static_cast<std::size_t>(k)] ==
                      Approx(full.stage_end_s[static_cast<std::size_t>(k)]).epsilon(0.01));
            // What is kept for the timeline: the fill and the drain pass by pass, the rest as one span per stage
            // whose passes make up the count.
            std::vector<std::int64_t> per_stage(static_cast<std::size_t>(c.pp), 0);
            for (const auto& r : summary.passes) ++per_stage[static_cast<std::size_t>(r.virtual_stage % c.pp)];
            for (const auto& s : summary.steady) per_stage[static_cast<std::size_t>(s.stage)] += s.passes;
            for (std::int64_t n : per_stage) CHECK(n == 2 * c.m * c.chunks);
            CHECK(static_cast<std::int64_t>(summary.passes.size()) < c.m * c.chunks * c.pp);  // under half of them
        }
}

TEST_CASE("a short pipeline is timed pass by pass, every pass kept") {
    const PipelineTiming p = uneven(PipelineSchedule::one_f_one_b, 4, 1, 8, false);
    const auto summary = m2m::core::time_pipeline(p, true);
    const auto full = m2m::core::time_pipeline_fully(p, true);
    CHECK(summary.end_s == full.end_s);
    CHECK(summary.passes.size() == full.passes.size());
    for (const auto& s : summary.steady) CHECK(s.passes == 0);
}

TEST_CASE("GPipe's summarised steady state is its forwards, the bubble, then its backwards, where every pass timed puts them") {
    // A reviewer saw GPipe's 96 micro-batches drawn as forwards and backwards in turn, as 1F1B's are.
    for (bool block : {false, true}) {
        const PipelineTiming p = uneven(PipelineSchedule::gpipe, 8, 1, 96, block);
        const auto full = m2m::core::time_pipeline_fully(p, true);
        const auto summary = m2m::core::time_pipeline(p, true);
        INFO((block ? "sends block" : "sends overlap"));
        for (const auto& s : summary.steady) {
            INFO("stage " << s.stage);
            REQUIRE(s.passes > 0);
            CHECK(s.blocks);
            CHECK(s.forwards == s.passes / 2);  // each micro-batch's forward and backward
            CHECK(s.start_s < s.forward_end_s);
            CHECK(s.forward_end_s <= s.backward_start_s);  // the bubble between them (none on the last stage)
            CHECK(s.backward_start_s < s.end_s);
            // Against every pass timed: the stage's last forward ends, and its first backward
            // starts, within 1% of the step.
            double last_forward = 0, first_backward = full.end_s;
            for (const auto& r : full.passes)
                if (r.virtual_stage == s.stage) {
                    if (r.forward) last_forward = std::max(last_forward, r.end_s);
                    else first_backward = std::min(first_backward, r.start_s);
                }
            CHECK(s.forward_end_s == Approx(last_forward).margin(0.01 * full.end_s));
            CHECK(s.backward_start_s == Approx(first_backward).margin(0.01 * full.end_s));
        }
    }
    // 1F1B takes them in turn.
    for (const auto& s : m2m::core::time_pipeline(uneven(PipelineSchedule::one_f_one_b, 8, 1, 96, false), true).steady)
        CHECK_FALSE(s.blocks);
}
