// The "Explain it back" panel run headless: typing, Submit, the checklist it reports, facts from
// the run log, scenarios, and that it fits a projector's 1024x768 at scale 1.5.
#include <catch2/catch.hpp>

#include "headless.hpp"
#include "lessons/explain/explain_panel.hpp"
#include "lessons/layers/layer_run_panel.hpp"
#include "ui/view.hpp"

using namespace m2m;

namespace {

const char* partial_answer =
    "Matrix multiplication consists of many independent dot products that can be computed in parallel. GPUs have "
    "thousands of cores so they can compute them simultaneously, while CPUs only have a few cores and must do them "
    "mostly sequentially.";

}  // namespace

TEST_CASE("the explain panel opens empty and unsubmitted") {
    test::Headless ui;
    lessons::ExplainPanel panel(ui.context());
    ui.frame([&] { panel.draw(0.016f); });
    CHECK(panel.id() == "explain");
    CHECK_FALSE(panel.submitted());
    CHECK(panel.status() ==
          "lesson=explain chars=0 submitted=0 changed=0 ideas=0/7 found=none misconceptions=none model=0 facts=0");
}

TEST_CASE("typing an answer and pressing Submit reports the checklist") {
    test::Headless ui;
    lessons::ExplainPanel panel(ui.context());
    panel.set_answer(partial_answer);
    ui.frame([&] { panel.draw(0.016f); });
    CHECK_FALSE(panel.submitted());
    panel.submit();
    ui.frame([&] { panel.draw(0.016f); });
    REQUIRE(panel.submitted());
    CHECK(panel.feedback().found_count() == 4);
    CHECK_FALSE(panel.feedback().found(core::ExplainIdea::layers_depend));
    CHECK_FALSE(panel.feedback().found(core::ExplainIdea::data_movement));
    CHECK(panel.status() == "lesson=explain chars=238 submitted=1 changed=0 ideas=4/7 "
                            "found=dot_products,independent_outputs,gpu_many_cores,cpu_few_cores misconceptions=none "
                            "model=0 facts=0");

    // Editing after Submit keeps the old checklist but says it is out of date.
    panel.set_answer(std::string(partial_answer) + " Only the layers depend on each other.");
    CHECK(panel.changed_since_submit());
    CHECK(panel.feedback().found_count() == 4);
    panel.submit();
    CHECK_FALSE(panel.changed_since_submit());
    CHECK(panel.feedback().found_count() == 5);
    CHECK_THAT(panel.status(), Catch::Contains("ideas=5/7") && Catch::Contains("layers_depend"));
}

TEST_CASE("a misconception and the model answer show in the status") {
    lessons::Context ctx;
    lessons::ExplainPanel panel(ctx);
    panel.set_answer("GPU cores are faster than CPU cores.");
    panel.submit();
    panel.show_model_answer(true);
    CHECK_THAT(panel.status(), Catch::Contains("ideas=0/7 found=none misconceptions=gpu_cores_faster model=1"));
}

TEST_CASE("a finished Lesson 1 run shows up as a fact, once") {
    test::Headless ui;
    lessons::RunLog& log = ui.context().run_log;
    lessons::LayerRunPanel layers(ui.context());
    lessons::ExplainPanel panel(ui.context());  // the shared log, as in the app
    CHECK(panel.run_sentences().empty());
    layers.playback().play();
    for (int i = 0; i < 60 * 20; ++i) ui.frame([&] { layers.draw(1.0f / 60.0f); }, 1.0f / 60.0f);
    REQUIRE(layers.playback().finished());
    for (int i = 0; i < 5; ++i) ui.frame([&] { layers.draw(1.0f / 60.0f); }, 1.0f / 60.0f);
    CHECK(log.facts().size() == 1);  // the end is seen every frame, recorded once
    REQUIRE(panel.run_sentences().size() == 1);
    CHECK(panel.run_sentences()[0] == "In your Lesson 1 run with 6-wide layers the GPU finished 5\xc3\x97 sooner than the "
                                      "CPU (lesson timing, 1 CPU core against 6 GPU cores).");
    ui.frame([&] { panel.draw(0.016f); });
    CHECK_THAT(panel.status(), Catch::EndsWith("facts=1"));
}

TEST_CASE("the run log ignores repeats and keeps the newest facts") {
    lessons::RunLog log;
    const core::SplitFact data{"data parallel", 2, 100};
    CHECK(log.record(data));
    CHECK_FALSE(log.record(data));
    CHECK(log.record(core::TransferFact{"NVLink", 1e6, 1e-5, 1.0}));
    CHECK_FALSE(log.record(data));  // still the latest split fact
    CHECK(log.record(core::SplitFact{"tensor parallel", 2, 200}));
    CHECK(log.record(data));
    CHECK(log.facts().size() == 4);
    for (int i = 0; i < 100; ++i) log.record(core::SplitFact{"data parallel", i + 3, 100.0 * i});
    CHECK(log.facts().size() == lessons::RunLog::max_facts);
    CHECK(std::get<core::SplitFact>(log.facts().back()).gpus == 102);
}

TEST_CASE("the explain panel saves and restores its answer, and refuses a bad state whole") {
    lessons::Context ctx;
    lessons::ExplainPanel panel(ctx);
    panel.set_answer("Many dot products.");
    panel.show_model_answer(true);
    const auto saved = panel.save_state();
    lessons::ExplainPanel other(ctx);
    other.load_state(saved);
    CHECK(other.answer() == "Many dot products.");
    CHECK(other.model_answer_shown());
    CHECK_FALSE(other.submitted());
    panel.submit();
    other.load_state(panel.save_state());
    REQUIRE(other.submitted());
    CHECK(found_ids(other.feedback()) == "dot_products");
    CHECK_THROWS_AS(other.load_state({{"answer", 3}}), std::invalid_argument);
    CHECK_THROWS_AS(other.load_state({{"answer", "x"}, {"colour", "red"}}), std::invalid_argument);
    CHECK_THROWS_AS(other.load_state({{"answer", "x"}, {"submitted", "yes"}}), std::invalid_argument);
    CHECK_THROWS_AS(other.load_state(nlohmann::json::array()), std::invalid_argument);
    CHECK(other.answer() == "Many dot products.");
}

TEST_CASE("nothing leaves the window at 1024x768 and scale 1.5, before and after Submit") {
    test::Headless ui(1024, 768, 1.5f);
    lessons::RunLog& log = ui.context().run_log;
    log.record(core::LayerRunFact{{4, 512, 512, 3}, false, "", "", 1, 512, 341.0});
    log.record(core::TransferFact{"InfiniBand", 1e9, 20.8e-3, 9.0});
    lessons::ExplainPanel panel(ui.context());
    ui.frame([&] { panel.draw(0.016f); });
    ui.frame([&] { panel.draw(0.016f); });
    CHECK(ui.worst_overflow() <= 2.0f);

    panel.set_answer(std::string(partial_answer) + " GPU cores are faster than CPU cores.");
    panel.submit();
    panel.show_model_answer(true);
    for (int i = 0; i < 3; ++i) ui.frame([&] { panel.draw(0.016f); });
    CHECK(ui.worst_overflow() <= 2.0f);

    // A 100 KB paste in the box, and the presenter's view.
    std::string huge;
    while (huge.size() < 100 * 1024) huge += std::string(partial_answer) + "\n";
    panel.set_answer(huge);
    panel.submit();
    for (int i = 0; i < 3; ++i) ui.frame([&] { panel.draw(0.016f); });
    CHECK(ui.worst_overflow() <= 2.0f);
    CHECK(panel.feedback().truncated);
    ui.context().view.presenter = true;
    for (int i = 0; i < 3; ++i) ui.frame([&] { panel.draw(0.016f); });
    ui.context().view.presenter = false;
    CHECK(ui.worst_overflow() <= 2.0f);
}

TEST_CASE("nothing leaves the window at 1280x720 and 1920x1080") {
    for (auto [w, h, s] : {std::tuple{1280.0f, 720.0f, 1.0f}, {1920.0f, 1080.0f, 1.0f}, {1280.0f, 720.0f, 1.5f}}) {
        test::Headless ui(w, h, s);
        lessons::ExplainPanel panel(ui.context());
        panel.set_answer(partial_answer);
        panel.submit();
        panel.show_model_answer(true);
        for (int i = 0; i < 3; ++i) ui.frame([&] { panel.draw(0.016f); });
        INFO(w << "x" << h << " at scale " << s);
        CHECK(ui.worst_overflow() <= 2.0f);
    }
}

TEST_CASE("presenter view hides the answer box and Submit, and its prompt says how to bring them back") {
    test::Headless ui(1024, 768, 1.5f);
    lessons::ExplainPanel panel(ui.context());
    ui.frame([&] { panel.draw(0.016f); });
    CHECK(ui.context().items.rect("answer_box"));
    CHECK(ui.context().items.rect("submit_button"));
    CHECK_THAT(panel.prompt(), Catch::Contains("press Submit"));

    ui.context().view.presenter = true;
    ui.frame([&] { panel.draw(0.016f); });
    CHECK_FALSE(ui.context().items.rect("answer_box"));
    CHECK_FALSE(ui.context().items.rect("submit_button"));
    CHECK_THAT(panel.prompt(), Catch::Contains("press H to leave presenter view"));
    CHECK_THAT(panel.prompt(), !Catch::Contains("press Submit"));
}
