// The OpenGL compute path in a hidden window (run under Xvfb, where Mesa's llvmpipe offers
// OpenGL 4.5 with compute shaders), and what the GPU row says on an OpenGL 3.3 context.
#include <catch2/catch.hpp>

#include "measure/gl_context.hpp"
#include "measure/gl_path.hpp"
#include "measure/measurement.hpp"

using namespace m2m::measure;

namespace {

Report measure_with_gl(std::vector<int> widths, int batch) {
    HiddenGlContext context;
    INFO(context.error());
    REQUIRE(context.ok());
    MeasureConfig c;
    c.widths = std::move(widths);
    c.batch = batch;
    c.repeats = 2;
    Measurement m(c, make_gl_run(), "");
    const std::atomic<bool> never{false};
    REQUIRE(m.run_cpu(never));
    int slices = 0;
    while (!m.step_gpu(0.005)) ++slices;
    CHECK(slices > 1);  // the work came in slices, as a window's frames would take it
    return m.report(false);
}

}  // namespace

TEST_CASE("the compute shader runs every layer and agrees with the CPU", "[gl]") {
    // Widths that are not multiples of the 64-wide work group, and more than one input.
    const Report r = measure_with_gl({100, 130, 70, 9}, 5);
    INFO(r.gpu.renderer << " / " << r.gpu_path.why_not);
    REQUIRE(r.gpu.available);
    REQUIRE(r.gpu_path.ran);
    CHECK(r.gpu_path.agrees);
    CHECK(r.gpu_path.max_abs_err <= r.tolerance);
    CHECK(r.gpu_path.seconds > 0);
    CHECK(r.gpu_path.flops == r.flops_per_pass);
    CHECK(r.gpu_path.timing.repeats == 2);
    CHECK_FALSE(r.gpu.renderer.empty());
    if (r.gpu.software) {
        CHECK(r.gpu_path.label == "software GL (no GPU found)");
        CHECK_THAT(r.honesty, Catch::Contains("same") && Catch::Contains("CPU cores") && Catch::Contains("not a GPU result"));
        CHECK(r.gpu_path.predicted_seconds > 0);
    }
    CHECK(r.naive.shown());
    CHECK(r.blas.shown());
}

TEST_CASE("a network of one layer and a single input also agrees", "[gl]") {
    const Report r = measure_with_gl({3, 2}, 1);
    REQUIRE(r.gpu_path.ran);
    CHECK(r.gpu_path.agrees);
}

TEST_CASE("on an OpenGL 3.3 context the GPU row says compute shaders are unavailable", "[.][gl33]") {
    // Run with MESA_GL_VERSION_OVERRIDE=3.3: the 4.3 context is refused and 3.3 is what opens.
    HiddenGlContext context;
    REQUIRE(context.ok());
    auto gpu = make_gl_run();
    CHECK_FALSE(gpu->info().available);
    CHECK_THAT(gpu->info().why_not, Catch::Contains("compute shaders need OpenGL 4.3") && Catch::Contains("3.3"));
    MeasureConfig c;
    c.widths = {16, 16, 4};
    c.batch = 2;
    c.repeats = 1;
    Measurement m(c, std::move(gpu), "");
    const std::atomic<bool> never{false};
    REQUIRE(m.run_cpu(never));
    CHECK(m.step_gpu(0.01));
    const Report r = m.report(false);
    CHECK_FALSE(r.gpu_path.ran);
    CHECK_THAT(r.gpu_path.why_not, Catch::Contains("OpenGL 4.3"));
    CHECK_THAT(r.honesty, Catch::Contains("OpenGL 4.3"));
    CHECK(r.naive.shown());  // the other two rows still run
    CHECK(r.blas.shown());
}
