// Lesson 3's placement: the same step in one node and across two, set side by side in words.
#include <catch2/catch.hpp>

#include "m2m/core/engine/text.hpp"
#include "m2m/core/rack/collectives.hpp"
#include "m2m/core/split/split.hpp"
#include "split_setups.hpp"

using namespace m2m::core;

namespace {

SplitResult run(Strategy s, int gpus, Placement p, const char* hardware = "h100") {
    return run_split(trained_next_word_model(), m2m::test::split_setup(s, gpus, 1, p, SplitTiming::lesson, hardware));
}

}  // namespace

TEST_CASE("each placement names the other's exchanging time, from the step the core ran there") {
    for (Strategy s : {Strategy::data, Strategy::tensor, Strategy::fsdp}) {
        for (int g : {2, 4, 8}) {
            const SplitResult one = run(s, g, Placement::one_node), two = run(s, g, Placement::two_nodes);
            INFO(strategy_name(s) << " on " << g << ": " << one.placement_sentence << " | " << two.placement_sentence);
            const std::string t1 = format_seconds(one.step.communication_s), t2 = format_seconds(two.step.communication_s);
            CHECK_THAT(one.placement_sentence, Catch::StartsWith("Across two nodes the GPUs would wait " + t2 + " on exchanges, not " + t1));
            CHECK_THAT(two.placement_sentence, Catch::StartsWith("In one node the GPUs would wait " + t1 + " on exchanges, not " + t2));
            // Where two nodes wait longer, InfiniBand is why; where they wait less, the sentence says so.
            const bool two_slower = two.step.communication_s >= one.step.communication_s;
            CHECK((one.placement_sentence.find("InfiniBand's longer hops") != std::string::npos) == two_slower);
            CHECK((two.placement_sentence.find("two nodes wait less here") != std::string::npos) == !two_slower);
        }
    }
    // One GPU has no other placement and nothing to exchange.
    CHECK(run(Strategy::data, 1, Placement::one_node).placement_sentence.empty());
}

TEST_CASE("data parallel on 8 GPUs waits less across two nodes, and the words say which algorithm each runs and why") {
    // The 14.6 KB gradient all-reduce: across two nodes NCCL's tree; in one node its estimate picks
    // the ring, which the model runs on one of its channels at this size.
    for (const char* hw : {"a100", "h100", "b200"}) {
        INFO(hw);
        const SplitResult one = run(Strategy::data, 8, Placement::one_node, hw), two = run(Strategy::data, 8, Placement::two_nodes, hw);
        REQUIRE(one.exchanges.size() == 1);
        REQUIRE(two.step.communication_s < one.step.communication_s);
        const std::string& s = two.placement_sentence;
        INFO(s);
        CHECK_THAT(s, Catch::Contains("two nodes wait less here, though InfiniBand is the slower wire."));
        CHECK_THAT(s, Catch::Contains("The " + format_bytes(static_cast<double>(one.exchanges[0].bytes)) + " all-reduce"));
        CHECK_THAT(s, Catch::Contains("Across the nodes NCCL picks the tree"));
        CHECK_THAT(s, Catch::Contains("in one node the ring"));
        // Each algorithm's time is the exchange's own, as the exchange list gives it.
        CHECK_THAT(s, Catch::Contains(": " + format_seconds(two.exchanges[0].seconds) + ";"));
        CHECK_THAT(s, Catch::Contains(": " + format_seconds(one.exchanges[0].seconds) + "."));
        CHECK(one.placement_sentence.substr(one.placement_sentence.find(':')) == s.substr(s.find(':')));
    }
}
