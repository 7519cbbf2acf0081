// A whole measurement without a window: both CPU rows checked and timed, the model's
// predictions, and a GPU row that is skipped, right or wrong.
#include <catch2/catch.hpp>

#include "measure/measurement.hpp"

using namespace m2m;
using namespace m2m::measure;

namespace {

MeasureConfig small_config() {
    MeasureConfig c;
    c.widths = {32, 64, 64, 8};
    c.batch = 4;
    c.repeats = 2;
    return c;
}

/// A GPU that answers at once with the CPU's outputs, optionally spoiled.
class FakeGpu final : public GpuRun {
public:
    explicit FakeGpu(float error, std::string renderer = "Fake GPU") : m_error(error) {
        m_info.available = true;
        m_info.renderer = std::move(renderer);
        m_info.vendor = "tests";
        m_info.version = "4.6";
    }
    const GpuInfo& info() const override { return m_info; }
    void start(const Problem& p, int) override {
        forward_naive(p, m_out.output, m_out.flops, nullptr);
        m_out.output[0] += m_error;
        m_out.ok = true;
        m_out.timing.seconds = 1e-3;
        m_out.timing.repeats = 1;
        m_out.timing.passes_per_repeat = 1;
    }
    bool step(double) override { return true; }
    double progress() const override { return 1; }
    const GpuOutcome& outcome() const override { return m_out; }

private:
    float m_error;
    GpuInfo m_info;
    GpuOutcome m_out;
};

Report run(std::unique_ptr<GpuRun> gpu) {
    Measurement m(small_config(), std::move(gpu), "skipped (--no-gpu)");
    const std::atomic<bool> never{false};
    REQUIRE(m.run_cpu(never));
    while (!m.step_gpu(0.01)) {
    }
    return m.report(false);
}

}  // namespace

TEST_CASE("without a GPU both CPU rows agree, are timed, and each has the model's prediction") {
    const Report r = run(nullptr);
    const std::int64_t flops = 2 * (32 * 64 + 64 * 64 + 64 * 8) * 4;
    CHECK(r.flops_per_pass == flops);
    for (const PathResult* p : {&r.naive, &r.blas}) {
        CHECK(p->shown());
        CHECK(p->flops == flops);
        CHECK(p->seconds > 0);
        CHECK(p->gflops == Approx(flops / p->seconds / 1e9));
        CHECK(p->max_abs_err <= r.tolerance);
        CHECK(p->timing.repeats == 2);
        CHECK(p->predicted_seconds > 0);
    }
    CHECK_FALSE(r.gpu_path.ran);
    CHECK(r.gpu_path.why_not == "skipped (--no-gpu)");
    CHECK_THAT(r.honesty, Catch::Contains("--no-gpu"));
    CHECK_THAT(r.naive.note, Catch::Contains("% of one core's measured peak"));
    CHECK(r.machine.cpu.cores >= 1);
    CHECK(r.machine.cpu.flops_per_core > 1e8);
    CHECK(r.machine.cpu.memory_bandwidth_Bps > 1e8);
    CHECK_THAT(r.machine.cpu.source, Catch::Contains("Measured on this machine"));
}

TEST_CASE("a GPU row that agrees is shown, and one that is wrong gets no time") {
    const Report good = run(std::make_unique<FakeGpu>(0.0f));
    CHECK(good.gpu_path.shown());
    CHECK(good.gpu_path.seconds == 1e-3);
    CHECK(good.gpu_path.label == "GPU (OpenGL compute shader)");
    CHECK_THAT(good.honesty, Catch::Contains("Fake GPU"));
    CHECK(good.gpu_path.predicted_seconds == 0);  // no preset is called "Fake GPU"
    const Report bad = run(std::make_unique<FakeGpu>(0.5f));
    CHECK(bad.gpu_path.ran);
    CHECK_FALSE(bad.gpu_path.agrees);
    CHECK_FALSE(bad.gpu_path.shown());
    CHECK(bad.gpu_path.seconds == 0);
    CHECK(bad.gpu_path.max_abs_err == Approx(0.5).margin(1e-3));
    CHECK_THAT(bad.gpu_path.why_not, Catch::Contains("no time is shown"));
}

TEST_CASE("a real GPU is predicted with the preset its renderer names, and only then") {
    const Report h100 = run(std::make_unique<FakeGpu>(0.0f, "NVIDIA H100 80GB HBM3/PCIe/SSE2"));
    CHECK(h100.gpu_path.predicted_seconds > 0);
    CHECK_THAT(h100.gpu_path.prediction_basis, Catch::Contains("H100"));
    CHECK_THAT(h100.honesty, Catch::Contains("H100"));
    const Report a1000 = run(std::make_unique<FakeGpu>(0.0f, "NVIDIA RTX A1000/PCIe/SSE2"));
    CHECK(a1000.gpu_path.predicted_seconds == 0);  // "a100" is not the A1000
    CHECK_THAT(a1000.gpu_path.note, Catch::Contains("no prediction"));
}

TEST_CASE("the model's prediction is Lesson 1's roofline, once per input of the batch") {
    core::ComputeSpec spec;
    spec.flops_per_core = 1e9;
    spec.memory_bandwidth_Bps = 1e15;  // compute-bound
    // Layer 1: 20 neurons of 2 x 10 FLOPs; layer 2: 5 neurons of 2 x 20: 400 ns + 200 ns a pass on one core.
    CHECK(predicted_seconds({10, 20, 5}, 3, spec, 1) == Approx(3 * 600e-9));
    // Four cores: ceil(20 / 4) = 5 rounds of 20 ns, then 2 rounds of 40 ns.
    CHECK(predicted_seconds({10, 20, 5}, 1, spec, 4) == Approx(180e-9));
}

TEST_CASE("software renderers are recognised by name") {
    CHECK(is_software_renderer("llvmpipe (LLVM 15.0.6, 256 bits)"));
    CHECK(is_software_renderer("softpipe"));
    CHECK(is_software_renderer("Mesa X11 swrast"));
    CHECK_FALSE(is_software_renderer("NVIDIA H200/PCIe/SSE2"));
    CHECK_FALSE(is_software_renderer("AMD Radeon RX 7900 XTX (radeonsi, navi31, LLVM 15.0.7, DRM 3.54)"));
}

TEST_CASE("a measurement cancelled before it starts reports nothing measured") {
    Measurement m(small_config(), nullptr, "skipped");
    const std::atomic<bool> cancel{true};
    CHECK_FALSE(m.run_cpu(cancel));
    const Report r = m.report(true);
    CHECK(r.cancelled);
    CHECK_FALSE(r.naive.shown());
}
