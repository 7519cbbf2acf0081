// Lesson 2's question before an all-reduce, "which is faster, the ring or the tree?", and its reveal.
#include <catch2/catch.hpp>

#include "m2m/core/rack/send_guess.hpp"
#include "m2m/presets/presets.hpp"

using namespace m2m;
using namespace m2m::core;

namespace {

Cluster cluster_of(const char* id) { return Cluster(ClusterShape{8, 8, 2, 0}, presets::builtin().find_system(id)->spec); }

CollectiveResult all_reduce(const Cluster& c, std::uint32_t gpus, Bytes bytes) {
    CollectiveSetup s;
    s.group = first_gpus(gpus);
    s.bytes = bytes;
    return run_collective(c, s);
}

}  // namespace

TEST_CASE("the question sets the ring against the tree across nodes, and against NVLS in an H100 node") {
    const Cluster h100 = cluster_of("h100");
    CHECK(guess_question(h100.system(), first_gpus_group(128, 8), CollectiveOp::all_reduce, 8) ==
          "Which is faster for 8 B on 128 GPUs: the ring or the tree?");
    CHECK(guess_choices(h100.system(), first_gpus_group(8, 8), CollectiveOp::all_reduce) ==
          std::vector<CollectiveAlgorithm>{CollectiveAlgorithm::ring, CollectiveAlgorithm::tree});
    CHECK(guess_choices(h100.system(), first_gpus_group(8, 8), CollectiveOp::all_gather) ==
          std::vector<CollectiveAlgorithm>{CollectiveAlgorithm::ring, CollectiveAlgorithm::nvls});
    CHECK(guess_choices(h100.system(), first_gpus_group(8, 8), CollectiveOp::broadcast).empty());
    CHECK(guess_question(h100.system(), first_gpus_group(8, 8), CollectiveOp::broadcast, 8).empty());
}

TEST_CASE("for 8 bytes on 128 GPUs the tree is faster: a guess of the ring is told so, with both times") {
    const Cluster c = cluster_of("h100");
    const CollectiveResult r = all_reduce(c, 128, 8);
    const CollectiveReveal wrong = reveal_collective({CollectiveAlgorithm::ring}, c, r);
    CHECK(wrong.guessed);
    CHECK_FALSE(wrong.right);
    CHECK(wrong.faster == CollectiveAlgorithm::tree);
    CHECK_THAT(wrong.line, Catch::StartsWith("You guessed the ring; the tree is faster at 8 B") &&
                               Catch::Contains("55.2 µs") && Catch::Contains("312 µs"));
    const CollectiveReveal right = reveal_collective({CollectiveAlgorithm::tree}, c, r);
    CHECK(right.right);
    CHECK_THAT(right.line, Catch::StartsWith("Right: the tree"));
    CHECK_FALSE(reveal_collective({}, c, r).guessed);
}

TEST_CASE("for a gigabyte in one node the ring beats the chain-shaped tree") {
    const Cluster c = cluster_of("a100");
    const CollectiveResult r = all_reduce(c, 8, 1 << 30);
    const CollectiveReveal rev = reveal_collective({CollectiveAlgorithm::tree}, c, r);
    CHECK_FALSE(rev.right);
    CHECK(rev.faster == CollectiveAlgorithm::ring);
}
