// Lesson 1's panel run headless: what it reports, how its playback moves, and that it fits.
#include <catch2/catch.hpp>

#include "headless.hpp"
#include "lessons/layers/layer_run_panel.hpp"

using namespace m2m;

TEST_CASE("the Lesson 1 panel opens on the lesson's network and figures") {
    test::Headless ui;
    lessons::LayerRunPanel panel(ui.context());
    ui.frame([&] { panel.draw(0.016f); });
    CHECK(panel.result().neurons == 15);
    CHECK(panel.result().parameters == 93);
    CHECK(panel.result().speedup == Approx(5.0));
    CHECK(panel.story().speedup == "5\xc3\x97");
    CHECK_THAT(panel.status(), Catch::Contains("widths=4,6,6,3") && Catch::Contains("playing=0"));
}

TEST_CASE("Run plays both machines on one clock until the slower one is done") {
    test::Headless ui;
    lessons::LayerRunPanel panel(ui.context());
    panel.playback().play();
    // 1 s of frames: the GPU (3 ticks) takes 3 s at 1x, so the cursor is at 1 tick.
    for (int i = 0; i < 60; ++i) ui.frame([&] { panel.draw(1.0f / 60.0f); }, 1.0f / 60.0f);
    CHECK(panel.playback().cursor() == Approx(1.0).epsilon(0.02));
    const auto cpu = panel.frame_of(panel.result().cpu, panel.playback().cursor(), false);
    const auto gpu = panel.frame_of(panel.result().gpu, panel.playback().cursor(), true);
    CHECK(gpu.done == 6);  // the whole first layer at once
    CHECK(cpu.done == 1);  // one neuron
    for (int i = 0; i < 60 * 20; ++i) ui.frame([&] { panel.draw(1.0f / 60.0f); }, 1.0f / 60.0f);
    CHECK_FALSE(panel.playback().playing());
    CHECK(panel.playback().cursor() == Approx(15.0));
}

TEST_CASE("a layer lights all at once on the GPU and one neuron at a time on the CPU") {
    lessons::Context ctx;
    lessons::LayerRunPanel panel(ctx);
    const auto gpu = panel.frame_of(panel.result().gpu, 0.5, true);
    CHECK(gpu.network.active[1] == 6);
    CHECK(gpu.network.active[2] == 0);
    const auto cpu = panel.frame_of(panel.result().cpu, 0.5, false);
    CHECK(cpu.network.active[1] == 1);
    CHECK(cpu.cell_busy.size() == 1);
    CHECK(cpu.cell_busy[0] == Approx(1.0f));
}

TEST_CASE("Step, Reset and speed work during a run") {
    lessons::Context ctx;
    lessons::LayerRunPanel panel(ctx);
    auto& pb = panel.playback();
    pb.play();
    pb.advance(0.5);
    pb.step();
    CHECK_FALSE(pb.playing());
    CHECK(pb.cursor() == Approx(1.0));
    pb.step();
    CHECK(pb.cursor() == Approx(2.0));
    pb.faster();
    CHECK(pb.speed() == Approx(2.0));
    for (int i = 0; i < 20; ++i) pb.faster();
    CHECK(pb.speed() == Approx(ui::Playback::max_speed));
    pb.reset();
    CHECK(pb.cursor() == 0);
}

TEST_CASE("widening the layers updates the figures live, and the gap grows") {
    test::Headless ui;
    lessons::LayerRunPanel panel(ui.context());
    core::LayerRunSetup s = panel.setup();
    s.network.widths = {4, 512, 512, 3};
    s.gpu_cores = 512;
    panel.apply(s);
    ui.frame([&] { panel.draw(0.016f); });
    CHECK(panel.result().neurons == 1027);
    CHECK(panel.result().speedup > 100);
}

TEST_CASE("the widest network draws in summary and nothing leaves the window") {
    test::Headless ui;
    lessons::LayerRunPanel panel(ui.context());
    core::LayerRunSetup s = panel.setup();
    s.network.widths.assign(core::max_hidden_layers + 2, core::max_layer_width);
    s.mode = core::TimingMode::hardware;
    s.cpu_cores = s.cpu.cores;
    s.gpu_cores = s.gpu.cores;
    panel.apply(s);
    panel.playback().play();
    for (int i = 0; i < 30; ++i) ui.frame([&] { panel.draw(0.05f); });
    INFO("worst vertex at " << ui.worst_position().x << ", " << ui.worst_position().y);
    CHECK(ui.worst_overflow() <= 2.0f);  // anti-aliased edges feather by up to a pixel
    const ImDrawData* dd = ImGui::GetDrawData();
    int vertices = 0;
    for (int i = 0; i < dd->CmdListsCount; ++i) vertices += dd->CmdLists[i]->VtxBuffer.Size;
    // Level of detail: 18 layers of 4,096 neurons draw as strips, not 73,728 circles.
    CHECK(vertices < 60000);
}

TEST_CASE("a bad setup is refused and the panel keeps its state") {
    lessons::Context ctx;
    lessons::LayerRunPanel panel(ctx);
    core::LayerRunSetup bad = panel.setup();
    bad.network.widths = {4, 0, 3};
    CHECK_THROWS_AS(panel.apply(bad), std::invalid_argument);
    CHECK(panel.result().neurons == 15);
}
