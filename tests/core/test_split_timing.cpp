// Lesson 3's two timings: the lesson timing teaches what the hint says (splitting the work shortens
// the step), the hardware timing tells the launch-bound truth for a network this small.
#include <catch2/catch.hpp>

#include <string>

#include "m2m/core/split/split.hpp"
#include "split_setups.hpp"

using namespace m2m::core;

namespace {

SplitSetup setup_for(Strategy s, int gpus, int micro_batches, SplitTiming timing) {
    return m2m::test::split_setup(s, gpus, micro_batches, Placement::one_node, timing);
}

SplitResult run(Strategy s, int gpus, int micro_batches, SplitTiming timing) {
    return run_split(trained_next_word_model(), setup_for(s, gpus, micro_batches, timing));
}

double step_s(Strategy s, int gpus, int micro_batches, SplitTiming timing) {
    return run(s, gpus, micro_batches, timing).step.step_time_s;
}

double compute_s(Strategy s, int gpus, int micro_batches, SplitTiming timing) {
    return run(s, gpus, micro_batches, timing).step.compute_s;
}

}  // namespace

TEST_CASE("lesson timing: data parallel halves each GPU's work and the step gets shorter") {
    const auto t = SplitTiming::lesson;
    const double one = compute_s(Strategy::data, 1, 1, t), two = compute_s(Strategy::data, 2, 1, t);
    // Half the prompts each: the forward and backward halve; the update (every parameter) does not.
    CHECK(two < 0.6 * one);
    CHECK(two > 0.4 * one);
    CHECK(step_s(Strategy::data, 2, 1, t) < step_s(Strategy::data, 1, 1, t));
    CHECK(step_s(Strategy::data, 4, 1, t) < step_s(Strategy::data, 2, 1, t));
}

TEST_CASE("lesson timing: more micro-batches shrink the pipeline's bubble and its step") {
    const auto t = SplitTiming::lesson;
    const SplitResult few = run(Strategy::pipeline, 4, 1, t), many = run(Strategy::pipeline, 4, 8, t);
    CHECK(many.step.idle_fraction < few.step.idle_fraction);
    CHECK(many.step.step_time_s < few.step.step_time_s);
    CHECK(step_s(Strategy::pipeline, 4, 4, t) < few.step.step_time_s);
}

TEST_CASE("lesson timing: tensor parallel trades compute for exchanges") {
    const auto t = SplitTiming::lesson;
    const SplitResult one = run(Strategy::tensor, 1, 1, t), two = run(Strategy::tensor, 2, 1, t);
    CHECK(two.step.compute_s < 0.6 * one.step.compute_s);
    CHECK(two.step.communication_s > one.step.communication_s);
    CHECK(two.step.step_time_s < one.step.step_time_s);
}

TEST_CASE("hardware timing: the toy is launch bound, so splitting it makes the step slower, and it says so") {
    const auto h = SplitTiming::hardware;
    CHECK(step_s(Strategy::data, 2, 1, h) > step_s(Strategy::data, 1, 1, h));
    CHECK(step_s(Strategy::pipeline, 4, 8, h) > step_s(Strategy::pipeline, 4, 1, h));
    const SplitResult r = run(Strategy::data, 2, 1, h);
    CHECK(r.time_sentence.find("Hardware timing") != std::string::npos);
    CHECK(r.time_sentence.find("launch") != std::string::npos);
    const SplitResult l = run(Strategy::data, 2, 1, SplitTiming::lesson);
    CHECK(l.time_sentence.find("Lesson timing") != std::string::npos);
    // The same split, the same answer: only the clock differs.
    CHECK(l.exchanges.size() == r.exchanges.size());
    CHECK(split_timing_name(SplitTiming::hardware) == "hardware");
    CHECK(parse_split_timing("lesson") == SplitTiming::lesson);
    CHECK_FALSE(parse_split_timing("fast"));
}
