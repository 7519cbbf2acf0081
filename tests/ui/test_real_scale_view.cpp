// Lesson 1's "Real scale" tab run headless: the three training times are the core's own, the
// tab asks the core only when a setting changes, and it fits the window at classroom sizes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <set>
#include <string>

#include "headless.hpp"
#include "lessons/layers/layer_run_panel.hpp"
#include "lessons/layers/real_scale_view.hpp"
#include "m2m/core/engine/text.hpp"
#include "m2m/presets/models.hpp"
#include "m2m/presets/presets.hpp"
#include "ui/widgets.hpp"

using namespace m2m;

namespace {

void frames(test::Headless& ui, lessons::LayerRunPanel& panel, int n) {
    for (int i = 0; i < n; ++i) ui.frame([&] { panel.draw(0.016f); });
}

// Lesson 1's panel with its Real scale tab opened (as a scenario opens it), a few frames drawn.
void open_real_scale(test::Headless& ui, lessons::LayerRunPanel& panel) {
    nlohmann::json state = panel.save_state();
    state["real_scale"]["open"] = true;
    panel.load_state(state);
    frames(ui, panel, 3);
}

// The centre of an item the panel noted for window tests ("name x0 y0 x1 y1" lines).
ImVec2 centre_of(const ui::ItemRegistry& registry, const std::string& name) {
    const std::string items = registry.lines();
    const auto at = items.find(name + " ");
    REQUIRE(at != std::string::npos);
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    REQUIRE(std::sscanf(items.c_str() + at + name.size(), "%f %f %f %f", &x0, &y0, &x1, &y1) == 4);
    return ImVec2((x0 + x1) * 0.5f, (y0 + y1) * 0.5f);
}

// How far anything visible sticks out of the display: each vertex counts only where its clip
// rectangle shows it (a scrolled pane emits a partly hidden line whole; the scissor hides the rest).
float visible_overflow(ImVec2 display) {
    const ImDrawData* dd = ImGui::GetDrawData();
    float worst = 0;
    for (int i = 0; i < dd->CmdListsCount; ++i) {
        const ImDrawList* l = dd->CmdLists[i];
        for (const ImDrawCmd& cmd : l->CmdBuffer)
            for (unsigned k = 0; k < cmd.ElemCount; ++k) {
                ImVec2 v = l->VtxBuffer[l->IdxBuffer[static_cast<int>(cmd.IdxOffset + k)] + static_cast<int>(cmd.VtxOffset)].pos;
                v.x = std::clamp(v.x, cmd.ClipRect.x, cmd.ClipRect.z);
                v.y = std::clamp(v.y, cmd.ClipRect.y, cmd.ClipRect.w);
                worst = std::max({worst, -v.x, -v.y, v.x - display.x, v.y - display.y});
            }
    }
    return worst;
}

int vertices_drawn() {
    const ImDrawData* dd = ImGui::GetDrawData();
    int v = 0;
    for (int i = 0; i < dd->CmdListsCount; ++i) v += dd->CmdLists[i]->VtxBuffer.Size;
    return v;
}

}  // namespace

TEST_CASE("the real scale tab asks the core nothing until it is first shown, then once per change") {
    test::Headless ui;
    lessons::RealScaleView view;
    ui.frame([&] { CHECK_FALSE(view.draw(ui.context())); });  // the lesson's own tab comes first
    CHECK_FALSE(view.is_open());
    CHECK(view.computations() == 0);
    CHECK(view.status() == "real_scale open=0 computed=0");
    view.open();
    for (int i = 0; i < 3; ++i) ui.frame([&] { view.draw(ui.context()); });
    CHECK(view.is_open());
    CHECK(view.computations() == 1);
    for (int i = 0; i < 30; ++i) ui.frame([&] { view.draw(ui.context()); });
    CHECK(view.computations() == 1);  // frames only draw what the core said
    auto s = view.settings();
    s.cluster_gpus = 4096;
    view.apply(s);
    CHECK(view.computations() == 2);
    view.open(false);
    for (int i = 0; i < 3; ++i) ui.frame([&] { view.draw(ui.context()); });
    CHECK_FALSE(view.is_open());
}

TEST_CASE("GPT-3 175B on 300 billion tokens: one CPU takes centuries, one GPU years, 1,024 GPUs days, "
          "each exactly as tell_real_scale() says") {
    lessons::RealScaleView view;
    view.apply(view.settings());
    CHECK(view.settings().model == "gpt3-175b");
    CHECK(view.settings().tokens == 300e9);
    CHECK(view.settings().cluster_gpus == 1024);
    const core::RealScaleStory& st = view.story();
    REQUIRE(view.cluster_layout());
    CHECK(st.rows[0].seconds > st.rows[1].seconds);
    CHECK(st.rows[1].seconds > st.rows[2].seconds);
    CHECK_THAT(st.rows[0].duration, Catch::EndsWith("years"));
    CHECK_THAT(st.rows[1].duration, Catch::EndsWith("years"));
    CHECK_THAT(st.rows[2].duration, Catch::EndsWith("days"));

    // The cluster's layout is the best the core's search finds for 1,024 H100s, 2,048 sequences
    // of 2,048 tokens a step; every row and note is tell_real_scale()'s, to the bit.
    const core::EstimateSetup& searched = view.cluster_setup();
    CHECK(searched.layout.gpus == 1024);
    CHECK(searched.layout.global_batch == 2048);
    CHECK(searched.gpu.id == "h100");
    core::RealScaleInputs in;
    in.model = presets::builtin_models().find("gpt3-175b")->shape;
    in.cpu = presets::builtin().find("epyc-9654")->spec;
    in.gpu = presets::builtin().find("h100")->spec;
    in.cluster = *presets::estimator_setup(in.model, "h100");
    in.tokens = 300e9;
    in.cluster_gpus = 1024;
    const core::RealScaleStory expected = core::tell_real_scale(in);
    CHECK(view.parameters() == expected.parameters);
    CHECK(st.flops == expected.flops);
    for (std::size_t i = 0; i < 3; ++i) {
        CHECK(st.rows[i].label == expected.rows[i].label);
        CHECK(st.rows[i].seconds == expected.rows[i].seconds);
        CHECK(st.rows[i].duration == expected.rows[i].duration);
        CHECK(st.rows[i].assumption == expected.rows[i].assumption);
    }
    CHECK(view.cluster_layout()->mfu == expected.cluster_layout->mfu);
    CHECK(st.factor_note == expected.factor_note);
    CHECK(st.simple == expected.simple);
    CHECK_THAT(view.status(), Catch::StartsWith("real_scale open=0 model=gpt3-175b cpu=epyc-9654 gpu=h100 tokens=3e+11 "
                                                "cluster_gpus=1024"));
}

TEST_CASE("the Real scale tab's factor is the speedup Lesson 1's panel shows for the same chips, a wide layer at a large batch") {
    for (const char* cpu : {"laptop-cpu", "epyc-9654"})
        for (const char* gpu : {"a100", "h100"}) {
            INFO(cpu << " vs " << gpu);
            lessons::Context ctx;
            lessons::LayerRunPanel panel(ctx);
            nlohmann::json state = panel.save_state();
            // Lesson 1 as a student sets it: Hardware timing, every core, 4,096-wide layers, batch 4,096, BF16.
            state["mode"] = "hardware";
            state["cpu_cores"] = presets::builtin().find(cpu)->spec.cores;
            state["gpu_cores"] = presets::builtin().find(gpu)->spec.cores;
            state["widths"] = {4096, 4096, 4096};
            state["cpu"] = cpu;
            state["gpu"] = gpu;
            state["batch"] = 4096;
            state["precision"] = "bf16";
            panel.load_state(state);
            const double lesson1 = panel.result().speedup;
            lessons::RealScaleView view;
            auto s = view.settings();
            s.cpu = cpu;
            s.gpu = gpu;
            view.apply(s);
            const core::RealScaleStory& st = view.story();
            CHECK(st.rows[0].seconds / st.rows[1].seconds == Approx(lesson1).epsilon(1e-9));
            CHECK(st.lesson1_speedup == Approx(lesson1).epsilon(1e-9));
            CHECK_THAT(st.factor_note, Catch::Contains(core::format_ratio(lesson1) + " sooner"));
            char factor[40];
            std::snprintf(factor, sizeof factor, "factor=%.6g", st.lesson1_speedup);
            CHECK_THAT(view.status(), Catch::Contains(std::string(factor) + " "));
        }
}

TEST_CASE("more GPUs finish sooner, but not in proportion: with the batch fixed each GPU gets less work") {
    lessons::RealScaleView view;
    view.apply(view.settings());
    const double at_1024 = view.story().rows[2].seconds;
    const double mfu_1024 = view.cluster_layout()->mfu;
    auto s = view.settings();
    s.cluster_gpus = 16384;
    view.apply(s);
    REQUIRE(view.cluster_layout());
    CHECK(view.story().rows[2].seconds < at_1024);
    CHECK(view.story().rows[2].seconds > at_1024 / 16);  // 16x the GPUs, less than 16x sooner
    CHECK(view.cluster_layout()->mfu < mfu_1024);
}

TEST_CASE("eight GPUs cannot hold GPT-3 175B: the cluster row says so instead of showing a time") {
    test::Headless ui;
    lessons::RealScaleView view;
    auto s = view.settings();
    s.cluster_gpus = 8;
    view.apply(s);
    CHECK_FALSE(view.cluster_layout());
    CHECK_THAT(view.status(), Catch::Contains("cluster_s=none"));
    view.open();
    for (int i = 0; i < 3; ++i) ui.frame([&] { view.draw(ui.context()); });
    CHECK(view.is_open());
    CHECK(ui.worst_overflow() <= 2.0f);
}

TEST_CASE("a setting the view does not offer is refused and the view keeps its state") {
    lessons::RealScaleView view;
    view.apply(view.settings());
    const std::string before = view.status();
    auto s = view.settings();
    s.cluster_gpus = 1000;  // not a power of two
    CHECK_THROWS_WITH(view.apply(s), Catch::StartsWith("cluster_gpus:"));
    s = view.settings();
    s.model = "gpt-5";
    CHECK_THROWS_WITH(view.apply(s), Catch::StartsWith("model: unknown model 'gpt-5'"));
    s = view.settings();
    s.tokens = 0;
    CHECK_THROWS_WITH(view.apply(s), Catch::StartsWith("tokens:"));
    CHECK(view.status() == before);
    CHECK(view.computations() == 1);
}

TEST_CASE("Lesson 1's scenario keeps the real scale tab, open, and a bad one changes nothing") {
    lessons::Context ctx;
    lessons::LayerRunPanel panel(ctx);
    nlohmann::json state = panel.save_state();
    state["real_scale"] = {{"model", "llama3-405b"}, {"gpu", "h100"}, {"tokens", 15.6e12}, {"cluster_gpus", 16384}, {"open", true}};
    panel.load_state(state);
    const nlohmann::json saved = panel.save_state();
    CHECK(saved["real_scale"]["model"] == "llama3-405b");
    CHECK(saved["real_scale"]["cluster_gpus"] == 16384);
    CHECK(saved["real_scale"]["open"] == true);
    test::Headless ui;
    frames(ui, panel, 3);
    CHECK(saved == panel.save_state());

    nlohmann::json bad = saved;
    bad["real_scale"]["cluster_gpus"] = 12;  // in range, but not a power of two
    bad["widths"] = {4, 8, 3};
    CHECK_THROWS_WITH(panel.load_state(bad), Catch::StartsWith("Lesson 1: \"real_scale\": cluster_gpus:"));
    CHECK(panel.save_state() == saved);
    bad["real_scale"] = {{"open", "yes"}};
    CHECK_THROWS_WITH(panel.load_state(bad), "Lesson 1: \"real_scale\": \"open\" must be true or false");
    CHECK(panel.save_state() == saved);
}

TEST_CASE("the real scale tab fits the window at 1920x1080, 1280x720, 1280x560 and a 1024x768 projector at 1.5x") {
    struct Size {
        float w, h, scale;
    };
    for (Size size : {Size{1920, 1080, 1}, Size{1280, 720, 1}, Size{1280, 560, 1}, Size{1024, 768, 1.5f}}) {
        test::Headless ui(size.w, size.h, size.scale);
        lessons::LayerRunPanel panel(ui.context());
        nlohmann::json state = panel.save_state();
        state["real_scale"]["open"] = true;
        panel.load_state(state);
        for (const char* model : {"gpt3-175b", "gpt2-small", "gpt-1t"}) {
            state["real_scale"]["model"] = model;
            state["real_scale"]["cluster_gpus"] = std::string(model) == "gpt-1t" ? 64 : 1024;  // 64: no layout fits
            panel.load_state(state);
            frames(ui, panel, 3);
            for (const bool revealed : {false, true}) {
                if (revealed) {  // Run (Space) played to its end: the times and the notes under the bars
                    panel.playback().toggle();
                    for (int i = 0; i < 400 && !panel.real_scale().revealed(); ++i) ui.frame([&] { panel.draw(0.1f); });
                    REQUIRE(panel.real_scale().revealed());
                    frames(ui, panel, 2);
                }
                INFO(model << " at " << size.w << "x" << size.h << " scale " << size.scale << (revealed ? ", revealed" : ""));
                CHECK(visible_overflow(ImVec2(size.w, size.h)) <= 2.0f);  // anti-aliased edges feather by a pixel
                INFO(ui.clipped_text());
                CHECK(ui.clipped().empty());
                CHECK(vertices_drawn() < 30000);  // cheap under software GL, as Lesson 3's own panel
            }
        }
    }
}

TEST_CASE("clicking the Real scale tab opens it, and the lesson's tab brings the network back") {
    test::Headless ui(1280, 720);
    lessons::LayerRunPanel panel(ui.context());
    frames(ui, panel, 2);
    ImGuiIO& io = ImGui::GetIO();
    auto click = [&](const char* item) {
        io.MousePos = centre_of(ui.context().items, item);
        frames(ui, panel, 1);  // hover
        io.MouseDown[0] = true;
        frames(ui, panel, 1);
        io.MouseDown[0] = false;
        frames(ui, panel, 2);
    };
    CHECK(panel.save_state()["real_scale"]["open"] == false);
    click("tab_real_scale");
    CHECK(panel.save_state()["real_scale"]["open"] == true);
    CHECK_THAT(ui.context().items.lines(), Catch::Contains("real_scale_gpus "));
    click("tab_layer_by_layer");
    CHECK(panel.save_state()["real_scale"]["open"] == false);
}

TEST_CASE("dragging the cluster slider and letting go applies the GPU count where the drag ended") {
    test::Headless ui;
    lessons::RealScaleView view;
    view.open();
    for (int i = 0; i < 3; ++i) ui.frame([&] { view.draw(ui.context()); });
    REQUIRE(view.settings().cluster_gpus == 1024);
    const auto r = ui.context().items.rect("real_scale_gpus");
    REQUIRE(r);
    ImGuiIO& io = ImGui::GetIO();
    const float y = (r->y + r->w) * 0.5f;
    io.MousePos = ImVec2(r->z - 2, y);  // press at the right end, drag to the left end, let go
    ui.frame([&] { view.draw(ui.context()); });
    io.MouseDown[0] = true;
    ui.frame([&] { view.draw(ui.context()); });
    for (int i = 0; i < 4; ++i) {
        io.MousePos = ImVec2(r->z - (r->z - r->x) * 0.25f * static_cast<float>(i + 1), y);
        ui.frame([&] { view.draw(ui.context()); });
    }
    io.MousePos = ImVec2(r->x + 1, y);
    ui.frame([&] { view.draw(ui.context()); });
    io.MouseDown[0] = false;
    ui.frame([&] { view.draw(ui.context()); });
    ui.frame([&] { view.draw(ui.context()); });
    io.MousePos = ImVec2(-1, -1);
    CHECK(view.settings().cluster_gpus == lessons::RealScaleView::min_cluster_gpus);
    CHECK(view.computations() == 2);
}

TEST_CASE("Real scale: predict, then reveal. Run grows the bars, the times and the guess's answer come at the end") {
    // The tab asked "one CPU, one GPU or 1,024 GPUs?" and answered it in the same frame.
    test::Headless ui(1280, 720);
    lessons::LayerRunPanel panel(ui.context());
    nlohmann::json state = panel.save_state();
    state["real_scale"]["open"] = true;
    panel.load_state(state);
    frames(ui, panel, 2);
    const lessons::RealScaleView& view = panel.real_scale();
    REQUIRE(view.is_open());
    CHECK(&panel.playback() == &view.playback());  // Space, Step and Reset act on the tab shown
    CHECK(view.answers_hidden());
    CHECK_THAT(panel.status(), Catch::Contains("guess=none locked=0 revealed=0"));
    // G from the keyboard: the next answer each time (under a day, days, weeks, ...).
    panel.guess_key(false);
    panel.guess_key(false);
    CHECK(view.guess() == core::DurationGuess::days);
    panel.guess_key(false);
    CHECK(view.guess() == core::DurationGuess::weeks);
    frames(ui, panel, 2);
    CHECK_THAT(ui.context().items.lines(), Catch::Contains("real_scale_guess_2 "));  // G opened "Predict first?"
    CHECK_FALSE(ui.context().items.rect("real_scale_reveal"));

    panel.playback().toggle();  // what Space does
    frames(ui, panel, 3);
    CHECK(view.guess_locked());
    CHECK_FALSE(view.revealed());
    panel.guess_key(false);  // locked: nothing
    CHECK(view.guess() == core::DurationGuess::weeks);
    // Mid-run the cluster's bar (the shortest) has stopped before the CPU's.
    const double cluster_end = view.row_fraction(2), cpu_end = view.row_fraction(0);
    CHECK(cluster_end < cpu_end);
    for (int i = 0; i < 400 && !view.revealed(); ++i) ui.frame([&] { panel.draw(0.1f); });
    REQUIRE(view.revealed());
    frames(ui, panel, 2);
    const core::RealScaleReveal r = core::reveal_real_scale(view.guess(), view.story());
    CHECK(r.right == (core::duration_bucket(view.story().rows[2].seconds) == core::DurationGuess::weeks));
    CHECK(ui.context().items.rect("real_scale_reveal"));
    CHECK_THAT(panel.status(), Catch::Contains("guess=a_week_to_a_month locked=1 revealed=1"));
    // Lesson 1's own run did not start behind the tab (its guess stays open).
    CHECK_THAT(panel.status(), Catch::StartsWith("lesson=layers") && Catch::Contains(" playing=0 cursor=0 "));

    // Reset keeps the guess in; another question (a cluster of 4,096) opens it again, empty.
    panel.playback().reset();
    frames(ui, panel, 1);
    CHECK(view.guess_locked());
    state = panel.save_state();
    state["real_scale"]["cluster_gpus"] = 4096;
    panel.load_state(state);
    frames(ui, panel, 2);
    CHECK_FALSE(view.guess_locked());
    CHECK_FALSE(view.guess());
    CHECK(view.answers_hidden());
}

TEST_CASE("a scenario's Real scale tab opened in presenter view is still shown when H leaves it") {
    // A reviewer: --presenter --scenario on the Real scale, then H, showed "Layer by layer": the tab
    // bar, first drawn after presenter view, picked its first tab.
    test::Headless ui(1024, 768, 1.5f);
    ui.context().view.presenter = true;
    lessons::LayerRunPanel panel(ui.context());
    open_real_scale(ui, panel);
    CHECK(panel.real_scale().is_open());
    ui.context().view.presenter = false;
    frames(ui, panel, 3);
    CHECK(panel.real_scale().is_open());
    CHECK(panel.save_state()["real_scale"]["open"] == true);
    ui.context().view.presenter = true;
    frames(ui, panel, 2);
    CHECK(panel.real_scale().is_open());
}

TEST_CASE("Real scale's time axis runs from one second to 1,000 years whatever the asked row takes, so it gives nothing away before Run") {
    // A reviewer: the axis began at the calendar mark below the fastest row, the one the guess asks
    // about ("1 hour" for GPT-2 small on 16 GPUs: under a day).
    lessons::RealScaleView view;
    auto s = view.settings();
    // A second reviewer: its right end followed the CPU's row, "1 day" for GPT-2 small on 1 billion
    // tokens, so the cluster's time had to be under a day.
    std::set<double> left_ends, right_ends;
    for (const char* model : {"gpt3-175b", "gpt2-small"})
        for (double tokens : {1e9, 300e9})
            for (int gpus : {16, 1024, 16384}) {
                s.model = model;
                s.tokens = tokens;
                s.cluster_gpus = gpus;
                view.apply(s);
                left_ends.insert(view.axis_span().first);
                right_ends.insert(view.axis_span().second);
                CHECK(view.axis_span().second >= view.story().rows[0].seconds);
            }
    CHECK(left_ends == std::set<double>{1.0});
    CHECK(right_ends == std::set<double>{1e3 * 365.25 * 86400});  // every CPU row here is under 1,000 years
}

TEST_CASE("on a 1024x768 projector at 1.5 in presenter view the answer comes into sight with the bars when it comes") {
    // The answer sat below the fold there: the room saw the bars stop and no answer until someone
    // scrolled, and scrolled the bars away with it.
    test::Headless ui(1024, 768, 1.5f);
    ui.context().view.presenter = true;
    lessons::LayerRunPanel panel(ui.context());
    open_real_scale(ui, panel);
    panel.guess_key(false);
    panel.playback().toggle();
    for (int i = 0; i < 400 && !panel.real_scale().revealed(); ++i) ui.frame([&] { panel.draw(0.1f); });
    REQUIRE(panel.real_scale().revealed());
    frames(ui, panel, 3);
    const auto scene = ui.context().items.rect("scene");
    const auto first_bar = ui.context().items.rect("real_scale_bar_0");
    const auto reveal = ui.context().items.rect("real_scale_reveal");
    REQUIRE(scene);
    REQUIRE(first_bar);
    REQUIRE(reveal);
    CHECK(first_bar->y >= scene->y);  // the CPU's bar, the longest, still in sight
    CHECK(reveal->w <= scene->w);     // and the answer under the bars
    CHECK(reveal->y >= scene->y);
}
