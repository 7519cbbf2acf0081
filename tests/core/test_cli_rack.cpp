// `math-to-metal sim transfer` and `sim collective` in-process: their JSON and every bad input.
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

nlohmann::json ok(std::vector<std::string> args) {
    const Outcome o = sim(std::move(args));
    INFO(o.err);
    REQUIRE(o.code == 0);
    REQUIRE(o.err.empty());
    return nlohmann::json::parse(o.out);
}

}  // namespace

TEST_CASE("sim transfer inside a node reports NVLink, two hops and relative time 1") {
    const auto j = ok({"transfer", "--from", "0", "--to", "1", "--bytes", "1e9", "--json"});
    CHECK(j["link"] == "nvlink");
    CHECK(j["hops"] == 2);
    CHECK(j["bandwidth_GBps"].get<double>() == Approx(370.8));
    CHECK(j["latency_s"].get<double>() == Approx(0.6e-6));
    CHECK(j["time_s"].get<double>() == Approx(0.6e-6 + 1e9 / 370.8e9));
    CHECK(j["relative_time"].get<double>() == Approx(1.0));
    CHECK(j["path"] == nlohmann::json({"GPU 0 -> NVSwitch (node 0)", "NVSwitch (node 0) -> GPU 1"}));
}

TEST_CASE("sim transfer across nodes reports InfiniBand, more hops and a relative time above 1") {
    const auto j = ok({"transfer", "--from", "0", "--to", "9", "--bytes", "1073741824", "--hardware", "a100", "--json"});
    CHECK(j["link"] == "infiniband");
    CHECK(j["hops"] == 4);
    CHECK(j["bandwidth_GBps"].get<double>() == Approx(24.0));
    CHECK(j["relative_time"].get<double>() > 9.0);
    CHECK(j["bytes"] == 1073741824);

    const auto far = ok({"transfer", "--from", "0", "--to", "100", "--bytes", "1e3", "--json"});
    CHECK(far["hops"] == 6);
    CHECK(far["to_rack"] == 1);
    CHECK(far["path"][2] == "leaf (rack 0) -> spine");
    CHECK(far["latency_s"].get<double>() == Approx(3.9e-6));
}

TEST_CASE("sim transfer to the same GPU is local and takes no time") {
    const auto j = ok({"transfer", "--from", "5", "--to", "5", "--bytes", "1e6", "--json"});
    CHECK(j["link"] == "local");
    CHECK(j["hops"] == 0);
    CHECK(j["time_s"] == 0.0);
    CHECK(j["path"].empty());
}

TEST_CASE("sim transfer follows the cluster's shape flags") {
    const auto j = ok({"transfer", "--from", "3", "--to", "4", "--bytes", "1e6", "--gpus-per-node", "4",
                       "--nodes-per-rack", "1", "--racks", "3", "--json"});
    CHECK(j["link"] == "infiniband");
    CHECK(j["hops"] == 6);  // 4 GPUs per node and 1 node per rack: GPU 4 is in the next rack
    CHECK(j["cluster"]["gpus"] == 12);
}

TEST_CASE("sim collective: 8 H100s in a node all-reduce near 370 GB/s busbw, 16 across two nodes far less") {
    const auto in = ok({"collective", "--op", "allreduce", "--gpus", "8", "--bytes", "1073741824", "--json"});
    CHECK(in["link"] == "nvlink");
    CHECK(in["steps"] == 14);
    CHECK(in["busbw_GBps"].get<double>() == Approx(370).epsilon(0.15));
    CHECK(in["busbw_GBps"].get<double>() == Approx(in["algbw_GBps"].get<double>() * 1.75));

    const auto across = ok({"collective", "--gpus", "16", "--bytes", "1e9", "--json"});
    CHECK(across["link"] == "infiniband");
    CHECK(across["nodes"] == 2);
    CHECK(across["busbw_GBps"].get<double>() < in["busbw_GBps"].get<double>() / 5);

    const auto gather = ok({"collective", "--op", "allgather", "--gpus", "8", "--bytes", "1e9", "--sends", "--json"});
    CHECK(gather["steps"] == 7);
    CHECK(gather["sends"].size() == 8);
    CHECK(gather["sends"][7]["to"] == 0);

    const auto big = ok({"collective", "--gpus", "1024", "--bytes", "1e9", "--json"});
    CHECK(big["cluster"]["racks"] == 16);  // enough racks for the group when --racks is not given
    CHECK(big["steps"] == 2046);
}

TEST_CASE("every bad input to sim transfer and sim collective exits 2 with one line naming the flag") {
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"transfer", "--from", "0", "--to", "999", "--bytes", "1e6"}, "--to"},
        {{"transfer", "--from", "-1", "--to", "1", "--bytes", "1e6"}, "--from"},
        {{"transfer", "--from", "x", "--to", "1", "--bytes", "1e6"}, "--from"},
        {{"transfer", "--from", "0", "--to", "1", "--bytes", "0"}, "--bytes"},
        {{"transfer", "--from", "0", "--to", "1", "--bytes", "-5"}, "--bytes"},
        {{"transfer", "--from", "0", "--to", "1", "--bytes", "lots"}, "--bytes"},
        {{"transfer", "--from", "0", "--to", "1", "--bytes", "nan"}, "--bytes"},
        {{"transfer", "--from", "0", "--to", "1", "--bytes", "1e30"}, "--bytes"},
        {{"transfer", "--from", "0", "--to", "1"}, "--bytes"},
        {{"transfer", "--from", "0", "--to", "1", "--bytes", "1e6", "--hardware", "tpu"}, "--hardware"},
        {{"transfer", "--from", "0", "--to", "1", "--bytes", "1e6", "--gpus-per-node", "0"}, "--gpus-per-node"},
        {{"transfer", "--from", "0", "--to", "1", "--bytes", "1e6", "--racks", "100000"}, "--racks"},
        {{"collective", "--gpus", "200", "--bytes", "1e6", "--racks", "1"}, "--gpus"},
        {{"collective", "--gpus", "1", "--bytes", "1e6"}, "--gpus"},
        {{"collective", "--gpus", "many", "--bytes", "1e6"}, "--gpus"},
        {{"collective", "--gpus", "8", "--bytes", "0"}, "--bytes"},
        {{"collective", "--gpus", "8", "--bytes", "1e6", "--op", "broadcast"}, "--op"},
        {{"collective", "--gpus", "8", "--bytes", "1e6", "--hardware", "v100"}, "--hardware"},
        {{"collective", "--gpus", "8", "--bytes", "1e6", "--rings", "0"}, "--rings"},
    };
    for (const auto& [args, mention] : cases) {
        std::string joined;
        for (const auto& a : args) joined += a + " ";
        INFO("args: " << joined);
        const Outcome o = sim(args);
        CHECK(o.code == 2);
        CHECK(lines(o.err) == 1);
        CHECK_THAT(o.err, Catch::Contains(mention));
        CHECK(o.out.empty());
    }
}
