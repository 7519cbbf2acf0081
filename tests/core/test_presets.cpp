// The shipped presets parse, carry a source for every figure, and bad preset files are refused.
#include <catch2/catch.hpp>

#include "m2m/presets/models.hpp"
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

TEST_CASE("each machine's matrix-multiply efficiency is read from hardware.json with its source") {
    // The figures the estimator used to keep in the core, now data beside the peaks they scale.
    const std::pair<const char*, double> expected[] = {{"a100", 0.70}, {"h100", 0.53}, {"h200", 0.53}, {"b200", 0.53},
                                                       {"laptop-cpu", 0.96}, {"desktop-cpu", 0.57},
                                                       {"epyc-9654", 1.0}, {"xeon-8480", 1.0}};
    for (const auto& [id, fraction] : expected) {
        INFO(id);
        const auto* p = presets::builtin().find(id);
        REQUIRE(p);
        REQUIRE(p->gemm_efficiency);
        CHECK(p->gemm_efficiency->fraction == fraction);
        CHECK_FALSE(p->gemm_efficiency->source.empty());
        CHECK(presets::gemm_efficiency(id)->fraction == fraction);
    }
    // The estimator's GPU and the CPU rate carry the figure and its source as read.
    const auto gpu = presets::estimator_gpu("a100-80gb");
    REQUIRE(gpu);
    CHECK(gpu->achievable_fraction == 0.70);
    CHECK_THAT(gpu->achievable_source, Catch::Contains("Korthikanti et al. 2022 Table 5"));
    const auto cpu = presets::cpu_rate("epyc-9654");
    REQUIRE(cpu);
    CHECK(cpu->fraction == 1.0);
    CHECK(cpu->basis == presets::builtin().find("epyc-9654")->gemm_efficiency->source);
    // A figure measured on another chip says so, and so does its basis, which the views put in
    // words; the EPYC's is its own (not the i7-6700's); the A100's and H100's were fitted to runs.
    using Basis = core::EfficiencyConstant::Basis;
    for (const char* borrowed : {"laptop-cpu", "xeon-8480", "h200", "b200"}) {
        CHECK_THAT(presets::gemm_efficiency(borrowed)->source, Catch::StartsWith("borrowed from"));
        CHECK(presets::gemm_efficiency(borrowed)->basis == Basis::borrowed);
    }
    for (const char* own : {"desktop-cpu", "epyc-9654"}) {
        CHECK_THAT(presets::gemm_efficiency(own)->source, Catch::StartsWith("measured on this chip"));
        CHECK(presets::gemm_efficiency(own)->basis == Basis::measured);
    }
    for (const char* fitted : {"a100", "h100"}) CHECK(presets::gemm_efficiency(fitted)->basis == Basis::fitted);
    CHECK_THAT(presets::gemm_efficiency("epyc-9654")->source, !Catch::Contains("i7-6700"));
    CHECK_FALSE(presets::gemm_efficiency("no-such-chip"));
}

TEST_CASE("a preset file's own efficiency reaches the estimator, and a bad one is refused") {
    const char* gpu = R"({"compute":[{"id":"x","name":"X","kind":"gpu",
        "cores":{"value":8,"source":"s"},"fp32_tflops":{"value":1,"source":"s"},
        "memory_bandwidth_GBps":{"value":100,"source":"s"},"layer_overhead_us":{"value":0,"source":"s"})";
    const auto with = [&](const std::string& efficiency) { return std::string(gpu) + efficiency + "}]}"; };
    const presets::Catalog c = presets::parse_catalog(with(R"(,"gemm_efficiency":{"value":0.5,"source":"fitted"})"));
    REQUIRE(c.find("x")->gemm_efficiency);
    CHECK(c.find("x")->gemm_efficiency->fraction == 0.5);
    CHECK(c.find("x")->gemm_efficiency->source == "fitted");
    CHECK_FALSE(presets::parse_catalog(with("")).find("x")->gemm_efficiency);  // optional: no estimate then
    CHECK_THROWS_WITH(presets::parse_catalog(with(R"(,"gemm_efficiency":{"value":1.5,"source":"s"})")),
                      Catch::Contains("gemm_efficiency"));
    CHECK_THROWS_WITH(presets::parse_catalog(with(R"(,"gemm_efficiency":{"value":0,"source":"s"})")),
                      Catch::Contains("gemm_efficiency"));
    CHECK_THROWS_WITH(presets::parse_catalog(with(R"(,"gemm_efficiency":{"value":0.5})")), Catch::Contains("source"));
    // Its source starts with how it was found, so a view never calls a borrowed share measured.
    CHECK_THROWS_WITH(presets::parse_catalog(with(R"(,"gemm_efficiency":{"value":0.5,"source":"some paper"})")),
                      Catch::Contains("\"measured\", \"fitted\" or \"borrowed\""));
}
