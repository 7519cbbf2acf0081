// Lesson 1's Real scale: one model, one answer. The one-chip rows are Lesson 1's roofline for a wide
// layer at a large batch, like with like; the cluster row is the estimator's own estimate.
#include <catch2/catch.hpp>

#include "m2m/core/engine/text.hpp"
#include "m2m/core/layers/real_scale_story.hpp"
#include "m2m/presets/models.hpp"
#include "m2m/presets/presets.hpp"

using namespace m2m;

namespace {

core::RealScaleInputs inputs(const char* cpu, const char* gpu, int cluster_gpus = 1024) {
    core::RealScaleInputs in;
    in.model = presets::builtin_models().find("gpt3-175b")->shape;
    in.cpu = presets::builtin().find(cpu)->spec;
    in.gpu = presets::builtin().find(gpu)->spec;
    in.cluster = *presets::estimator_setup(in.model, gpu);
    in.cluster_gpus = cluster_gpus;
    return in;
}

}  // namespace

TEST_CASE("the Real scale factor equals Lesson 1's for the same chips, a wide layer at a large batch") {
    for (const char* cpu : {"laptop-cpu", "epyc-9654", "xeon-8480"})
        for (const char* gpu : {"a100", "h100"}) {
            INFO(cpu << " vs " << gpu);
            const core::RealScaleStory st = core::tell_real_scale(inputs(cpu, gpu));
            const double factor = st.rows[0].seconds / st.rows[1].seconds;
            // Lesson 1 itself, as a student would set it: 4,096-wide layers, batch 4,096, BF16, Hardware timing.
            core::LayerRunSetup lesson;
            lesson.network.widths = {4096, 4096, 4096, 4096};
            lesson.mode = core::TimingMode::hardware;
            lesson.cpu = presets::builtin().find(cpu)->spec;
            lesson.gpu = presets::builtin().find(gpu)->spec;
            lesson.cpu_cores = lesson.cpu.cores;
            lesson.gpu_cores = lesson.gpu.cores;
            lesson.batch = 4096;
            lesson.precision = core::Precision::bf16;
            CHECK(factor == Approx(core::run_layers(lesson).speedup).epsilon(1e-9));
            CHECK(factor == Approx(st.lesson1_speedup).epsilon(1e-12));
            CHECK_THAT(st.factor_note, Catch::Contains(core::format_ratio(st.lesson1_speedup)));
        }
}

TEST_CASE("Real scale compares like with like: BF16 on both, the CPU's own units or its FP32 rate said plainly") {
    const core::RealScaleStory epyc = core::tell_real_scale(inputs("epyc-9654", "h100"));
    CHECK_THAT(epyc.rows[0].assumption, Catch::StartsWith("BF16 on AVX512_BF16"));
    CHECK_THAT(epyc.rows[1].assumption, Catch::StartsWith("BF16 on tensor cores"));
    const core::RealScaleStory laptop = core::tell_real_scale(inputs("laptop-cpu", "h100"));
    CHECK_THAT(laptop.rows[0].assumption, Catch::Contains("at its FP32 rate"));
    CHECK_THAT(laptop.rows[0].assumption, Catch::Contains("no BF16 units"));
    // Each row says how its chip's matrix-multiply share was found: the Xeon's is the EPYC's.
    // Its share was measured in FP64 (HPL); the row says it is only assumed for BF16 (a reviewer: it said "measured").
    CHECK_THAT(epyc.rows[0].assumption, Catch::Contains("(its measured matrix-multiply share, found with 32- or 64-bit numbers and assumed to hold for BF16)"));
    CHECK_THAT(epyc.rows[1].assumption, Catch::Contains("fitted once to a training run"));
    const core::RealScaleStory xeon = core::tell_real_scale(inputs("xeon-8480", "h100"));
    CHECK_THAT(xeon.rows[0].assumption, Catch::Contains("borrowed from another chip") && !Catch::Contains("measured"));
    REQUIRE(xeon.simple.size() == epyc.simple.size() + 1);  // and where the model is simple, why that matters
    CHECK_THAT(xeon.simple.back(), Catch::Contains("No matrix-multiply measurement of the Server CPU (Xeon Platinum 8480+)"));
    // An EPYC with its BF16 units is sooner than the laptop by more than its cores alone would say.
    CHECK(epyc.rows[0].seconds < laptop.rows[0].seconds / 20);
}

TEST_CASE("the Real scale cluster row is the estimator's own estimate for the layout it names") {
    const core::RealScaleStory st = core::tell_real_scale(inputs("epyc-9654", "h100", 1024));
    REQUIRE(st.cluster_layout);
    REQUIRE(st.rows[2].shown);
    core::EstimateSetup again = st.cluster_setup;
    again.train_tokens = 300e9;
    const core::Estimate e = core::estimate(again, false);
    CHECK(st.rows[2].seconds == Approx(e.train_days * 86400.0));
    const core::Layout& l = st.cluster_layout->layout;
    CHECK(l.gpus == 1024);
    CHECK(l.tp * l.cp * l.pp * l.dp == 1024);
    CHECK_THAT(st.layout_note, Catch::Contains("TP " + std::to_string(l.tp) + " x CP " + std::to_string(l.cp) +
                                                   " x PP " + std::to_string(l.pp)));
    CHECK_THAT(st.layout_note, Catch::Contains(core::format_counted(l.global_batch, "sequence")));
    CHECK_THAT(st.layout_note, Catch::Contains("H100"));
    CHECK_THAT(st.frontier_note, Catch::Contains("Frontier scale"));
    // Millennia on a CPU, decades on a GPU, weeks on a cluster.
    const double year = 365.25 * 86400;
    CHECK(st.rows[0].seconds > 300 * year);
    CHECK(st.rows[1].seconds > 5 * year);
    CHECK(st.rows[2].seconds < 100 * 86400.0);
}

TEST_CASE("Real scale says which cluster cannot hold the model instead of a row") {
    const core::RealScaleStory st = core::tell_real_scale(inputs("epyc-9654", "a100", 8));
    CHECK_FALSE(st.rows[2].shown);
    CHECK_THAT(st.cluster_note, Catch::Contains("No layout of 8 GPUs can hold"));
    CHECK_THROWS_AS(core::tell_real_scale([] {
                        auto in = inputs("epyc-9654", "h100");
                        in.tokens = 0;
                        return in;
                    }()),
                    std::invalid_argument);
}

TEST_CASE("Real scale's guess: how long, as a person says it, and the line that answers it") {
    const double day = 86400;
    CHECK(core::duration_bucket(23 * 3600) == core::DurationGuess::under_a_day);
    CHECK(core::duration_bucket(day) == core::DurationGuess::days);
    CHECK(core::duration_bucket(6.9 * day) == core::DurationGuess::days);
    CHECK(core::duration_bucket(7 * day) == core::DurationGuess::weeks);
    CHECK(core::duration_bucket(30 * day) == core::DurationGuess::weeks);
    CHECK(core::duration_bucket(31 * day) == core::DurationGuess::months);
    CHECK(core::duration_bucket(364 * day) == core::DurationGuess::months);
    CHECK(core::duration_bucket(366 * day) == core::DurationGuess::years);

    const core::RealScaleStory st = core::tell_real_scale(inputs("epyc-9654", "h100"));
    CHECK(core::asked_row(st) == 2);
    CHECK(core::real_scale_question(st) == "How long on 1,024 GPUs?");
    CHECK(core::reveal_real_scale(std::nullopt, st).line.empty());
    const core::DurationGuess truth = core::duration_bucket(st.rows[2].seconds);
    const core::RealScaleReveal right = core::reveal_real_scale(truth, st);
    CHECK(right.right);
    CHECK_THAT(right.line, Catch::StartsWith("Right: 1,024 GPUs take " + st.rows[2].duration));
    const core::DurationGuess other = truth == core::DurationGuess::years ? core::DurationGuess::days : core::DurationGuess::years;
    const core::RealScaleReveal wrong = core::reveal_real_scale(other, st);
    CHECK_FALSE(wrong.right);
    CHECK_THAT(wrong.line, Catch::StartsWith("You guessed " + std::string(core::duration_guess_label(other)) + ": 1,024 GPUs take ") &&
                               Catch::EndsWith("so " + std::string(core::duration_guess_label(truth)) + "."));

    // Eight GPUs cannot hold GPT-3 175B: the question is one GPU's time.
    const core::RealScaleStory none = core::tell_real_scale(inputs("epyc-9654", "h100", 8));
    REQUIRE_FALSE(none.rows[2].shown);
    CHECK(core::asked_row(none) == 1);
    CHECK(core::real_scale_question(none) == "How long on one GPU?");
    CHECK_THAT(core::reveal_real_scale(core::DurationGuess::years, none).line, Catch::StartsWith("Right: one GPU takes "));
}
