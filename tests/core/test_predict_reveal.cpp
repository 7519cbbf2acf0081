// Predict, then reveal: a guess about a send or a split set against what the core computed.
#include <catch2/catch.hpp>

#include "m2m/core/rack/send_guess.hpp"
#include "m2m/core/split/split_guess.hpp"
#include "m2m/presets/presets.hpp"
#include "m2m/core/engine/text.hpp"

using namespace m2m;
using namespace m2m::core;

namespace {

Cluster lesson_cluster() {
    const auto* p = presets::builtin().find_system("h100");
    REQUIRE(p);
    return Cluster(ClusterShape{8, 8, 2, 0}, p->spec);
}

SplitSetup on(int gpus) {
    SplitSetup s;
    s.gpus = gpus;
    return s;
}

}  // namespace

TEST_CASE("a right guess of InfiniBand between nodes is called right, with where the GPUs sit") {
    const Cluster c = lesson_cluster();
    const TransferResult t = run_transfer(c, 2, 11, 1'000'000'000);
    const SendReveal r = reveal_send(SendGuess{LinkType::infiniband, 0}, c, t);
    CHECK(r.link_guessed);
    CHECK(r.link_right);
    CHECK_FALSE(r.times_guessed);
    REQUIRE(r.lines.size() == 1);
    CHECK(r.lines[0] == "Right: the tensor crossed InfiniBand. GPU 2 and GPU 11 sit in different nodes, so it left "
                        "through a NIC.");
}

TEST_CASE("a wrong link and a time guess are each set against the send's result") {
    const Cluster c = lesson_cluster();
    const TransferResult t = run_transfer(c, 2, 11, 1'000'000'000);
    REQUIRE(t.relative_time > 7.0);
    const SendReveal r = reveal_send(SendGuess{LinkType::nvlink, 100}, c, t);
    CHECK_FALSE(r.link_right);
    CHECK(r.times_guessed);
    CHECK_FALSE(r.times_close);
    CHECK(r.times_off == Approx(100 / t.relative_time));
    REQUIRE(r.lines.size() == 2);
    CHECK_THAT(r.lines[0], Catch::StartsWith("You guessed NVLink; the tensor crossed InfiniBand."));
    CHECK(r.lines[1] == "You guessed 100\xc3\x97 as long as over NVLink inside a node; it took " +
                            format_ratio(t.relative_time) + ": your guess was " + format_ratio(100 / t.relative_time) +
                            " too high.");

    const SendReveal close = reveal_send(SendGuess{std::nullopt, t.relative_time * 1.2}, c, t);
    CHECK_FALSE(close.link_guessed);
    CHECK(close.times_close);
    REQUIRE(close.lines.size() == 1);
    CHECK_THAT(close.lines[0], Catch::EndsWith(": close."));

    const SendReveal low = reveal_send(SendGuess{std::nullopt, 2}, c, t);
    CHECK_THAT(low.lines[0], Catch::EndsWith("too low."));
}

TEST_CASE("a send inside a node takes 1x as long as over NVLink, and a send to the other rack crosses the spine") {
    const Cluster c = lesson_cluster();
    const SendReveal inside = reveal_send(SendGuess{LinkType::nvlink, 1}, c, run_transfer(c, 0, 5, 1'000'000));
    CHECK(inside.link_right);
    CHECK(inside.times_close);
    CHECK_THAT(inside.lines[0], Catch::Contains("sit in one node"));
    const SendReveal racks = reveal_send(SendGuess{LinkType::nvlink, 0}, c, run_transfer(c, 0, 64, 1'000'000));
    CHECK_THAT(racks.lines[0], Catch::Contains("different racks") && Catch::Contains("spine"));
    CHECK(reveal_send(SendGuess{}, c, run_transfer(c, 0, 5, 1'000)).lines.empty());
}

TEST_CASE("every strategy that splits the GPU count is compared by the bytes it puts on the wires per step") {
    const NextWordModel& model = trained_next_word_model();
    const auto two = exchanged_by_strategy(model, on(2));
    REQUIRE(two.size() == 4);  // 3D needs 8 GPUs
    CHECK(two[0].strategy == Strategy::data);
    CHECK(two[0].exchanged == 14'560);  // the gradients of all 7,280 parameters, 2 bytes each
    CHECK(two[1].strategy == Strategy::tensor);
    CHECK(two[1].exchanged == 34'560);
    CHECK(two[2].strategy == Strategy::pipeline);
    CHECK(two[2].exchanged == 9'216);
    CHECK(two[3].strategy == Strategy::fsdp);
    CHECK(two[3].exchanged == 3 * 14'560);  // every weight gathered twice, every gradient reduce-scattered
    for (const StrategyBytes& b : two) {
        SplitSetup s = on(2);
        s.strategy = b.strategy;
        CHECK(plan_split(model, s).exchanged_bytes == b.exchanged);
        CHECK(plan_split(model, s).wire_bytes == b.wire);
    }
    // An all-reduce sends its tensor about twice, an all-gather once: on 2 GPUs data parallel's 14.6
    // KB of gradients are 29.1 KB on the wires, tensor parallel's gathers 34.6 KB as they are.
    CHECK(two[0].wire == 2 * 14'560);
    CHECK(two[1].wire == 34'560);
    CHECK(two[3].wire == 1.5 * two[0].wire);

    const auto eight = exchanged_by_strategy(model, on(8));
    REQUIRE(eight.size() == 4);  // a pipeline of 4 dense layers splits 4 ways at most
    CHECK(eight[2].strategy == Strategy::three_d);
    CHECK(eight[2].exchanged == 62'944);
    // 3D exchanges the largest tensors on 8 GPUs, but its all-reduces span 2 copies and its gathers
    // 2 GPUs: the least on the wires of the four. The question is about the wires, where the time goes.
    CHECK(eight[2].exchanged > eight[3].exchanged);
    CHECK(eight[2].wire < eight[0].wire);
    CHECK(eight[3].wire > eight[1].wire);
    CHECK(exchanged_by_strategy(model, on(3)).size() == 1);  // only data parallel splits 3 ways
    // One GPU puts nothing on a wire whatever the strategy: no question (it read "Right: data
    // parallel puts the most" to a guess of tensor parallel, every split at 0 B).
    CHECK(exchanged_by_strategy(model, on(1)).empty());
}

TEST_CASE("the split reveal names the strategy that puts the most on the wires and lists them all, most first") {
    const auto two = exchanged_by_strategy(trained_next_word_model(), on(2));
    // FSDP saves memory by moving the weights three times a step: on 2 GPUs that outweighs tensor
    // parallel's activations.
    const SplitReveal right = reveal_split(Strategy::fsdp, two, 2);
    CHECK(right.right);
    CHECK(right.most == Strategy::fsdp);
    REQUIRE(right.lines.size() == 3);
    CHECK(right.lines[0] == "Right: fully sharded data parallel (FSDP) puts the most bytes on the wires.");
    CHECK(right.lines[1] == "On the wires per training step on 2 GPUs: fully sharded data parallel (FSDP) 43.7 KB, tensor "
                            "parallel 34.6 KB, data parallel 29.1 KB, pipeline parallel 9.22 KB.");

    const SplitReveal wrong = reveal_split(Strategy::tensor, two, 2);
    CHECK_FALSE(wrong.right);
    CHECK(wrong.lines[0] == "You guessed tensor parallel; fully sharded data parallel (FSDP) puts the most bytes on the wires.");
    // On 8 GPUs the answer is FSDP, not 3D, whose tensors are the largest.
    const auto eight = exchanged_by_strategy(trained_next_word_model(), on(8));
    CHECK(reveal_split(Strategy::fsdp, eight, 8).right);
    CHECK_FALSE(reveal_split(Strategy::three_d, eight, 8).right);
    CHECK_THROWS_AS(reveal_split(Strategy::data, {}, 2), std::invalid_argument);
    // A tie for the most: the guess among them is named.
    const std::vector<StrategyBytes> tie{{Strategy::data, 100, 200}, {Strategy::tensor, 100, 200}};
    CHECK(reveal_split(Strategy::tensor, tie, 2).right);
    CHECK(reveal_split(Strategy::tensor, tie, 2).most == Strategy::tensor);
}
