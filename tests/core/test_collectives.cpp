// Ring collectives on the link scheduler: closed-form times, nccl-tests' busbw, NCCL's 8x H100 figure, and the ring's steps.
#include <catch2/catch.hpp>
#include <cmath>
#include <set>

#include "m2m/core/rack/collectives.hpp"
#include "m2m/presets/presets.hpp"

using namespace m2m;
using namespace m2m::core;

namespace {

Cluster cluster_of(const char* id, std::uint32_t nodes_per_rack = 2, std::uint32_t racks = 2) {
    const auto* p = presets::builtin().find_system(id);
    REQUIRE(p);
    return Cluster(ClusterShape{8, nodes_per_rack, racks, 0}, p->spec);
}

CollectiveSetup ring(CollectiveOp op, std::uint32_t n, Bytes bytes, std::uint32_t rings = 1) {
    CollectiveSetup s;
    s.op = op;
    s.group = first_gpus(n);
    s.bytes = bytes;
    s.rings = rings;
    return s;
}

SimTime ps(double seconds) { return picoseconds_from_seconds(seconds); }
SimTime as_ps(double seconds) { return std::llround(seconds * picoseconds_per_second); }

constexpr Bytes GiB = Bytes{1} << 30;

}  // namespace

TEST_CASE("a ring all-reduce takes 2(n-1) steps, all-gather and reduce-scatter n-1") {
    CHECK(ring_step_count(CollectiveOp::all_reduce, 8) == 14);
    CHECK(ring_step_count(CollectiveOp::all_gather, 8) == 7);
    CHECK(ring_step_count(CollectiveOp::reduce_scatter, 8) == 7);
}

TEST_CASE("a ring all-reduce in one node takes 2(n-1)/n x S / B plus its latency terms") {
    const Cluster c = cluster_of("h100");
    const CollectiveResult r = run_collective(c, ring(CollectiveOp::all_reduce, 8, GiB));
    const SystemSpec& sys = c.system();
    // Every step: each GPU sends S/n over NVLink; 2(n-1) steps; NCCL's base latency once.
    const double chunk = static_cast<double>(GiB) / 8;
    CHECK(r.steps == 14);
    CHECK(r.chunk_bytes == chunk);
    CHECK(r.slowest == LinkType::nvlink);
    CHECK(as_ps(r.step_s) == ps(sys.nvlink.latency_s + chunk / (sys.nvlink.effective_GBps() * 1e9)));
    CHECK(as_ps(r.time_s) == ps(sys.collective_base_latency_s) + 14 * as_ps(r.step_s));
    const double closed_form = 2.0 * 7 / 8 * static_cast<double>(GiB) / (370.8e9)  // bandwidth term
                               + 14 * 0.6e-6 + 6.6e-6;                               // latency terms
    CHECK(r.time_s == Approx(closed_form).epsilon(1e-9));
    CHECK(r.algbw_GBps == Approx(static_cast<double>(GiB) / r.time_s / 1e9));
    CHECK(r.busbw_GBps == Approx(r.algbw_GBps * 1.75));
}

TEST_CASE("all-gather and reduce-scatter take n-1 steps of S/n each") {
    const Cluster c = cluster_of("a100");
    for (CollectiveOp op : {CollectiveOp::all_gather, CollectiveOp::reduce_scatter}) {
        const CollectiveResult r = run_collective(c, ring(op, 8, GiB));
        CHECK(r.steps == 7);
        const double closed_form = 7.0 / 8 * static_cast<double>(GiB) / 240e9 + 7 * 0.6e-6 + 6.6e-6;
        CHECK(r.time_s == Approx(closed_form).epsilon(1e-9));
        CHECK(r.busbw_GBps == Approx(r.algbw_GBps * 0.875));
    }
}

TEST_CASE("8 H100s in one node reach NCCL's ~370 GB/s ring all-reduce busbw on large messages") {
    const Cluster c = cluster_of("h100");
    for (Bytes bytes : {GiB, 8 * GiB}) {
        const CollectiveResult r = run_collective(c, ring(CollectiveOp::all_reduce, 8, bytes));
        CHECK(r.busbw_GBps == Approx(370).epsilon(0.15));
        CHECK(r.busbw_GBps <= 370.8);
    }
    // Small messages do not reach it: latency dominates.
    const CollectiveResult small = run_collective(c, ring(CollectiveOp::all_reduce, 8, 1 << 20));
    CHECK(small.busbw_GBps < 0.5 * 370);
}

TEST_CASE("a ring across two nodes is held back by its InfiniBand hops") {
    const Cluster c = cluster_of("h100");
    const CollectiveResult inside = run_collective(c, ring(CollectiveOp::all_reduce, 8, GiB));
    const CollectiveResult across = run_collective(c, ring(CollectiveOp::all_reduce, 16, GiB));
    CHECK(across.nodes == 2);
    CHECK(across.slowest == LinkType::infiniband);
    CHECK(across.bottleneck_GBps == Approx(48.0));
    // Each step lasts as long as its slowest send: the one through the NIC.
    CHECK(as_ps(across.step_s) == transfer_duration(c.route(7, 8), static_cast<double>(GiB) / 16));
    CHECK(across.busbw_GBps == Approx(48.0).epsilon(0.02));
    CHECK(inside.busbw_GBps > 7 * across.busbw_GBps);
    // Across racks, the spine's two extra switches lengthen every step a little more.
    const CollectiveResult racks = run_collective(c, ring(CollectiveOp::all_reduce, 32, GiB));
    CHECK(as_ps(racks.step_s) == transfer_duration(c.route(15, 16), static_cast<double>(GiB) / 32));
}

TEST_CASE("parallel rings leave each node through a different NIC, as NCCL's channels do") {
    const Cluster c = cluster_of("a100");
    const CollectiveResult one = run_collective(c, ring(CollectiveOp::all_reduce, 16, GiB, 1));
    const CollectiveResult eight = run_collective(c, ring(CollectiveOp::all_reduce, 16, GiB, 8));
    REQUIRE(eight.sends.size() == 16 * 8);
    std::set<GpuId> nic_senders, nic_receivers;
    for (const RingSend& s : eight.sends)
        if (s.type == LinkType::infiniband) {
            nic_senders.insert(s.from);
            nic_receivers.insert(s.to);
        }
    CHECK(nic_senders.size() == 16);   // every GPU's NIC sends once per step
    CHECK(nic_receivers.size() == 16);
    // 8 NICs per node at 24 GB/s: busbw approaches 8 x 24 = 192 GB/s, under NVLink's 240.
    CHECK(eight.busbw_GBps > 5 * one.busbw_GBps);
    CHECK(eight.busbw_GBps <= 8 * 24.0);
    CHECK(eight.busbw_GBps == Approx(192).epsilon(0.05));
}

TEST_CASE("running one step and multiplying equals scheduling every step of the ring") {
    const Cluster c = cluster_of("h100", 2, 2);
    struct Case {
        CollectiveOp op;
        std::uint32_t n, rings;
    };
    for (const Case k : {Case{CollectiveOp::all_reduce, 8, 1}, Case{CollectiveOp::all_reduce, 16, 1},
                         Case{CollectiveOp::all_reduce, 24, 2}, Case{CollectiveOp::all_gather, 32, 8},
                         Case{CollectiveOp::reduce_scatter, 12, 3}}) {
        INFO("n = " << k.n << ", rings = " << k.rings);
        const CollectiveSetup s = ring(k.op, k.n, 123'456'789, k.rings);
        WorkGraph g;
        LinkPools pools(c, g);
        const CollectiveTasks tasks = add_collective(pools, s);
        const Timeline full = schedule(g);
        const CollectiveResult r = run_collective(c, s);
        CHECK(tasks.step_end.size() == r.steps);
        CHECK(full.runs[tasks.finish].end == as_ps(r.time_s));
        CHECK(full.runs[tasks.step_end[0]].end == as_ps(r.step_start_s(1)));
    }
}

TEST_CASE("each step lists who sends to whom, over which link, for a step-by-step animation") {
    const Cluster c = cluster_of("h100");
    const CollectiveResult r = run_collective(c, ring(CollectiveOp::all_reduce, 16, GiB));
    REQUIRE(r.sends.size() == 16);
    for (std::uint32_t i = 0; i < 16; ++i) {
        const RingSend& s = r.sends[i];
        CHECK(s.position == i);
        CHECK(s.from == i);
        CHECK(s.to == (i + 1) % 16);
        CHECK(s.type == (i == 7 || i == 15 ? LinkType::infiniband : LinkType::nvlink));
        CHECK(s.start_s == 0.0);
        CHECK(s.end_s <= r.step_s);
    }
    CHECK(r.sends[7].hops == 4);
    CHECK(r.sends[0].hops == 2);
    CHECK(r.step_start_s(3) == Approx(r.base_latency_s + 3 * r.step_s));
}

TEST_CASE("around the ring each GPU forwards the chunk it just received, and ends holding every chunk") {
    for (std::size_t n : {2u, 3u, 8u}) {
        const auto op = CollectiveOp::all_reduce;
        for (std::size_t s = 0; s + 1 < 2 * (n - 1); ++s) {
            if (s + 1 == n - 1) continue;  // the step where the phase changes
            for (std::size_t p = 0; p < n; ++p)
                CHECK(ring_chunk_sent(op, n, (p + 1) % n, s + 1) == ring_chunk_sent(op, n, p, s));
        }
        // The first all-gather step sends the chunk the reduce-scatter finished at that GPU.
        for (std::size_t p = 0; p < n; ++p)
            CHECK(ring_chunk_sent(op, n, (p + 1) % n, n - 1) == ring_chunk_sent(op, n, p, n - 2));
        CHECK(ring_step_reduces(op, n, n - 2));
        CHECK_FALSE(ring_step_reduces(op, n, n - 1));
        // A lone all-gather: position p starts with chunk p and receives all others in n-1 steps.
        for (std::size_t p = 0; p < n; ++p) {
            std::set<std::uint32_t> held{static_cast<std::uint32_t>(p)};
            for (std::size_t s = 0; s + 1 < n; ++s)
                held.insert(ring_chunk_sent(CollectiveOp::all_gather, n, (p + n - 1) % n, s));
            CHECK(held.size() == n);
        }
    }
}

TEST_CASE("a collective refuses an empty group, a repeated GPU and a GPU outside the cluster") {
    const Cluster c = cluster_of("h100");
    CollectiveSetup s = ring(CollectiveOp::all_reduce, 8, GiB);
    s.group.clear();
    CHECK_THROWS_AS(run_collective(c, s), std::invalid_argument);
    s.group = {0, 1, 1};
    CHECK_THROWS_AS(run_collective(c, s), std::invalid_argument);
    s.group = {0, 99};
    CHECK_THROWS_AS(run_collective(c, s), std::out_of_range);
    s.group = {0, 1};
    s.rings = 0;
    CHECK_THROWS_AS(run_collective(c, s), std::invalid_argument);
    const CollectiveResult lone = run_collective(c, ring(CollectiveOp::all_reduce, 1, GiB));
    CHECK(lone.time_s == 0.0);
    CHECK(lone.steps == 0);
}
