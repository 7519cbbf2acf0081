// Lesson 3's panel run headless: what each strategy makes every GPU hold, the step playing on the
// timeline, the prompt, and that every setup fits the window at 1920x1080 and 1280x720.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <set>

#include "headless.hpp"
#include "lessons/split/split_panel.hpp"
#include "ui/theme.hpp"

using namespace m2m;

namespace {

int vertices_drawn() {
    const ImDrawData* dd = ImGui::GetDrawData();
    int v = 0;
    for (int i = 0; i < dd->CmdListsCount; ++i) v += dd->CmdLists[i]->VtxBuffer.Size;
    return v;
}

// How far anything visible sticks out of the display. The controls and the two text panes at
// the bottom scroll when the window is short, and ImGui emits a partly scrolled-off line whole (the scissor hides the rest), so their
// vertices count only where their clip rectangle shows them; everything else counts as drawn.
float visible_overflow(ImVec2 display) {
    const ImDrawData* dd = ImGui::GetDrawData();
    float worst = 0;
    for (int i = 0; i < dd->CmdListsCount; ++i) {
        const ImDrawList* l = dd->CmdLists[i];
        const bool pane = l->_OwnerName && (std::strstr(l->_OwnerName, "/words_") || std::strstr(l->_OwnerName, "/prompt_") ||
                                             std::strstr(l->_OwnerName, "/split_controls_"));
        for (const ImDrawCmd& cmd : l->CmdBuffer)
            for (unsigned k = 0; k < cmd.ElemCount; ++k) {
                ImVec2 v = l->VtxBuffer[l->IdxBuffer[static_cast<int>(cmd.IdxOffset + k)] + static_cast<int>(cmd.VtxOffset)].pos;
                if (pane) {
                    v.x = std::clamp(v.x, cmd.ClipRect.x, cmd.ClipRect.z);
                    v.y = std::clamp(v.y, cmd.ClipRect.y, cmd.ClipRect.w);
                }
                worst = std::max({worst, -v.x, -v.y, v.x - display.x, v.y - display.y});
            }
    }
    return worst;
}

core::SplitSetup with(const lessons::SplitPanel& panel, core::Strategy s, int gpus, int micro_batches = 4,
                      core::Placement p = core::Placement::one_node) {
    core::SplitSetup setup = panel.setup();
    setup.strategy = s;
    setup.gpus = gpus;
    setup.micro_batches = micro_batches;
    setup.placement = p;
    return setup;
}

}  // namespace

TEST_CASE("the Lesson 3 panel opens on two data-parallel GPUs, each holding the whole network") {
    test::Headless ui;
    lessons::SplitPanel panel(ui.context());
    ui.frame([&] { panel.draw(0.016f); });
    CHECK(panel.setup().strategy == core::Strategy::data);
    CHECK(panel.result().gpus.size() == 2);
    for (const core::GpuHolding& g : panel.result().gpus)
        for (std::size_t l = 0; l < g.neurons.size(); ++l) CHECK(g.neurons[l].count == panel.result().layers[l].neurons);
    CHECK(panel.timeline_rows().size() == 2);
    CHECK_THAT(panel.status(), Catch::Contains("lesson=split strategy=data gpus=2") && Catch::Contains("playing=0") &&
                                   Catch::Contains("placement=node") && Catch::Contains("word=mat"));
    CHECK_THAT(panel.result().holds_sentence, Catch::StartsWith("Each GPU holds:"));
    CHECK_THAT(panel.result().exchange_sentence, Catch::StartsWith("GPUs must exchange:"));
}

TEST_CASE("switching to tensor parallel gives each GPU its own slice of every layer") {
    test::Headless ui;
    lessons::SplitPanel panel(ui.context());
    panel.choose_strategy(core::Strategy::tensor);
    ui.frame([&] { panel.draw(0.016f); });
    CHECK_THAT(panel.status(), Catch::Contains("strategy=tensor gpus=2"));
    const auto& r = panel.result();
    for (std::size_t l = 0; l < r.layers.size(); ++l) {
        std::set<int> seen;
        for (const core::GpuHolding& g : r.gpus) {
            CHECK(g.neurons[l].count == r.layers[l].neurons / 2);
            for (int i = g.neurons[l].first; i < g.neurons[l].end(); ++i) CHECK(seen.insert(i).second);  // never twice
        }
        CHECK(static_cast<int>(seen.size()) == r.layers[l].neurons);  // the union is the whole layer
    }
    // The timeline carries the per-layer exchanges: communication bars on every GPU.
    for (const ui::TimelineRow& row : panel.timeline_rows()) {
        int comm = 0;
        for (const ui::TimelineBar& b : row.bars) comm += b.kind == ui::BarKind::communication;
        CHECK(comm >= static_cast<int>(r.layers.size()));
    }
    CHECK_THAT(r.why_sentence, Catch::Contains("all-gather"));
}

TEST_CASE("pipeline parallel holds whole layers and shows its bubble as idle bars") {
    test::Headless ui;
    lessons::SplitPanel panel(ui.context());
    panel.apply(with(panel, core::Strategy::pipeline, 4, 4));
    ui.frame([&] { panel.draw(0.016f); });
    const auto& r = panel.result();
    for (const core::GpuHolding& g : r.gpus)
        for (std::size_t l = 0; l < g.neurons.size(); ++l)
            CHECK((g.neurons[l].count == 0 || g.neurons[l].count == r.layers[l].neurons));
    CHECK(r.bubble_fraction == Approx(3.0 / 7.0));
    double idle = 0;
    for (const ui::TimelineBar& b : panel.timeline_rows().back().bars)
        if (b.kind == ui::BarKind::idle) idle += b.end - b.start;
    CHECK(idle > 0.2 * r.step.step_time_s);  // the last stage waits while the pipeline fills
    CHECK_THAT(panel.status(), Catch::Contains("strategy=pipeline gpus=4 micro_batches=4 schedule=1f1b"));
}

TEST_CASE("picking a strategy keeps only GPU counts it accepts") {
    lessons::Context ctx;
    lessons::SplitPanel panel(ctx);
    panel.apply(with(panel, core::Strategy::data, 6));
    panel.choose_strategy(core::Strategy::tensor);  // tensor takes 1, 2, 4 or 8
    CHECK(panel.setup().gpus == 4);
    panel.choose_strategy(core::Strategy::three_d);
    CHECK(panel.setup().gpus == 8);
    panel.choose_strategy(core::Strategy::pipeline);  // pipeline takes 1, 2 or 4
    CHECK(panel.setup().gpus == 4);
}

TEST_CASE("moving tensor-parallel GPUs onto two nodes puts their exchanges on InfiniBand and slows the step") {
    lessons::Context ctx;
    lessons::SplitPanel panel(ctx);
    panel.apply(with(panel, core::Strategy::tensor, 4));
    const double one_node = panel.result().step.step_time_s;
    panel.apply(with(panel, core::Strategy::tensor, 4, 4, core::Placement::two_nodes));
    CHECK(panel.result().step.step_time_s > one_node);
    bool ib_bar = false;
    for (const ui::TimelineRow& row : panel.timeline_rows())
        for (const ui::TimelineBar& b : row.bars) ib_bar |= b.kind == ui::BarKind::communication && b.colour == ctx.view.theme.infiniband;
    CHECK(ib_bar);
    CHECK_THAT(panel.status(), Catch::Contains("placement=nodes"));
}

TEST_CASE("Run plays the step to its end, and every GPU is busy somewhere in it") {
    test::Headless ui;
    lessons::SplitPanel panel(ui.context());
    panel.choose_strategy(core::Strategy::tensor);
    panel.playback().play();
    CHECK_THAT(panel.status(), Catch::Contains("playing=1 finished=0"));
    bool saw_kernel = false, saw_exchange = false;
    for (int i = 0; i < 60 * 10 && panel.playback().playing(); ++i) {
        ui.frame([&] { panel.draw(1.0f / 60.0f); });
        const auto a = panel.activity_at(0, panel.playback().cursor());
        saw_kernel |= a.kernel >= 0;
        saw_exchange |= a.exchange >= 0;
    }
    CHECK(saw_kernel);
    CHECK(saw_exchange);
    CHECK_FALSE(panel.playback().playing());
    CHECK(panel.playback().cursor() == Approx(panel.result().step.step_time_s));
    CHECK_THAT(panel.status(), Catch::Contains("playing=0 finished=1"));
}

TEST_CASE("the prompt is answered by the split network") {
    lessons::Context ctx;
    lessons::SplitPanel panel(ctx);
    panel.choose_strategy(core::Strategy::tensor);
    panel.set_prompt("the cat sat on the");
    CHECK(panel.prediction().word == "mat");
    CHECK(panel.prediction().top.size() == 5);
    panel.set_prompt("the bird flew in the");
    const core::Prediction whole = core::predict(core::trained_next_word_model(), "the bird flew in the", 5);
    CHECK(panel.prediction().word == whole.word);
    CHECK_THAT(panel.status(), Catch::Contains("word=" + whole.word));
}

TEST_CASE("a split the strategy cannot make is refused and the panel keeps its state") {
    lessons::Context ctx;
    lessons::SplitPanel panel(ctx);
    CHECK_THROWS_AS(panel.apply(with(panel, core::Strategy::tensor, 3)), std::invalid_argument);
    CHECK_THROWS_AS(panel.apply(with(panel, core::Strategy::pipeline, 2, 5)), std::invalid_argument);
    CHECK(panel.setup().strategy == core::Strategy::data);
    CHECK(panel.result().gpus.size() == 2);
    CHECK_FALSE(panel.choose_hardware("no-such-node"));
}

TEST_CASE("every strategy fits the window mid-step at 1920x1080 and 1280x720, with few vertices") {
    struct Size {
        float w, h;
    };
    // 1280x560: what the app leaves a lesson at 1280x720 under its menu, tabs and intro.
    for (Size size : {Size{1920, 1080}, Size{1280, 720}, Size{1280, 560}}) {
        test::Headless ui(size.w, size.h);
        lessons::SplitPanel panel(ui.context());
        const std::vector<core::SplitSetup> setups = {
            with(panel, core::Strategy::data, 8, 4, core::Placement::two_nodes),
            with(panel, core::Strategy::tensor, 8),
            with(panel, core::Strategy::pipeline, 4, 48),
            with(panel, core::Strategy::three_d, 8, 24, core::Placement::two_nodes),
            with(panel, core::Strategy::fsdp, 8, 4, core::Placement::two_nodes),
            with(panel, core::Strategy::data, 1),
        };
        for (const core::SplitSetup& s : setups) {
            panel.apply(s);
            panel.playback().reset();
            panel.playback().play();
            for (int i = 0; i < 8; ++i) ui.frame([&] { panel.draw(0.4f); });  // 40% of the way through
            INFO("strategy " << core::strategy_name(s.strategy) << ", " << s.gpus << " GPUs, " << size.w << "x" << size.h);
            CHECK(visible_overflow(ImVec2(size.w, size.h)) <= 2.0f);  // anti-aliased edges feather by up to a pixel
            CHECK(vertices_drawn() < 30000);     // cheap under software GL
        }
    }
}

TEST_CASE("a saved Lesson 3 state loads back, and a bad one changes nothing") {
    lessons::Context ctx;
    lessons::SplitPanel panel(ctx);
    panel.apply(with(panel, core::Strategy::pipeline, 4, 12, core::Placement::two_nodes));
    panel.set_prompt("the bird flew in the");
    const nlohmann::json saved = panel.save_state();
    lessons::SplitPanel other(ctx);
    other.load_state(saved);
    CHECK(other.status() == panel.status());
    CHECK(other.save_state() == saved);
    nlohmann::json bad = saved;
    bad["gpus"] = 3;  // pipeline takes 1, 2 or 4
    CHECK_THROWS_AS(other.load_state(bad), std::invalid_argument);
    CHECK(other.status() == panel.status());
    const std::string csv = other.timeline_csv();
    CHECK_THAT(csv, Catch::StartsWith("gpu,kind,layer,micro_batch,exchange,start_s,end_s\n"));
    CHECK_THAT(csv, Catch::Contains(",idle,") && Catch::Contains(",comm,") && Catch::Contains(",backward,"));
}

TEST_CASE("any change of a setting puts the run back to ready") {
    test::Headless ui;
    lessons::SplitPanel panel(ui.context());
    panel.playback().play();
    for (int i = 0; i < 10; ++i) ui.frame([&] { panel.draw(1.0f / 60.0f); });
    REQUIRE(panel.playback().cursor() > 0);
    core::SplitSetup s = panel.setup();
    s.timing = core::SplitTiming::hardware;
    panel.apply(s);
    CHECK(panel.playback().cursor() == 0);
    CHECK_FALSE(panel.playback().playing());
    CHECK_THAT(panel.status(), Catch::Contains("timing=hardware"));
}

TEST_CASE("Lesson 3 hides the bytes and the exchanging time from a pending guess, across strategy flips, until the step has run") {
    test::Headless ui;
    lessons::SplitPanel panel(ui.context());
    ui.frame([&] { panel.draw(0.016f); });
    CHECK_FALSE(panel.guess_pending());  // no question asked: the readouts show
    CHECK_THAT(panel.status(), Catch::EndsWith("exchange_shown=1"));
    panel.set_guess(core::Strategy::tensor);
    for (core::Strategy s : {core::Strategy::pipeline, core::Strategy::data, core::Strategy::tensor}) {
        panel.choose_strategy(s);
        ui.frame([&] { panel.draw(0.016f); });
        INFO(core::strategy_name(s));
        CHECK(panel.guess_pending());
        CHECK_THAT(panel.status(), Catch::EndsWith("guess=tensor revealed=0 exchange_shown=0"));
    }
    panel.playback().play();
    for (int i = 0; i < 60 * 20 && panel.playback().playing(); ++i) ui.frame([&] { panel.draw(1.0f / 60.0f); });
    CHECK_FALSE(panel.guess_pending());
    CHECK_THAT(panel.status(), Catch::EndsWith("guess=tensor revealed=1 exchange_shown=1"));
    panel.choose_strategy(core::Strategy::data);  // a new set-up: its bytes are a new question
    CHECK(panel.guess_pending());
}

TEST_CASE("presenter view's strip above Lesson 3's scene offers the split and, with Predict ticked, the guess") {
    test::Headless ui(1024, 768, 1.5f);
    ui.context().view.presenter = true;
    lessons::SplitPanel panel(ui.context());
    ui.frame([&] { panel.draw(0.016f); });
    for (const char* s : {"strategy_data", "strategy_tensor", "strategy_pipeline", "strategy_3d", "strategy_fsdp",
                          "split_predict_open"})
        CHECK(ui.context().items.rect(s));
    CHECK_FALSE(ui.context().items.rect("guess_tensor"));  // closed until the teacher ticks Predict
    CHECK_FALSE(ui.context().items.rect("controls"));
    panel.set_guess(core::Strategy::data);
    ui.frame([&] { panel.draw(0.016f); });
    CHECK(panel.guess_pending());
}

TEST_CASE("FSDP in Lesson 3: each card keeps a shard and borrows each whole layer while the step plays") {
    test::Headless ui;
    lessons::SplitPanel panel(ui.context());
    ui.frame([&] { panel.draw(0.016f); });
    REQUIRE(ui.context().items.rect("strategy_fsdp"));  // the radio button is on screen
    panel.choose_strategy(core::Strategy::fsdp);
    CHECK_THAT(panel.status(), Catch::Contains("strategy=fsdp gpus=2"));
    const auto& r = panel.result();
    for (const core::GpuHolding& g : r.gpus)
        for (std::size_t l = 0; l < g.neurons.size(); ++l) CHECK(g.neurons[l].count * 2 == r.layers[l].neurons);
    CHECK_THAT(r.holds_sentence, Catch::Contains("shard"));
    // Play the step: every layer is borrowed whole at some moment, forward and backward.
    const core::SplitCards cards(r);
    std::set<int> borrowed;
    bool arriving = false;
    panel.playback().play();
    for (int i = 0; i < 60 * 20 && panel.playback().playing(); ++i) {
        ui.frame([&] { panel.draw(1.0f / 60.0f); });
        const core::GpuCardMoment m = cards.moment(r, 1, panel.playback().cursor());
        if (m.borrowed_layer >= 0) borrowed.insert(m.borrowed_layer);
        arriving |= m.borrowed_arriving;
    }
    CHECK(static_cast<int>(borrowed.size()) == static_cast<int>(r.layers.size()));
    CHECK(arriving);
    CHECK_THAT(panel.status(), Catch::Contains("strategy=fsdp") && Catch::Contains("finished=1"));
    // Saved and loaded back by name.
    const nlohmann::json saved = panel.save_state();
    CHECK(saved["strategy"] == "fsdp");
    lessons::SplitPanel other(ui.context());
    other.load_state(saved);
    CHECK(other.setup().strategy == core::Strategy::fsdp);
    nlohmann::json bad = saved;
    bad["strategy"] = "zero3";
    CHECK_THROWS_WITH(other.load_state(bad), Catch::Contains("fsdp"));
}

TEST_CASE("every exchange is told whole: a table where its columns fit, two lines an exchange where they do not") {
    // 1024x768 at 1.5 in presenter view: the words pane is a third of the window wide, and the
    // table's "what" column shrank to a letter a line, its last columns cut.
    struct Case {
        float w, h, scale;
        bool presenter;
        const char* shown;
    };
    for (const Case& c : {Case{1024, 768, 1.5f, true, "exchange_list"}, Case{1920, 1080, 1.0f, false, "exchange_table"}}) {
        INFO(c.w << "x" << c.h << " at " << c.scale);
        test::Headless ui(c.w, c.h, c.scale);
        ui.context().view.presenter = c.presenter;
        lessons::SplitPanel panel(ui.context());
        panel.apply(with(panel, core::Strategy::tensor, 8));
        auto frames = [&](int n, int scroll) {
            for (int i = 0; i < n; ++i) {
                ui.context().scene_scroll = scroll;  // Down, as the app's keys set it
                ui.frame([&] { panel.draw(0); });
            }
            ui.context().scene_scroll = 0;
        };
        frames(2, 0);
        frames(40, 1);  // the words pane to its foot, where "Every exchange" is
        const auto r = ui.context().items.rect("every_exchange");
        REQUIRE(r);
        ImGuiIO& io = ImGui::GetIO();
        io.MousePos = ImVec2((r->x + r->z) * 0.5f, (r->y + r->w) * 0.5f);
        frames(1, 0);
        io.MouseDown[0] = true;
        frames(1, 0);
        io.MouseDown[0] = false;  // a tree node opens on the release, over it
        frames(1, 0);
        io.MousePos = ImVec2(-1, -1);
        frames(2, 0);
        CHECK(ui.context().items.rect(c.shown));
        for (int k = 0; k < 60; ++k) {  // down through every exchange, nothing cut at any point
            frames(1, 1);
            INFO(ui.clipped_text());
            REQUIRE(ui.clipped().empty());
        }
    }
}
