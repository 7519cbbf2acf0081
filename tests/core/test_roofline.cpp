// Lesson 1's roofline: exact counts, ridge points, the batch where a layer turns compute-bound,
// precisions a chip has no units for, caches, and the fixed per-layer costs.
#include <catch2/catch.hpp>

#include "m2m/core/engine/text.hpp"
#include "m2m/core/layers/layer_run.hpp"
#include "m2m/presets/presets.hpp"

using namespace m2m::core;

namespace {

const ComputeSpec& preset(const char* id) { return m2m::presets::builtin().find(id)->spec; }

LayerRunSetup hardware(std::vector<int> widths, const char* cpu, const char* gpu, int batch = 1,
                       Precision p = Precision::fp32, CacheState cache = CacheState::cold) {
    LayerRunSetup s;
    s.network.widths = std::move(widths);
    s.mode = TimingMode::hardware;
    s.cpu = preset(cpu);
    s.gpu = preset(gpu);
    s.cpu_cores = s.cpu.cores;
    s.gpu_cores = s.gpu.cores;
    s.batch = batch;
    s.precision = p;
    s.cache = cache;
    return s;
}

double total_seconds(const LayerTiming& t) { return static_cast<double>(t.total()) / picoseconds_per_second; }

}  // namespace

TEST_CASE("a layer at batch B does 2 n_in n_out B FLOPs and moves its weights once plus B inputs and outputs") {
    const LayerCounts c = layer_counts(1024, 512, 16, Precision::bf16);
    CHECK(c.flops == 2.0 * 1024 * 512 * 16);
    CHECK(c.weight_bytes == 1024.0 * 512 * 2);
    CHECK(c.input_bytes == 16.0 * 1024 * 2);
    CHECK(c.output_bytes == 16.0 * 512 * 2);
    CHECK(c.bytes() == 1024.0 * 512 * 2 + 16.0 * 1536 * 2);
    CHECK(c.intensity() == Approx(2.0 * 1024 * 512 * 16 / c.bytes()));
    // FP32 takes 4 bytes a value, FP8 one; the FLOPs do not change.
    CHECK(layer_counts(1024, 512, 16, Precision::fp32).bytes() == 2 * c.bytes());
    CHECK(layer_counts(1024, 512, 16, Precision::fp8).bytes() == c.bytes() / 2);
    CHECK(layer_counts(1024, 512, 16, Precision::fp8).flops == c.flops);
}

TEST_CASE("batch 1 reads each FP32 weight for one multiply-add: about half a FLOP per byte") {
    CHECK(layer_counts(4096, 4096, 1, Precision::fp32).intensity() == Approx(0.5).epsilon(0.001));
    CHECK(layer_counts(4096, 4096, 1, Precision::bf16).intensity() == Approx(1.0).epsilon(0.001));
}

TEST_CASE("a layer's intensity crosses the ridge point at the batch the roofline predicts") {
    const Roof h100 = machine_roof(preset("h100"), 16896, Precision::bf16, CacheState::cold, 0, 4096);
    const auto b = ridge_batch(4096, 4096, Precision::bf16, h100.ridge());
    REQUIRE(b);
    CHECK(*b > 150);  // about the ridge itself in BF16, where a byte is half a weight
    CHECK(*b < 250);
    const auto below = static_cast<int>(std::floor(*b)), above = static_cast<int>(std::ceil(*b));
    CHECK(layer_counts(4096, 4096, below, Precision::bf16).intensity() < h100.ridge());
    CHECK(layer_counts(4096, 4096, above, Precision::bf16).intensity() >= h100.ridge());
    // A layer too narrow to ever reach the ridge: intensity tends to 2 n_in n_out / (b (n_in + n_out)) = 3.
    CHECK_FALSE(ridge_batch(6, 6, Precision::bf16, h100.ridge()));
}

TEST_CASE("a wide layer is memory-bound at batch 1 and compute-bound at a large batch, on both machines") {
    for (const char* cpu : {"laptop-cpu", "epyc-9654"}) {
        INFO(cpu);
        const LayerRunResult small = run_layers(hardware({4096, 4096, 4096}, cpu, "h100", 1, Precision::bf16));
        const LayerRunResult large = run_layers(hardware({4096, 4096, 4096}, cpu, "h100", 4096, Precision::bf16));
        for (const LayerPoint& l : small.layers) {
            CHECK(l.cpu.bound == Bound::memory);
            CHECK(l.gpu.bound == Bound::memory);
        }
        for (const LayerPoint& l : large.layers) {
            CHECK(l.cpu.bound == Bound::compute);
            CHECK(l.gpu.bound == Bound::compute);
        }
    }
}

TEST_CASE("the bound flips from memory to compute where the batch passes the ridge") {
    const LayerRunSetup base = hardware({4096, 4096}, "laptop-cpu", "h100", 1, Precision::bf16);
    const Roof gpu = gpu_roof(base);
    const double flip = *ridge_batch(4096, 4096, Precision::bf16, gpu.ridge());
    LayerRunSetup before = base, after = base;
    before.batch = static_cast<int>(flip * 0.8);
    after.batch = static_cast<int>(flip * 1.25);
    CHECK(layer_points(before).front().gpu.bound == Bound::memory);
    CHECK(layer_points(after).front().gpu.bound == Bound::compute);
}

TEST_CASE("a precision a chip has no units for runs at the next wider one's rate, and says so") {
    const ComputeSpec& laptop = preset("laptop-cpu");
    const Roof fp32 = machine_roof(laptop, 4, Precision::fp32, CacheState::cold, 0, 4096);
    const Roof bf16 = machine_roof(laptop, 4, Precision::bf16, CacheState::cold, 0, 4096);
    CHECK(bf16.fallback);
    CHECK(bf16.runs_as == Precision::fp32);
    CHECK_FALSE(fp32.fallback);
    CHECK(bf16.compute_flops == fp32.compute_flops);
    // A chip that has the units runs faster in BF16: the EPYC's AVX512_BF16, the H100's tensor cores.
    const Roof epyc = machine_roof(preset("epyc-9654"), 96, Precision::bf16, CacheState::cold, 0, 4096);
    CHECK_FALSE(epyc.fallback);
    CHECK(epyc.compute_flops == Approx(2 * machine_roof(preset("epyc-9654"), 96, Precision::fp32, CacheState::cold, 0, 4096).compute_flops));
    // FP8 on an A100 (no FP8 units) runs on its BF16 tensor cores, as weight-only FP8 kernels do on
    // Ampere, not on its FP32 CUDA cores; an H100 has FP8 units; the laptop falls through to FP32.
    const Roof a100_fp8 = machine_roof(preset("a100"), 6912, Precision::fp8, CacheState::cold, 0, 4096);
    CHECK(a100_fp8.fallback);
    CHECK(a100_fp8.runs_as == Precision::bf16);
    CHECK(a100_fp8.compute_flops == machine_roof(preset("a100"), 6912, Precision::bf16, CacheState::cold, 0, 4096).compute_flops);
    CHECK_FALSE(machine_roof(preset("h100"), 16896, Precision::fp8, CacheState::cold, 0, 4096).fallback);
    CHECK(machine_roof(laptop, 4, Precision::fp8, CacheState::cold, 0, 4096).runs_as == Precision::fp32);
    // At batch 4,096 FP8 on an A100 is never slower than BF16: half the bytes at the same FLOP rate.
    const auto a100_time = [](Precision p) {
        LayerRunSetup s = hardware({4096, 4096, 4096, 4096}, "laptop-cpu", "a100", 4096, p);
        return run_layers(s).gpu_seconds();
    };
    CHECK(a100_time(Precision::fp8) <= a100_time(Precision::bf16));
    // The story says so in words.
    const LayerRunSetup s = hardware({1024, 1024}, "laptop-cpu", "h100", 64, Precision::bf16);
    const LayerRunStory st = tell(s, run_layers(s));
    CHECK_THAT(st.precision_note, Catch::Contains("has no BF16 units, so it computes at its FP32 rate"));
    CHECK_THAT(st.cpu.units, Catch::Contains("at its FP32 rate"));
    const LayerRunSetup a = hardware({1024, 1024}, "laptop-cpu", "a100", 64, Precision::fp8);
    const LayerRunStory sa = tell(a, run_layers(a));
    CHECK_THAT(sa.precision_note, Catch::Contains("NVIDIA A100 SXM 80GB has no FP8 units, so it computes at its BF16 rate"));
    CHECK_THAT(sa.gpu.units, Catch::Contains("FP8 at its BF16 rate on tensor cores"));
}

TEST_CASE("the presets' ridge points: peak x the chip's efficiency over its memory bandwidth") {
    struct Row {
        const char* id;
        Precision p;
        double ridge;
    };
    const Row rows[] = {
        {"h100", Precision::bf16, 989e12 * 0.53 / 3.35e12},    // ~156 FLOP/byte
        {"h100", Precision::fp8, 1979e12 * 0.53 / 3.35e12},    // ~313
        {"h100", Precision::fp32, 66.9e12 * 0.53 / 3.35e12},   // ~11
        {"a100", Precision::bf16, 312e12 * 0.70 / 2.0e12},     // ~109
        {"b200", Precision::bf16, 2250e12 * 0.53 / 8.0e12},    // ~149
        {"epyc-9654", Precision::fp32, 7.3728e12 / 461e9},     // ~16
        {"epyc-9654", Precision::bf16, 14.7456e12 / 461e9},    // ~32
        {"xeon-8480", Precision::bf16, 114.688e12 / 307e9},    // ~374 on AMX tiles, a peak
        {"laptop-cpu", Precision::fp32, 524.8e9 * 0.96 / 51.2e9},  // ~9.8
    };
    for (const Row& r : rows) {
        INFO(r.id << " " << precision_id(r.p));
        const ComputeSpec& spec = preset(r.id);
        CHECK(machine_roof(spec, spec.cores, r.p, CacheState::cold, 0, 4096).ridge() == Approx(r.ridge).epsilon(1e-3));
    }
}

TEST_CASE("warm weights that fit a cache are read at its speed; cold ones and ones too big come from memory") {
    const ComputeSpec& h100 = preset("h100");
    const double small = 1e6, big = 200e6;
    CHECK(machine_roof(h100, 16896, Precision::fp32, CacheState::cold, small, 4096).level == "HBM");
    const Roof warm = machine_roof(h100, 16896, Precision::fp32, CacheState::warm, small, 4096);
    CHECK(warm.level == "L2");
    CHECK(warm.bandwidth_Bps == Approx(9.7e12));
    CHECK(machine_roof(h100, 16896, Precision::fp32, CacheState::warm, big, 4096).level == "HBM");
    // On a CPU each core in play brings its own L2: 4 cores of 1.25 MB hold 5 MB, 1 core 1.25 MB.
    const ComputeSpec& laptop = preset("laptop-cpu");
    CHECK(machine_roof(laptop, 4, Precision::fp32, CacheState::warm, 4e6, 4096).level == "L2");
    CHECK(machine_roof(laptop, 1, Precision::fp32, CacheState::warm, 4e6, 4096).level == "L3");
    CHECK(machine_roof(laptop, 4, Precision::fp32, CacheState::warm, 4e6, 4096).bandwidth_Bps == Approx(4 * 131e9));
    // An EPYC core caches only into its own CCD's 32 MB of L3: 8 cores hold 32 MB, 96 cores 384 MB.
    const ComputeSpec& epyc = preset("epyc-9654");
    CHECK(machine_roof(epyc, 8, Precision::fp32, CacheState::warm, 200e6, 4096).level == "DRAM");
    CHECK(machine_roof(epyc, 96, Precision::fp32, CacheState::warm, 200e6, 4096).level == "L3");
}

TEST_CASE("a tuned loop's critical path is ceil(n/k) adds into each partial sum plus log2 k to combine them") {
    CHECK(dependent_adds(4, 1) == 4);     // a plain loop: every add waits for the one before
    CHECK(dependent_adds(4096, 1) == 4096);
    CHECK(dependent_adds(4, 64) == 1 + 6);
    CHECK(dependent_adds(4096, 64) == 64 + 6);
    // Laptop: 16 FMA lanes x pipes (32 FLOP/cycle / 2) x 4 cycles of latency = 64 partial sums.
    CHECK(tuned_partial_sums(preset("laptop-cpu")) == 64);
    CHECK(tuned_partial_sums(preset("epyc-9654")) == 48);
    // GPUs carry no add latency here: their fixed cost is the kernel launch.
    CHECK(add_chain_seconds(preset("h100"), 100) == 0);
}

TEST_CASE("at width 1 the CPU is hundreds of times sooner than an H100: launches against a few add chains") {
    // 4-1-1-3 on an EPYC 9654 against an H100: three layers each way.
    const LayerRunSetup s = hardware({4, 1, 1, 3}, "epyc-9654", "h100");
    const LayerRunResult r = run_layers(s);
    const ComputeSpec& epyc = s.cpu;
    // The model's own terms: the GPU pays 3 launches; the CPU 3 chains of ceil(n/48) + 6 adds at 3 cycles / 2.4 GHz.
    const double launches = 3 * s.gpu.layer_overhead_s;
    double chains = 0;
    for (int n_in : {4, 1, 1}) chains += add_chain_seconds(epyc, dependent_adds(n_in, tuned_partial_sums(epyc)));
    CHECK(chains == Approx(3 * 7 * 3 / 2.4e9));
    CHECK(r.gpu_seconds() == Approx(launches).epsilon(0.01));
    CHECK(r.cpu_seconds() == Approx(chains).epsilon(0.05));
    const double cpu_ahead = 1.0 / r.speedup;
    CHECK(cpu_ahead == Approx(launches / chains).epsilon(0.05));
    CHECK(cpu_ahead > 30);    // not the 0.68 ns "two clock cycles" of a CPU with no per-layer cost
    CHECK(cpu_ahead < 3000);  // nor ~100,000x
    for (const LayerPoint& l : r.layers) {
        CHECK(l.cpu.bound == Bound::launch);
        CHECK(l.gpu.bound == Bound::launch);
    }
}

TEST_CASE("a plain one-accumulator loop waits n_in add latencies per dot product, for every input") {
    LayerRunSetup s = hardware({1024, 1024}, "desktop-cpu", "h100", 8);
    s.cpu_cores = 1;
    s.cpu_loop = CpuLoop::plain;
    const LayerPoint l = layer_points(s).front();
    CHECK(l.cpu.bound == Bound::latency);
    CHECK(l.cpu.fixed == 0);
    // 1,024 neurons x 8 inputs x 1,024 dependent adds x 4 cycles at 3.4 GHz
    CHECK(total_seconds(l.cpu) == Approx(1024.0 * 8 * 1024 * 4 / 3.4e9).epsilon(1e-6));
}

TEST_CASE("lesson mode refuses a batch, a precision or a cache state: they are hardware mode's") {
    LayerRunSetup s;
    CHECK(validate(s).empty());
    s.batch = 2;
    CHECK_THAT(validate(s), Catch::Contains("hardware mode"));
    CHECK_THROWS_AS(run_layers(s), std::invalid_argument);
    s.batch = 1;
    s.precision = Precision::bf16;
    CHECK_FALSE(validate(s).empty());
    LayerRunSetup h = hardware({4, 6, 6, 3}, "laptop-cpu", "h100", max_batch + 1);
    CHECK_THAT(validate(h), Catch::Contains("4,096"));
    h.batch = 0;
    CHECK_FALSE(validate(h).empty());
}

TEST_CASE("the speedup against the batch is told from its own sweep: where the GPU pulls ahead, or that it leads throughout") {
    const auto point = [](int batch, double speedup) { return SpeedupPoint{batch, speedup, 1, speedup}; };
    CHECK(batch_sweep_text({point(1, 0.5), point(16, 0.9), point(256, 3), point(4096, 40)}) ==
          "With these two machines the GPU pulls ahead from batch 256 on, once each weight it reads serves that many "
          "inputs (" + format_ratio(0.5) + " at batch 1, " + format_ratio(40) + " at 4,096).");
    CHECK_THAT(batch_sweep_text({point(1, 2), point(4096, 300)}), Catch::StartsWith("With these two machines the GPU is ahead at every batch ("));
    CHECK_THAT(batch_sweep_text({point(1, 0.01), point(4096, 0.2)}), Catch::StartsWith("With these two machines the GPU is not ahead at any batch up to 4,096"));
    // The real sweep, the text it gives never speaks of widths.
    const LayerRunSetup s = hardware({64, 512, 512, 10}, "laptop-cpu", "h100");
    const std::string text = batch_sweep_text(batch_sweep(s, {1, 16, 256, 4096}));
    CHECK_THAT(text, Catch::Contains("batch") && !Catch::Contains("wide"));
}

TEST_CASE("the width sentence says when the GPU leads at every width, and that a mixed network is not on its curve") {
    LayerRunSetup big = hardware({4096, 4096, 4096, 4096}, "desktop-cpu", "b200", 4096, Precision::fp8);
    big.cpu_cores = 1;
    const LayerRunStory st = tell(big, run_layers(big));
    REQUIRE(gpu_crossover_width(big) == 1);
    CHECK_THAT(st.crossover, Catch::EndsWith("the GPU is ahead at every width, from 1 neuron up."));
    CHECK_THAT(st.crossover, !Catch::Contains("1 neuron wide"));
    const LayerRunSetup mixed = hardware({4, 64, 512, 4096, 10}, "epyc-9654", "a100", 64, Precision::fp8);
    CHECK_THAT(tell(mixed, run_layers(mixed)).crossover, Catch::StartsWith("For hidden layers all of one width (yours differ)"));
}
