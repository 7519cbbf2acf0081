// Lesson 3's Frontier story: every sentence, readout and timeline row the Frontier scale tab shows
// follows the estimate's own numbers, so the panel only reads.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "m2m/core/engine/text.hpp"
#include "m2m/core/scale/frontier_story.hpp"
#include "m2m/presets/models.hpp"

using namespace m2m;

namespace {

// A model preset on a GPU preset with a layout, as the tab sets it up.
core::EstimateSetup setup_of(const char* model, const char* gpu, int gpus, int tp, int pp, int dp, std::int64_t batch) {
    core::EstimateSetup s = *presets::estimator_setup(presets::builtin_models().find(model)->shape, gpu);
    s.layout.gpus = gpus;
    s.layout.tp = tp;
    s.layout.pp = pp;
    s.layout.dp = dp;
    s.layout.micro_batch = 1;
    s.layout.global_batch = batch;
    s.train_tokens = 300e9;
    return s;
}

// GPT-3 175B on 1,024 A100s, TP 8 x PP 8 x DP 16, 1,536 sequences a step: the tab's first screen.
core::EstimateSetup gpt3() { return setup_of("gpt3-175b", "a100", 1024, 8, 8, 16, 1536); }

}  // namespace

TEST_CASE("the Frontier story's readouts are the estimate's own step time, throughput, MFU and days") {
    const core::FrontierStory st = core::tell_frontier(gpt3());
    REQUIRE_FALSE(st.problem);
    const core::Estimate e = core::estimate(gpt3(), true);
    CHECK(st.estimate.step_time_s == e.step_time_s);
    CHECK(st.readouts[0].label == "STEP TIME");
    CHECK(st.readouts[0].value == core::format_seconds(e.step_time_s));
    CHECK(st.readouts[1].value == core::format_count(std::llround(e.tokens_per_s)));
    CHECK(st.readouts[2].value == core::format_percent(e.mfu, 1));
    CHECK(st.readouts[3].value == core::format_percent(e.hfu, 1));
    CHECK(st.readouts[4].label == "TRAINING, 300B TOKENS");
    CHECK(st.readouts[4].value == core::format_seconds(e.train_days * 86400.0));
    CHECK_THAT(st.readouts[4].tooltip, Catch::StartsWith(core::format_fixed(e.train_days, 1) + " days"));
    CHECK_THAT(st.layout_text, Catch::StartsWith("GPT-3 175B on 1,024 NVIDIA A100"));
    CHECK_THAT(st.layout_text, Catch::Contains("1,536 sequences of 2,048 tokens a step"));
    CHECK(st.product_text == "TP x CP x PP x DP = 8 x 1 x 8 x 16 = 1,024 GPUs");
    CHECK(st.search_button == "Find the best layouts for 1,024 GPUs");
}

TEST_CASE("the Frontier story: the whole of GPT-3 175B needs 16 bytes a parameter, the memory of at least 33 A100s (80 GiB each)") {
    const core::FrontierStory st = core::tell_frontier(gpt3());
    const double state = st.whole.weights_bytes + st.whole.gradients_bytes + st.whole.optimizer_bytes;
    CHECK(st.state_bytes == state);
    CHECK(state == Approx(16 * st.whole.parameters));
    const double capacity = gpt3().gpu.memory_bytes;  // 80 GiB: 85.9 GB
    CHECK(capacity == Approx(85.9e9));
    CHECK(st.min_gpus == static_cast<int>(std::ceil(state / capacity)));
    CHECK(st.min_gpus == 33);
    CHECK_FALSE(st.fits_one_gpu);
    CHECK(st.whole_text == "The whole model: " + core::format_words(st.whole.parameters) + " parameters x 16 bytes = " +
                               core::format_bytes(state) + " for its weights, gradients and Adam state.");
    CHECK(st.whole_legend[2] == "Adam state " + core::format_bytes(st.whole.optimizer_bytes));
    CHECK_THAT(st.whole_verdict, Catch::Contains("at least 33 GPUs"));
    // The card is named "80GB" for its 80 GiB: the decimal figure alone read as a contradiction.
    CHECK_THAT(st.whole_verdict, Catch::Contains("SXM 80GB, which holds 85.9 GB (80 GiB): these alone"));
    CHECK(st.whole_legend[3] == "one GPU: 85.9 GB (80 GiB)");

    const core::FrontierStory small = core::tell_frontier(setup_of("gpt2-small", "h100", 8, 1, 1, 8, 64));
    CHECK(small.fits_one_gpu);
    CHECK(small.min_gpus == 1);
    CHECK_THAT(small.whole_verdict, Catch::StartsWith("It fits in one GPU's 85.5 GB (79.6 GiB), with " +
                                                      core::format_bytes(85.5e9 - small.state_bytes)));
    // No pipeline: no stage to name, one micro-batch in flight, in the singular.
    CHECK_THAT(small.gpu_head, Catch::StartsWith("Each GPU (1 micro-batch in flight): "));
}

TEST_CASE("the Frontier story's memory per GPU is the estimate's fullest stage, and says what would fit it") {
    const core::FrontierStory st = core::tell_frontier(gpt3());
    const core::MemoryUse& m = st.estimate.memory;
    CHECK_THAT(st.gpu_head, Catch::StartsWith("Each GPU of pipeline stage " + std::to_string(m.stage + 1)));
    CHECK_THAT(st.gpu_head, Catch::Contains(core::format_bytes(m.total_bytes) + " of " + core::format_bytes(m.capacity_bytes)));
    CHECK(st.gpu_legend[3] == "activations " + core::format_bytes(m.activations_bytes));
    // The legend's parts add up to the head's total: the framework's share is one of them.
    CHECK(st.gpu_legend[4] == "framework overhead " + core::format_bytes(m.framework_bytes));
    CHECK(m.weights_bytes + m.gradients_bytes + m.optimizer_bytes + m.activations_bytes + m.framework_bytes ==
          Approx(m.total_bytes));

    // TP 1 x PP 8 x DP 128 holds too much on each GPU: the head says so, with the core's change.
    const core::EstimateSetup tight = setup_of("gpt3-175b", "a100", 1024, 1, 8, 128, 1536);
    const core::FrontierStory full = core::tell_frontier(tight);
    REQUIRE_FALSE(full.problem);
    REQUIRE_FALSE(full.estimate.memory.fits);
    // Its step time and training days are what it would take if it fit, and say so.
    for (const core::FrontierReadout& r : full.readouts) {
        CHECK_THAT(r.label, Catch::EndsWith(", IF IT FIT"));
        CHECK_THAT(r.tooltip, Catch::StartsWith("This layout needs more memory than a GPU has"));
    }
    for (const core::FrontierReadout& r : st.readouts) CHECK_THAT(r.label, !Catch::Contains("IF IT FIT"));
    CHECK_THAT(full.timeline_note, Catch::Contains("if it fit"));  // and so does its timeline
    CHECK(st.timeline_note.empty());
    CHECK_THAT(full.gpu_head, Catch::Contains("it does not fit"));
    const auto change = core::change_to_fit(tight);
    CHECK_THAT(full.gpu_head, Catch::EndsWith(change ? change->sentence : std::string("find a layout.")));
}

TEST_CASE("the Frontier story's rows are the estimate's tasks, one row per pipeline stage, every exchange on its link") {
    // GPT-3 on 1,024 A100s, TP 8 x PP 8 x DP 16: a tensor group fills a node (NVLink), each stage is
    // its own nodes (its sends and the gradient sync cross InfiniBand).
    const core::FrontierStory st = core::tell_frontier(gpt3());
    REQUIRE(st.rows.size() == 8);
    const int pp = 8;
    // The exposed tensor-parallel time of every pass drawn one by one (the fill and the drain):
    // its share of the pass is its stage's forward_tp_s / forward_s (backward likewise).
    double tp_expected = 0, tp_drawn = 0;
    std::size_t sends = 0, drawn_sends = 0, syncs = 0, drawn_syncs = 0;
    for (const core::TrainingTask& t : st.estimate.tasks) {
        if (t.stage < 0 || t.stage >= pp) continue;
        const bool fwd = t.kind == core::TrainingTaskKind::forward;
        if (fwd || t.kind == core::TrainingTaskKind::backward) {
            const core::StageCost& c = st.estimate.stages[static_cast<std::size_t>(t.chunk * pp + t.stage)];
            tp_expected += (t.end_s - t.start_s) * (fwd ? c.forward_tp_s / c.forward_s : c.backward_tp_s / c.backward_s);
        }
        sends += t.kind == core::TrainingTaskKind::send_forward || t.kind == core::TrainingTaskKind::send_backward;
        syncs += t.kind == core::TrainingTaskKind::dp_reduce;
    }
    CHECK(tp_expected > 0);
    std::int64_t steady_passes = 0, stripes = 0;
    for (const core::TrainingTask& t : st.estimate.tasks)
        if (t.kind == core::TrainingTaskKind::steady && t.stage >= 0 && t.stage < pp) steady_passes += t.passes;
    for (std::size_t k = 0; k < st.rows.size(); ++k) {
        CHECK(st.rows[k].label == "stage " + std::to_string(k + 1));
        for (std::size_t b = 0; b < st.rows[k].bars.size(); ++b) {
            const core::StepBar& bar = st.rows[k].bars[b];
            CHECK(bar.end_s >= bar.start_s);
            CHECK(bar.end_s <= st.estimate.step_time_s * (1 + 1e-12));
            if (b > 0) CHECK(bar.start_s >= st.rows[k].bars[b - 1].start_s);
            if (bar.kind != core::StepBarKind::transfer) {
                CHECK(bar.link == core::LinkType::local);
                CHECK(bar.what == core::StepTraffic::none);
                if (bar.stands_for > 1) {  // the steady state's stripes: a forward and a backward in turn
                    CHECK(bar.kind == (stripes % 2 == 0 ? core::StepBarKind::forward : core::StepBarKind::backward));
                    ++stripes;
                    if (bar.kind == core::StepBarKind::backward) steady_passes -= bar.stands_for;
                }
                continue;
            }
            switch (bar.what) {
                case core::StepTraffic::tensor:
                    CHECK(bar.link == core::LinkType::nvlink);
                    if (bar.stands_for == 1) tp_drawn += bar.end_s - bar.start_s;
                    break;
                case core::StepTraffic::stage_send:
                    CHECK(bar.link == core::LinkType::infiniband);
                    drawn_sends += bar.stands_for == 1;
                    break;
                case core::StepTraffic::gradient_sync:
                    CHECK(bar.link == core::LinkType::infiniband);
                    ++drawn_syncs;
                    break;
                default: FAIL("ZeRO 0, TP 8 alone: no other traffic, got " << core::traffic_words(bar.what));
            }
        }
    }
    CHECK(tp_drawn == Approx(tp_expected).epsilon(1e-9));  // exposed collectives drawn as such, not as compute
    CHECK(drawn_sends == sends);
    CHECK(drawn_syncs == syncs);
    CHECK(syncs == 8);
    CHECK(steady_passes == 0);  // the stripes stand for every pass of the steady states, no more
    CHECK(stripes > 8 * 2 * 10);
    CHECK(st.link_legend[0] == "NVLink: tensor-parallel collectives");
    CHECK(st.link_legend[1] == "InfiniBand: stage sends, gradient sync");
    CHECK(st.links_text == "Tensor groups on NVLink \xc2\xb7 pipeline sends on InfiniBand \xc2\xb7 gradient sync on InfiniBand");

    // Four GPUs of one node, TP 4 alone: no sends, no gradient sync, and the words say which link is
    // unused; only the tensor group's collectives cross NVLink.
    const core::FrontierStory node = core::tell_frontier(setup_of("gpt2-small", "h100", 4, 4, 1, 1, 8));
    REQUIRE_FALSE(node.problem);
    CHECK(node.link_legend[0] == "NVLink: tensor-parallel collectives");
    CHECK(node.link_legend[1].empty());
    CHECK(node.links_text == "Tensor groups on NVLink \xc2\xb7 pipeline sends on no link (PP 1) \xc2\xb7 gradient sync on no link (DP 1)");
}

TEST_CASE("the Frontier story tells a layout the core refuses as a problem, with no step, rows or readouts") {
    const core::FrontierStory st = core::tell_frontier(setup_of("gpt3-175b", "a100", 1024, 8, 8, 8, 1536));  // 512 GPUs' worth
    REQUIRE(st.problem);
    // In the panel's words: TP, PP, DP as its rows write them, not the command line's field names.
    CHECK(st.problem_text == "This layout cannot run. TP x PP x DP must equal the GPU count: 8 x 8 x 8 = 512, not 1,024.");
    const core::FrontierStory odd = core::tell_frontier(setup_of("gpt3-175b", "a100", 1024, 8, 8, 16, 1000));
    REQUIRE(odd.problem);
    CHECK(odd.problem_text == "This layout cannot run: the global batch must split evenly over the 16 data-parallel "
                              "replicas (1,000 sequences given).");
    CHECK(st.rows.empty());
    CHECK(st.readouts[0].value.empty());
    CHECK(st.gpu_head.empty());
    CHECK(st.estimate.step_time_s == 0);
    CHECK(st.min_gpus == 33);  // the whole model is told all the same
    CHECK(st.product_text == "TP x CP x PP x DP = 8 x 1 x 8 x 8 = 512 GPUs");
}

TEST_CASE("the Frontier search's cells are its best layouts' own figures, and none fitting says why") {
    const core::FrontierSearch found = core::search_frontier(gpt3(), 3);
    REQUIRE(found.result.best.size() == 3);
    REQUIRE(found.cells.size() == 3);
    for (std::size_t i = 0; i < 3; ++i) {
        const core::LayoutScore& sc = found.result.best[i];
        const core::Layout& l = sc.layout;
        CHECK(found.cells[i][0] == std::to_string(l.tp) + " x " + std::to_string(l.cp) + " x " + std::to_string(l.pp) + " x " +
                                       std::to_string(l.dp));
        CHECK(l.tp * l.cp * l.pp * l.dp == 1024);  // the cell's product is the GPU count
        CHECK_THAT(found.cells[i][2], Catch::Contains("ZeRO-" + std::to_string(l.zero_stage)));
        CHECK(found.cells[i][3] == core::format_seconds(sc.step_time_s));
        CHECK(found.cells[i][5] == core::format_percent(sc.mfu, 1));
        CHECK(found.cells[i][6] == core::format_bytes(sc.memory_bytes));
        CHECK(found.cells[i][7] == core::format_fixed(300e9 / sc.tokens_per_s / 86400.0, 1));
    }
    // No two rows read the same: each names every choice the search made.
    for (std::size_t i = 0; i < 3; ++i)
        for (std::size_t j = i + 1; j < 3; ++j) CHECK(found.cells[i] != found.cells[j]);
    CHECK(found.summary == core::format_count(found.result.candidates) + " valid layouts, " +
                               core::format_count(found.result.fitting) + " fit in memory. Click a row to use it.");
    CHECK(found.days_head == "days on 300 billion");
    CHECK(found.none_fit.empty());

    const core::FrontierSearch none = core::search_frontier(setup_of("gpt-1t", "a100", 8, 1, 1, 8, 64), 3);
    CHECK(none.result.best.empty());
    REQUIRE(none.result.smallest);
    CHECK_THAT(none.none_fit, Catch::StartsWith("No layout of 8 GPUs fits in memory. The smallest needs " +
                                                core::format_bytes(none.result.smallest->memory_bytes) + " per GPU"));
}

TEST_CASE("a mixture of experts' exposed all-to-alls are drawn as traffic on their link, not as compute") {
    // TP 2 x DP 8 on two nodes, EP 8: an expert group is every second GPU, across both nodes, so
    // its all-to-all crosses InfiniBand.
    core::EstimateSetup s = setup_of("mixtral-8x7b", "h100", 16, 2, 1, 8, 64);
    s.layout.ep = 8;
    s.layout.zero_stage = 1;
    const core::FrontierStory st = core::tell_frontier(s);
    REQUIRE_FALSE(st.problem);
    double drawn = 0, expected = 0;
    for (const core::TrainingTask& t : st.estimate.tasks)
        if (t.kind == core::TrainingTaskKind::forward || t.kind == core::TrainingTaskKind::backward) {
            const bool fwd = t.kind == core::TrainingTaskKind::forward;
            const core::StageCost& c = st.estimate.stages[static_cast<std::size_t>(t.stage)];
            expected += (t.end_s - t.start_s) * (fwd ? c.forward_ep_s / c.forward_s : c.backward_ep_s / c.backward_s);
        }
    for (const core::StepBar& b : st.rows.at(0).bars)
        if (b.what == core::StepTraffic::experts) {
            CHECK(b.kind == core::StepBarKind::transfer);
            CHECK(b.link == core::LinkType::infiniband);
            if (b.stands_for == 1) drawn += b.end_s - b.start_s;
        }
    CHECK(expected > 0);
    CHECK(drawn == Approx(expected).epsilon(1e-9));
    CHECK_THAT(st.link_legend[1], Catch::Contains("expert all-to-alls"));
}

TEST_CASE("a stage's steady state is drawn as busy as it is: a light stage's wait shows as gaps") {
    // DeepSeek-V3 on 2,048 H100s, PP 16: stage 1 holds the three dense layers and the embedding,
    // far less than the MoE stages, so in the steady state it mostly waits for them.
    core::EstimateSetup s = setup_of("deepseek-v3", "h100", 2048, 1, 16, 128, 15360);
    s.layout.ep = 64;
    s.layout.zero_stage = 1;
    s.layout.attention = core::AttentionKernel::flash;
    const core::FrontierStory st = core::tell_frontier(s);
    REQUIRE_FALSE(st.problem);
    for (const core::TrainingTask& t : st.estimate.tasks) {
        if (t.kind != core::TrainingTaskKind::steady || t.stage != 0 || t.passes <= 0) continue;
        const core::StageCost& c = st.estimate.stages[0];
        const double work = static_cast<double>(t.passes) / 2.0 * (c.forward_s + c.backward_s);
        double drawn = 0;
        for (const core::StepBar& b : st.rows[0].bars)
            if (b.stands_for > 1 && b.what != core::StepTraffic::stage_send && b.start_s >= t.start_s && b.end_s <= t.end_s + 1e-9)
                drawn += b.end_s - b.start_s;
        CHECK(work < 0.8 * (t.end_s - t.start_s));  // the stage is idle a fifth of the span or more
        CHECK(drawn == Approx(work).epsilon(1e-6));  // and drawn so, not stretched over the span
    }
}
