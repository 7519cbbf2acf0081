// The training-step estimator: sizes and formulas checked exactly, Korthikanti's Table 5 within 15%, sanity of trends.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>

#include "m2m/core/scale/estimator.hpp"
#include "m2m/presets/models.hpp"

using namespace m2m;
using core::AttentionKernel;
using core::PipelineSchedule;
using core::Recompute;

namespace {

const core::TransformerShape& preset(const char* id) {
    const auto* p = presets::builtin_models().find(id);
    REQUIRE(p);
    return p->shape;
}

core::EstimateSetup setup_for(const core::TransformerShape& m, const char* gpu, int tp, int pp, int dp,
                              std::int64_t global_batch) {
    auto s = presets::estimator_setup(m, gpu);
    REQUIRE(s);
    s->layout.gpus = tp * pp * dp;
    s->layout.tp = tp;
    s->layout.pp = pp;
    s->layout.dp = dp;
    s->layout.global_batch = global_batch;
    return *s;
}

// A GPT with the shape of a Korthikanti et al. 2022 Table 5 row: seq 2,048, vocabulary 51,200.
core::TransformerShape korthikanti(std::int64_t heads, std::int64_t hidden, std::int64_t layers) {
    core::TransformerShape m;
    m.id = "table5";
    m.heads = heads;
    m.hidden = hidden;
    m.layers = layers;
    m.vocab = 51200;
    m.seq = 2048;
    return m;
}

struct Table5Row {
    const char* name;
    std::int64_t heads, hidden, layers;
    int pp;
    std::int64_t batch;
    double selective_s, full_s;
};
// Korthikanti et al. 2022, Table 5: A100 80GB, TP 8, no data parallelism, sequence parallelism.
const Table5Row table5[] = {
    {"22B", 64, 6144, 48, 1, 4, 1.10, 1.42},
    {"175B", 96, 12288, 96, 8, 64, 13.75, 18.13},
    {"530B", 128, 20480, 105, 35, 280, 37.83, 49.05},
    {"1T", 160, 25600, 128, 64, 512, 71.49, 94.42},
};

core::EstimateSetup table5_setup(const Table5Row& r, Recompute recompute) {
    auto s = setup_for(korthikanti(r.heads, r.hidden, r.layers), "a100", 8, r.pp, 1, r.batch);
    s.layout.recompute = recompute;
    s.layout.overlap = false;  // Megatron-LM in 2022: sends block, as its p2p_communication waited on them
    return s;
}

}  // namespace

// --- sizes ------------------------------------------------------------------------------------

TEST_CASE("every model preset's parameter count is within 2% of its published size") {
    const auto& cat = presets::builtin_models();
    REQUIRE(cat.models.size() >= 6);
    for (const auto& p : cat.models) {
        const double counted = static_cast<double>(core::count_parameters(p.shape).total);
        INFO(p.shape.id << ": counted " << counted << ", published " << p.published_parameters);
        CHECK(std::fabs(counted / p.published_parameters - 1.0) < 0.02);
        for (const auto& f : p.figures) CHECK_FALSE(f.source.empty());
    }
}

TEST_CASE("the named models match the sizes a teacher will quote") {
    const auto count = [](const char* id) { return static_cast<double>(core::count_parameters(preset(id)).total); };
    CHECK(count("gpt2-small") == Approx(124e6).epsilon(0.02));
    CHECK(count("gpt3-175b") == Approx(175e9).epsilon(0.02));
    CHECK(count("llama3-8b") == Approx(8.03e9).epsilon(0.02));
    CHECK(count("llama3-70b") == Approx(70.6e9).epsilon(0.02));
    CHECK(count("llama3-405b") == Approx(405e9).epsilon(0.02));
    CHECK(count("gpt-1t") == Approx(1.008e12).epsilon(0.02));
}

TEST_CASE("a GPT's parameters are Narayanan's 12 l h^2 + 13 l h + (V + s) h, plus the final norm") {
    const auto m = korthikanti(96, 12288, 96);
    const std::int64_t l = 96, h = 12288, V = 51200, s = 2048;
    CHECK(core::count_parameters(m).total == 12 * l * h * h + 13 * l * h + (V + s) * h + 2 * h);
}

TEST_CASE("model FLOPs follow Korthikanti's 72 B s l h^2 (1 + s/6h + V/12lh); full recompute Narayanan's 96") {
    const auto m = korthikanti(96, 12288, 96);
    const double B = 64, s = 2048, l = 96, h = 12288, V = 51200;
    const double model = 72 * B * s * l * h * h * (1 + s / (6 * h) + V / (12 * l * h));
    const double full = 96 * B * s * l * h * h * (1 + s / (6 * h) + V / (16 * l * h));
    CHECK(core::model_flops_per_token(m) * B * s == Approx(model).epsilon(1e-12));
    CHECK(core::hardware_flops_per_token(m, Recompute::full) * B * s == Approx(full).epsilon(1e-12));
    CHECK(core::hardware_flops_per_token(m, Recompute::none) == core::model_flops_per_token(m));
    // Selective recompute redoes only the attention scores: 4 l s h per token.
    CHECK(core::hardware_flops_per_token(m, Recompute::selective) - core::model_flops_per_token(m) ==
          Approx(4 * l * s * h));
}

TEST_CASE("training GPT-3 175B on 300B tokens takes 3.14e23 FLOPs") {
    CHECK(core::training_flops(175e9, 300e9) == Approx(3.14e23).epsilon(0.01));
}

// --- memory -----------------------------------------------------------------------------------

TEST_CASE("weights, gradients and Adam take 16 bytes per parameter; ZeRO-1 splits the 12 optimizer bytes") {
    const auto& m = preset("gpt3-175b");
    auto s = setup_for(m, "a100", 1, 1, 1, 1);
    const double P = static_cast<double>(core::count_parameters(m).total);
    core::MemoryUse u = core::memory_use(s);
    CHECK(u.parameters == Approx(P));
    CHECK(u.weights_bytes + u.gradients_bytes + u.optimizer_bytes == Approx(16 * P));
    CHECK_FALSE(u.fits);  // 2.8 TB of state against 80 GB

    s = setup_for(m, "a100", 1, 1, 8, 8);
    s.layout.zero_stage = 1;
    u = core::memory_use(s);
    CHECK(u.weights_bytes + u.gradients_bytes + u.optimizer_bytes == Approx(4 * P + 12 * P / 8));
}

TEST_CASE("activation bytes per layer match Korthikanti's formulas for a hand-worked GPT-3 layer") {
    // s = 2,048, b = 1, h = 12,288, a = 96, t = 8: s b h = 25,165,824.
    const auto m = korthikanti(96, 12288, 96);
    const double sbh = 2048.0 * 12288.0;
    const double scores = 5.0 * 96 * 2048.0 * 2048.0;  // 5 a s^2 b = 2,013,265,920
    // no parallelism: 34 s b h + 5 a s^2 b
    CHECK(core::activation_bytes_per_layer(m, 1, 1, false, Recompute::none) == Approx(34 * sbh + scores));
    CHECK(core::activation_bytes_per_layer(m, 1, 1, false, Recompute::none) == Approx(2'868'903'936.0));
    // tensor parallel: s b h (10 + 24/t + 5 a s/(h t))
    CHECK(core::activation_bytes_per_layer(m, 1, 8, false, Recompute::none) ==
          Approx(sbh * (10 + 24.0 / 8 + 5.0 * 96 * 2048 / (12288.0 * 8))));
    CHECK(core::activation_bytes_per_layer(m, 1, 8, false, Recompute::none) == Approx(578'813'952.0));
    // + sequence parallel: (s b h / t)(34 + 5 a s / h)
    CHECK(core::activation_bytes_per_layer(m, 1, 8, true, Recompute::none) == Approx(358'612'992.0));
    // + selective recompute: 34 s b h / t
    CHECK(core::activation_bytes_per_layer(m, 1, 8, true, Recompute::selective) == Approx(34 * sbh / 8));
    // full recompute keeps the layer's input: 2 s b h (split by t under sequence parallelism)
    CHECK(core::activation_bytes_per_layer(m, 1, 1, false, Recompute::full) == Approx(2 * sbh));
    CHECK(core::activation_bytes_per_layer(m, 1, 8, true, Recompute::full) == Approx(2 * sbh / 8));
    // a micro-batch of 4 keeps 4 times as much
    CHECK(core::activation_bytes_per_layer(m, 4, 8, true, Recompute::selective) == Approx(4 * 34 * sbh / 8));
    // flash attention never stores the scores
    CHECK(core::activation_bytes_per_layer(m, 1, 8, true, Recompute::none, AttentionKernel::flash) ==
          Approx(34 * sbh / 8));
}

TEST_CASE("1F1B keeps p micro-batches of activations on the first stage, GPipe keeps all m") {
    auto s = setup_for(preset("gpt3-175b"), "a100", 8, 8, 1, 64);
    s.layout.schedule = PipelineSchedule::one_f_one_b;
    const core::MemoryUse one_f = core::memory_use(s);
    s.layout.schedule = PipelineSchedule::gpipe;
    const core::MemoryUse gpipe = core::memory_use(s);
    CHECK(one_f.stage == 0);
    CHECK(one_f.in_flight_micro_batches == 8);
    CHECK(gpipe.in_flight_micro_batches == 64);
    CHECK(gpipe.activations_bytes > 7 * one_f.activations_bytes);
    CHECK(one_f.fits);
    CHECK_FALSE(gpipe.fits);
}

// --- calibration ------------------------------------------------------------------------------

TEST_CASE("Korthikanti et al. 2022 Table 5: all four iteration times within 15% with one A100 constant") {
    std::printf("\nKorthikanti et al. 2022 Table 5 on A100 80GB (TP 8, seq 2048, V 51200, sequence parallel), "
                "achievable fraction %.2f for every row:\n",
                presets::gemm_efficiency("a100")->fraction);
    std::printf("  model  selective: predicted  paper   error |   full: predicted  paper   error |  MFU (paper)\n");
    const double paper_mfu[] = {0.415, 0.514, 0.560, 0.563};
    int i = 0;
    for (const Table5Row& r : table5) {
        const core::Estimate sel = core::estimate(table5_setup(r, Recompute::selective), false);
        const core::Estimate full = core::estimate(table5_setup(r, Recompute::full), false);
        const double e_sel = sel.step_time_s / r.selective_s - 1, e_full = full.step_time_s / r.full_s - 1;
        std::printf("  %-5s            %7.2f s %6.2f s %+6.1f%% |   %7.2f s %6.2f s %+6.1f%% |  %4.1f%% (%4.1f%%)\n", r.name,
                    sel.step_time_s, r.selective_s, 100 * e_sel, full.step_time_s, r.full_s, 100 * e_full,
                    100 * sel.mfu, 100 * paper_mfu[i++]);
        INFO(r.name);
        CHECK(std::fabs(e_sel) < 0.15);
        CHECK(std::fabs(e_full) < 0.20);
        CHECK(sel.memory.fits);
        CHECK(full.step_time_s > sel.step_time_s);
    }
}

TEST_CASE("the closed form used to rank layouts stays within 3% of the scheduler on the Table 5 rows") {
    for (const Table5Row& r : table5) {
        const auto s = table5_setup(r, Recompute::selective);
        core::LayoutLinks links(s);
        const double closed = core::closed_form_step_time_s(s, core::stage_costs(s, links));
        INFO(r.name);
        CHECK(closed == Approx(core::estimate(s, false).step_time_s).epsilon(0.03));
    }
}

// --- the timeline -----------------------------------------------------------------------------

TEST_CASE("a uniform pipeline idles (p-1)/(m+p-1) of the time, as the schedule's bubble formula says") {
    auto m = korthikanti(32, 4096, 32);
    m.vocab = 8;  // no output layer to speak of, so every stage does the same work
    auto s = setup_for(m, "a100", 1, 4, 1, 16);
    for (auto sched : {PipelineSchedule::one_f_one_b, PipelineSchedule::gpipe}) {
        s.layout.schedule = sched;
        const core::Estimate e = core::estimate(s);
        CHECK(e.bubble_fraction == Approx(3.0 / 19.0));
        CHECK(e.idle_fraction == Approx(e.bubble_fraction).margin(0.01));
    }
    s.layout.schedule = PipelineSchedule::interleaved;
    s.layout.chunks = 2;
    const core::Estimate e = core::estimate(s);
    CHECK(e.bubble_fraction == Approx(3.0 / 35.0));
    CHECK(e.idle_fraction == Approx(e.bubble_fraction).margin(0.02));
}

TEST_CASE("the step timeline has one forward and one backward per stage per micro-batch, in 1F1B order") {
    auto s = setup_for(preset("gpt3-175b"), "a100", 8, 4, 2, 16);
    const core::Estimate e = core::estimate(s);
    REQUIRE(e.micro_batches == 8);
    int forwards = 0, backwards = 0, syncs = 0, optimizers = 0;
    std::vector<const core::TrainingTask*> stage0;
    for (const auto& t : e.tasks) {
        forwards += t.kind == core::TrainingTaskKind::forward;
        backwards += t.kind == core::TrainingTaskKind::backward;
        syncs += t.kind == core::TrainingTaskKind::dp_reduce;
        optimizers += t.kind == core::TrainingTaskKind::optimizer;
        if (t.stage == 0 && (t.kind == core::TrainingTaskKind::forward || t.kind == core::TrainingTaskKind::backward))
            stage0.push_back(&t);
        CHECK(t.end_s >= t.start_s);
        CHECK(t.end_s <= e.step_time_s + 1e-12);
    }
    CHECK(forwards == 4 * 8);
    CHECK(backwards == 4 * 8);
    CHECK(syncs == 4);
    CHECK(optimizers == 4);
    // Stage 0 of 4: three warm-up forwards, then backward of micro-batch 0 right after forward 3.
    std::sort(stage0.begin(), stage0.end(), [](auto* a, auto* b) { return a->start_s < b->start_s; });
    REQUIRE(stage0.size() == 16);
    CHECK(stage0[3]->kind == core::TrainingTaskKind::forward);
    CHECK(stage0[3]->micro_batch == 3);
    CHECK(stage0[4]->kind == core::TrainingTaskKind::backward);
    CHECK(stage0[4]->micro_batch == 0);
    CHECK(e.step_time_s == Approx(core::scheduled_step_time_s(s, e.stages)).epsilon(1e-9));
}

TEST_CASE("the interleaved schedule shrinks the bubble of a deep pipeline") {
    auto s = setup_for(preset("gpt3-175b"), "a100", 8, 8, 1, 64);
    const double plain = core::estimate(s, false).step_time_s;
    s.layout.schedule = PipelineSchedule::interleaved;
    s.layout.chunks = 2;
    const core::Estimate inter = core::estimate(s, false);
    CHECK(inter.step_time_s < plain);
    CHECK(inter.bubble_fraction == Approx(7.0 / (2 * 64 + 7)));
}

// --- trends -----------------------------------------------------------------------------------

TEST_CASE("more data-parallel GPUs at a fixed layout and batch give a shorter step") {
    const auto& m = preset("gpt3-175b");
    double previous = 1e30;
    for (int dp : {4, 8, 16, 32}) {
        const core::Estimate e = core::estimate(setup_for(m, "a100", 8, 8, dp, 1536), false);
        INFO("dp " << dp << ": " << e.step_time_s << " s");
        CHECK(e.step_time_s < previous);
        previous = e.step_time_s;
    }
}

TEST_CASE("tensor parallelism across nodes is slower than within a node on the same GPUs") {
    const auto& m = preset("gpt-22b");
    const core::Estimate inside = core::estimate(setup_for(m, "a100", 8, 1, 2, 16), false);
    const core::Estimate across = core::estimate(setup_for(m, "a100", 16, 1, 1, 16), false);
    // 16-way tensor parallelism spans two nodes: its collectives leave the node through the eight
    // NICs (one ring per NIC, ~8 x 24 GB/s) instead of NVLink (240 GB/s), on half the compute each.
    CHECK(across.step_time_s > 1.2 * inside.step_time_s);
    CHECK(across.stages[0].forward_tp_s > inside.stages[0].forward_tp_s);
    CHECK(across.stages[0].forward_tp_s > across.stages[0].forward_compute_s * 0.25);
}

TEST_CASE("a faster GPU trains faster, and recompute costs time but saves memory") {
    const auto& m = preset("gpt3-175b");
    const core::Estimate a100 = core::estimate(setup_for(m, "a100", 8, 8, 4, 256), false);
    const core::Estimate h100 = core::estimate(setup_for(m, "h100", 8, 8, 4, 256), false);
    CHECK(h100.step_time_s < a100.step_time_s);
    auto s = setup_for(m, "a100", 8, 8, 4, 256);
    s.layout.recompute = Recompute::full;
    const core::Estimate full = core::estimate(s, false);
    s.layout.recompute = Recompute::none;
    const core::Estimate none = core::estimate(s, false);
    CHECK(full.step_time_s > a100.step_time_s);
    CHECK(none.step_time_s < a100.step_time_s);
    CHECK(full.memory.activations_bytes < a100.memory.activations_bytes);
    CHECK(none.memory.activations_bytes > a100.memory.activations_bytes);
    CHECK(full.hfu > full.mfu);
    CHECK(none.hfu == Approx(none.mfu));
}

TEST_CASE("ZeRO-1 trades optimizer memory for an all-gather of the new weights") {
    auto s = setup_for(preset("gpt3-175b"), "a100", 8, 8, 16, 512);
    const core::Estimate plain = core::estimate(s);
    s.layout.zero_stage = 1;
    const core::Estimate zero = core::estimate(s);
    CHECK(zero.memory.optimizer_bytes == Approx(plain.memory.optimizer_bytes / 16));
    CHECK(zero.stages[0].param_gather_s > 0);
    CHECK(std::count_if(zero.tasks.begin(), zero.tasks.end(),
                        [](const auto& t) { return t.kind == core::TrainingTaskKind::param_gather; }) == 8);
}

TEST_CASE("days to train: tokens over tokens per second") {
    auto s = setup_for(preset("gpt3-175b"), "a100", 8, 8, 24, 2304);
    s.train_tokens = 300e9;
    const core::Estimate e = core::estimate(s, false);
    CHECK(e.tokens_per_s == Approx(2304.0 * 2048 / e.step_time_s));
    CHECK(e.train_days == Approx(300e9 / e.tokens_per_s / 86400));
    CHECK(e.mfu == Approx(e.model_tflops_per_gpu * 1e12 / 312e12));
    CHECK(e.train_days > 5);
    CHECK(e.train_days < 100);
}

// --- the links, from Lesson 2 -----------------------------------------------------------------

TEST_CASE("collective times are Lesson 2's NCCL cost model for the layout's groups") {
    auto s = setup_for(preset("gpt3-175b"), "a100", 8, 8, 24, 2304);
    core::LayoutLinks links(s);
    CHECK(links.tp_link() == core::LinkType::nvlink);
    CHECK(links.dp_link() == core::LinkType::infiniband);
    CHECK(links.size(core::GroupKind::tensor) == 8);
    CHECK(links.size(core::GroupKind::weights) == 24);
    const double bytes = 2.0 * 2048 * 12288;
    // The tensor-parallel group is one node's 8 GPUs; the data-parallel group one GPU in each of 24 nodes.
    CHECK(links.seconds(core::GroupKind::tensor, core::CollectiveKind::all_reduce, bytes) ==
          Approx(core::collective_cost(s.system, {8, 8, 1}, core::CollectiveOp::all_reduce, bytes).time_s));
    CHECK(links.seconds(core::GroupKind::weights, core::CollectiveKind::all_reduce, 5e9) ==
          Approx(core::collective_cost(s.system, {24, 1, 24}, core::CollectiveOp::all_reduce, 5e9).time_s));
    // A send is a transfer on its route: stage 0 to stage 1 is 8 x 24 = 192 GPUs away, another node.
    const core::Route r = links.stage_route(0, 1);
    CHECK(r.type == core::LinkType::infiniband);
}

// --- checks and search ------------------------------------------------------------------------

TEST_CASE("a bad layout is refused with the field to change") {
    const auto& m = preset("gpt3-175b");
    const auto field = [](const core::EstimateSetup& s) {
        const auto p = core::check(s);
        return p ? p->field : std::string("ok");
    };
    auto s = setup_for(m, "a100", 8, 8, 24, 2304);
    CHECK(field(s) == "ok");
    s.layout.gpus = 1000;
    CHECK(field(s) == "gpus");
    s = setup_for(m, "a100", 8, 8, 24, 2300);
    CHECK(field(s) == "global_batch");
    s = setup_for(m, "a100", 8, 8, 24, 2304);
    s.layout.micro_batch = 5;
    CHECK(field(s) == "micro_batch");
    s = setup_for(m, "a100", 7, 1, 1, 8);
    CHECK(field(s) == "tp");
    s = setup_for(m, "a100", 1, 97, 1, 97);
    CHECK(field(s) == "pp");
    s = setup_for(m, "a100", 8, 1, 1, 8);
    s.layout.schedule = PipelineSchedule::interleaved;
    CHECK(field(s) == "schedule");
    s = setup_for(m, "a100", 8, 8, 1, 12);
    s.layout.schedule = PipelineSchedule::interleaved;
    CHECK(field(s) == "micro_batch");
    CHECK_THROWS_WITH(core::estimate(s), Catch::Contains("micro_batch"));
}

TEST_CASE("the search ranks valid layouts that fit by throughput, the best confirmed on the scheduler") {
    auto s = setup_for(preset("gpt3-175b"), "a100", 1, 1, 1, 256);
    s.layout.gpus = 256;
    const core::SearchResult r = core::search_layouts(s, 5);
    REQUIRE(r.best.size() == 5);
    CHECK(r.candidates > r.fitting);
    CHECK(r.fitting >= 5);
    for (std::size_t i = 0; i < r.best.size(); ++i) {
        const auto& b = r.best[i];
        CHECK(b.layout.tp * b.layout.cp * b.layout.pp * b.layout.dp == 256);
        CHECK(b.fits);
        CHECK(b.confirmed);
        CHECK(b.memory_bytes <= s.gpu.memory_bytes);  // 80 GiB: 85.9 GB
        if (i > 0) CHECK(b.tokens_per_s <= r.best[i - 1].tokens_per_s);
    }
    // The winner, estimated on its own, gives the same step time.
    auto best = s;
    best.layout = r.best[0].layout;
    CHECK(core::estimate(best, false).step_time_s == Approx(r.best[0].step_time_s));
}

TEST_CASE("no layout fits when the model is too big for the cluster, and the search says which comes closest") {
    auto s = setup_for(preset("llama3-405b"), "a100", 1, 1, 8, 8);
    s.layout.gpus = 8;
    const core::SearchResult r = core::search_layouts(s, 5);
    CHECK(r.best.empty());
    CHECK(r.fitting == 0);
    REQUIRE(r.smallest);
    CHECK(r.smallest->memory_bytes > 80e9);
}

// --- real scale -------------------------------------------------------------------------------

TEST_CASE("one CPU takes millennia, one GPU decades, a cluster weeks: GPT-3 175B on 300B tokens") {
    const auto cpu = presets::cpu_rate("epyc-9654");
    const auto gpu = presets::estimator_gpu("a100");
    REQUIRE(cpu);
    REQUIRE(gpu);
    auto s = setup_for(preset("gpt3-175b"), "a100", 8, 8, 16, 1536);
    const core::Estimate e = core::estimate(s, false);
    const core::TrainingRunComparison c = core::compare_training_run("GPT-3 175B", 175e9, 300e9, *cpu, *gpu, 1024, e.mfu);
    REQUIRE(c.rows.size() == 3);
    CHECK(c.flops == Approx(3.15e23).epsilon(0.01));
    const double year = 365.25 * 86400;
    CHECK(c.rows[0].seconds > 1000 * year);
    CHECK(c.rows[1].seconds > 10 * year);
    CHECK(c.rows[1].seconds < 100 * year);
    CHECK(c.rows[2].seconds < 120 * 86400.0);
    CHECK(c.rows[2].seconds > 10 * 86400.0);
    for (const auto& r : c.rows) {
        CHECK_FALSE(r.duration.empty());
        CHECK_FALSE(r.assumption.empty());
    }
    CHECK(c.assumptions.size() >= 3);
}

TEST_CASE("the estimate's assumptions read right for every choice: no recompute, TP 1, an H200 node") {
    core::EstimateSetup s = setup_for(preset("llama3-8b"), "h200", 1, 1, 8, 64);
    s.layout.recompute = core::Recompute::none;
    s.layout.attention = core::AttentionKernel::standard;
    const core::Estimate plain = core::estimate(s, false);
    std::string all;
    for (const std::string& a : plain.assumptions) all += a + "\n";
    CHECK_THAT(all, !Catch::Contains("none recompute"));
    CHECK_THAT(all, Catch::Contains("nothing runs twice"));
    CHECK_THAT(all, Catch::Contains("Tensor parallel: none (TP 1)") && !Catch::Contains("2 all-gathers and 2 reduce-scatters"));
    s.layout.attention = core::AttentionKernel::flash;
    std::string flash;
    for (const std::string& a : core::estimate(s, false).assumptions) flash += a;
    CHECK_THAT(flash, Catch::Contains("what flash attention's backward pass computes a second time"));
    // Flash skips the causal half but both FLOP counts count every score: the screen says what follows.
    CHECK_THAT(flash, Catch::Contains("MFU and HFU can pass the share of peak"));
    CHECK_THAT(s.system.name, Catch::StartsWith("HGX H200"));
}
