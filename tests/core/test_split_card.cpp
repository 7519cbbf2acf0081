// Lesson 3's GPU cards from the core: where each GPU sits in the split, what it is doing at any
// moment of the step (found by search, checked against a plain scan), and its footer.
#include <catch2/catch.hpp>

#include "m2m/core/split/split_card.hpp"
#include "split_setups.hpp"

using namespace m2m::core;

namespace {

SplitSetup setup_for(Strategy s, int gpus, int micro_batches = 4, Placement p = Placement::one_node) {
    return m2m::test::split_setup(s, gpus, micro_batches, p);
}

// What runs at t by looking at every task: the reference the cards' binary search must match.
StepActivity scan(const SplitResult& r, int gpu, double t) {
    StepActivity a;
    if (t <= 0) return a;
    const auto& tasks = r.step.gpus[static_cast<std::size_t>(gpu)].tasks;
    for (std::size_t i = 0; i < tasks.size(); ++i) {
        if (!(tasks[i].start_s() <= t && t < tasks[i].end_s())) continue;
        if (tasks[i].kind == StepTaskKind::communication) {
            a.exchange = static_cast<int>(i);  // the last one started: the one the card shows
        } else if (tasks[i].kind == StepTaskKind::idle) {
            a.idle = static_cast<int>(i);
        } else {
            a.kernel = static_cast<int>(i);
        }
    }
    if (a.kernel >= 0) a.idle = -1;
    return a;
}

}  // namespace

TEST_CASE("a GPU's card says where it sits: its node, copy, slice and stage, in words and in letters") {
    const SplitResult r = run_split(trained_next_word_model(), setup_for(Strategy::three_d, 8, 4, Placement::two_nodes));
    const SplitCards cards(r);
    const GpuCardWords& w = cards.words(5);  // tensor rank fastest, then copy, then stage
    CHECK(w.roles == std::vector<std::string>{"node 1 \xc2\xb7 copy 1 \xc2\xb7 slice 2 \xc2\xb7 stage 2",
                                              "copy 1 \xc2\xb7 slice 2 \xc2\xb7 stage 2", "node 1"});
    CHECK(w.places == std::vector<std::string>{"copy 1 \xc2\xb7 slice 2 \xc2\xb7 stage 2", "D1 T2 P2"});
    const SplitResult one = run_split(trained_next_word_model(), setup_for(Strategy::data, 1));
    CHECK(SplitCards(one).words(0).places.empty());  // nothing is split: nothing to place
    CHECK(SplitCards(one).words(0).roles.front() == "node 0");
}

TEST_CASE("a GPU's card footer counts its parameters, bytes and prompts") {
    const SplitResult r = run_split(trained_next_word_model(), setup_for(Strategy::data, 2));
    const SplitCards cards(r);
    const GpuCardWords& w = cards.words(1);
    REQUIRE(w.footer.size() == 3);
    CHECK_THAT(w.footer[0], Catch::StartsWith("7,280 parameters \xc2\xb7 ") && Catch::EndsWith(" \xc2\xb7 24 prompts"));
    CHECK(w.footer[1] + " \xc2\xb7 24 prompts" == w.footer[0]);
    CHECK_THAT(w.footer[1], Catch::EndsWith(" \xc2\xb7 " + w.footer[2]) && Catch::EndsWith(" KB"));
}

TEST_CASE("a card finds what its GPU runs at any moment, as a scan of every task does") {
    for (Strategy s : {Strategy::data, Strategy::tensor, Strategy::pipeline, Strategy::three_d}) {
        const SplitResult r = run_split(trained_next_word_model(), setup_for(s, s == Strategy::three_d ? 8 : 4));
        const SplitCards cards(r);
        INFO(strategy_name(s));
        for (int g = 0; g < static_cast<int>(r.gpus.size()); ++g)
            for (int i = 0; i <= 400; ++i) {
                const double t = r.step.step_time_s * i / 400.0;
                const StepActivity a = cards.activity(r, g, t), b = scan(r, g, t);
                CHECK(a.kernel == b.kernel);
                CHECK(a.idle == b.idle);
                CHECK((a.exchange >= 0) == (b.exchange >= 0));
            }
    }
}

TEST_CASE("a card says what its GPU is doing, longest first, from ready to step done") {
    const SplitResult r = run_split(trained_next_word_model(), setup_for(Strategy::tensor, 2));
    const SplitCards cards(r);
    CHECK(cards.moment(r, 0, 0.0).doing == std::vector<std::string>{"ready"});
    CHECK(cards.moment(r, 0, r.step.step_time_s * 2).doing == std::vector<std::string>{"step done"});
    // The first kernel: the embedding's forward.
    const StepTask& first = r.step.gpus[0].tasks.front();
    REQUIRE(first.kind == StepTaskKind::forward);
    const GpuCardMoment m = cards.moment(r, 0, (first.start_s() + first.end_s()) / 2);
    REQUIRE(m.kernel == &first);
    CHECK(m.active_layer == 0);
    CHECK_FALSE(m.updating);
    CHECK(m.doing.front() == step_task_text(r, first));
    CHECK(m.doing[1] == "forward \xc2\xb7 embedding");
    CHECK(m.doing.back() == "forward");
    CHECK(m.held == &r.gpus[0].neurons);
    // While its outputs are gathered, the card names the collective and its link.
    bool saw_gather = false;
    for (const StepTask& t : r.step.gpus[0].tasks) {
        if (t.kind != StepTaskKind::communication) continue;
        const GpuCardMoment e = cards.moment(r, 0, (t.start_s() + t.end_s()) / 2);
        REQUIRE(e.exchange);
        if (!e.kernel && e.exchange->op == ExchangeOp::all_gather) {
            CHECK(e.doing[1] == "all-gather \xc2\xb7 NVLink");
            saw_gather = true;
        }
    }
    CHECK(saw_gather);
}
