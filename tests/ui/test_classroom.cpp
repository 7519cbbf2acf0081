// Predict, then reveal in Lessons 2 and 3, and their runs recorded for Explain it back, run headless.
#include <catch2/catch.hpp>

#include <string>

#include "headless.hpp"
#include "lessons/explain/explain_panel.hpp"
#include "lessons/layers/layer_run_panel.hpp"
#include "lessons/rack/rack_panel.hpp"
#include "lessons/run_log.hpp"
#include "lessons/split/split_panel.hpp"
#include "m2m/core/engine/units.hpp"
#include "ui/widgets.hpp"
#include "m2m/core/engine/text.hpp"

using namespace m2m;
using lessons::RackPanel;
using lessons::SplitPanel;

namespace {

// Plays the panel's run to its end at the fastest speed, one frame at a time, as the app does.
template <class Panel>
void play_to_end(test::Headless& ui, Panel& panel) {
    panel.playback().set_speed(ui::Playback::max_speed);
    for (int i = 0; i < 60 * 30 && !(panel.playback().finished() && panel.playback().cursor() > 0); ++i)
        ui.frame([&] { panel.draw(1.0f / 60.0f); });
    REQUIRE(panel.playback().finished());
    ui.frame([&] { panel.draw(1.0f / 60.0f); });  // the frame that shows the end
}

}  // namespace

TEST_CASE("a guess of InfiniBand before a send to another node is revealed once the send has played") {
    test::Headless ui;
    RackPanel panel(ui.context());
    panel.pick(RackPanel::Pick::other_node);
    panel.set_guess(core::SendGuess{core::LinkType::infiniband, 20});
    ui.frame([&] { panel.draw(1.0f / 60.0f); });
    CHECK_THAT(panel.status(), Catch::EndsWith(" guess=infiniband/20 revealed=0"));
    CHECK_FALSE(ui.context().items.rect("rack_reveal"));  // not before the send has played
    CHECK_FALSE(panel.send_finished());
    panel.send();
    play_to_end(ui, panel);
    CHECK(panel.send_finished());
    CHECK_THAT(panel.status(), Catch::EndsWith(" guess=infiniband/20 revealed=1"));
    const core::SendReveal r = panel.reveal();
    CHECK(r.link_right);
    CHECK(r.times_guessed);
    REQUIRE(r.lines.size() == 2);
    CHECK(r.lines[0] == "Right: the tensor crossed InfiniBand. GPU 0 and GPU 8 sit in different nodes, so it left "
                        "through a NIC.");
    CHECK(r.lines[1] == "You guessed 20\xc3\x97 as long as over NVLink inside a node; it took " +
                            core::format_ratio(panel.transfer().relative_time) + ": your guess was " +
                            core::format_ratio(20 / panel.transfer().relative_time) + " too high.");
    CHECK(ui.context().items.rect("rack_reveal"));  // shown in the scene, under the time split
}

TEST_CASE("a finished send is recorded once for Explain it back, which then tells it") {
    test::Headless ui;
    lessons::RunLog& log = ui.context().run_log;
    RackPanel panel(ui.context());
    panel.pick(RackPanel::Pick::other_node);
    ui.frame([&] { panel.draw(1.0f / 60.0f); });
    CHECK(log.facts().empty());  // nothing sent yet
    panel.send();
    panel.playback().set_speed(ui::Playback::max_speed);
    ui.frame([&] { panel.draw(1.0f / 60.0f); });
    CHECK(log.facts().empty());  // under way: not a fact yet
    play_to_end(ui, panel);
    for (int i = 0; i < 5; ++i) ui.frame([&] { panel.draw(1.0f / 60.0f); });
    REQUIRE(log.facts().size() == 1);  // the end is seen every frame, recorded once
    const auto& fact = std::get<core::TransferFact>(log.facts()[0]);
    CHECK(fact.link == "InfiniBand");
    CHECK(fact.bytes == 1e9);
    CHECK(fact.time_s == panel.transfer().time_s);
    CHECK(fact.relative_time == panel.transfer().relative_time);

    lessons::ExplainPanel explain(ui.context());  // the shared log, as in the app
    REQUIRE(explain.run_sentences().size() == 1);
    CHECK(explain.run_sentences()[0] == "In your Lesson 2 run a 1 GB tensor sent over InfiniBand took " +
                                            core::format_seconds(fact.time_s) + ", " +
                                            core::format_ratio(fact.relative_time) +
                                            " as long as the same send between two GPUs of one node.");
    ui.frame([&] { explain.draw(0.016f); });
    CHECK_THAT(explain.status(), Catch::EndsWith("facts=1"));
}

TEST_CASE("without a guess Lesson 2 reveals nothing, and an all-reduce is not a send") {
    test::Headless ui;
    RackPanel panel(ui.context());
    panel.send();
    play_to_end(ui, panel);
    CHECK(panel.reveal().lines.empty());
    CHECK_THAT(panel.status(), !Catch::Contains("guess="));
    panel.set_mode(RackPanel::Mode::all_reduce);
    panel.playback().play();
    play_to_end(ui, panel);
    CHECK_FALSE(panel.send_finished());
    CHECK(ui.context().run_log.facts().size() == 1);  // the send inside the node only
}

TEST_CASE("a guess of tensor parallel on 2 GPUs is revealed after the step with every strategy's bytes") {
    test::Headless ui;
    SplitPanel panel(ui.context());
    REQUIRE(panel.setup().gpus == 2);
    const auto& bytes = panel.strategy_bytes();
    REQUIRE(bytes.size() == 4);  // data, tensor, pipeline, FSDP: 3D needs 8 GPUs
    CHECK(bytes[1].strategy == core::Strategy::tensor);
    CHECK(bytes[1].exchanged == 34'560);
    panel.set_guess(core::Strategy::tensor);
    ui.frame([&] { panel.draw(1.0f / 60.0f); });
    CHECK_FALSE(ui.context().items.rect("split_reveal"));  // not before the step has played
    CHECK_THAT(panel.status(), Catch::EndsWith(" guess=tensor revealed=0 exchange_shown=0"));
    panel.playback().play();
    play_to_end(ui, panel);
    CHECK_THAT(panel.status(), Catch::EndsWith(" guess=tensor revealed=1 exchange_shown=1"));
    const auto& lines = panel.reveal_lines();
    REQUIRE(lines.size() == 3);
    CHECK(lines[0] == "You guessed tensor parallel; fully sharded data parallel (FSDP) puts the most bytes on the wires.");
    CHECK(lines[1] == "On the wires per training step on 2 GPUs: fully sharded data parallel (FSDP) 43.7 KB, tensor parallel "
                      "34.6 KB, data parallel 29.1 KB, pipeline parallel 9.22 KB.");
    CHECK(ui.context().items.rect("split_reveal"));  // at the top of the words

    panel.set_guess(core::Strategy::pipeline);
    CHECK(panel.reveal_lines()[0] == "You guessed pipeline parallel; fully sharded data parallel (FSDP) puts the most bytes on the wires.");
    panel.set_guess(core::Strategy::fsdp);
    CHECK(panel.reveal_lines()[0] == "Right: fully sharded data parallel (FSDP) puts the most bytes on the wires.");

    // Another GPU count is another question: the guess made for 2 GPUs goes.
    core::SplitSetup four = panel.setup();
    four.gpus = 4;
    panel.apply(four);
    CHECK_FALSE(panel.guess());
}

TEST_CASE("finished steps of two splits are recorded, and Explain it back compares them") {
    test::Headless ui;
    lessons::RunLog& log = ui.context().run_log;
    SplitPanel panel(ui.context());
    panel.playback().play();
    play_to_end(ui, panel);
    REQUIRE(log.facts().size() == 1);
    CHECK(std::get<core::SplitFact>(log.facts()[0]) == core::SplitFact{"data parallel", 2, 29'120});
    lessons::ExplainPanel explain(ui.context());
    REQUIRE(explain.run_sentences().size() == 1);
    CHECK(explain.run_sentences()[0] == "In your Lesson 3 run, data parallel on 2 GPUs put 29.1 KB on the wires per training step.");

    panel.choose_strategy(core::Strategy::tensor);
    ui.frame([&] { panel.draw(1.0f / 60.0f); });
    CHECK(log.facts().size() == 1);  // a new set-up is not a run until it has played
    panel.playback().play();
    play_to_end(ui, panel);
    REQUIRE(log.facts().size() == 2);
    REQUIRE(explain.run_sentences().size() == 1);
    CHECK(explain.run_sentences()[0] == "Of the splits you tried in Lesson 3, tensor parallel on 2 GPUs put the most on the "
                                        "wires per training step (34.6 KB), data parallel on 2 GPUs the least (29.1 KB).");
}

namespace {

// Presses and releases the mouse on an item the panel noted, then moves the mouse away.
template <class Panel>
void click(test::Headless& ui, Panel& panel, const std::string& name) {
    const auto r = ui.context().items.rect(name);
    REQUIRE(r);
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = ImVec2((r->x + r->z) * 0.5f, (r->y + r->w) * 0.5f);
    ui.frame([&] { panel.draw(0); });
    io.MouseDown[0] = true;
    ui.frame([&] { panel.draw(0); });
    io.MouseDown[0] = false;
    ui.frame([&] { panel.draw(0); });
    io.MousePos = ImVec2(-1, -1);
    ui.frame([&] { panel.draw(0); });
}

}  // namespace

TEST_CASE("a guess is in once its run starts: no click changes it with the answer in sight, a new question opens it") {
    SECTION("Lesson 2's all-reduce: which algorithm is faster") {
        test::Headless ui;
        RackPanel panel(ui.context());
        panel.set_mode(RackPanel::Mode::all_reduce);
        panel.set_group(16);
        panel.set_collective_bytes(1 << 20);
        ui.frame([&] { panel.draw(0); });
        click(ui, panel, "collective_predict_open");
        click(ui, panel, "cguess_ring");
        REQUIRE(panel.collective_guess().faster == core::CollectiveAlgorithm::ring);
        CHECK_FALSE(panel.guess_locked());
        panel.playback().step();  // one step: the readouts and the plot answer it now
        ui.frame([&] { panel.draw(0); });
        CHECK(panel.guess_locked());
        click(ui, panel, "cguess_tree");
        CHECK(panel.collective_guess().faster == core::CollectiveAlgorithm::ring);
        panel.playback().play();
        play_to_end(ui, panel);
        panel.playback().reset();  // back to the start: the same question, its answer already seen
        ui.frame([&] { panel.draw(0); });
        click(ui, panel, "cguess_tree");
        CHECK(panel.collective_guess().faster == core::CollectiveAlgorithm::ring);
        panel.set_collective_bytes(8);  // a new question
        ui.frame([&] { panel.draw(0); });
        CHECK_FALSE(panel.guess_locked());
        click(ui, panel, "cguess_tree");
        CHECK(panel.collective_guess().faster == core::CollectiveAlgorithm::tree);
    }
    SECTION("Lesson 2's send: which wire, how many times as long") {
        test::Headless ui;
        RackPanel panel(ui.context());
        panel.pick(RackPanel::Pick::other_node);
        ui.frame([&] { panel.draw(0); });
        click(ui, panel, "rack_predict_open");
        click(ui, panel, "guess_nvlink");
        REQUIRE(panel.guess().link == core::LinkType::nvlink);
        panel.send();
        ui.frame([&] { panel.draw(1.0f / 60.0f); });
        click(ui, panel, "guess_infiniband");  // mid-send, with LINK already saying InfiniBand
        CHECK(panel.guess().link == core::LinkType::nvlink);
        play_to_end(ui, panel);
        click(ui, panel, "guess_infiniband");
        CHECK(panel.guess().link == core::LinkType::nvlink);
        panel.pick(RackPanel::Pick::same_node);  // another receiver: a new question
        ui.frame([&] { panel.draw(0); });
        click(ui, panel, "guess_infiniband");
        CHECK(panel.guess().link == core::LinkType::infiniband);
    }
    SECTION("Lesson 3: which split exchanges the most") {
        test::Headless ui;
        SplitPanel panel(ui.context());
        ui.frame([&] { panel.draw(0); });
        click(ui, panel, "split_predict_open");
        click(ui, panel, "guess_data");
        REQUIRE(panel.guess() == core::Strategy::data);
        panel.playback().play();
        play_to_end(ui, panel);
        CHECK(panel.guess_locked());
        click(ui, panel, "guess_fsdp");
        CHECK(panel.guess() == core::Strategy::data);
        panel.choose_strategy(core::Strategy::fsdp);  // another split, the same question: still in
        ui.frame([&] { panel.draw(0); });
        click(ui, panel, "guess_fsdp");
        CHECK(panel.guess() == core::Strategy::data);
        core::SplitSetup four = panel.setup();  // 4 GPUs: a new question
        four.gpus = 4;
        panel.apply(four);
        ui.frame([&] { panel.draw(0); });
        CHECK_FALSE(panel.guess_locked());
        click(ui, panel, "guess_fsdp");
        CHECK(panel.guess() == core::Strategy::fsdp);
    }
}

TEST_CASE("Lesson 1's guess is in once the run starts and opens again when a setting changes") {
    test::Headless ui;
    lessons::LayerRunPanel panel(ui.context());
    panel.set_guess(3);
    ui.frame([&] { panel.draw(0); });
    CHECK_FALSE(panel.guess_locked());
    CHECK(panel.timeline_csv().empty());  // File > Export: its end times would answer the guess
    panel.playback().play();
    ui.frame([&] { panel.draw(1.0f / 60.0f); });
    CHECK(panel.guess_locked());
    play_to_end(ui, panel);
    REQUIRE(panel.revealed());
    CHECK_THAT(panel.timeline_csv(), Catch::StartsWith("machine,layer,neuron,core,"));
    panel.playback().reset();
    ui.frame([&] { panel.draw(0); });
    CHECK(panel.guess_locked());  // Reset replays the same question
    // A click on the locked box and digits typed: the box takes the keys (so the app's lesson keys
    // do not see them) and keeps the guess.
    click(ui, panel, "guess_box");
    CHECK(ImGui::GetIO().WantTextInput);
    ImGui::GetIO().AddInputCharacter('7');
    ui.frame([&] { panel.draw(0); });
    ui.frame([&] { panel.draw(0); });
    CHECK_THAT(panel.status(), Catch::Contains("guess=3 "));
    core::LayerRunSetup wider = panel.setup();
    wider.network.widths = {4, 64, 64, 3};
    panel.apply(wider);
    CHECK_FALSE(panel.guess_locked());
}

TEST_CASE("G and N make the guess from the keyboard in every lesson, and do nothing once it is locked") {
    SECTION("Lesson 1: G puts the keyboard in the box; digits and Enter are the guess") {
        test::Headless ui;
        lessons::LayerRunPanel panel(ui.context());
        ui.frame([&] { panel.draw(0); });
        CHECK_FALSE(ImGui::GetIO().WantTextInput);
        panel.guess_key(false);
        for (int i = 0; i < 3; ++i) ui.frame([&] { panel.draw(0); });  // drawn, activated, reported
        REQUIRE(ImGui::GetIO().WantTextInput);  // a typed "3" is a guess, not Lesson 3
        ImGui::GetIO().AddInputCharacter('3');
        ui.frame([&] { panel.draw(0); });
        CHECK_THAT(panel.status(), Catch::Contains("guess=3 "));
    }
    SECTION("Lesson 1: once the run has started G leaves the box alone") {
        test::Headless ui;
        lessons::LayerRunPanel panel(ui.context());
        panel.playback().play();
        ui.frame([&] { panel.draw(1.0f / 60.0f); });
        REQUIRE(panel.guess_locked());
        panel.guess_key(false);
        for (int i = 0; i < 3; ++i) ui.frame([&] { panel.draw(0); });
        CHECK_FALSE(ImGui::GetIO().WantTextInput);
    }
    SECTION("Lesson 2: G steps the wire, then NVLS, tree, ring in turn; N takes the number") {
        test::Headless ui;
        RackPanel panel(ui.context());
        ui.frame([&] { panel.draw(0); });
        panel.guess_key(false);
        CHECK(panel.guess().link == core::LinkType::nvlink);
        panel.guess_key(false);
        CHECK(panel.guess().link == core::LinkType::infiniband);
        panel.guess_key(true);
        for (int i = 0; i < 3; ++i) ui.frame([&] { panel.draw(0); });  // "Predict first?" opens, its box takes the keys
        CHECK(ImGui::GetIO().WantTextInput);
        panel.guess_key(false);
        CHECK_FALSE(panel.guess().link);  // after the last answer: no guess
        panel.set_mode(RackPanel::Mode::all_reduce);
        panel.set_group(16);
        panel.set_collective_bytes(1 << 20);
        ui.frame([&] { panel.draw(0); });
        const auto choices = core::guess_choices(panel.cluster().system(), panel.collective().group, panel.op());
        REQUIRE(choices.size() >= 2);
        for (core::CollectiveAlgorithm a : choices) {
            panel.guess_key(false);
            CHECK(panel.collective_guess().faster == a);
        }
        panel.guess_key(false);
        CHECK_FALSE(panel.collective_guess().faster);
        panel.guess_key(false);
        panel.playback().step();
        ui.frame([&] { panel.draw(0); });
        REQUIRE(panel.guess_locked());
        panel.guess_key(false);
        CHECK(panel.collective_guess().faster == choices.front());
    }
    SECTION("Lesson 3: G opens Predict and steps through the splits") {
        test::Headless ui;
        SplitPanel panel(ui.context());
        ui.frame([&] { panel.draw(0); });
        const auto bytes = panel.strategy_bytes();
        REQUIRE(bytes.size() >= 2);
        for (const core::StrategyBytes& b : bytes) {
            panel.guess_key(false);
            CHECK(panel.guess() == b.strategy);
        }
        CHECK(panel.guess_pending());
        panel.guess_key(false);
        CHECK_FALSE(panel.guess());
        panel.guess_key(true);  // no number to guess in this lesson
        CHECK_FALSE(panel.guess());
        // The Frontier tab has no guess: G there leaves the toy network's, out of sight, alone.
        nlohmann::json state = panel.save_state();
        state["frontier"]["open"] = true;
        panel.load_state(state);
        for (int i = 0; i < 10; ++i) ui.frame([&] { panel.draw(0); });  // the tab bar selects it
        panel.guess_key(false);
        CHECK_FALSE(panel.guess());
        // Nor the toy network's intro: "Pick a strategy ... Press Run" stood above a tab with no Run.
        CHECK_THAT(std::string(panel.intro()), Catch::StartsWith("A real model on a real cluster") && !Catch::Contains("Run"));
    }
}

TEST_CASE("at 1024x768 and 1.5 Down and Page Down scroll Lesson 3's words and Lesson 4's feedback, not only the scene") {
    // A reviewer: the reveal sat in the words pane, which only the wheel scrolled; the keys moved
    // the scene once and stopped. The same in Explain it back's feedback in presenter view.
    test::Headless ui(1024, 768, 1.5f);
    auto press_down = [&](auto& panel) {
        ui.context().scene_scroll = 1;  // what the app's handle_keys sets for Down or Page Down
        ui.frame([&] { panel.draw(1.0f / 60.0f); });
        ui.context().scene_scroll = 0;
        ui.frame([&] { panel.draw(1.0f / 60.0f); });
        ui.frame([&] { panel.draw(1.0f / 60.0f); });
    };
    // Whether the item moved up under one more Down (the pane scrolled).
    auto moves_up = [&](auto& panel, const char* item) {
        const auto first = ui.context().items.rect(item);
        press_down(panel);
        const auto after = ui.context().items.rect(item);
        return first && after && after->y < first->y - 20;
    };
    SECTION("Lesson 3") {
        SplitPanel panel(ui.context());
        panel.set_guess(core::Strategy::tensor);
        panel.playback().play();
        play_to_end(ui, panel);
        for (int i = 0; i < 3; ++i) press_down(panel);  // the scene first, then the words inside it
        CHECK(moves_up(panel, "split_reveal"));
    }
    SECTION("Lesson 4, presenter view") {
        ui.context().view.presenter = true;
        lessons::ExplainPanel panel(ui.context());
        panel.set_answer("A GPU has thousands of small cores. Memory bandwidth matters.");
        panel.submit();
        for (int i = 0; i < 3; ++i) ui.frame([&] { panel.draw(1.0f / 60.0f); });
        CHECK(moves_up(panel, "ideas_found"));
    }
}

TEST_CASE("at 1024x768 and 1.5 G in Lesson 3 brings the guess it made into sight, not only the heading above it") {
    test::Headless ui(1024, 768, 1.5f);
    SplitPanel panel(ui.context());
    for (int i = 0; i < 2; ++i) ui.frame([&] { panel.draw(1.0f / 60.0f); });
    panel.guess_key(false);
    for (int i = 0; i < 4; ++i) ui.frame([&] { panel.draw(1.0f / 60.0f); });
    REQUIRE(panel.guess() == core::Strategy::data);
    const auto pane = ui.context().items.rect("controls");
    const auto choice = ui.context().items.rect("guess_data");
    REQUIRE(pane);
    REQUIRE(choice);
    CHECK(choice->y >= pane->y);
    CHECK(choice->w <= pane->w);  // its bottom inside the pane
}

TEST_CASE("on a 1024x768 projector at 1.5 in presenter view Lesson 2's answer comes into sight with the rack when the send ends") {
    // The reveal came under the wheel's tag: the room saw the send end and no answer (a reviewer).
    test::Headless ui(1024, 768, 1.5f);
    ui.context().view.presenter = true;
    RackPanel panel(ui.context());
    panel.pick(RackPanel::Pick::other_rack);
    panel.set_guess(core::SendGuess{core::LinkType::infiniband, 8});
    ui.frame([&] { panel.draw(1.0f / 60.0f); });
    panel.send();
    play_to_end(ui, panel);
    for (int i = 0; i < 3; ++i) ui.frame([&] { panel.draw(1.0f / 60.0f); });
    const auto scene = ui.context().items.rect("scene");
    const auto reveal = ui.context().items.rect("rack_reveal");
    const auto tag = ui.context().items.rect("more_below");
    const auto first_gpu = ui.context().items.rect("gpu_0");
    REQUIRE(scene);
    REQUIRE(reveal);
    REQUIRE(first_gpu);
    CHECK(reveal->y >= scene->y);
    CHECK(reveal->w <= (tag ? tag->y : scene->w));  // above the tag, whole
    CHECK(first_gpu->y >= scene->y);                // and the rack's GPUs still in sight
}
