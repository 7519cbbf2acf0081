// `math-to-metal sim split` in-process: its JSON for each strategy and every bad input.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/cli.hpp"

namespace {

struct Outcome {
    int code;
    std::string out, err;
};

Outcome split(std::vector<std::string> args) {
    args.insert(args.begin(), {"sim", "split"});
    std::ostringstream out, err;
    const int code = m2m::cli::run_sim(args, out, err);
    return {code, out.str(), err.str()};
}

int lines(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }

}  // namespace

TEST_CASE("sim split prints every GPU's holdings, the exchanges, the step time and the prediction") {
    const Outcome o = split({"--strategy", "tensor", "--gpus", "2", "--json"});
    REQUIRE(o.code == 0);
    CHECK(o.err.empty());
    const auto j = nlohmann::json::parse(o.out);
    REQUIRE(j["gpus"].size() == 2);
    CHECK(j["gpus"][0]["parameters"] == 3640);
    CHECK(j["gpus"][0]["bytes"].get<long long>() > 16 * 3640);
    CHECK(j["gpus"][1]["neurons"][1]["first"] == 24);
    CHECK(j["gpus"][1]["neurons"][1]["count"] == 24);
    REQUIRE(j["exchanges"].size() == 9);
    CHECK(j["exchanges"][0]["op"] == "all-gather");
    CHECK(j["exchanges"][0]["peers"] == nlohmann::json::array({0, 1}));
    CHECK(j["exchanges"][0]["link"] == "nvlink");
    CHECK(j["exchanges"][0]["bytes"] == 48 * 24 * 2);
    CHECK(j["step_time_s"].get<double>() > 0);
    CHECK(j["prediction"]["word"] == "mat");
    CHECK(j["prediction"]["unsplit_word"] == "mat");
    CHECK(j["prediction"]["max_logit_difference"].get<double>() <= 1e-5);
    CHECK_THAT(j["sentences"]["holds"].get<std::string>(), Catch::StartsWith("Each GPU holds:"));
}

TEST_CASE("sim split for a pipeline reports the bubble fraction") {
    const Outcome o = split({"--strategy", "pipeline", "--gpus", "2", "--micro-batches", "4", "--json", "--timeline"});
    REQUIRE(o.code == 0);
    const auto j = nlohmann::json::parse(o.out);
    CHECK(j["bubble_fraction"].get<double>() == Approx(0.2));
    CHECK(j["exchanges"][0]["op"] == "send");
    CHECK(j["exchanges"][0]["times"] == 4);
    REQUIRE(j["timeline"].size() == 2);
    CHECK(j["timeline"][0]["tasks"][0]["kind"] == "forward");
}

TEST_CASE("sim split 3d defaults to 8 GPUs, and two nodes make tensor parallel slower") {
    const Outcome three = split({"--strategy", "3d", "--json"});
    REQUIRE(three.code == 0);
    CHECK(nlohmann::json::parse(three.out)["gpus"].size() == 8);
    const Outcome node = split({"--strategy", "tensor", "--gpus", "2", "--json"});
    const Outcome nodes = split({"--strategy", "tensor", "--gpus", "2", "--placement", "nodes", "--json"});
    REQUIRE(nodes.code == 0);
    const auto a = nlohmann::json::parse(node.out), b = nlohmann::json::parse(nodes.out);
    CHECK(b["exchanges"][0]["link"] == "infiniband");
    CHECK(b["step_time_s"].get<double>() > a["step_time_s"].get<double>());
}

TEST_CASE("sim split reads the prompt and names unknown words") {
    const Outcome o = split({"--prompt", "the fish swam in the", "--json"});
    REQUIRE(o.code == 0);
    const auto j = nlohmann::json::parse(o.out);
    CHECK(j["prediction"]["word"] == "pond");
    const auto k = nlohmann::json::parse(split({"--prompt", "the zebra sat on the", "--json"}).out);
    CHECK(k["prediction"]["unknown_words"] == nlohmann::json::array({"zebra"}));
}

TEST_CASE("every bad input to sim split exits 2 with one line naming the flag") {
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"--gpus", "0"}, "--gpus"},
        {{"--gpus", "-1"}, "--gpus"},
        {{"--gpus", "5"}, "--gpus"},
        {{"--gpus", "16"}, "--gpus"},
        {{"--gpus", "two"}, "--gpus"},
        {{"--strategy", "tensor", "--gpus", "3"}, "--gpus"},
        {{"--strategy", "pipeline", "--gpus", "8"}, "--gpus"},
        {{"--strategy", "3d", "--gpus", "4"}, "--gpus"},
        {{"--strategy", "expert"}, "--strategy"},
        {{"--micro-batches", "0"}, "--micro-batches"},
        {{"--strategy", "pipeline", "--micro-batches", "5"}, "--micro-batches"},
        {{"--placement", "rack"}, "--placement"},
        {{"--gpus", "1", "--placement", "nodes"}, "--placement"},
        {{"--hardware", "tpu"}, "--hardware"},
        {{"--schedule", "zigzag"}, "--schedule"},
        {{"--frobnicate"}, "--frobnicate"},
    };
    for (const auto& [args, mention] : cases) {
        std::string joined;
        for (const auto& a : args) joined += a + " ";
        INFO("args: " << joined);
        const Outcome o = split(args);
        CHECK(o.code == 2);
        CHECK(lines(o.err) == 1);
        CHECK_THAT(o.err, Catch::Contains(mention));
        CHECK(o.out.empty());
    }
}

TEST_CASE("sim split --timing: lesson by default, hardware on request, the JSON saying which; a bad value exits 2") {
    const auto step = [](std::vector<std::string> extra) {
        std::vector<std::string> args = {"--strategy", "data", "--gpus", "2", "--json"};
        args.insert(args.end(), extra.begin(), extra.end());
        const Outcome o = split(args);
        REQUIRE(o.code == 0);
        return nlohmann::json::parse(o.out);
    };
    const auto lesson = step({}), hardware = step({"--timing", "hardware"});
    CHECK(lesson["timing"] == "lesson");
    CHECK(hardware["timing"] == "hardware");
    CHECK(lesson["step_time_s"].get<double>() > hardware["step_time_s"].get<double>());  // a slow teaching clock
    const Outcome bad = split({"--strategy", "data", "--timing", "fast"});
    CHECK(bad.code == 2);
    CHECK(lines(bad.err) == 1);
    CHECK(bad.err.find("--timing") != std::string::npos);
}

TEST_CASE("sim split --strategy fsdp: each GPU a quarter of the parameters, gathers and reduce-scatters, 1.5x data's wire bytes") {
    const Outcome o = split({"--strategy", "fsdp", "--gpus", "4", "--json"});
    REQUIRE(o.code == 0);
    const auto j = nlohmann::json::parse(o.out);
    CHECK(j["strategy"] == "fsdp");
    CHECK(j["label"] == "fully sharded data parallel (FSDP)");
    CHECK(j["degrees"]["sharded"] == true);
    CHECK(j["degrees"]["data"] == 4);
    for (const auto& g : j["gpus"]) {
        CHECK(g["parameters"].get<std::int64_t>() * 4 == j["parameters"].get<std::int64_t>());
        CHECK(g["memory"]["borrowed"].get<std::int64_t>() > 0);
    }
    for (const auto& e : j["exchanges"]) CHECK((e["op"] == "all-gather" || e["op"] == "reduce-scatter"));
    CHECK(j["prediction"]["word"] == j["prediction"]["unsplit_word"]);
    const auto data = nlohmann::json::parse(split({"--strategy", "data", "--gpus", "4", "--json"}).out);
    CHECK(j["wire_bytes"].get<double>() == Approx(1.5 * data["wire_bytes"].get<double>()));
    const Outcome bad = split({"--strategy", "fsdp", "--gpus", "3"});
    CHECK(bad.code == 2);
    CHECK(lines(bad.err) == 1);
    CHECK_THAT(bad.err, Catch::Contains("--gpus") && Catch::Contains("1, 2, 4 or 8"));
    const Outcome unknown = split({"--strategy", "zero3"});
    CHECK(unknown.code == 2);
    CHECK_THAT(unknown.err, Catch::Contains("--strategy") && Catch::Contains("fsdp"));
}
