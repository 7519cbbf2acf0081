// Lesson 1's model: the lesson's own figures, the rules of a layered run, and hardware mode's crossover.
#include <catch2/catch.hpp>

#include "m2m/core/engine/text.hpp"
#include "m2m/core/layers/layer_run.hpp"
#include "m2m/presets/presets.hpp"

using namespace m2m::core;

namespace {

LayerRunSetup hardware_setup(std::vector<int> widths, const char* cpu = "laptop-cpu", const char* gpu = "h100") {
    LayerRunSetup s;
    s.network.widths = std::move(widths);
    s.mode = TimingMode::hardware;
    s.cpu = m2m::presets::builtin().find(cpu)->spec;
    s.gpu = m2m::presets::builtin().find(gpu)->spec;
    s.cpu_cores = s.cpu.cores;
    s.gpu_cores = s.gpu.cores;
    return s;
}

}  // namespace

TEST_CASE("the lesson's default network 4-6-6-3 has 15 neurons and 93 parameters") {
    const Network net{{4, 6, 6, 3}};
    CHECK(neuron_count(net) == 15);
    CHECK(parameter_count(net) == 4 * 6 + 6 + 6 * 6 + 6 + 6 * 3 + 3);
    CHECK(parameter_count(net) == 93);
}

TEST_CASE("in lesson mode one CPU core takes 15 ticks and six GPU cores take 3: the GPU is 5x sooner") {
    const LayerRunResult r = run_layers(LayerRunSetup{});
    CHECK(r.unit == TimeUnit::ticks);
    CHECK(r.cpu.finish == 15);
    CHECK(r.gpu.finish == 3);
    CHECK(r.speedup == Approx(5.0));
}

TEST_CASE("a layer waits for every neuron of the layer before it") {
    LayerRunSetup s;
    s.network.widths = {3, 5, 4, 2};
    s.cpu_cores = 2;
    s.gpu_cores = 3;
    const LayerRunResult r = run_layers(s);
    for (const MachineRun* m : {&r.cpu, &r.gpu}) {
        for (std::size_t l = 1; l < m->layer_first_task.size(); ++l) {
            SimTime previous_end = 0;
            for (int i = 0; i < s.network.widths[l]; ++i)
                previous_end = std::max(previous_end, m->timeline.runs[m->layer_first_task[l - 1] + i].end);
            for (int i = 0; i < s.network.widths[l + 1]; ++i)
                CHECK(m->timeline.runs[m->layer_first_task[l] + i].start >= previous_end);
        }
    }
    // 5 neurons on 3 GPU cores take two rounds, then 4 take two, then 2 take one.
    CHECK(r.gpu.finish == 5);
    CHECK(r.cpu.finish == 3 + 2 + 1);
}

TEST_CASE("the closed-form makespan equals the scheduler's, in both modes") {
    for (TimingMode mode : {TimingMode::lesson, TimingMode::hardware}) {
        LayerRunSetup s = hardware_setup({7, 33, 130, 9, 5});
        s.mode = mode;
        s.cpu_cores = 3;
        s.gpu_cores = 40;
        const LayerRunResult r = run_layers(s);
        CHECK(r.cpu.finish == predicted_makespan(s, s.cpu, s.cpu_cores));
        CHECK(r.gpu.finish == predicted_makespan(s, s.gpu, s.gpu_cores));
    }
}

TEST_CASE("a summary gives the scheduled run's finishes, story and layers without scheduling") {
    for (TimingMode mode : {TimingMode::lesson, TimingMode::hardware}) {
        LayerRunSetup s = hardware_setup({64, 300, 300, 10});
        s.mode = mode;
        if (mode == TimingMode::lesson) s.cpu_cores = 3, s.gpu_cores = 64;
        else s.batch = 32;
        const LayerRunResult run = run_layers(s), sum = summarize_layers(s);
        CHECK(sum.cpu.finish == run.cpu.finish);
        CHECK(sum.gpu.finish == run.gpu.finish);
        CHECK(sum.speedup == run.speedup);
        CHECK(sum.layers.size() == run.layers.size());
        CHECK(sum.cpu.timeline.runs.empty());
        CHECK(tell(s, sum).verdict == tell(s, run).verdict);
    }
}

TEST_CASE("the speedup grows with width at fixed cores until the GPU's cores are saturated") {
    LayerRunSetup s;
    s.network.widths = {4, 6, 6, 3};
    s.cpu_cores = 1;
    s.gpu_cores = 64;
    const auto points = speedup_sweep(s, {4, 8, 16, 32, 64, 128, 256, 512});
    for (std::size_t i = 1; i < points.size(); ++i) {
        const double growth = points[i].speedup / points[i - 1].speedup;
        if (points[i].width <= 64)
            CHECK(growth > 1.5);  // doubling the width nearly doubles the gap: one round either way on the GPU
        else
            CHECK(growth < 1.25);  // past 64 neurons the GPU needs more rounds too: the gap levels off
        CHECK(points[i].speedup < 64.0);  // never more than the core ratio
    }
}

TEST_CASE("hardware mode: the tiny default network is no faster on the GPU") {
    const LayerRunSetup s = hardware_setup({4, 6, 6, 3});
    const LayerRunResult r = run_layers(s);
    CHECK(r.unit == TimeUnit::picoseconds);
    CHECK(r.gpu.finish >= r.cpu.finish);
    // three layers each pay the launch overhead
    CHECK(r.gpu_seconds() >= 3 * s.gpu.layer_overhead_s);
    // The verdict says by how much: the GPU takes hundreds of times as long, not just "no faster".
    const std::string verdict = tell(s, r).verdict;
    CHECK_THAT(verdict, Catch::StartsWith("Here the CPU finishes sooner: the GPU takes " +
                                          format_ratio(static_cast<double>(r.gpu.finish) / static_cast<double>(r.cpu.finish)) +
                                          " as long"));
}

TEST_CASE("hardware mode: widen the layers and the GPU pulls far ahead") {
    const LayerRunSetup s = hardware_setup({1024, 4096, 4096, 4096, 4096, 1024});
    const LayerRunResult r = run_layers(s);
    CHECK(r.speedup > 20.0);
}

TEST_CASE("hardware mode reports a crossover width, where the GPU first finishes sooner") {
    const LayerRunSetup s = hardware_setup({4, 6, 6, 3});
    const auto cross = gpu_crossover_width(s);
    REQUIRE(cross.has_value());
    const auto at = speedup_sweep(s, {*cross - 1, *cross});
    CHECK(at[0].speedup <= 1.0);
    CHECK(at[1].speedup > 1.0);
}

TEST_CASE("a neuron's task is limited by memory when the busy cores share the bandwidth") {
    ComputeSpec spec;
    spec.cores = 4;
    spec.flops_per_core = 100e9;
    spec.memory_bandwidth_Bps = 40e9;
    const Roof roof = machine_roof(spec, 4, Precision::fp32, CacheState::cold, 0, 8);
    // 1000 inputs, 8 neurons on 4 cores, batch 1: compute 2000 / 100e9 = 20 ns; memory: the layer's
    // (1000 x 8 + 1000 + 8) x 4 bytes / 8 neurons = 4,504 bytes, 4 tasks sharing 40 GB/s: 450.4 ns.
    const LayerTiming t = layer_timing(spec, 4, roof, 1000, 8, 1, Precision::fp32);
    CHECK(t.rounds == 2);
    CHECK(t.task == 450'400);
    CHECK(t.bound == Bound::memory);
    CHECK(t.fixed == 0);  // no launch and no add latency given
    // one core alone: 8 rounds of 112.6 ns, still above compute
    CHECK(layer_timing(spec, 1, roof, 1000, 8, 1, Precision::fp32).task == 112'600);
}

TEST_CASE("bad networks are refused with a reason") {
    CHECK_FALSE(validate(Network{{4}}).empty());
    CHECK_FALSE(validate(Network{{4, 0, 3}}).empty());
    CHECK_FALSE(validate(Network{{4, max_layer_width + 1, 3}}).empty());
    CHECK_FALSE(validate(Network{std::vector<int>(max_hidden_layers + 3, 4)}).empty());
    CHECK(validate(Network{std::vector<int>(max_hidden_layers + 2, max_layer_width)}).empty());
    LayerRunSetup s;
    s.cpu_cores = 0;
    CHECK_THROWS_AS(run_layers(s), std::invalid_argument);
}

TEST_CASE("the headers count the cores and never call six cores thousands") {
    LayerRunSetup s;  // lesson mode: 1 CPU core, 6 GPU cores, 4-6-6-3
    LayerRunStory st = tell(s, run_layers(s));
    CHECK(st.cpu.header == "CPU \u00b7 1 core");
    CHECK(st.cpu.subtitle == "one neuron at a time");
    CHECK(st.gpu.header == "GPU \u00b7 6 cores");
    CHECK(st.gpu.subtitle == "a whole layer at once");
    s.gpu_cores = 1;
    s.cpu_cores = 18944;
    st = tell(s, run_layers(s));
    CHECK(st.gpu.header == "GPU \u00b7 1 core");
    CHECK(st.cpu.header == "CPU \u00b7 18,944 cores");
    CHECK_THAT(st.verdict, Catch::Contains("the GPU's 1 core takes them one at a time"));
    CHECK_THAT(st.verdict, !Catch::Contains("1 neurons"));
    for (const std::string* t : {&st.cpu.header, &st.gpu.header, &st.verdict}) {
        CHECK_THAT(*t, !Catch::Contains("thousands"));
        CHECK_THAT(*t, !Catch::Contains("a few big"));
    }
    s.gpu_cores = 4;  // narrower than the 6-wide layers
    CHECK(tell(s, run_layers(s)).gpu.subtitle == "up to 4 neurons at once");
}

TEST_CASE("the verdict names launches, not memory, when the GPU spends its time launching") {
    const LayerRunSetup s = hardware_setup({4, 512, 512, 3});
    const LayerRunResult r = run_layers(s);
    const LayerRunStory st = tell(s, r);
    CHECK(dominant_bound(r.layers, true) == Bound::launch);
    CHECK_THAT(st.verdict, Catch::Contains("3 kernel launches"));
    CHECK_THAT(st.verdict, !Catch::Contains("sets both speeds"));
    CHECK(st.gpu.bound == "launch-bound");
    CHECK(st.cpu.bound == "memory-bound");
}

TEST_CASE("the verdict follows the batch: each weight read once for 256 inputs makes both machines compute") {
    LayerRunSetup s = hardware_setup({4096, 4096, 4096});
    s.batch = 256;
    s.precision = Precision::bf16;
    const LayerRunStory st = tell(s, run_layers(s));
    CHECK_THAT(st.verdict, Catch::Contains("read once for 256 inputs"));
    CHECK_THAT(st.verdict, Catch::Contains("past both ridge points"));
    CHECK_THAT(st.verdict, Catch::Contains("The GPU is limited by its arithmetic"));
    CHECK(st.gpu.bound == "compute-bound");
    s.batch = 1;
    const LayerRunStory one = tell(s, run_layers(s));
    CHECK_THAT(one.verdict, Catch::Contains("read once for 1 input,"));
    CHECK_THAT(one.verdict, Catch::Contains("below both ridge points"));
    CHECK(one.gpu.bound == "memory-bound");
}

TEST_CASE("the speedup grows with the batch until both machines are compute-bound") {
    LayerRunSetup s = hardware_setup({4096, 4096, 4096});
    s.precision = Precision::bf16;
    const auto points = batch_sweep(s, {1, 16, 256, 4096});
    REQUIRE(points.size() == 4);
    CHECK(points[1].speedup > points[0].speedup);
    CHECK(points[2].speedup > points[1].speedup);
    // Past both ridges the gap is the ratio of the two compute roofs.
    const double roofs = gpu_roof(s).compute_flops / cpu_roof(s).compute_flops;
    CHECK(points[3].speedup == Approx(roofs).epsilon(0.02));
}
