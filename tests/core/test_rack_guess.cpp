// Lesson 2's question before a collective, "which is fastest: the ring, the tree or NVLS?", and its reveal.
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

TEST_CASE("the question offers every algorithm that can run, so NCCL's fastest is always among the answers") {
    const Cluster h100 = cluster_of("h100");
    using A = CollectiveAlgorithm;
    CHECK(guess_question(h100.system(), first_gpus_group(128, 8), CollectiveOp::all_reduce, 8) ==
          "Which is fastest for 8 B on 128 GPUs: the ring, the tree or the NVLS tree?");
    CHECK(guess_choices(h100.system(), first_gpus_group(8, 8), CollectiveOp::all_reduce) ==
          std::vector<A>{A::ring, A::tree, A::nvls});
    CHECK(guess_question(h100.system(), first_gpus_group(8, 8), CollectiveOp::all_reduce, 1 << 30) ==
          "Which is fastest for 1.07 GB on 8 GPUs: the ring, the tree or NVLS?");
    CHECK(guess_choices(h100.system(), first_gpus_group(8, 8), CollectiveOp::all_gather) == std::vector<A>{A::ring, A::nvls});
    CHECK(guess_question(h100.system(), first_gpus_group(8, 8), CollectiveOp::all_gather, 8) ==
          "Which is faster for 8 B on 8 GPUs: the ring or NVLS?");
    CHECK(guess_choices(cluster_of("a100").system(), first_gpus_group(8, 8), CollectiveOp::all_reduce) ==
          std::vector<A>{A::ring, A::tree});
    CHECK(guess_choices(h100.system(), first_gpus_group(8, 8), CollectiveOp::broadcast).empty());
    CHECK(guess_question(h100.system(), first_gpus_group(8, 8), CollectiveOp::broadcast, 8).empty());
}

TEST_CASE("for 8 bytes on 128 GPUs the tree is fastest: a guess of the ring is told so, against the ring's time") {
    const Cluster c = cluster_of("h100");
    const CollectiveResult r = all_reduce(c, 128, 8);
    const CollectiveReveal wrong = reveal_collective({CollectiveAlgorithm::ring}, c, r);
    CHECK(wrong.guessed);
    CHECK_FALSE(wrong.right);
    CHECK(wrong.faster == CollectiveAlgorithm::tree);
    CHECK_THAT(wrong.line, Catch::StartsWith("You guessed the ring; the tree is fastest at 8 B") &&
                               Catch::Contains("55.2 µs against the ring's 312 µs"));
    const CollectiveReveal right = reveal_collective({CollectiveAlgorithm::tree}, c, r);
    CHECK(right.right);
    CHECK_THAT(right.line, Catch::StartsWith("Right: the tree is fastest") && Catch::Contains("the NVLS tree's"));
    CHECK_FALSE(reveal_collective({}, c, r).guessed);
}

TEST_CASE("for a gigabyte in one node a guess of the tree is wrong: the ring wins on an A100, NVLS on an H100") {
    for (const auto& [id, fastest] : {std::pair{"a100", CollectiveAlgorithm::ring}, std::pair{"h100", CollectiveAlgorithm::nvls}}) {
        INFO(id);
        const Cluster c = cluster_of(id);
        const CollectiveResult r = all_reduce(c, 8, 1 << 30);
        const CollectiveReveal rev = reveal_collective({CollectiveAlgorithm::tree}, c, r);
        CHECK_FALSE(rev.right);
        CHECK(rev.faster == fastest);
        CHECK(r.algorithm == fastest);  // NCCL's pick, by its estimate, is the fastest here too
        CHECK_THAT(rev.line, Catch::StartsWith("You guessed the tree; ") && Catch::Contains("against the tree's"));
    }
}
