// `math-to-metal sim estimate` in-process: the example, presets and custom models, the search, and bad input.
#include <algorithm>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/cli.hpp"

namespace {

struct Outcome {
    int code;
    std::string out, err;
};

Outcome estimate(std::vector<std::string> args) {
    args.insert(args.begin(), {"sim", "estimate"});
    std::ostringstream out, err;
    const int code = m2m::cli::run_sim(args, out, err);
    return {code, out.str(), err.str()};
}

int lines(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }

const std::vector<std::string> example = {"--model", "gpt3-175b", "--hardware", "a100-80gb", "--gpus", "1536",
                                          "--tp", "8", "--pp", "8", "--dp", "24", "--global-batch", "2304", "--json"};

}  // namespace

TEST_CASE("sim estimate prints the step's figures for GPT-3 175B on 1,536 A100s") {
    auto args = example;
    args.insert(args.end(), {"--tokens", "300e9"});
    const Outcome o = estimate(args);
    REQUIRE(o.code == 0);
    CHECK(o.err.empty());
    const auto j = nlohmann::json::parse(o.out);
    for (const char* key : {"step_time_s", "tokens_per_s", "model_tflops_per_gpu", "hardware_tflops_per_gpu", "mfu", "hfu",
                            "memory_GB_per_gpu", "fits", "train_days"})
        CHECK(j.contains(key));
    CHECK(j["fits"] == true);
    CHECK(j["hardware"]["id"] == "a100");
    CHECK(j["layout"]["micro_batches"] == 96);
    CHECK(j["layout"]["schedule"] == "1f1b");
    CHECK(j["mfu"].get<double>() > 0.3);
    CHECK(j["mfu"].get<double>() < 0.7);
    CHECK(j["hfu"].get<double>() > j["mfu"].get<double>());
    CHECK(j["memory_GB_per_gpu"].get<double>() < 80);
    CHECK(j["train_days"].get<double>() == Approx(300e9 / j["tokens_per_s"].get<double>() / 86400));
    CHECK(j["stages"].size() == 8);
    CHECK(j["assumptions"].size() >= 5);
    CHECK_FALSE(j.contains("timeline"));
    // Each exchange names its own group: the pipeline's sends are not the tensor group's.
    int sends = 0;
    for (const auto& x : j["exchanges"])
        if (x["what"] == "pipeline sends of activations and their gradients") {
            ++sends;
            CHECK(x["group"] == "pipeline");
            CHECK(x["group_size"] == 2);
        } else if (x["group"] == "tensor") {
            CHECK_THAT(x["what"].get<std::string>(), Catch::StartsWith("tensor-parallel"));
        }
    CHECK(sends == 1);
}

TEST_CASE("sim estimate takes explicit dimensions, every schedule, and lists the timeline on request") {
    const Outcome o = estimate({"--model", "custom", "--layers", "24", "--hidden", "2048", "--heads", "16", "--vocab",
                                "50257", "--seq", "2048", "--hardware", "h100", "--gpus", "16", "--tp", "2", "--pp",
                                "4", "--global-batch", "32", "--schedule", "interleaved", "--recompute", "full",
                                "--zero", "1", "--timeline", "--json"});
    REQUIRE(o.code == 0);
    const auto j = nlohmann::json::parse(o.out);
    CHECK(j["model"]["id"] == "custom");
    CHECK(j["layout"]["dp"] == 2);
    CHECK(j["layout"]["chunks"] == 2);
    CHECK(j["layout"]["recompute"] == "full");
    CHECK(j["stages"].size() == 8);
    CHECK(j["timeline"].size() > 2 * 4 * 2 * 16);
    CHECK(j["timeline"][0].contains("start_s"));
}

TEST_CASE("sim estimate --fp32-gradients keeps and sends gradients in fp32") {
    auto args = example;
    args.insert(args.end(), {"--zero", "1"});
    const Outcome bf16 = estimate(args);
    args.push_back("--fp32-gradients");
    const Outcome fp32 = estimate(args);
    REQUIRE(bf16.code == 0);
    REQUIRE(fp32.code == 0);
    const auto a = nlohmann::json::parse(bf16.out), b = nlohmann::json::parse(fp32.out);
    CHECK(a["layout"]["fp32_gradients"] == false);
    CHECK(b["layout"]["fp32_gradients"] == true);
    CHECK(b["memory"]["gradients_GB"].get<double>() == Approx(2 * a["memory"]["gradients_GB"].get<double>()));
    CHECK(b["step_time_s"].get<double>() >= a["step_time_s"].get<double>());
    // --eager-kernels: named in the layout, and slower for a Llama (rotary embeddings, SwiGLU).
    const std::vector<std::string> llama = {"--model", "llama3-8b", "--hardware", "a100", "--gpus", "8",
                                            "--global-batch", "8", "--json"};
    auto eager_args = llama;
    eager_args.push_back("--eager-kernels");
    const Outcome fused = estimate(llama), eager = estimate(eager_args);
    REQUIRE(eager.code == 0);
    const auto f = nlohmann::json::parse(fused.out), e = nlohmann::json::parse(eager.out);
    CHECK(f["layout"]["eager_kernels"] == false);
    CHECK(e["layout"]["eager_kernels"] == true);
    CHECK(e["step_time_s"].get<double>() > f["step_time_s"].get<double>());
}

TEST_CASE("sim estimate --search prints the best layouts for the GPU count") {
    const Outcome o = estimate({"--model", "gpt3-175b", "--hardware", "a100", "--gpus", "512", "--global-batch", "1536",
                                "--search", "--top", "3", "--json"});
    REQUIRE(o.code == 0);
    const auto j = nlohmann::json::parse(o.out);
    REQUIRE(j["layouts"].size() == 3);
    for (const auto& l : j["layouts"]) {
        CHECK(l["tp"].get<int>() * l["cp"].get<int>() * l["pp"].get<int>() * l["dp"].get<int>() == 512);
        CHECK(l["fits"] == true);
    }
    CHECK(j["layouts"][0]["tokens_per_s"].get<double>() >= j["layouts"][1]["tokens_per_s"].get<double>());
    CHECK(j["search"]["candidates"].get<int>() > 3);
}

TEST_CASE("every bad input to sim estimate exits 2 with one line naming the flag") {
    const auto with = [](std::vector<std::string> extra) {
        std::vector<std::string> args = {"--model", "gpt3-175b", "--gpus", "64", "--tp", "8", "--pp", "8",
                                         "--global-batch", "64"};
        args.insert(args.end(), extra.begin(), extra.end());
        return args;
    };
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"--model", "gpt3-175b", "--gpus", "1536", "--tp", "8", "--pp", "8", "--dp", "20", "--global-batch", "2304"},
         "--gpus"},
        {{"--model", "gpt3-175b", "--gpus", "100", "--tp", "8", "--pp", "8", "--global-batch", "64"}, "--gpus"},
        {{"--model", "gpt3-175b", "--gpus", "128", "--tp", "8", "--pp", "8", "--global-batch", "63"}, "--global-batch"},
        {with({"--micro-batch", "3"}), "--micro-batch"},
        {with({"--hardware", "tpu-v5"}), "--hardware"},
        {with({"--hardware", "epyc-9654"}), "--hardware"},
        {{"--model", "gpt-5", "--gpus", "8", "--global-batch", "8"}, "--model"},
        {with({"--tp", "eight"}), "--tp"},
        {with({"--gpus", "many"}), "--gpus"},
        {with({"--global-batch", "1.5"}), "--global-batch"},
        {with({"--tokens", "lots"}), "--tokens"},
        {with({"--schedule", "zigzag"}), "--schedule"},
        {with({"--recompute", "some"}), "--recompute"},
        {with({"--zero", "3"}), "--zero"},
        {with({"--layers", "12"}), "--layers"},
        {{"--model", "custom", "--hidden", "768", "--heads", "12", "--vocab", "50257", "--seq", "1024", "--gpus", "1",
          "--global-batch", "8"},
         "--layers"},
        {{"--model", "custom", "--layers", "12", "--hidden", "768", "--heads", "7", "--vocab", "50257", "--seq", "1024",
          "--gpus", "1", "--global-batch", "8"},
         "--heads"},
        {{"--model", "gpt3-175b", "--gpus", "8", "--tp", "8", "--global-batch", "8", "--schedule", "interleaved"},
         "--schedule"},
        {{"--model", "gpt3-175b", "--gpus", "64", "--tp", "8", "--pp", "8", "--global-batch", "12", "--schedule",
          "interleaved"},
         "--micro-batch"},
        {{"--model", "gpt3-175b", "--gpus", "97", "--pp", "97", "--global-batch", "97"}, "--pp"},
        {{"--model", "gpt3-175b", "--gpus", "64"}, "--global-batch"},
        {{"--gpus", "64", "--global-batch", "64"}, "--model"},
    };
    for (const auto& [args, mention] : cases) {
        std::string joined;
        for (const auto& a : args) joined += a + " ";
        INFO("args: " << joined << "\nstderr: " << estimate(args).err);
        const Outcome o = estimate(args);
        CHECK(o.code == 2);
        CHECK(lines(o.err) == 1);
        CHECK_THAT(o.err, Catch::Contains(mention));
        CHECK(o.out.empty());
    }
}
