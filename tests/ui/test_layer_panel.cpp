// Lesson 1's panel run headless: what it reports, how its playback moves, and that it fits.
#include <catch2/catch.hpp>

#include "headless.hpp"
#include "lessons/layers/layer_run_panel.hpp"
#include "lessons/layers/roofline_view.hpp"

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
    // Hardware timing on more cores than the chip has (it lifted a layer above the chip's roof), in a
    // set-up and in a scenario.
    core::LayerRunSetup many = panel.setup();
    many.mode = core::TimingMode::hardware;
    many.cpu_cores = many.cpu.cores + 1;
    many.gpu_cores = many.gpu.cores;
    CHECK_THROWS_WITH(panel.apply(many), Catch::Contains("has " + std::to_string(many.cpu.cores) + " cores"));
    CHECK_THROWS_WITH(panel.load_state(nlohmann::json{{"mode", "hardware"}, {"cpu_cores", 18944}}), Catch::Contains("cores"));
    CHECK(panel.setup().mode == core::TimingMode::lesson);
    // Fewer cores than the chip has: their share of its roof, not the whole chip's.
    many.cpu_cores = 1;
    panel.apply(many);
    CHECK(panel.result().cpu_roof.compute_flops ==
          Approx(core::machine_roof(many.cpu, many.cpu.cores, many.precision, many.cache, 0, 6).compute_flops / many.cpu.cores));
}

namespace {

// The panel in hardware mode on a server CPU and an H100, every core of each.
core::LayerRunSetup hardware_setup(const lessons::LayerRunPanel& panel, std::vector<int> widths, int batch) {
    core::LayerRunSetup s = panel.setup();
    s.mode = core::TimingMode::hardware;
    s.network.widths = std::move(widths);
    s.cpu_cores = s.cpu.cores;
    s.gpu_cores = s.gpu.cores;
    s.batch = batch;
    return s;
}

}  // namespace

TEST_CASE("the roofline plot puts each run of equal layers on both machines, labelled by its bound, and moves with the batch") {
    test::Headless ui;
    lessons::LayerRunPanel panel(ui.context());
    const ui::Theme& th = ui.context().view.theme;
    panel.apply(hardware_setup(panel, {64, 512, 512, 512, 10}, 1));
    ui.frame([&] { panel.draw(0.016f); });
    const auto small = lessons::roofline_picture(th, panel.result(), true);
    REQUIRE(small.roofs.size() == 2);
    REQUIRE(small.ridges.size() == 2);
    // Layers 64x512, 512x512 twice (one point), 512x10: three points per machine.
    REQUIRE(small.points.size() == 6);
    // At batch 1 every layer of a machine is held back by the same thing: one label each, naming them all.
    CHECK(small.points[0].label == "L1\xe2\x80\x93" "4 memory-bound");
    CHECK(small.points[3].label == "L1\xe2\x80\x93" "4 launch-bound");
    for (std::size_t i = 0; i < small.points.size(); ++i) {
        const bool gpu = i >= 3;
        const auto& layer = panel.result().layers[i % 3 == 2 ? 3 : i % 3];
        const auto& timing = gpu ? layer.gpu : layer.cpu;
        CHECK(small.points[i].x == Approx(layer.counts.intensity()));
        // A label for each run of layers held back by the same thing, on its first point; the
        // points after it in the run carry none.
        const std::string bound(core::bound_label(timing.bound, gpu));
        if (small.points[i].label.empty()) {
            REQUIRE(i % 3 > 0);
            const auto& before = panel.result().layers[i % 3 - 1];
            CHECK(core::bound_label((gpu ? before.gpu : before.cpu).bound, gpu) == bound);
        } else {
            CHECK_THAT(small.points[i].label, Catch::EndsWith(bound));
        }
        if (!gpu) CHECK_THAT(small.points[i].label, !Catch::Contains("launch"));  // a CPU loop launches no kernel
        // No point above its machine's roof: the roof is the most a layer can reach.
        const core::Roof& roof = gpu ? panel.result().gpu_roof : panel.result().cpu_roof;
        CHECK(small.points[i].y <= std::min(roof.compute_flops, roof.bandwidth_Bps * small.points[i].x) * 1.0001);
    }
    CHECK(small.ridges[0].x == Approx(panel.result().cpu_roof.ridge()));
    CHECK(small.ridges[1].x == Approx(panel.result().gpu_roof.ridge()));
    // At batch 1 every weight serves one input: below both ridges. At 4,096 the wide layers pass the CPU's.
    CHECK(small.points[1].x < small.ridges[0].x);
    panel.apply(hardware_setup(panel, {64, 512, 512, 512, 10}, 4096));
    ui.frame([&] { panel.draw(0.016f); });
    const auto big = lessons::roofline_picture(th, panel.result(), true);
    CHECK(big.points[1].x > small.points[1].x * 100);
    CHECK(big.points[1].x > big.ridges[0].x);
    CHECK(big.points[0].label == "L1\xe2\x80\x93" "3 compute-bound");  // the run holding point 1 (L2-3)
    CHECK(big.points[1].label.empty());
    CHECK(big.points[2].label == "L4 memory-bound");
    CHECK(ui.worst_overflow() <= 2.0f);
    // The tiny default network in hardware timing: every GPU layer waits on its launch, every CPU
    // layer on its chain of adds: one label each, naming the layers, not six stacked on a short plot.
    panel.apply(hardware_setup(panel, {4, 6, 6, 3}, 1));
    ui.frame([&] { panel.draw(0.016f); });
    std::vector<std::string> labels;
    for (const auto& p : lessons::roofline_picture(th, panel.result(), true).points)
        if (!p.label.empty()) labels.push_back(p.label);
    CHECK(labels == std::vector<std::string>{"L1\xe2\x80\x93" "3 add-chain-bound", "L1\xe2\x80\x93" "3 launch-bound"});
}

TEST_CASE("Lesson 1 hides the speedup until the guess is revealed") {
    test::Headless ui;
    lessons::LayerRunPanel panel(ui.context());
    panel.set_guess(3);
    ui.frame([&] { panel.draw(0.016f); });
    CHECK_FALSE(panel.revealed());
    CHECK_THAT(panel.status(), Catch::Contains("guess=3 revealed=0 shown_speedup=?"));
    panel.playback().play();
    for (int i = 0; i < 60; ++i) ui.frame([&] { panel.draw(1.0f / 60.0f); });
    CHECK_FALSE(panel.revealed());  // mid-run: the CPU is not done yet
    panel.playback().set_speed(ui::Playback::max_speed);
    for (int i = 0; i < 120 && !panel.revealed(); ++i) ui.frame([&] { panel.draw(1.0f / 60.0f); });
    CHECK(panel.revealed());
    CHECK_THAT(panel.status(), Catch::Contains("revealed=1 shown_speedup=5\xc3\x97"));
}

TEST_CASE("a change of any setting resets Lesson 1's run to a clean ready state, hides the answer and clears the old guess") {
    test::Headless ui;
    lessons::LayerRunPanel panel(ui.context());
    panel.playback().play();
    panel.playback().set_speed(ui::Playback::max_speed);
    for (int i = 0; i < 120 && !panel.revealed(); ++i) ui.frame([&] { panel.draw(1.0f / 60.0f); });
    REQUIRE(panel.revealed());
    for (auto widths : {std::vector<int>{4, 4096, 4096, 3}, std::vector<int>{4, 512, 512, 3}}) {
        panel.set_guess(3);  // a guess for the question before: not this one's
        panel.apply(hardware_setup(panel, widths, 16));
        CHECK_THAT(panel.status(), Catch::Contains("guess=0 "));
        CHECK(panel.playback().cursor() == 0);
        CHECK_FALSE(panel.playback().playing());
        CHECK_FALSE(panel.revealed());
        for (bool gpu : {false, true}) {
            const auto f = panel.frame_of(gpu ? panel.result().gpu : panel.result().cpu, panel.playback().cursor(), gpu);
            CHECK(f.done == 0);
            CHECK(f.active_layer == -1);
            for (float busy : f.cell_busy) CHECK(busy == 0.0f);
        }
        panel.playback().play();
        for (int i = 0; i < 5; ++i) ui.frame([&] { panel.draw(1.0f / 60.0f); });
    }
}

TEST_CASE("Lesson 1's headers count the cores each machine really has") {
    lessons::Context ctx;
    lessons::LayerRunPanel panel(ctx);
    CHECK(panel.story().cpu.header == "CPU \xc2\xb7 1 core");
    CHECK(panel.story().cpu.subtitle == "one neuron at a time");
    CHECK(panel.story().gpu.header == "GPU \xc2\xb7 6 cores");
    CHECK(panel.story().gpu.subtitle == "a whole layer at once");
    core::LayerRunSetup s = panel.setup();
    s.gpu_cores = 1;
    s.cpu_cores = 18944;
    panel.apply(s);
    CHECK(panel.story().gpu.header == "GPU \xc2\xb7 1 core");
    CHECK(panel.story().gpu.subtitle == "one neuron at a time");
    CHECK(panel.story().cpu.header == "CPU \xc2\xb7 18,944 cores");
}

TEST_CASE("Lesson 1 saves and restores its batch, precision and cache") {
    lessons::Context ctx;
    lessons::LayerRunPanel panel(ctx);
    auto s = hardware_setup(panel, {64, 256, 10}, 512);
    s.precision = core::Precision::bf16;
    s.cache = core::CacheState::warm;
    panel.apply(s);
    const auto saved = panel.save_state();
    lessons::LayerRunPanel again(ctx);
    again.load_state(saved);
    CHECK(again.setup().batch == 512);
    CHECK(again.setup().precision == core::Precision::bf16);
    CHECK(again.setup().cache == core::CacheState::warm);
    auto bad = saved;
    bad["batch"] = 5000;
    CHECK_THROWS(again.load_state(bad));
    CHECK(again.setup().batch == 512);
}

TEST_CASE("a scenario that names hardware timing without core counts runs the presets' cores, as choosing it in the panel does") {
    lessons::Context ctx;
    lessons::LayerRunPanel panel(ctx);
    panel.load_state(nlohmann::json{{"mode", "hardware"}, {"cpu", "epyc-9654"}, {"gpu", "h100"}});
    CHECK(panel.setup().cpu_cores == panel.setup().cpu.cores);
    CHECK(panel.setup().gpu_cores == panel.setup().gpu.cores);
    CHECK(panel.setup().cpu_cores > 1);
    panel.load_state(nlohmann::json{{"mode", "hardware"}, {"cpu_cores", 4}});  // counts given are kept
    CHECK(panel.setup().cpu_cores == 4);
    panel.load_state(nlohmann::json{{"mode", "lesson"}});
    CHECK(panel.setup().cpu_cores == 1);
    CHECK(panel.setup().gpu_cores == 6);
}

TEST_CASE("before the reveal Lesson 1's roofline, speedup curve and time bars answer nothing") {
    test::Headless ui;
    lessons::LayerRunPanel panel(ui.context());
    const ui::Theme& th = ui.context().view.theme;
    // Two set-ups that differ in the answer only: the same network and chips, batch 1 and 4,096.
    std::vector<ui::PlotSeries> curves;
    for (int batch : {1, 4096}) {
        panel.apply(hardware_setup(panel, {64, 512, 512, 512, 10}, batch));
        ui.frame([&] { panel.draw(0.016f); });
        REQUIRE_FALSE(panel.revealed());
        const auto hidden = lessons::roofline_picture(th, panel.result(), false);
        CHECK(hidden.points.empty());  // each point's FLOP/s, CPU against GPU, is the speedup
        CHECK(hidden.roofs.size() == 2);
        CHECK(hidden.ridges.size() == 2);
        CHECK(lessons::roofline_picture(th, panel.result(), true).points.size() == 6);
        const std::vector<core::SpeedupPoint> sweep = core::batch_sweep(panel.setup(), {1, 16, 256, 4096});
        const ui::PlotSeries shown = lessons::speedup_curve(sweep, true, th.gpu);
        CHECK(shown.y.size() == sweep.size());
        CHECK(shown.y.back() == Approx(sweep.back().speedup));
        curves.push_back(lessons::speedup_curve(sweep, false, th.gpu));
        CHECK((curves.back().colour & IM_COL32_A_MASK) == 0);  // not drawn
    }
    // The curve shown before the reveal is the same whatever the answer: the plot's range comes from it.
    CHECK(curves[0].x == curves[1].x);
    CHECK(curves[0].y == curves[1].y);

    // The time bars: before the reveal the axis never ends at the slower machine's finish.
    const double cpu = 500, gpu = 100;  // the answer: 5x
    for (double cursor : {0.0, 50.0, 100.0, 300.0, 499.0}) {
        INFO("cursor " << cursor);
        const double axis = lessons::clock_axis(cpu, gpu, cursor, false);
        CHECK(axis == Approx(std::max(cursor, gpu) * 1.25));
        CHECK(lessons::clock_axis(cpu * 3, gpu, cursor, false) == Approx(axis));  // a 15x answer: the same axis
    }
    CHECK(lessons::clock_axis(cpu, gpu, 500, true) == 500);
    CHECK(lessons::clock_axis(100 * gpu, gpu, 0, true) == 40 * gpu);  // past 40x the slower bar runs off
    CHECK(lessons::clock_axis(100 * gpu, gpu, 60 * gpu, false) == 40 * gpu);
    // Each bar's end: an unfinished machine's fills the axis, and once the clock has run past a
    // capped axis it ends just past it, drawn running off the edge (it stood full, as if done).
    CHECK(lessons::clock_bar_end(cpu, 50, 125, false) == 125);
    CHECK(lessons::clock_bar_end(100 * gpu, 60 * gpu, 40 * gpu, false) > 40 * gpu);
    CHECK(lessons::clock_bar_end(100 * gpu, 60 * gpu, 40 * gpu, false) < 100 * gpu);
    CHECK(lessons::clock_bar_end(gpu, 60 * gpu, 40 * gpu, false) == gpu);  // finished: its own time
    CHECK(lessons::clock_bar_end(100 * gpu, 0, 40 * gpu, true) == 100 * gpu);
}
