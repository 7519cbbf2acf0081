// Lesson 2's cluster: GPU numbering, routes over NVLink and InfiniBand, link presets, and transfers on the scheduler.
#include <catch2/catch.hpp>
#include <cmath>

#include "m2m/core/rack/topology.hpp"
#include "m2m/presets/presets.hpp"
#include "rack_fixtures.hpp"

using namespace m2m;
using namespace m2m::core;
using m2m::test::system_of;

namespace {

// 2 racks x 2 nodes x 8 GPUs: GPUs 0-7 node 0, 8-15 node 1 (rack 0), 16-31 rack 1.
Cluster small_cluster(const char* id = "h100") { return Cluster(ClusterShape{8, 2, 2, 0}, system_of(id)); }

SimTime ps(double seconds) { return picoseconds_from_seconds(seconds); }

}  // namespace

TEST_CASE("a GPU's global id is node * gpus_per_node + local, and nodes fill racks in order") {
    const Cluster c = small_cluster();
    CHECK(c.gpu_count() == 32);
    CHECK(c.node_count() == 4);
    CHECK(c.node_of(17) == 2);
    CHECK(c.local_of(17) == 1);
    CHECK(c.rack_of(17) == 1);
    CHECK(c.rack_of(15) == 0);
    CHECK_FALSE(c.contains(32));
}

TEST_CASE("NVLink's quoted rate is both directions together: a one-way send gets half, at NCCL's efficiency") {
    const SystemSpec a100 = system_of("a100"), h100 = system_of("h100"), b200 = system_of("b200");
    CHECK(a100.nvlink.raw_GBps == Approx(300));
    CHECK(h100.nvlink.raw_GBps == Approx(450));
    CHECK(b200.nvlink.raw_GBps == Approx(900));
    // NCCL's src/graph/topo.h: 20.0 x 12, 20.6 x 18 and 40.1 x 18 GB/s per GPU.
    CHECK(a100.nvlink.effective_GBps() == Approx(240.0));
    CHECK(h100.nvlink.effective_GBps() == Approx(370.8));
    CHECK(b200.nvlink.effective_GBps() == Approx(721.8));
    CHECK(h100.nvlink.efficiency == Approx(0.824));
    // InfiniBand HDR 200 Gb/s and NDR 400 Gb/s per NIC, one constant efficiency of 0.96.
    CHECK(a100.infiniband.raw_GBps == Approx(25));
    CHECK(a100.infiniband.effective_GBps() == Approx(24));
    CHECK(h100.infiniband.effective_GBps() == Approx(48));
    CHECK(h100.infiniband.effective_GBps() >= 46);
    CHECK(h100.infiniband.effective_GBps() <= 49);
    CHECK(a100.infiniband.efficiency == h100.infiniband.efficiency);
}

TEST_CASE("every system preset names the source of every figure and its GPU preset exists") {
    const auto& cat = presets::builtin();
    REQUIRE(cat.system_ids() == std::vector<std::string>{"a100", "h100", "b200"});
    for (const auto& s : cat.systems) {
        CHECK(cat.find(s.gpu_id));
        CHECK(s.figures.size() >= 12);
        for (const auto& f : s.figures) CHECK_FALSE(f.source.empty());
        CHECK_THAT(s.spec.source, Catch::Contains("both directions together"));
    }
    CHECK(cat.find_system("tpu") == nullptr);
}

TEST_CASE("a system preset with a missing source or an efficiency over 1 is refused") {
    const std::string compute = R"("compute":[{"id":"g","name":"G","kind":"gpu","cores":{"value":1,"source":"s"},)"
                                R"("fp32_tflops":{"value":1,"source":"s"},"memory_bandwidth_GBps":{"value":1,"source":"s"},)"
                                R"("layer_overhead_us":{"value":0,"source":"s"}}])";
    CHECK_THROWS_WITH(presets::parse_catalog("{" + compute + R"(,"systems":[{"id":"x","name":"X","gpu":"g"}]})"),
                      Catch::Contains("nvswitch_chips"));
    CHECK_THROWS_WITH(presets::parse_catalog("{" + compute + R"(,"systems":[{"id":"x","name":"X","gpu":"g",)"
                                                               R"("nvswitch_chips":{"value":4}}]})"),
                      Catch::Contains("source"));
    CHECK_THROWS_WITH(presets::parse_catalog("{" + compute + R"(,"systems":{}})"), Catch::Contains("systems"));
}

TEST_CASE("a send inside a node crosses NVLink through the NVSwitch in two hops") {
    const Cluster c = small_cluster();
    const Route r = c.route(0, 1);
    CHECK(r.type == LinkType::nvlink);
    CHECK(r.hops() == 2);
    CHECK(c.path_names(r) == std::vector<std::string>{"GPU 0 -> NVSwitch (node 0)", "NVSwitch (node 0) -> GPU 1"});
    CHECK(r.bandwidth_GBps == Approx(370.8));
    CHECK(r.latency_s == Approx(0.6e-6));
}

TEST_CASE("a send to another node goes GPU -> NIC -> leaf -> NIC -> GPU, and through the spine to another rack") {
    const Cluster c = small_cluster();
    const Route same_rack = c.route(0, 9);
    CHECK(same_rack.type == LinkType::infiniband);
    CHECK(c.path_names(same_rack) == std::vector<std::string>{"GPU 0 -> NIC 0", "NIC 0 -> leaf (rack 0)",
                                                                "leaf (rack 0) -> NIC 9", "NIC 9 -> GPU 9"});
    CHECK(same_rack.bandwidth_GBps == Approx(48.0));  // NDR; PCIe Gen5 (63 GB/s) is not the bottleneck
    CHECK(same_rack.latency_s == Approx(2.7e-6));

    const Route other_rack = c.route(3, 20);
    CHECK(other_rack.type == LinkType::infiniband);
    CHECK(c.path_names(other_rack) ==
          std::vector<std::string>{"GPU 3 -> NIC 3", "NIC 3 -> leaf (rack 0)", "leaf (rack 0) -> spine",
                                   "spine -> leaf (rack 1)", "leaf (rack 1) -> NIC 20", "NIC 20 -> GPU 20"});
    CHECK(other_rack.latency_s == Approx(2.7e-6 + 2 * 0.6e-6));
    CHECK(c.link(c.rack_link(0, LinkRole::leaf_to_spine)).lanes == 16);  // full bisection: one uplink per NIC
}

TEST_CASE("same-node sends use NVLink with fewer hops than cross-node sends") {
    const Cluster c = small_cluster();
    const Route inside = c.route(2, 5), across = c.route(2, 13);
    CHECK(inside.type == LinkType::nvlink);
    CHECK(across.type == LinkType::infiniband);
    CHECK(inside.hops() < across.hops());
    CHECK(inside.bandwidth_GBps > across.bandwidth_GBps);
    const Route self = c.route(4, 4);
    CHECK(self.type == LinkType::local);
    CHECK(self.hops() == 0);
}

TEST_CASE("a transfer on an idle path takes its latency plus bytes over the bottleneck bandwidth") {
    const Cluster c = small_cluster();
    const Bytes bytes = 1'000'000'000;
    const TransferResult t = run_transfer(c, 0, 9, bytes);
    const double expected = 2.7e-6 + 1e9 / 48e9;
    CHECK(t.time_s == Approx(expected).epsilon(1e-12));
    CHECK(t.run.latency_s == Approx(2.7e-6));
    CHECK(t.run.bandwidth_s == Approx(1e9 / 48e9));
    CHECK(t.run.start_s == 0.0);
    CHECK(ps(t.run.end_s) == ps(expected));  // the scheduler ran it for exactly that, in whole picoseconds
    CHECK(transfer_duration(c.route(0, 9), 1e9) == ps(expected));
}

TEST_CASE("a cross-node send takes longer than the same send inside a node, more so for large tensors") {
    const Cluster c = small_cluster();
    const TransferResult inside = run_transfer(c, 0, 1, 1'000'000'000);
    CHECK(inside.relative_time == Approx(1.0));
    const TransferResult small = run_transfer(c, 0, 9, 1000);
    const TransferResult large = run_transfer(c, 0, 9, 1'000'000'000);
    CHECK(small.relative_time > 1);
    CHECK(large.relative_time > small.relative_time);
    // 1 KB is latency-bound, 1 GB bandwidth-bound
    CHECK(small.run.latency_s > 10 * small.run.bandwidth_s);
    CHECK(large.run.bandwidth_s > 1000 * large.run.latency_s);
    CHECK(large.relative_time == Approx((2.7e-6 + 1e9 / 48e9) / (0.6e-6 + 1e9 / 370.8e9)));
    const TransferResult self = run_transfer(c, 3, 3, 1000);
    CHECK(self.time_s == 0.0);
    CHECK(self.relative_time == 0.0);
}

TEST_CASE("two tensors over one InfiniBand NIC take twice as long as over two NICs") {
    const Cluster c = small_cluster();
    const Bytes bytes = 100'000'000;
    const SimTime one = transfer_duration(c.route(0, 8), static_cast<double>(bytes));
    REQUIRE(transfer_duration(c.route(0, 9), static_cast<double>(bytes)) == one);

    // Both leave through GPU 0's NIC: the link carries one at a time, first come first served,
    // so the second starts when the first ends and the last ends at 2x (as with fair sharing).
    const std::vector<TransferRequest> shared = {{0, 8, bytes}, {0, 9, bytes}};
    const TransfersResult s = run_transfers(c, shared);
    CHECK(s.timeline.runs[0].end == one);
    CHECK(s.timeline.runs[1].start == one);
    CHECK(s.timeline.makespan == 2 * one);

    // Through two NICs (GPU 0's and GPU 1's) they overlap completely.
    const std::vector<TransferRequest> apart = {{0, 8, bytes}, {1, 9, bytes}};
    const TransfersResult a = run_transfers(c, apart);
    CHECK(a.timeline.makespan == one);
    CHECK(s.makespan_s > a.makespan_s);
    CHECK_THAT(std::string(link_sharing_rule()), Catch::Contains("one transfer at a time"));
}

TEST_CASE("a transfer waits only for the links it shares") {
    const Cluster c = small_cluster();
    // GPU 0 -> 1 (NVLink) and GPU 0 -> 9 (its NIC) share nothing; 2 -> 1 shares GPU 1's NVLink in-port.
    const std::vector<TransferRequest> reqs = {{0, 1, 1'000'000}, {0, 9, 1'000'000}, {2, 1, 1'000'000}};
    const TransfersResult r = run_transfers(c, reqs);
    CHECK(r.timeline.runs[1].start == 0);
    CHECK(r.timeline.runs[2].start == r.timeline.runs[0].end);
}

TEST_CASE("transfers are ordinary tasks: they can wait for compute on the same scheduler") {
    const Cluster c = small_cluster();
    WorkGraph g;
    LinkPools pools(c, g);
    const PoolId gpu0 = g.add_pool("GPU 0", ResourceKind::gpu_core, 1);
    const TaskId compute = g.add_task(1'000'000, {gpu0});  // 1 us of work
    const TaskId send = add_transfer(pools, c.route(0, 9), 1e6);
    g.add_dependency(compute, send);
    const Timeline tl = schedule(g);
    CHECK(tl.runs[send].start == 1'000'000);
    CHECK(tl.makespan == 1'000'000 + ps(2.7e-6 + 1e6 / 48e9));
    CHECK(g.pool(pools.pool(c.gpu_link(0, LinkRole::nic_to_leaf))).kind == ResourceKind::infiniband);
    CHECK(pools.link_of(gpu0) == c.link_count());
    CHECK(pools.link_of(pools.pool(c.gpu_link(9, LinkRole::leaf_to_nic))) == c.gpu_link(9, LinkRole::leaf_to_nic));
}

TEST_CASE("a cluster refuses shapes it cannot hold and GPUs it does not have") {
    CHECK(validate(ClusterShape{8, 8, 2, 0}).empty());
    CHECK_THAT(validate(ClusterShape{0, 8, 2, 0}), Catch::Contains("GPUs per node"));
    CHECK_THAT(validate(ClusterShape{8, 0, 2, 0}), Catch::Contains("node"));
    CHECK_THAT(validate(ClusterShape{8, 8, 0, 0}), Catch::Contains("rack"));
    CHECK_THAT(validate(ClusterShape{8, 1024, 1024, 0}), Catch::Contains("at most"));
    CHECK_THROWS_AS(Cluster(ClusterShape{8, 0, 1, 0}, system_of("h100")), std::invalid_argument);
    const Cluster c = small_cluster();
    CHECK_THROWS_AS(c.route(0, 32), std::out_of_range);
    CHECK_THROWS_AS(run_transfer(c, 0, 1, -1), std::invalid_argument);
}
