// `math-to-metal sim layers` in-process: its JSON for the default network and every bad input.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/cli.hpp"

namespace {

struct Outcome {
    int code;
    std::string out, err;
};

Outcome sim(std::vector<std::string> args) {
    args.insert(args.begin(), "sim");
    std::ostringstream out, err;
    const int code = m2m::cli::run_sim(args, out, err);
    return {code, out.str(), err.str()};
}

int lines(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }

}  // namespace

TEST_CASE("sim layers prints the lesson's figures for the default network") {
    const Outcome o = sim({"layers", "--widths", "4,6,6,3", "--cpu-cores", "1", "--gpu-cores", "6", "--json"});
    REQUIRE(o.code == 0);
    const auto j = nlohmann::json::parse(o.out);
    CHECK(j["neurons"] == 15);
    CHECK(j["parameters"] == 93);
    CHECK(j["cpu_time"] == 15);
    CHECK(j["gpu_time"] == 3);
    CHECK(j["speedup"].get<double>() == Approx(5.0));
    CHECK(j["time_unit"] == "ticks");
}

TEST_CASE("sim layers --timeline lists every neuron's core, start and end") {
    const Outcome o = sim({"layers", "--json", "--timeline"});
    REQUIRE(o.code == 0);
    const auto j = nlohmann::json::parse(o.out);
    REQUIRE(j["timeline"]["cpu"].size() == 15);
    REQUIRE(j["timeline"]["gpu"].size() == 15);
    CHECK(j["timeline"]["gpu"][6]["layer"] == 2);
    CHECK(j["timeline"]["gpu"][6]["start"] == 1);
    CHECK(j["timeline"]["cpu"][14]["end"] == 15);
    CHECK(j["timeline"]["gpu"][6]["resource"] == "GPU core 0");
    CHECK(j["timeline"]["cpu"][14]["resource"] == "CPU core 0");
}

TEST_CASE("sim layers --timeline in hardware mode lists the GPU's launch wait before each layer") {
    const Outcome o = sim({"layers", "--mode", "hardware", "--gpu", "h100", "--json", "--timeline"});
    REQUIRE(o.code == 0);
    const auto j = nlohmann::json::parse(o.out);
    const auto& gpu = j["timeline"]["gpu"];
    REQUIRE(gpu.size() == 15 + 3);  // 15 neurons, one launch per layer
    CHECK(gpu[0]["task"] == "launch");
    CHECK(gpu[0]["start"] == 0);
    CHECK(gpu[0]["end"].get<double>() == Approx(j["gpu_layer_overhead_s"].get<double>()));
    CHECK(gpu[1]["task"] == "neuron");
    CHECK(gpu[1]["start"].get<double>() == Approx(gpu[0]["end"].get<double>()));  // the layer waits for its launch
    for (const auto& e : j["timeline"]["cpu"]) CHECK(e["task"] == "neuron");  // a CPU has no launch to wait for
}

TEST_CASE("sim layers in hardware mode reports seconds and the crossover width") {
    const Outcome o = sim({"layers", "--mode", "hardware", "--cpu", "laptop-cpu", "--gpu", "a100", "--json"});
    REQUIRE(o.code == 0);
    const auto j = nlohmann::json::parse(o.out);
    CHECK(j["time_unit"] == "seconds");
    CHECK(j["gpu_faster"] == false);
    CHECK(j["crossover_width"].is_number());
    CHECK(j["gpu_cores"] == 6912);
}

TEST_CASE("every bad input to sim layers exits 2 with one line naming the flag") {
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"layers", "--frobnicate"}, "--frobnicate"},
        {{"layers", "--widths", "4,0,3"}, "--widths"},
        {{"layers", "--widths", "4,-2,3"}, "--widths"},
        {{"layers", "--widths", "4,5000,3"}, "--widths"},
        {{"layers", "--widths", "4,x,3"}, "--widths"},
        {{"layers", "--widths", "4"}, "--widths"},
        {{"layers", "--widths", "4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4"}, "hidden layers"},
        {{"layers", "--cpu-cores", "0"}, "--cpu-cores"},
        {{"layers", "--gpu-cores", "0"}, "--gpu-cores"},
        {{"layers", "--gpu-cores", "many"}, "--gpu-cores"},
        {{"layers", "--mode", "fast"}, "--mode"},
        {{"layers", "--gpu", "tpu"}, "--gpu"},
        {{"nothing"}, "nothing"},
        {{}, "usage"},
    };
    for (const auto& [args, mention] : cases) {
        std::string joined; for (const auto& a : args) joined += a + " ";
        INFO("args: " << joined);
        const Outcome o = sim(args);
        CHECK(o.code == 2);
        CHECK(lines(o.err) == 1);
        CHECK_THAT(o.err, Catch::Contains(mention));
        CHECK(o.out.empty());
    }
}
