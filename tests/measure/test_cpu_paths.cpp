// The CPU paths: the network's numbers, the plain loop and OpenBLAS against the double reference,
// the FLOP counts, the timing rules and the memory plan.
#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <thread>

#include "measure/cpu_paths.hpp"

using namespace m2m::measure;

namespace {

MeasureConfig config(std::vector<int> widths, int batch) {
    MeasureConfig c;
    c.widths = std::move(widths);
    c.batch = batch;
    return c;
}

}  // namespace

TEST_CASE("the plain loop and OpenBLAS both count 2 x weights x batch FLOPs") {
    const Problem p = make_problem(config({5, 7, 3, 2}, 3));
    CHECK(weight_count(p.widths) == 5 * 7 + 7 * 3 + 3 * 2);
    CHECK(flops_per_pass(p.widths, 3) == 2 * 62 * 3);
    std::vector<float> out, scratch;
    std::int64_t naive = 0, blas = 0;
    REQUIRE(forward_naive(p, out, naive, nullptr));
    REQUIRE(forward_blas(p, out, scratch, blas, nullptr));
    CHECK(naive == 2 * 62 * 3);
    CHECK(blas == 2 * 62 * 3);
}

TEST_CASE("the plain loop, OpenBLAS and the double reference agree on a fixed network") {
    // Tolerance: 1e-4 of the outputs' size (float sums in a different order; see cpu_paths.hpp).
    const Problem p = make_problem(config({300, 512, 512, 10}, 8));
    std::vector<double> ref;
    REQUIRE(forward_reference(p, ref, nullptr));
    std::vector<float> naive, blas, scratch;
    std::int64_t f = 0;
    REQUIRE(forward_naive(p, naive, f, nullptr));
    REQUIRE(forward_blas(p, blas, scratch, f, nullptr));
    const double tol = tolerance(ref);
    CHECK(tol >= 1e-4);
    CHECK(max_abs_error(naive, ref) <= tol);
    CHECK(max_abs_error(blas, ref) <= tol);
    CHECK(max_abs_error(naive, ref) > 0);  // float and double do differ, so the check is real
    std::vector<float> wrong = blas;
    wrong[17] += static_cast<float>(10 * tol);
    CHECK(max_abs_error(wrong, ref) > tol);
    wrong[3] = NAN;
    CHECK_FALSE(max_abs_error(wrong, ref) <= tol);
}

TEST_CASE("one neuron by hand: the output layer is w . x + b, a hidden layer is sigma of it") {
    const Problem p = make_problem(config({3, 2, 1}, 1));
    std::vector<float> out;
    std::int64_t f = 0;
    REQUIRE(forward_naive(p, out, f, nullptr));
    double h[2];
    for (int j = 0; j < 2; ++j) {
        double z = p.biases[0][static_cast<std::size_t>(j)];
        for (int i = 0; i < 3; ++i) z += double(p.weights[0][static_cast<std::size_t>(j * 3 + i)]) * p.inputs[static_cast<std::size_t>(i)];
        h[j] = 1 / (1 + std::exp(-z));
    }
    const double y = p.biases[1][0] + p.weights[1][0] * h[0] + p.weights[1][1] * h[1];
    CHECK(out[0] == Approx(y).epsilon(1e-6));
}

TEST_CASE("the same seed gives the same network, with weights inside +-1/sqrt(fan-in)") {
    const Problem a = make_problem(config({64, 32, 4}, 2)), b = make_problem(config({64, 32, 4}, 2));
    CHECK(a.weights == b.weights);
    CHECK(a.inputs == b.inputs);
    for (float w : a.weights[0]) CHECK(std::fabs(w) <= 1.0f / 8.0f);
    for (float x : a.inputs) CHECK((x >= 0 && x < 1));
}

TEST_CASE("a cancelled pass stops and says so") {
    const Problem p = make_problem(config({64, 64, 4}, 4));
    std::atomic<bool> cancel{true};
    std::vector<float> out, scratch;
    std::vector<double> ref;
    std::int64_t f = 0;
    CHECK_FALSE(forward_naive(p, out, f, &cancel));
    CHECK_FALSE(forward_blas(p, out, scratch, f, &cancel));
    CHECK_FALSE(forward_reference(p, ref, &cancel));
}

TEST_CASE("timing: a warm-up, enough passes for 0.1 s a repeat, and the median of the repeats") {
    CHECK(passes_for(0.01) == 10);
    CHECK(passes_for(0.3) == 1);
    CHECK(repeats_for(0.5, 5) == 5);
    CHECK(repeats_for(3.0, 5) == 3);
    CHECK(median({3, 1, 2}) == 2);
    CHECK(median({4, 1, 2, 3}) == 2.5);
    int passes = 0;
    Timing t;
    const bool ok = time_passes(
        [&](double, double) {
            ++passes;
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            return true;
        },
        [] { return 0.02; }, 3, t);
    REQUIRE(ok);
    CHECK(t.repeats == 3);
    CHECK(t.passes_per_repeat == 5);
    CHECK(passes == 15);
    CHECK(t.repeat_seconds.size() == 3);
    CHECK(t.seconds >= 0.019);
}

TEST_CASE("the memory plan is said before running, and a network over the cap is refused politely") {
    const MeasureConfig c = config({4096, 4096, 4096, 4096}, 32);
    const MemoryPlan m = plan_memory(c, true, true);
    const std::int64_t params = 3 * (4096LL * 4096 + 4096);
    CHECK(m.host_bytes >= params * 4);
    CHECK(m.gpu_bytes >= params * 4);
    CHECK(m.gpu_in_host_memory);
    CHECK_THAT(m.sentence, Catch::Contains("needs") && Catch::Contains("GB"));
    const MemoryPlan small = plan_memory(c, false, false, 100'000'000);
    CHECK_FALSE(small.fits);
    CHECK_THAT(small.sentence, Catch::StartsWith("Not measured") && Catch::Contains("smaller batch"));
    CHECK(small.gpu_bytes == 0);
}

TEST_CASE("bad configurations are refused with one sentence") {
    CHECK(validate(config({4, 4}, 1)).empty());
    CHECK_FALSE(validate(config({4}, 1)).empty());
    CHECK_FALSE(validate(config({4, 0, 3}, 1)).empty());
    CHECK_THAT(validate(config({4, 4}, 0)), Catch::Contains("batch"));
    CHECK_THAT(validate(config({4, 4}, max_batch + 1)), Catch::Contains("batch"));
}

TEST_CASE("OpenBLAS's own thread rule: one thread up to 262,144 multiply-adds a call, then one per that many") {
    const int offered = blas_threads();
    // The largest layer decides: 256 x 256 at batch 1 is 65,536 multiply-adds, one thread.
    CHECK(blas_threads_for({256, 256, 256, 256}, 1) == 1);
    CHECK(blas_threads_for({4, 6, 6, 3}, 4096) == 1);
    CHECK(blas_threads_for({64, 64, 64, 64}, 64) == 1);  // exactly 262,144
    // 1,024 x 1,024 at batch 1: four times the threshold, so four threads or all there are.
    CHECK(blas_threads_for({1024, 1024}, 1) == std::min(4, offered));
    CHECK(blas_threads_for({64, 1024, 1024, 10}, 1) == std::min(4, offered));
    CHECK(blas_threads_for({4096, 4096}, 256) == offered);
}
