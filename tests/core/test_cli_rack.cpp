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

TEST_CASE("sim collective: 8 H100s all-reduce by NVLS near 480 GB/s busbw, by a forced ring near 370") {
    const auto in = ok({"collective", "--op", "allreduce", "--gpus", "8", "--bytes", "1073741824", "--json"});
    CHECK(in["link"] == "nvlink");
    CHECK(in["algorithm"] == "nvls");
    CHECK(in["protocol"] == "simple");
    // The wires' 490 GB/s (NCCL's estimate: 476) less the two 16 MB loops NVLS's pipeline takes
    // to fill (Azure's ND H100 v5: 466).
    CHECK(in["busbw_GBps"].get<double>() == Approx(472).epsilon(0.02));
    CHECK(in["nccl_model"]["run_bandwidth_GBps"].get<double>() > in["nccl_model"]["nccl_bandwidth_GBps"].get<double>());
    CHECK(in["nccl_model"]["pipeline_fill_s"].get<double>() > 0);
    CHECK(in["busbw_GBps"].get<double>() == Approx(in["algbw_GBps"].get<double>() * 1.75));
    CHECK(in["time_s"].get<double>() == Approx(in["nccl_model"]["time_s"].get<double>()).epsilon(0.05));
    CHECK(in["nccl_version"] == "2.30.7-1");

    const auto ring = ok({"collective", "--gpus", "8", "--bytes", "1073741824", "--algorithm", "ring", "--json"});
    CHECK(ring["steps"] == 14);
    CHECK(ring["protocol"] == "simple");
    CHECK(ring["busbw_GBps"].get<double>() == Approx(356).epsilon(0.02));

    const auto gather = ok({"collective", "--op", "allgather", "--gpus", "8", "--bytes", "1e9", "--sends", "--json"});
    CHECK(gather["algorithm"] == "ring");  // NVLS all-gather is slower (NVIDIA/nccl #1083)
    CHECK(gather["steps"] == 7);
    CHECK(gather["sends"].size() == 8);
    CHECK(gather["sends"][7]["to"] == 0);

    const auto big = ok({"collective", "--gpus", "1024", "--bytes", "1e9", "--json"});
    CHECK(big["cluster"]["racks"] == 16);  // enough racks for the group when --racks is not given
    CHECK(big["algorithm"] == "nvls_tree");
}

TEST_CASE("sim collective: 64 KB on 8 A100s runs on 2 of NCCL's 24 channels, which its estimate leaves out") {
    const auto j = ok({"collective", "--gpus", "8", "--bytes", "65536", "--hardware", "a100", "--json"});
    const auto& n = j["nccl_model"];
    CHECK(n["algorithm"] == "ring");
    CHECK(n["channels"] == 2);
    CHECK(n["max_channels"] == 24);
    CHECK(n["threads_per_channel"] == 512);
    CHECK(n["time_s"].get<double>() == Approx(n["nccl_time_s"].get<double>() + n["narrow_s"].get<double>()));
    // An HGX A100's nccl-tests log: 31.82 us.
    CHECK(j["time_s"].get<double>() * 1e6 == Approx(30.7).epsilon(0.02));
    CHECK_THAT(j["bound"].get<std::string>(), Catch::Contains("Latency-bound"));
    CHECK_THAT(j["choice"].get<std::string>(), Catch::Contains("loses on 2 of its 24 channels"));
    // NVLS at 1 GiB runs every one of its 16 channels; the tree reports no width (it keeps its own).
    const auto nvls = ok({"collective", "--gpus", "8", "--bytes", "1073741824", "--json"});
    CHECK(nvls["nccl_model"]["channels"] == 16);
    CHECK(nvls["nccl_model"]["narrow_s"] == 0.0);
    const auto tree = ok({"collective", "--gpus", "128", "--bytes", "8", "--json"});
    CHECK(tree["nccl_model"]["algorithm"] == "tree");
    CHECK_FALSE(tree["nccl_model"].contains("channels"));
}

TEST_CASE("sim collective across nodes defaults to NCCL's one ring per NIC, and --rings 1 shows one ring's cost") {
    const auto nccl = ok({"collective", "--gpus", "16", "--bytes", "1e9", "--algorithm", "ring", "--hardware", "a100", "--json"});
    CHECK(nccl["rings"] == 8);
    CHECK(nccl["busbw_GBps"].get<double>() == Approx(190).epsilon(0.03));
    const auto one = ok({"collective", "--gpus", "16", "--bytes", "1e9", "--algorithm", "ring", "--rings", "1",
                         "--hardware", "a100", "--json"});
    CHECK(one["rings"] == 1);
    CHECK(one["busbw_GBps"].get<double>() < nccl["busbw_GBps"].get<double>() / 6);
}

TEST_CASE("sim collective: 8 bytes on 128 H100s go by NCCL's tree, which says why") {
    const auto j = ok({"collective", "--gpus", "128", "--bytes", "8", "--json"});
    CHECK(j["algorithm"] == "tree");
    CHECK(j["protocol"] == "ll");
    CHECK(j["time_s"].get<double>() == Approx(55.2e-6).epsilon(0.01));
    CHECK_THAT(j["choice"].get<std::string>(), Catch::Contains("8 network hops") && Catch::Contains("254 steps"));
    const auto ring = ok({"collective", "--gpus", "128", "--bytes", "8", "--algorithm", "ring", "--json"});
    CHECK(ring["time_s"].get<double>() > 5 * j["time_s"].get<double>());
}

TEST_CASE("sim collective --sweep prints 32 sizes from 8 B to 16 GB with each algorithm's time and NCCL's pick") {
    const auto j = ok({"collective", "--gpus", "8", "--sweep", "--json"});
    REQUIRE(j["sizes"].size() == 32);
    CHECK(j["sizes"][0]["bytes"] == 8);
    CHECK(j["sizes"][31]["bytes"].get<double>() == 16.0 * (1ull << 30));
    CHECK(j["sizes"][0]["auto"]["algorithm"] == "ring");
    CHECK(j["sizes"][31]["auto"]["algorithm"] == "nvls");
    for (const auto& row : j["sizes"]) {
        CHECK(row["algorithms"].contains("ring"));
        CHECK(row["algorithms"].contains("tree"));
        CHECK(row["algorithms"].contains("nvls"));
        // NCCL's pick: the least of its own estimate, which leaves out NVLS's pipeline fill and
        // prices its bytes below the wires' rate.
        double fastest = 1e30;
        for (const auto& [name, c] : row["algorithms"].items()) fastest = std::min(fastest, c["nccl_time_s"].get<double>());
        CHECK(row["auto"]["nccl_time_s"].get<double>() == Approx(fastest));
        const auto& a = row["auto"];
        const double bytes = row["bytes"].get<double>();
        CHECK(a["time_s"].get<double>() ==
              Approx(a["nccl_time_s"].get<double>() - bytes / (a["nccl_bandwidth_GBps"].get<double>() * 1e9) +
                     bytes / (a["run_bandwidth_GBps"].get<double>() * 1e9) + a["pipeline_fill_s"].get<double>() +
                     a.value("narrow_s", 0.0)));
    }
    CHECK(j["crossover_bytes"].get<double>() > 1e5);
    CHECK(j["nvlink_ceiling_GBps"].get<double>() == Approx(370.8));
    const auto a2a = ok({"collective", "--op", "alltoall", "--gpus", "16", "--sweep", "--json"});
    CHECK(a2a["sizes"][0]["auto"]["algorithm"] == "p2p");
}

TEST_CASE("sim collective --nccl prices with an older NCCL's model: 2.18 picks NVLS at 1 MB on 8 H100s, 2.30 ring LL") {
    const auto now = ok({"collective", "--gpus", "8", "--bytes", "1048576", "--json"});
    const auto old = ok({"collective", "--gpus", "8", "--bytes", "1048576", "--nccl", "2.18.5", "--json"});
    CHECK(now["nccl_version"] == "2.30.7-1");
    CHECK(old["nccl_version"] == "2.18.5-1");
    CHECK(now["algorithm"] == "ring");
    CHECK(now["protocol"] == "ll");
    CHECK(old["algorithm"] == "nvls");  // its ring LL kept a quarter of the wire, so NVLS won
    const auto sweep = ok({"collective", "--gpus", "8", "--sweep", "--nccl", "2.23.4", "--json"});
    CHECK(sweep["nccl_version"] == "2.23.4-1");
    const auto same = ok({"collective", "--gpus", "8", "--bytes", "1048576", "--nccl", "2.30.7-1", "--json"});
    CHECK(same["time_s"] == now["time_s"]);
    // Up to 2.28.3 NCCL turns NVLS off with two GPUs in a node: no size of an older model's sweep
    // on 2 H100s picks it, nor lists it; 2.30.7 prices it there.
    const auto two_old = ok({"collective", "--gpus", "2", "--sweep", "--nccl", "2.23.4", "--json"});
    for (const auto& row : two_old["sizes"]) CHECK(row["auto"] != "nvls");
    CHECK(two_old.dump().find("\"nvls\"") == std::string::npos);
    const auto two_now = ok({"collective", "--gpus", "2", "--sweep", "--json"});
    CHECK(two_now.dump().find("\"nvls\"") != std::string::npos);
}

TEST_CASE("sim transfer and sim collective read nccl-tests' byte suffixes K, M, G and T as powers of 1024") {
    for (const auto& [text, bytes] : std::vector<std::pair<std::string, double>>{
             {"8", 8.0}, {"64K", 65536.0}, {"64k", 65536.0}, {"1M", 1048576.0}, {"1.5m", 1572864.0},
             {"16G", 16.0 * (1ull << 30)}, {"1T", double(1ull << 40)}, {"1e3K", 1024000.0}}) {
        INFO(text);
        const auto j = ok({"collective", "--gpus", "8", "--bytes", text, "--json"});
        CHECK(j["bytes"].get<double>() == bytes);
    }
    const auto suffixed = ok({"transfer", "--from", "0", "--to", "9", "--bytes", "1G", "--json"});
    const auto written = ok({"transfer", "--from", "0", "--to", "9", "--bytes", "1073741824", "--json"});
    CHECK(suffixed["time_s"] == written["time_s"]);
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
        {{"transfer", "--from", "0", "--to", "1", "--bytes", "64MB"}, "--bytes"},
        {{"transfer", "--from", "0", "--to", "1", "--bytes", "M"}, "--bytes"},
        {{"transfer", "--from", "0", "--to", "1", "--bytes", "1X"}, "--bytes"},
        {{"transfer", "--from", "0", "--to", "1", "--bytes", "1000T"}, "--bytes"},
        {{"collective", "--gpus", "8", "--bytes", "0.0001K"}, "--bytes"},
        {{"transfer", "--from", "0", "--to", "1"}, "--bytes"},
        {{"transfer", "--from", "0", "--to", "1", "--bytes", "1e6", "--hardware", "tpu"}, "--hardware"},
        {{"transfer", "--from", "0", "--to", "1", "--bytes", "1e6", "--gpus-per-node", "0"}, "--gpus-per-node"},
        {{"transfer", "--from", "0", "--to", "1", "--bytes", "1e6", "--racks", "100000"}, "--racks"},
        {{"collective", "--gpus", "200", "--bytes", "1e6", "--racks", "1"}, "--gpus"},
        {{"collective", "--gpus", "1", "--bytes", "1e6"}, "--gpus"},
        {{"collective", "--gpus", "many", "--bytes", "1e6"}, "--gpus"},
        {{"collective", "--gpus", "8", "--bytes", "0"}, "--bytes"},
        {{"collective", "--gpus", "8", "--bytes", "1e6", "--op", "reduce"}, "--op"},
        {{"collective", "--gpus", "8", "--bytes", "1e6", "--algorithm", "nvls", "--hardware", "a100"}, "--algorithm"},
        {{"collective", "--gpus", "8", "--bytes", "1e6", "--algorithm", "tree", "--op", "allgather"}, "--algorithm"},
        {{"collective", "--gpus", "8", "--bytes", "1e6", "--algorithm", "tree", "--op", "broadcast"}, "--algorithm"},
        {{"collective", "--gpus", "16", "--bytes", "1e6", "--algorithm", "nvls", "--op", "reducescatter"}, "--algorithm"},
        {{"collective", "--gpus", "8", "--bytes", "1e6", "--algorithm", "ring", "--op", "alltoall"}, "--algorithm"},
        {{"collective", "--gpus", "8", "--bytes", "1e6", "--algorithm", "nvls", "--protocol", "ll"}, "--protocol"},
        {{"collective", "--gpus", "8", "--bytes", "1e6", "--protocol", "ll128", "--op", "alltoall"}, "--protocol"},
        {{"collective", "--gpus", "8", "--bytes", "1e6", "--algorithm", "butterfly"}, "--algorithm"},
        {{"collective", "--gpus", "8", "--bytes", "1e6", "--protocol", "fast"}, "--protocol"},
        {{"collective", "--gpus", "8", "--bytes", "1e6", "--sweep"}, "--bytes"},
        {{"collective", "--gpus", "8"}, "--bytes"},
        {{"collective", "--gpus", "8", "--bytes", "1e6", "--hardware", "v100"}, "--hardware"},
        {{"collective", "--gpus", "8", "--bytes", "1e6", "--rings", "0"}, "--rings"},
        {{"collective", "--gpus", "8", "--bytes", "1e6", "--nccl", "2.19"}, "--nccl"},
        {{"collective", "--gpus", "2", "--bytes", "1e9", "--algorithm", "nvls", "--nccl", "2.18.5"},
         "NCCL 2.18.5-1 runs NVLS only with at least 3 GPUs of the group in each node"},
        {{"collective", "--gpus", "10", "--bytes", "1e9", "--algorithm", "nvls", "--nccl", "2.23.4"},
         "NCCL 2.23.4-1 runs NVLS only with at least 3 GPUs of the group in each node"},  // 8 + 2
        {{"collective", "--gpus", "9", "--bytes", "1e9", "--algorithm", "nvls"},
         "runs NVLS only with at least 2 GPUs of the group in each node"},  // 8 + 1: nothing to multicast to
        {{"collective", "--gpus", "8", "--bytes", "1e6", "--nccl", "latest"}, "--nccl"},
        // Blackwell's rows entered tuning.cc in 2.25.1: the older tables have no B200 to price.
        {{"collective", "--gpus", "8", "--bytes", "1e9", "--hardware", "b200", "--nccl", "2.23.4"},
         "NCCL 2.23.4 has no figures for b200: Blackwell's entered its tuning in 2.25.1 (accepted with b200: 2.30.7)"},
        {{"collective", "--gpus", "8", "--bytes", "1e6", "--nccl", ""}, "NCCL \"\" (accepted: 2.18.5"},
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

TEST_CASE("sim collective: 'a wider wire would hardly help' only where the fixed cost is most of the time") {
    // 128 KB on 16 H100s: the fixed cost is 65% of the time, and a wider wire could save the rest.
    const auto mid = ok({"collective", "--gpus", "16", "--bytes", "128K", "--json"});
    CHECK_THAT(mid["bound"].get<std::string>(), Catch::Contains("Latency-bound") && Catch::Contains("could save at most the other 35%"));
    const auto small = ok({"collective", "--gpus", "16", "--bytes", "8", "--json"});
    CHECK_THAT(small["bound"].get<std::string>(), Catch::EndsWith("so a wider wire would hardly help."));
}
