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

TEST_CASE("sim layers --batch --precision reports the roofline: ridges, and every layer's intensity and bounds") {
    const Outcome o = sim({"layers", "--mode", "hardware", "--widths", "4096,4096,4096", "--cpu", "epyc-9654", "--gpu", "h100",
                           "--batch", "256", "--precision", "bf16", "--json"});
    REQUIRE(o.code == 0);
    const auto j = nlohmann::json::parse(o.out);
    CHECK(j["batch"] == 256);
    CHECK(j["precision"] == "bf16");
    CHECK(j["cache"] == "cold");
    CHECK(j["gpu_ridge_flops_per_byte"].get<double>() == Approx(989e12 * 0.53 / 3.35e12));
    CHECK(j["cpu_ridge_flops_per_byte"].get<double>() == Approx(2 * 7.3728e12 / 461e9));
    REQUIRE(j["layers"].size() == 2);
    for (const auto& l : j["layers"]) {
        // 2 x 4096 x 4096 x 256 FLOPs over (4096 x 4096 + 256 x 8192) x 2 bytes
        CHECK(l["arithmetic_intensity_flops_per_byte"].get<double>() ==
              Approx(2.0 * 4096 * 4096 * 256 / ((4096.0 * 4096 + 256.0 * 8192) * 2)));
        CHECK(l["cpu_bound"] == "compute");
        CHECK(l["gpu_bound"] == "compute");
        CHECK(l["cpu_time"].get<double>() > l["gpu_time"].get<double>());
    }
    double sum = 0;
    for (const auto& l : j["layers"]) sum += l["gpu_time"].get<double>();
    CHECK(sum == Approx(j["gpu_time"].get<double>()));
    CHECK_THAT(j["story"]["verdict"].get<std::string>(), Catch::Contains("256 inputs"));
}

TEST_CASE("sim layers at batch 1 names the GPU launch-bound and the CPU's add chains as its launch") {
    const Outcome o = sim({"layers", "--mode", "hardware", "--cpu", "epyc-9654", "--gpu", "h100", "--json", "--timeline"});
    REQUIRE(o.code == 0);
    const auto j = nlohmann::json::parse(o.out);
    CHECK(j["batch"] == 1);
    CHECK(j["precision"] == "fp32");
    for (const auto& l : j["layers"]) {
        CHECK(l["cpu_bound"] == "launch");
        CHECK(l["gpu_bound"] == "launch");
    }
    CHECK(j["timeline"]["cpu"][0]["task"] == "add chain");
    CHECK(j["speedup"].get<double>() < 0.01);  // the CPU is hundreds of times sooner
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
    // The CPU has no launch: its wait before each layer is its chain of dependent adds, nanoseconds long.
    const auto& cpu = j["timeline"]["cpu"];
    REQUIRE(cpu.size() == 15 + 3);
    CHECK(cpu[0]["task"] == "add chain");
    CHECK(cpu[0]["end"].get<double>() < 1e-7);
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
        {{"layers", "--mode", "hardware", "--cpu-cores", "18944"}, "Laptop CPU (Core i7-1165G7) has 4 cores: 1 to 4"},
        {{"layers", "--mode", "hardware", "--gpu", "a100", "--gpu-cores", "6913"}, "--gpu-cores"},
        {{"layers", "--mode", "fast"}, "--mode"},
        {{"layers", "--gpu", "tpu"}, "--gpu"},
        {{"layers", "--mode", "hardware", "--batch", "0"}, "--batch"},
        {{"layers", "--mode", "hardware", "--batch", "4097"}, "--batch"},
        {{"layers", "--mode", "hardware", "--batch", "lots"}, "--batch"},
        {{"layers", "--mode", "hardware", "--precision", "fp16"}, "--precision"},
        {{"layers", "--mode", "hardware", "--cache", "hot"}, "--cache"},
        {{"layers", "--batch", "16"}, "--batch"},
        {{"layers", "--mode", "lesson", "--precision", "bf16"}, "--precision"},
        {{"layers", "--cache=warm"}, "--cache"},
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

TEST_CASE("sim --help names every choice its collective and split simulations accept") {
    const Outcome o = sim({"--help"});
    REQUIRE(o.code == 0);
    std::string collective, split;
    std::istringstream in(o.out);
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("  collective", 0) == 0) collective = line;
        if (line.rfind("  split", 0) == 0) split = line;
    }
    for (const char* op : {"all-reduce", "all-gather", "reduce-scatter", "broadcast", "all-to-all"}) CHECK_THAT(collective, Catch::Contains(op));
    CHECK_THAT(collective, !Catch::Contains("a ring"));  // NCCL picks ring, tree or NVLS
    for (const char* s : {"data", "tensor", "pipeline", "3d", "fsdp"}) CHECK_THAT(split, Catch::Contains(s));
}
