// The shipped presets parse, carry a source for every figure, and bad preset files are refused.
#include <catch2/catch.hpp>

#include "m2m/presets/presets.hpp"

using namespace m2m;

TEST_CASE("every shipped preset names the source of every figure") {
    const auto& cat = presets::builtin();
    REQUIRE(cat.compute.size() >= 6);
    for (const auto& p : cat.compute) {
        CHECK_FALSE(p.figures.empty());
        for (const auto& f : p.figures) CHECK_FALSE(f.source.empty());
    }
}

TEST_CASE("preset figures match the reference: H100 has 16,896 cores and 3.35 TB/s") {
    const auto* h100 = presets::builtin().find("h100");
    REQUIRE(h100);
    CHECK(h100->spec.cores == 16896);
    CHECK(h100->spec.memory_bandwidth_Bps == Approx(3.35e12));
    CHECK(h100->spec.flops_per_core * h100->spec.cores == Approx(66.9e12));
    const auto* epyc = presets::builtin().find("epyc-9654");
    REQUIRE(epyc);
    CHECK(epyc->spec.flops_per_core * epyc->spec.cores == Approx(7.3728e12));
}

TEST_CASE("a broken preset file is refused with a message naming what is wrong") {
    CHECK_THROWS_WITH(presets::parse_catalog("{not json"), Catch::Contains("not valid JSON"));
    CHECK_THROWS_WITH(presets::parse_catalog("{}"), Catch::Contains("compute"));
    CHECK_THROWS_WITH(presets::parse_catalog(R"({"compute":[{"id":"x","name":"X","kind":"tpu"}]})"),
                      Catch::Contains("kind"));
    CHECK_THROWS_WITH(presets::parse_catalog(
                          R"({"compute":[{"id":"x","name":"X","kind":"gpu","cores":{"value":8}}]})"),
                      Catch::Contains("source"));
    CHECK_THROWS_WITH(presets::parse_catalog(
                          R"({"compute":[{"id":"x","name":"X","kind":"gpu","cores":{"value":-8,"source":"s"}}]})"),
                      Catch::Contains("positive"));
}
