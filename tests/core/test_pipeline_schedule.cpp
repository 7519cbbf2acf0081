// The one pipeline schedule: each stage's order of passes, and Lesson 3's toy and the real-scale
// estimator running their stages in exactly that order.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "m2m/core/engine/pipeline_schedule.hpp"
#include "m2m/core/scale/estimator.hpp"
#include "m2m/core/split/split.hpp"
#include "m2m/presets/models.hpp"

using namespace m2m;
using core::PipelinePass;
using core::PipelineSchedule;

namespace {

std::string text(const std::vector<PipelinePass>& order) {
    std::string s;
    for (const PipelinePass& p : order)
        s += (s.empty() ? "" : " ") + std::string(p.forward ? "F" : "B") + std::to_string(p.micro_batch) +
             (p.chunk ? "c" + std::to_string(p.chunk) : "");
    return s;
}

// Stage `stage`'s passes as Lesson 3's toy ran them: its GPU's forward and backward kernels in
// start order, each run of kernels for one micro-batch (one per layer) counted as one pass.
std::vector<PipelinePass> toy_order(PipelineSchedule schedule, int stages, int micro_batches, int stage) {
    core::SplitSetup s;
    s.strategy = core::Strategy::pipeline;
    s.gpus = stages;
    s.micro_batches = micro_batches;
    s.schedule = schedule;
    const auto* system = presets::builtin().find_system("h100");
    s.hardware.system = system->spec;
    s.hardware.gpu = presets::builtin().find(system->gpu_id)->spec;
    s.hardware.tensor_flops = presets::builtin().find(system->gpu_id)->bf16_flops;
    const core::SplitResult r = core::run_split(core::trained_next_word_model(), s);
    std::vector<PipelinePass> out;
    for (const core::StepTask& t : r.step.gpus[static_cast<std::size_t>(stage)].tasks) {
        if (t.kind != core::StepTaskKind::forward && t.kind != core::StepTaskKind::backward) continue;
        const PipelinePass pass{t.kind == core::StepTaskKind::forward, t.micro_batch, 0};
        if (out.empty() || !(out.back() == pass)) out.push_back(pass);
    }
    return out;
}

// Stage `stage`'s passes as the estimator's timeline ran them, in start order.
std::vector<PipelinePass> estimator_order(PipelineSchedule schedule, int stages, int micro_batches, int stage,
                                          int chunks = 1) {
    core::TransformerShape m;
    m.layers = 8;
    m.hidden = 256;
    m.heads = 4;
    m.vocab = 1000;
    m.seq = 128;
    auto s = presets::estimator_setup(m, "a100");
    REQUIRE(s);
    s->layout.gpus = s->layout.pp = stages;
    s->layout.global_batch = micro_batches;
    s->layout.schedule = schedule;
    s->layout.chunks = chunks;
    const core::Estimate e = core::estimate(*s);
    std::vector<std::tuple<double, PipelinePass>> passes;
    for (const core::TrainingTask& t : e.tasks)
        if (t.stage == stage &&
            (t.kind == core::TrainingTaskKind::forward || t.kind == core::TrainingTaskKind::backward))
            passes.emplace_back(t.start_s, PipelinePass{t.kind == core::TrainingTaskKind::forward, t.micro_batch, t.chunk});
    std::stable_sort(passes.begin(), passes.end(),
                     [](const auto& a, const auto& b) { return std::get<0>(a) < std::get<0>(b); });
    std::vector<PipelinePass> out;
    for (const auto& p : passes) out.push_back(std::get<1>(p));
    return out;
}

}  // namespace

TEST_CASE("one name table for the three schedules, read back from its own names") {
    for (PipelineSchedule s : {PipelineSchedule::gpipe, PipelineSchedule::one_f_one_b, PipelineSchedule::interleaved})
        CHECK(core::parse_schedule(core::schedule_name(s)) == s);
    CHECK(core::schedule_name(PipelineSchedule::one_f_one_b) == "1f1b");
    CHECK_FALSE(core::parse_schedule("1F1B"));
    CHECK_FALSE(core::parse_schedule(""));
}

TEST_CASE("GPipe runs all forwards, then all backwards; 1F1B warms up p-k-1 forwards, then alternates") {
    CHECK(text(core::stage_order(PipelineSchedule::gpipe, 4, 0, 3)) == "F0 F1 F2 B0 B1 B2");
    CHECK(text(core::stage_order(PipelineSchedule::one_f_one_b, 4, 0, 4)) == "F0 F1 F2 F3 B0 B1 B2 B3");
    CHECK(text(core::stage_order(PipelineSchedule::one_f_one_b, 4, 2, 4)) == "F0 F1 B0 F2 B1 F3 B2 B3");
    CHECK(text(core::stage_order(PipelineSchedule::one_f_one_b, 4, 3, 3)) == "F0 B0 F1 B1 F2 B2");
    CHECK(text(core::stage_order(PipelineSchedule::one_f_one_b, 1, 0, 2)) == "F0 B0 F1 B1");
    // One stage of GPipe is still all forwards first: its activations are all kept.
    CHECK(text(core::stage_order(PipelineSchedule::gpipe, 1, 0, 2)) == "F0 F1 B0 B1");
    CHECK(core::stage_order(PipelineSchedule::one_f_one_b, 2, 0, 0).empty());
}

TEST_CASE("interleaved 1F1B walks the chunks in groups of p micro-batches, backwards from the last chunk") {
    CHECK(text(core::stage_order(PipelineSchedule::interleaved, 2, 0, 4, 2)) ==
          "F0 F1 F0c1 F1c1 F2 B0c1 F3 B1c1 F2c1 B0 F3c1 B1 B2c1 B3c1 B2 B3");
    for (int p : {2, 4})
        for (int k = 0; k < p; ++k)
            for (int v : {2, 3}) {
                const std::int64_t m = 2 * p;
                const auto order = core::stage_order(PipelineSchedule::interleaved, p, k, m, v);
                INFO("p " << p << " k " << k << " v " << v << ": " << text(order));
                CHECK(order.size() == static_cast<std::size_t>(2 * m * v));
                std::set<std::tuple<bool, std::int64_t, int>> seen;
                for (const PipelinePass& pass : order) {
                    CHECK(seen.insert({pass.forward, pass.micro_batch, pass.chunk}).second);  // each pass once
                    if (!pass.forward) CHECK(seen.count({true, pass.micro_batch, pass.chunk}));  // after its forward
                }
            }
}

TEST_CASE("Lesson 3's toy and the estimator run each stage in the same order for the same p, m and schedule") {
    for (PipelineSchedule schedule : {PipelineSchedule::gpipe, PipelineSchedule::one_f_one_b})
        for (int p : {2, 4})
            for (int m : {1, 2, 4, 8})
                for (int k = 0; k < p; ++k) {
                    INFO(core::schedule_name(schedule) << " p " << p << " m " << m << " stage " << k);
                    const auto expected = core::stage_order(schedule, p, k, m);
                    const auto toy = toy_order(schedule, p, m, k);
                    const auto est = estimator_order(schedule, p, m, k);
                    CHECK(text(toy) == text(expected));
                    CHECK(text(est) == text(expected));
                }
    // The estimator alone has the interleaved schedule.
    for (int k = 0; k < 2; ++k)
        CHECK(text(estimator_order(PipelineSchedule::interleaved, 2, 4, k, 2)) ==
              text(core::stage_order(PipelineSchedule::interleaved, 2, k, 4, 2)));
}

TEST_CASE("Lesson 3's toy refuses the interleaved schedule with a sentence that says where it is") {
    core::SplitSetup s;
    s.strategy = core::Strategy::pipeline;
    s.gpus = 2;
    s.schedule = PipelineSchedule::interleaved;
    const auto problem = core::check_split(s, false);
    REQUIRE(problem);
    CHECK(problem->field == core::SplitField::schedule);
    CHECK(core::split_field_name(problem->field) == "schedule");
    CHECK(problem->message.find("1f1b or gpipe") != std::string::npos);
    CHECK(problem->message.find("estimator") != std::string::npos);
    CHECK_THROWS_AS(core::plan_split(core::trained_next_word_model(), s), std::invalid_argument);
}

TEST_CASE("the bubble and the activations in flight come from the schedule") {
    CHECK(core::pipeline_bubble_fraction(1, 8) == 0.0);
    CHECK(core::pipeline_bubble_fraction(4, 0) == 0.0);
    CHECK(core::pipeline_bubble_fraction(4, 8) == Approx(3.0 / 11.0));
    CHECK(core::pipeline_bubble_fraction(4, 8, 2) == Approx(3.0 / 19.0));
    CHECK(core::activations_in_flight(PipelineSchedule::gpipe, 4, 0, 8) == 8);
    CHECK(core::activations_in_flight(PipelineSchedule::one_f_one_b, 4, 0, 8) == 4);
    CHECK(core::activations_in_flight(PipelineSchedule::one_f_one_b, 4, 3, 8) == 1);
    CHECK(core::activations_in_flight(PipelineSchedule::one_f_one_b, 4, 0, 2) == 2);
    // Megatron's interleaved warm-up: 2 (p-k-1) + (v-1) p + 1 chunk passes, over v chunks.
    CHECK(core::activations_in_flight(PipelineSchedule::interleaved, 4, 0, 8, 2) == Approx((6 + 4 + 1) / 2.0));
}
