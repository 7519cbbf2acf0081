// The Measure section without a window: the worker keeps frames coming, Cancel stops it, a
// sweep plots one measured point per width, and the scene fits the screen.
#include <catch2/catch.hpp>

#include <chrono>
#include <thread>

#include "../ui/headless.hpp"
#include "lessons/layers/measure_view.hpp"

using namespace m2m;

namespace {

/// Frames until the view is idle; returns how many it took (fails after ~60 s).
int frames_until_idle(test::Headless& ui, lessons::MeasureView& v) {
    int frames = 0;
    const auto t0 = std::chrono::steady_clock::now();
    while (v.busy() && std::chrono::steady_clock::now() - t0 < std::chrono::seconds(60)) {
        ui.frame([&] {
            v.tick();
            v.draw_scene(ui.context());
        });
        ++frames;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    REQUIRE_FALSE(v.busy());
    return frames;
}

}  // namespace

TEST_CASE("Measure runs on a worker while frames keep coming, then shows both CPU rows") {
    test::Headless ui;
    lessons::MeasureView v;
    v.set_batch(4);
    v.start({16, 32, 32, 4});
    CHECK(v.busy());
    CHECK(v.showing());
    CHECK_THAT(v.status(), Catch::Contains("measure="));
    CHECK(frames_until_idle(ui, v) > 3);  // the window drew while the paths were timed
    REQUIRE(v.last());
    CHECK(v.last()->naive.shown());
    CHECK(v.last()->blas.shown());
    CHECK_FALSE(v.last()->gpu_path.ran);  // no OpenGL path without a window
    CHECK_THAT(v.status(), Catch::Contains("measure=done") && Catch::Contains("points=1"));
    ui.frame([&] { v.draw_scene(ui.context()); });
    CHECK(ui.worst_overflow() <= 2.0f);  // anti-aliased edges feather by up to a pixel
}

TEST_CASE("Cancel stops a long measurement and keeps the window free") {
    test::Headless ui;
    lessons::MeasureView v;
    v.set_batch(256);
    v.start({4096, 4096, 4096, 4096});
    for (int i = 0; i < 3; ++i) ui.frame([&] { v.tick(); });
    v.cancel();
    frames_until_idle(ui, v);
    CHECK_THAT(v.status(), Catch::Contains("measure=cancelled"));
    CHECK_FALSE(v.last());
}

TEST_CASE("sweeping the width measures every doubling up to the widest layer and plots each") {
    test::Headless ui(1280, 720);
    lessons::MeasureView v;
    v.set_batch(2);
    v.start_sweep({8, 64, 64, 4});
    frames_until_idle(ui, v);
    REQUIRE(v.sweep().size() == 3);
    CHECK(v.sweep()[0].width == 16);
    CHECK(v.sweep()[2].width == 64);
    for (const auto& p : v.sweep()) {
        CHECK(p.naive_s > 0);
        CHECK(p.blas_s > 0);
        CHECK(p.blas_model_s > 0);
    }
    ui.frame([&] { v.draw_scene(ui.context()); });
    CHECK(ui.worst_overflow() <= 2.0f);  // anti-aliased edges feather by up to a pixel
}

TEST_CASE("a network too big for the memory cap is refused before anything runs") {
    // Nothing in range exceeds the cap on a machine with 4 GB or more, so check the words only.
    measure::MeasureConfig c;
    c.widths = {4096, 4096, 4096};
    const auto plan = measure::plan_memory(c, true, true, 1000);
    CHECK_FALSE(plan.fits);
    CHECK_THAT(plan.sentence, Catch::Contains("Not measured"));
}

