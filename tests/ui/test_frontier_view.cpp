// Lesson 3's "Frontier scale" tab run headless: GPT-3 175B against one GPU's memory, a layout's
// memory and step exactly as the core estimates them, check()'s words for a layout that cannot
// run, the search's rows applied by a click, and the tab fitting the window at classroom sizes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <string>
#include <tuple>
#include <vector>

#include "headless.hpp"
#include "lessons/split/frontier_view.hpp"
#include "lessons/split/split_panel.hpp"
#include "m2m/presets/models.hpp"
#include "ui/widgets.hpp"

using namespace m2m;

namespace {

void frames(test::Headless& ui, lessons::FrontierView& view, int n) {
    for (int i = 0; i < n; ++i) ui.frame([&] { view.draw(ui.context()); });
}

// The centre of an item the view noted for window tests ("name x0 y0 x1 y1" lines).
ImVec2 centre_of(const ui::ItemRegistry& registry, const std::string& name) {
    const std::string items = registry.lines();
    const auto at = items.find(name + " ");
    REQUIRE(at != std::string::npos);
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    REQUIRE(std::sscanf(items.c_str() + at + name.size(), "%f %f %f %f", &x0, &y0, &x1, &y1) == 4);
    return ImVec2((x0 + x1) * 0.5f, (y0 + y1) * 0.5f);
}

// Presses and releases the mouse on an item the view noted, then moves the mouse away.
void click(test::Headless& ui, lessons::FrontierView& view, const std::string& name) {
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = centre_of(ui.context().items, name);
    frames(ui, view, 1);
    io.MouseDown[0] = true;
    frames(ui, view, 1);
    io.MouseDown[0] = false;
    frames(ui, view, 2);
    io.MousePos = ImVec2(-1, -1);
}

// What the search button runs: every layout of the view's GPU count, from TP 1 x PP 1.
core::SearchResult search_of(const lessons::FrontierView& view) {
    core::EstimateSetup s = view.setup();
    s.layout.tp = s.layout.pp = 1;
    s.layout.dp = s.layout.gpus;
    s.layout.micro_batch = 1;
    return core::search_layouts(s, 5);
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

TEST_CASE("GPT-3 175B does not fit in one 80 GiB A100: its weights, gradients and Adam state need 33 GPUs' memory") {
    lessons::FrontierView view;
    CHECK(view.settings().model == "gpt3-175b");
    CHECK(view.settings().gpu == "a100");
    const auto params = core::count_parameters(presets::builtin_models().find("gpt3-175b")->shape).total;
    CHECK(view.whole_model().parameters == static_cast<double>(params));
    CHECK(view.state_bytes() == 16.0 * static_cast<double>(params));  // 2 + 2 + 12 bytes per parameter
    CHECK(view.whole_model().capacity_bytes == Approx(85.9e9));  // 80 GiB (nvidia-smi: 81,920 MiB)
    CHECK_FALSE(view.whole_model().fits);
    CHECK(view.min_gpus_for_state() == 33);  // 2.79 TB / 85.9 GB (80 GiB) = 32.5
    CHECK_THAT(view.status(), Catch::Contains("fits_one_gpu=0 min_gpus=33"));

    // GPT-2 small does fit.
    auto s = view.settings();
    s.model = "gpt2-small";
    s.layout = core::Layout{};
    view.apply(s);
    CHECK(view.min_gpus_for_state() == 1);
    CHECK_THAT(view.status(), Catch::Contains("fits_one_gpu=1 min_gpus=1"));
}

TEST_CASE("the default layout, TP 8 x PP 8 x DP 16 on 1,024 A100s, is exactly the core's estimate and fits each GPU") {
    lessons::FrontierView view;
    REQUIRE_FALSE(view.problem());
    const core::Layout& l = view.settings().layout;
    CHECK(l.tp * l.pp * l.dp == 1024);
    const core::Estimate e = core::estimate(view.setup(), true);
    CHECK(view.estimate().step_time_s == e.step_time_s);
    CHECK(view.estimate().tokens_per_s == e.tokens_per_s);
    CHECK(view.estimate().mfu == e.mfu);
    CHECK(view.estimate().hfu == e.hfu);
    CHECK(view.estimate().train_days == e.train_days);
    CHECK(view.estimate().memory.total_bytes == e.memory.total_bytes);
    CHECK(view.estimate().memory.fits);
    CHECK(view.estimate().memory.total_bytes < 80e9);
    CHECK(view.setup().train_tokens == 300e9);
    // One timeline row per pipeline stage: a forward and a backward pass for every one of its
    // replica's 96 micro-batches, the fill and the drain bar by bar, the steady state between
    // them as forward and backward stripes standing for its passes; in start order.
    REQUIRE(view.timeline_rows().size() == 8);
    std::vector<std::int64_t> passes(8, 0);
    for (const auto& t : view.estimate().tasks)
        if (t.kind == core::TrainingTaskKind::forward || t.kind == core::TrainingTaskKind::backward ||
            t.kind == core::TrainingTaskKind::steady)
            passes[static_cast<std::size_t>(t.stage)] += t.passes;
    for (std::int64_t n : passes) CHECK(n == 2 * 96);
    for (const ui::TimelineRow& row : view.timeline_rows()) {
        int compute = 0;
        for (std::size_t i = 0; i < row.bars.size(); ++i) {
            compute += row.bars[i].kind == ui::BarKind::forward || row.bars[i].kind == ui::BarKind::backward;
            if (i > 0) CHECK(row.bars[i].start >= row.bars[i - 1].start);
        }
        CHECK(compute > 0);
        CHECK(compute < 2 * 96);  // summarised: far fewer bars than passes
    }
    CHECK_THAT(view.status(), Catch::Contains("gpus=1024 tp=8 pp=8 dp=16 micro_batch=1 global_batch=1536") &&
                                  Catch::Contains("problem=none") && Catch::Contains("fits=1"));
}

TEST_CASE("a layout the core refuses shows check()'s own message, and a good one brings the estimate back") {
    test::Headless ui;
    lessons::FrontierView view;
    view.open();
    auto s = view.settings();
    s.layout.dp = 8;  // 8 x 8 x 8 = 512 GPUs, not 1,024
    view.apply(s);
    const auto expected = core::check(view.setup());
    REQUIRE(expected);
    REQUIRE(view.problem());
    CHECK(view.problem()->field == expected->field);
    CHECK(view.problem()->message == expected->message);
    CHECK(view.problem()->message == "tp x pp x dp must equal the GPU count: 8 x 8 x 8 = 512, not 1,024");
    CHECK_THAT(view.status(), Catch::Contains("problem=gpus") && Catch::Contains("step_s=0"));
    CHECK(view.timeline_rows().empty());
    frames(ui, view, 3);  // draws the message instead of the estimate
    CHECK(ui.worst_overflow() <= 2.0f);

    s.layout.tp = 8;
    s.model = "gpt2-small";  // 12 heads: TP 8 cannot split them
    s.layout.dp = 16;
    view.apply(s);
    REQUIRE(view.problem());
    CHECK(view.problem()->field == "tp");
    CHECK(view.problem()->message == "must divide the model's 12 attention heads");

    s.layout.tp = 4;
    s.layout.dp = 32;
    view.apply(s);
    CHECK_FALSE(view.problem());
    CHECK(view.estimate().step_time_s > 0);
}

TEST_CASE("the best layouts are the core's search, and clicking a row applies its layout") {
    test::Headless ui;
    lessons::FrontierView view;
    view.open();
    frames(ui, view, 3);
    CHECK_THAT(view.status(), Catch::Contains("search=-1"));
    view.run_search();
    REQUIRE(view.search());
    const core::SearchResult expected = search_of(view);
    REQUIRE(view.search()->best.size() == expected.best.size());
    REQUIRE(expected.best.size() == 5);
    for (std::size_t i = 0; i < expected.best.size(); ++i) {
        CHECK(view.search()->best[i].layout.tp == expected.best[i].layout.tp);
        CHECK(view.search()->best[i].layout.pp == expected.best[i].layout.pp);
        CHECK(view.search()->best[i].layout.dp == expected.best[i].layout.dp);
        CHECK(view.search()->best[i].step_time_s == expected.best[i].step_time_s);
    }

    // Click (press and release on) the first row that is not the current layout.
    const core::Layout before = view.settings().layout;
    std::size_t row = 0;
    while (row < expected.best.size() && expected.best[row].layout.tp == before.tp && expected.best[row].layout.pp == before.pp &&
           expected.best[row].layout.dp == before.dp && expected.best[row].layout.micro_batch == before.micro_batch)
        ++row;
    REQUIRE(row < expected.best.size());
    frames(ui, view, 2);
    click(ui, view, "frontier_best_" + std::to_string(row));

    const core::Layout& now = view.settings().layout;
    const core::Layout& picked = expected.best[row].layout;
    CHECK(now.tp == picked.tp);
    CHECK(now.pp == picked.pp);
    CHECK(now.dp == picked.dp);
    CHECK(now.micro_batch == picked.micro_batch);
    const bool same = now.tp == before.tp && now.pp == before.pp && now.dp == before.dp && now.micro_batch == before.micro_batch;
    CHECK_FALSE(same);
    CHECK(view.estimate().step_time_s == Approx(expected.best[row].step_time_s));
    CHECK_THAT(view.status(), Catch::Contains("search=5"));  // same GPUs and batch: the list stays

    // Every row loads as clicked, rows that differ from the current one in the schedule or ZeRO alone
    // too (a row that matched on TP, PP, DP and micro-batch was taken for the current one).
    for (std::size_t r = 0; r < expected.best.size(); ++r) {
        frames(ui, view, 2);
        click(ui, view, "frontier_best_" + std::to_string(r));
        CHECK(view.settings().layout == expected.best[r].layout);
    }

    // Another GPU count makes the list stale: it is dropped until the button is pressed again.
    auto s = view.settings();
    s.layout.gpus = 2048;
    s.layout.dp *= 2;
    view.apply(s);
    CHECK_FALSE(view.search());
    CHECK(view.apply_search_row(0) == false);
}

TEST_CASE("two best rows that differ in their interleaved chunks alone each load when clicked") {
    // Llama 3 70B on 64 H100s, 64 sequences a step: the two fastest are TP 2 x CP 4 x PP 2 x DP 4
    // with 8 and with 4 chunks. The table took the second for the current row and ignored it.
    test::Headless ui;
    lessons::FrontierView view;
    view.open();
    auto s = view.settings();
    s.model = "llama3-70b";
    s.gpu = "h100";
    s.layout.gpus = 64;
    s.layout.tp = s.layout.pp = 1;
    s.layout.dp = 64;
    s.layout.micro_batch = 1;
    s.layout.global_batch = 64;
    view.apply(s);
    frames(ui, view, 2);
    view.run_search();
    REQUIRE(view.search());
    REQUIRE(view.search()->best.size() >= 2);
    const core::Layout first = view.search()->best[0].layout, second = view.search()->best[1].layout;
    for (const core::Layout& l : {first, second}) {
        frames(ui, view, 2);
        click(ui, view, l == first ? "frontier_best_0" : "frontier_best_1");
        CHECK(view.settings().layout == l);
    }
}

TEST_CASE("Meta's Llama 3 405B layout fits with its stage inputs freed, and the checkbox takes that away") {
    test::Headless ui(1920, 1200);  // tall enough for the whole sidebar, its last row included
    lessons::FrontierView view;
    view.open();
    auto s = view.settings();
    s.model = "llama3-405b";
    s.gpu = "h100";
    core::Layout& l = s.layout;
    l.gpus = 8192;
    l.tp = 8;
    l.pp = 16;
    l.dp = 64;
    l.global_batch = 2048;
    l.schedule = core::ScheduleKind::interleaved;
    l.chunks = 8;
    l.recompute = core::Recompute::none;
    l.attention = core::AttentionKernel::flash;
    l.zero_stage = 2;
    l.free_stage_inputs = true;
    view.apply(s);
    REQUIRE_FALSE(view.problem());
    CHECK(view.estimate().memory.fits);
    CHECK(view.estimate().memory.total_bytes == core::memory_use(view.setup()).total_bytes);
    frames(ui, view, 3);
    click(ui, view, "frontier_free_inputs");
    CHECK_FALSE(view.settings().layout.free_stage_inputs);
    CHECK_FALSE(view.estimate().memory.fits);  // kept, as Megatron keeps them: 87 GB of 85.5
    CHECK(view.estimate().memory.total_bytes == core::memory_use(view.setup()).total_bytes);
    // fp32 gradients: the same layout's gradient shards take twice the bytes.
    const double bf16 = view.estimate().memory.gradients_bytes;
    click(ui, view, "frontier_fp32_gradients");
    CHECK(view.settings().layout.fp32_gradients);
    CHECK(view.estimate().memory.gradients_bytes == Approx(2 * bf16));
}

TEST_CASE("frames only draw: the core is asked once per change, never per frame") {
    test::Headless ui;
    lessons::FrontierView view;
    view.open();
    const int before = view.computations();
    frames(ui, view, 40);
    CHECK(view.computations() == before);
}

TEST_CASE("a saved Lesson 3 state keeps the frontier tab's settings, and a bad one changes nothing") {
    lessons::Context ctx;
    lessons::SplitPanel panel(ctx);
    nlohmann::json state = panel.save_state();
    state["frontier"] = {{"model", "llama3-405b"}, {"gpu", "h100"}, {"gpus", 8192}, {"tp", 8},   {"pp", 16},
                         {"dp", 64},               {"micro_batch", 1}, {"global_batch", 2048}, {"schedule", "interleaved"},
                         {"chunks", 4},            {"attention", "flash"}, {"zero", 1}, {"tokens", 15.6e12}, {"open", true}};
    panel.load_state(state);
    const nlohmann::json saved = panel.save_state();
    CHECK(saved["frontier"]["model"] == "llama3-405b");
    CHECK(saved["frontier"]["schedule"] == "interleaved");
    CHECK(saved["frontier"]["open"] == true);
    lessons::SplitPanel other(ctx);
    other.load_state(saved);
    CHECK(other.save_state() == saved);
    CHECK(other.status() == panel.status());

    for (auto [key, value, words] : {std::tuple{"schedule", nlohmann::json("zigzag"), "\"schedule\" must be 1f1b, gpipe or interleaved"},
                                     std::tuple{"gpu", nlohmann::json("v100"), "gpu: unknown GPU 'v100'"},
                                     std::tuple{"pp", nlohmann::json(0), "\"pp\" must be a whole number from 1"}}) {
        nlohmann::json bad = saved;
        bad["frontier"][key] = value;
        bad["gpus"] = 4;  // a good change to the toy network in the same file is not made either
        bad["strategy"] = "pipeline";
        INFO(key);
        CHECK_THROWS_WITH(other.load_state(bad), Catch::StartsWith(std::string("Lesson 3: \"frontier\": ") + words));
        CHECK(other.save_state() == saved);
    }
}

TEST_CASE("the frontier tab fits the window at 1920x1080, 1280x720, 1280x560 and a 1024x768 projector at 1.5x, lists readable") {
    struct Size {
        float w, h, scale;
    };
    struct Case {
        const char* what;
        nlohmann::json state;
        int vertices = 30000;  ///< cheap under software GL, as Lesson 3's own panel
    };
    const std::vector<Case> cases = {
        {"default", {{"open", true}}},
        {"a layout the core refuses", {{"open", true}, {"dp", 8}}},
        // 16 rows in view of 96, each with 96 micro-batches' bars a few pixels wide: as Lesson 1's widest.
        {"96 pipeline stages", {{"open", true}, {"pp", 96}, {"tp", 1}, {"dp", 1}, {"gpus", 96}, {"global_batch", 96}}, 60000},
        {"1T GPT, interleaved", {{"open", true}, {"model", "gpt-1t"}, {"gpus", 3072}, {"tp", 8}, {"pp", 64}, {"dp", 6},
                                 {"global_batch", 3072}, {"schedule", "interleaved"}, {"chunks", 2}}},
    };
    for (Size size : {Size{1920, 1080, 1}, Size{1280, 720, 1}, Size{1280, 560, 1}, Size{1024, 768, 1.5f}, Size{1024, 560, 1.5f}}) {
        test::Headless ui(size.w, size.h, size.scale);
        lessons::SplitPanel panel(ui.context());
        const nlohmann::json base = panel.save_state();
        for (const Case& c : cases) {
            nlohmann::json state = base;
            for (auto it = c.state.begin(); it != c.state.end(); ++it) state["frontier"][it.key()] = it.value();
            panel.load_state(state);
            for (int i = 0; i < 3; ++i) ui.frame([&] { panel.draw(0.016f); });
            INFO(c.what << " at " << size.w << "x" << size.h << " scale " << size.scale);
            CHECK(panel.save_state()["frontier"]["open"] == true);
            CHECK(visible_overflow(ImVec2(size.w, size.h)) <= 2.0f);  // anti-aliased edges feather by a pixel
            INFO(ui.clipped_text());
            CHECK(ui.clipped().empty());
            CHECK(vertices_drawn() < c.vertices);
            // The lists under the readouts keep room to read: in the app's 1024x768 at 1.5x (the
            // panel 560 tall under its menus and tabs) the headline readouts left them four lines.
            if (c.state.size() == 1) {
                const float below = size.h - centre_of(ui.context().items, "frontier_search_tab").y;
                CHECK(below >= ImGui::GetFontSize() * 6.0f);
            }
        }
    }
}

TEST_CASE("T turns the Frontier tab's lists one after another, keys only, and comes back to the first") {
    // 1024x768 at 1.5 (the panel 560 tall): the lists take turns in four tabs. 1920x1080: the
    // memory and the step stand above the lists, which keep two tabs.
    struct Case {
        float w, h, scale;
        std::vector<std::string> order;
    };
    for (const Case& c : {Case{1024, 560, 1.5f, {"memory", "timeline", "search", "assumptions", "memory"}},
                          Case{1920, 1080, 1.0f, {"search", "assumptions", "search"}}}) {
        INFO(c.w << "x" << c.h);
        test::Headless ui(c.w, c.h, c.scale);
        lessons::SplitPanel panel(ui.context());
        panel.view_key();  // V: the Frontier tab
        for (int i = 0; i < 3; ++i) ui.frame([&] { panel.draw(0.016f); });
        CHECK_THAT(panel.status(), Catch::Contains("list=" + c.order[0]));
        for (std::size_t k = 1; k < c.order.size(); ++k) {
            panel.target_key();
            for (int i = 0; i < 2; ++i) ui.frame([&] { panel.draw(0.016f); });
            CHECK_THAT(panel.status(), Catch::Contains("list=" + c.order[k]));
        }
    }
    // On the toy network T has nothing to turn: no list changes, nothing else moves.
    test::Headless ui(1920, 1080, 1.0f);
    lessons::SplitPanel panel(ui.context());
    for (int i = 0; i < 2; ++i) ui.frame([&] { panel.draw(0.016f); });
    const std::string before = panel.status();
    panel.target_key();
    for (int i = 0; i < 2; ++i) ui.frame([&] { panel.draw(0.016f); });
    CHECK(panel.status() == before);
}
