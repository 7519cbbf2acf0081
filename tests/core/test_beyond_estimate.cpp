// What a run does that NCCL's closed-form estimate leaves out (beyond_estimate.cpp): NVLS's and
// the NVLS tree's pipeline fill, and a small message's fewer channels and threads. NCCL's pick
// stays its own, by its estimate.
#include <catch2/catch.hpp>

#include "m2m/core/rack/collective_cost.hpp"
#include "m2m/presets/presets.hpp"
#include "rack_fixtures.hpp"

using namespace m2m;
using namespace m2m::core;

using namespace m2m::test;

namespace {

constexpr double KiB = 1024, MiB = 1024 * KiB, GiB = 1024 * MiB;

}  // namespace

TEST_CASE("NVLS fills its pipeline before it streams: (stages - 1) loops of 16 channels x 8 GPUs x chunk") {
    const NcclModel m(system_of("h100"), nodes_of_8(1), CollectiveOp::all_reduce);
    const double bw = m.bandwidth(nvls, simple) * 1e9;  // NCCL's estimate
    // The run streams at the wires' rate: NCCL's NVLS efficiency (0.85) of 18 links at 20.6 GB/s, x n/(n+1).
    const double run = 0.85 * 18 * 20.6 * 8 / 9 * 1e9;
    // The chunk: 128 KB from 64 loops of 16 x 8 x 128 KB (1 GiB), 64 KB from 8 loops of 8 MiB,
    // 32 KB from 2 loops of 4 MiB, else 16 KB; one loop can be no larger than the message.
    for (const auto& [bytes, loop] : {std::pair{8 * GiB, 16 * MiB}, std::pair{GiB, 16 * MiB}, std::pair{64 * MiB, 8 * MiB},
                                     std::pair{8 * MiB, 4 * MiB}, std::pair{4 * MiB, 2 * MiB}, std::pair{MiB, MiB}}) {
        INFO(bytes << " B");
        const CollectiveCost c = m.cost(bytes, nvls, simple);
        CHECK(c.pipeline_loop_bytes == loop);
        // Scatter, add through the switch, gather: the first loop passes two stages before the third starts.
        CHECK(c.run_bandwidth_GBps * 1e9 == Approx(run));
        CHECK(c.pipeline_fill_s == Approx(2 * loop / run));
        CHECK(c.nccl_time_s == Approx(25e-6 + bytes / bw));
        CHECK(c.time_s == Approx(25e-6 + bytes / run + c.pipeline_fill_s));
        CHECK(c.busbw_GBps == Approx(bytes / c.time_s / 1e9 * 1.75));
    }
    // 64 MiB: a fifth of the time is the fill, busbw 362 GB/s (Azure's ND H100 v5 measured 362).
    CHECK(m.cost(64 * MiB, nvls, simple).busbw_GBps == Approx(362.0).epsilon(0.002));
    // Azure's VMs forced NVLS at every size (NCCL_ALGO=NVLS): a flat cost of about 25 us up to
    // 64 KiB (the H200 VM measured 30-31 us), 1 MiB at 51 GB/s busbw (measured 43.7 and 53.0).
    CHECK(m.cost(KiB, nvls, simple).time_s * 1e6 == Approx(25.1).epsilon(0.01));
    CHECK(m.cost(64 * KiB, nvls, simple).time_s * 1e6 == Approx(26.4).epsilon(0.01));
    CHECK(m.cost(MiB, nvls, simple).busbw_GBps == Approx(50.7).epsilon(0.01));
    // Reduce-scatter and all-gather pass two stages: one loop of fill. The ring streams from its first step.
    const NcclModel rs(system_of("h100"), nodes_of_8(1), CollectiveOp::reduce_scatter);
    const CollectiveCost rs64 = rs.cost(64 * MiB, nvls, simple);  // one loop at the rate it streams
    CHECK(rs64.pipeline_fill_s == Approx(8 * MiB / (rs64.run_bandwidth_GBps * 1e9)));
    CHECK(m.cost(64 * MiB, ring, simple).pipeline_fill_s == 0);
    CHECK(m.cost(64 * MiB, ring, simple).time_s == m.cost(64 * MiB, ring, simple).nccl_time_s);
    // NCCL picks by its own estimate, fill left out: at 2 MiB it takes NVLS, which the ring beats.
    const CollectiveCost pick = m.best(2 * MiB);
    CHECK(pick.algorithm == nvls);
    CHECK(m.best(2 * MiB, {ring, std::nullopt}).time_s < pick.time_s);
    CHECK(m.best(2 * MiB, {ring, std::nullopt}).nccl_time_s > pick.nccl_time_s);
}

TEST_CASE("the NVLS tree fills the same three stages in each node, in loops of its own chunk rule") {
    const auto loop_of = [](const NcclModel& m, double bytes) { return m.cost(bytes, nvls_tree, simple).pipeline_loop_bytes; };
    // Two H100 nodes: 16 channels x 8 heads x 128 KB, the chunk 64 KB under 4 such loops, 32 KB under 1.
    const NcclModel two(system_of("h100"), nodes_of_8(2), CollectiveOp::all_reduce);
    for (const auto& [bytes, loop] : {std::pair{8 * GiB, 16 * MiB}, std::pair{64 * MiB, 16 * MiB},
                                     std::pair{32 * MiB, 8 * MiB}, std::pair{4 * MiB, 4 * MiB}, std::pair{MiB, MiB}}) {
        INFO(bytes << " B");
        const CollectiveCost c = two.cost(bytes, nvls_tree, simple);
        CHECK(c.pipeline_loop_bytes == loop);
        CHECK(c.pipeline_fill_s == Approx(2 * loop / (two.bandwidth(nvls_tree, simple) * 1e9)));
        CHECK(c.time_s == Approx(c.nccl_time_s + c.pipeline_fill_s));
    }
    // 64 MiB on two nodes: 265 GB/s busbw (NVIDIA/nccl #1244 measured 268.9; NCCL's estimate alone says 371).
    CHECK(two.cost(64 * MiB, nvls_tree, simple).busbw_GBps == Approx(264.5).epsilon(0.002));
    // From four nodes the chunk starts at 64 KB (NCCL_NVLSTREE_MAX_CHUNKSIZE's default).
    CHECK(loop_of(NcclModel(system_of("h100"), nodes_of_8(4), CollectiveOp::all_reduce), GiB) == 8 * MiB);
    // Blackwell under 2.30: 32 channels on two nodes, 24 on more, the chunk at most 64 KB; under 2.23, Hopper's rule.
    CHECK(loop_of(NcclModel(system_of("b200"), nodes_of_8(2), CollectiveOp::all_reduce), GiB) == 16 * MiB);
    CHECK(loop_of(NcclModel(system_of("b200"), nodes_of_8(3), CollectiveOp::all_reduce), GiB) == 12 * MiB);
    CHECK(loop_of(NcclModel(system_of("b200"), nodes_of_8(2), CollectiveOp::all_reduce, *nccl_tuning_of("2.23.4")), GiB) ==
          16 * MiB);
    CHECK(loop_of(NcclModel(system_of("b200"), nodes_of_8(3), CollectiveOp::all_reduce, *nccl_tuning_of("2.23.4")), GiB) ==
          16 * MiB);
    // NCCL's pick is its own: the fill never enters it.
    CHECK(two.best(64 * MiB).algorithm == nvls_tree);
}

TEST_CASE("a small message runs on fewer channels and threads, as enqueue.cc gives it, and takes longer") {
    const NcclModel m(system_of("a100"), nodes_of_8(1), CollectiveOp::all_reduce);
    const double bw = m.bandwidth(ring, ll) * 1e9;
    // The ring's LL wants 8 x 8 = 64 bytes per thread: 24 channels x 512 threads need 768 KiB.
    CHECK(m.width(ring, ll, MiB).channels == 24);
    CHECK(m.width(ring, ll, MiB).fraction == 1.0);
    CHECK(m.cost(MiB, ring, ll).narrow_s == 0);
    // 64 KiB: two channels of 512 threads; 1 KiB: one channel, its threads halved to 64 and
    // raised to NCCL's floor of 3 warps.
    const NcclModel::Width w64 = m.width(ring, ll, 64 * KiB);
    CHECK(w64.channels == 2);
    CHECK(w64.threads == 512);
    CHECK(w64.fraction == Approx(2.0 / 24));
    const NcclModel::Width w1 = m.width(ring, ll, KiB);
    CHECK(w1.channels == 1);
    CHECK(w1.threads == 96);
    CHECK(w1.fraction == Approx(96.0 / (24 * 512)));
    // The bandwidth term is NCCL's over the share of threads at work.
    const CollectiveCost c = m.cost(64 * KiB, ring, ll);
    CHECK(c.channels == 2);
    CHECK(c.max_channels == 24);
    CHECK(c.narrow_s == Approx(64 * KiB / bw * 11));
    CHECK(c.time_s == Approx(c.nccl_time_s + c.narrow_s));
    // An HGX A100's published log: 31.82 us at 64 KiB and 24.43 at 1 KiB (the model 30.7 and 17.6;
    // NCCL's estimate alone 16.3 and 15.0).
    CHECK(c.time_s * 1e6 == Approx(30.7).epsilon(0.01));
    CHECK(m.cost(KiB, ring, ll).time_s * 1e6 == Approx(17.6).epsilon(0.01));
    CHECK(m.cost(64 * KiB, ring, ll).nccl_time_s * 1e6 == Approx(16.3).epsilon(0.01));
    // NCCL still picks by its own estimate.
    CHECK(m.best(64 * KiB).algorithm == ring);
    CHECK(m.best(64 * KiB).protocol == ll);
    // Simple wants 64 bytes per thread and adds a sync warp: two channels of 544 threads at 64 KiB.
    const NcclModel::Width simple64 = m.width(ring, simple, 64 * KiB);
    CHECK(simple64.channels == 2);
    CHECK(simple64.threads == 544);
    CHECK(simple64.fraction == Approx(2.0 / 24));
    // LL128's threshold would allow 2 channels at 10 KiB (8 bytes x 640 threads each), but from
    // 2.22 a channel needs a 16 KiB cell of an all-reduce: one channel. 2.21 had no cells.
    CHECK(m.width(ring, ll128, 10 * KiB).channels == 1);
    const NcclModel old(system_of("a100"), nodes_of_8(1), CollectiveOp::all_reduce, *nccl_tuning_of("2.21.5"));
    CHECK(old.width(ring, ll128, 10 * KiB).channels == 2);
    // The tree keeps its full width (NCCL's estimate has its own medium-size penalty).
    const NcclModel two(system_of("h100"), nodes_of_8(2), CollectiveOp::all_reduce);
    CHECK(two.width(tree, ll, 8 * KiB).fraction == 1.0);
    CHECK(two.cost(8 * KiB, tree, ll).narrow_s == 0);
    // NVLS runs all 16 channels' threads unless the cells leave some idle: 4 cells at 64 KiB.
    const NcclModel h(system_of("h100"), nodes_of_8(1), CollectiveOp::all_reduce);
    CHECK(h.width(nvls, simple, 64 * KiB).channels == 4);
    CHECK(h.width(nvls, simple, 64 * KiB).fraction == Approx(0.25));
    CHECK(h.width(nvls, simple, MiB).fraction == 1.0);
    CHECK(h.cost(64 * KiB, nvls, simple).max_channels == 16);
}

TEST_CASE("across nodes, fast rings run twice the channels again where a node has under 8 GPUs",
          "[nccl][beyond]") {
    // connect.cc: across nodes on sm90 with ring channels above 45 GB/s, NCCL doubles its
    // execution channels once more while they are under 16. Six H100s a node: 6 graph channels
    // at 48 GB/s, 12 after the usual doubling, 24 run. Eight a node: 16 already, none added.
    const auto six = core::first_gpus_group(12, 6);
    const NcclModel m6(system_of("h100"), six, CollectiveOp::all_reduce);
    CHECK(m6.graph(ring).channels == 6);
    CHECK(m6.graph(ring).intra_GBps == 48.0);
    CHECK(m6.cost(GiB, ring, simple).max_channels == 24);
    const NcclModel m8(system_of("h100"), nodes_of_8(2), CollectiveOp::all_reduce);
    CHECK(m8.cost(GiB, ring, simple).max_channels == 16);
    // One node never: the rule is for rings that leave the node.
    const NcclModel one(system_of("h100"), core::first_gpus_group(6, 6), CollectiveOp::all_reduce);
    CHECK(one.cost(GiB, ring, simple).max_channels == 2 * one.graph(ring).channels);
    // Blackwell from 2.25 (its rings across nodes run at 48 GB/s a channel too); 2.23 kept the
    // rule to Hopper.
    const NcclModel b(system_of("b200"), six, CollectiveOp::all_reduce);
    CHECK(b.graph(ring).intra_GBps == 48.0);
    CHECK(b.cost(GiB, ring, simple).max_channels == 24);
    const NcclModel b23(system_of("b200"), six, CollectiveOp::all_reduce, *nccl_tuning_of("2.23.4"));
    CHECK(b23.cost(GiB, ring, simple).max_channels == 12);
    // Ampere never; the narrow run below the threshold reads the doubled count.
    const NcclModel a(system_of("a100"), core::first_gpus_group(12, 6), CollectiveOp::all_reduce);
    CHECK(a.cost(GiB, ring, simple).max_channels == 2 * a.graph(ring).channels);
    // LL wants 8 bytes x 12 ranks a thread: 1 MiB fills 21 of the 24 channels' 512 threads.
    CHECK(m6.width(ring, ll, MiB).channels == 21);
}

TEST_CASE("an NVLS all-reduce in one node runs at the wires' rate, which NCCL's estimate rounds down",
          "[nccl][beyond]") {
    // Each GPU moves S(1 + 1/n) bytes each way over its NVLink, at NCCL's NVLS efficiency of its
    // rate: algbw = efficiency x B x n/(n+1), busbw 2(n-1)/(n+1) x efficiency x B.
    const double h100_B = 18 * 20.6, b200_B = 18 * 40.1;
    for (std::uint32_t n = 2; n <= 8; ++n) {
        INFO(n << " H100s");
        const NcclModel m(system_of("h100"), first_gpus_group(n, 8), CollectiveOp::all_reduce);
        const CollectiveCost c = m.cost(4 * GiB, nvls, simple);
        CHECK(c.run_bandwidth_GBps == Approx(0.85 * h100_B * n / (n + 1)));
        CHECK(c.run_bandwidth_GBps > c.bandwidth_GBps);
        CHECK(c.time_s == Approx(c.latency_s + 4 * GiB / (c.run_bandwidth_GBps * 1e9) + c.pipeline_fill_s));
    }
    // NCCL's estimate on 4 H100s: 60 GB/s a channel, the search's fastest speed (its per-channel
    // figure, 2 x 0.85 x 3/4 x 60 = 76.5, capped by bwInter at 60), so 240 GB/s busbw.
    const NcclModel four(system_of("h100"), first_gpus_group(4, 8), CollectiveOp::all_reduce);
    CHECK(four.graph(nvls).intra_GBps == 60);
    CHECK(four.cost(4 * GiB, nvls, simple).nccl_time_s == Approx(4 * GiB * 1.5 / 240e9).epsilon(0.001));
    // The run against what one H100 node measured with NVLS forced on 3 to 8 of its GPUs at 2-4 GB
    // (NVIDIA/nccl #1455: "about 365-370" on 3 and 4, then 420, 440, 460, 480): within 15%, and
    // within 3% from 4 GPUs. NCCL's estimate was 12-35% low on 4 to 7.
    const std::pair<std::uint32_t, double> measured[] = {{3, 367.5}, {4, 367.5}, {5, 420}, {6, 440}, {7, 460}, {8, 480}};
    for (const auto& [n, busbw] : measured) {
        INFO(n << " H100s");
        const CollectiveCost c = NcclModel(system_of("h100"), first_gpus_group(n, 8), CollectiveOp::all_reduce)
                                     .cost(4 * GiB, nvls, simple);
        CHECK(c.busbw_GBps == Approx(busbw).epsilon(n == 3 ? 0.15 : 0.03));
    }
    // So NCCL picks the ring there, by its estimate, though NVLS would run faster.
    CHECK(four.best(4 * GiB).algorithm == ring);
    CHECK(four.cost(4 * GiB, nvls, simple).time_s < four.best(4 * GiB).time_s);
    // B200: the estimate stops at the search's fastest listed speed, 90 GB/s a channel (720 busbw);
    // the run reaches 831 less its fill, within 3% of GKE's A4 (845 at 16 GB) and NVIDIA/nccl #1807
    // (830 at 8 GB).
    const NcclModel b(system_of("b200"), nodes_of_8(1), CollectiveOp::all_reduce);
    const CollectiveCost bc = b.cost(16 * GiB, nvls, simple);
    CHECK(bc.bandwidth_GBps * 14 / 8 == Approx(720));
    CHECK(bc.run_bandwidth_GBps == Approx(0.74 * b200_B * 8 / 9));
    CHECK(bc.busbw_GBps == Approx(845).epsilon(0.03));
    CHECK(b.cost(8 * GiB, nvls, simple).busbw_GBps == Approx(830).epsilon(0.03));
    // The wires are the same under every NCCL version: 2.18's estimate differs, its run does not.
    const NcclModel old(system_of("h100"), nodes_of_8(1), CollectiveOp::all_reduce, *nccl_tuning_of("2.18.5"));
    CHECK(old.cost(4 * GiB, nvls, simple).run_bandwidth_GBps == Approx(0.85 * h100_B * 8 / 9));
    // Everything else runs at NCCL's own rate: the ring, the NVLS tree across nodes.
    const NcclModel h(system_of("h100"), nodes_of_8(1), CollectiveOp::all_reduce);
    CHECK(h.cost(GiB, ring, simple).run_bandwidth_GBps == h.cost(GiB, ring, simple).bandwidth_GBps);
    const NcclModel two(system_of("h100"), nodes_of_8(2), CollectiveOp::all_reduce);
    CHECK(two.cost(GiB, nvls_tree, simple).run_bandwidth_GBps == two.cost(GiB, nvls_tree, simple).bandwidth_GBps);
}

TEST_CASE("a tree across nodes runs at NCCL's per-channel ceiling, without the 15% its estimate charges the plain "
          "TREE pattern",
          "[nccl][beyond]") {
    // NCCL's estimate (tuning.cc): 8 channels a node, each min(0.92 x 48 GB/s, 24 GB/s from four
    // B200 nodes), x 0.85 for the plain TREE pattern its search settles on across nodes; algbw half.
    for (std::uint32_t nodes : {4u, 8u, 16u, 64u}) {
        INFO(nodes << " B200 nodes");
        const NcclModel m(system_of("b200"), nodes_of_8(nodes), CollectiveOp::all_reduce);
        CHECK(m.tree_pattern_charged());
        const CollectiveCost c = m.cost(16 * GiB, tree, simple);
        CHECK(c.bandwidth_GBps == Approx(8 * 24.0 * 0.85 / 2).epsilon(0.01));
        CHECK(c.run_bandwidth_GBps == Approx(8 * 24.0 / 2).epsilon(0.01));
        CHECK(c.time_s == Approx(c.latency_s + 16 * GiB / (c.run_bandwidth_GBps * 1e9)));
        CHECK(c.nccl_time_s > c.time_s);
    }
    // Two B200 clusters measured forced trees (together-nccl-tests baselines: use3a-ss, 8 NDR HCAs
    // a node, NCCL 2.29.7, 16 GiB; flapping-airplanes, NCCL 2.28.9, 32 GiB). The run is within 6%
    // of every figure from 2 to 64 nodes; with the charge it would be 17-19% low.
    struct Row { std::uint32_t nodes; double bytes, busbw; };
    const Row rows[] = {{2, 16 * GiB, 335.2}, {4, 16 * GiB, 190.7}, {8, 16 * GiB, 192.6}, {16, 16 * GiB, 193.4},
                        {32, 16 * GiB, 193.5}, {2, 32 * GiB, 338.52}, {4, 32 * GiB, 192.25}, {8, 32 * GiB, 194.53},
                        {16, 32 * GiB, 195.82}, {32, 32 * GiB, 195.43}, {64, 32 * GiB, 195.90}};
    for (const Row& r : rows) {
        INFO(r.nodes << " B200 nodes, " << r.bytes << " B");
        const CollectiveCost c = NcclModel(system_of("b200"), nodes_of_8(r.nodes), CollectiveOp::all_reduce)
                                     .cost(r.bytes, tree, simple);
        CHECK(c.busbw_GBps == Approx(r.busbw).epsilon(0.06));
    }
    // Inside one node there is no NIC to balance and the search keeps the balanced tree: no charge,
    // in the estimate or the run (one B200 node measured 555.8 with the tree forced; the model 579).
    const NcclModel one(system_of("b200"), nodes_of_8(1), CollectiveOp::all_reduce);
    CHECK_FALSE(one.tree_pattern_charged());
    const CollectiveCost c1 = one.cost(32 * GiB, tree, simple);
    CHECK(c1.run_bandwidth_GBps == c1.bandwidth_GBps);
    CHECK(c1.busbw_GBps == Approx(555.81).epsilon(0.05));
    // An A100 node pair keeps the balanced tree; one GPU a node is always the plain pattern.
    CHECK_FALSE(NcclModel(system_of("a100"), nodes_of_8(2), CollectiveOp::all_reduce).tree_pattern_charged());
    CHECK(NcclModel(system_of("a100"), first_gpus_group(2, 1), CollectiveOp::all_reduce).tree_pattern_charged());
    // NCCL still picks by its estimate: the tree's charge stays in nccl_time_s.
    const NcclModel four(system_of("b200"), nodes_of_8(4), CollectiveOp::all_reduce);
    CHECK(four.cost(MiB, tree, ll128).run_bandwidth_GBps == Approx(four.cost(MiB, tree, ll128).bandwidth_GBps / 0.85));
}

TEST_CASE("NVLS's all-gather in one node streams at its wires' rate: it only multicasts, each GPU taking in S",
          "[nccl][beyond]") {
    // NVIDIA/nccl #1083: an NVLS all-gather sends S/n and receives S; a reduce-scatter sends S (the
    // switch reads all of each GPU's input to add it) and receives S/n.
    const double h100_B = 18 * 20.6;
    const NcclModel ag(system_of("h100"), nodes_of_8(1), CollectiveOp::all_gather);
    CHECK(ag.cost(GiB, nvls, simple).run_bandwidth_GBps == Approx(h100_B));
    CHECK(ag.cost(GiB, nvls, simple).bandwidth_GBps < 0.6 * h100_B);  // NCCL's estimate: about half
    const NcclModel rs(system_of("h100"), nodes_of_8(1), CollectiveOp::reduce_scatter);
    CHECK(rs.cost(GiB, nvls, simple).run_bandwidth_GBps == Approx(0.85 * h100_B));
    // Published: 8 B200s with NVLS forced, 674.5 (32 GiB) and 680.6 GB/s busbw (16 GiB), two
    // clusters' reports in together-nccl-tests; 8 H100s "only 300" at 1 GB, with the ring at 350
    // (NVIDIA/nccl #1506). Within 10%, and still below the ring on the H100, as measured.
    const NcclModel b(system_of("b200"), nodes_of_8(1), CollectiveOp::all_gather);
    CHECK(b.cost(32 * GiB, nvls, simple).busbw_GBps == Approx(674.5).epsilon(0.1));
    CHECK(b.cost(16 * GiB, nvls, simple).busbw_GBps == Approx(680.6).epsilon(0.1));
    CHECK(ag.cost(GiB, nvls, simple).busbw_GBps == Approx(300).epsilon(0.1));
    CHECK(ag.cost(GiB, nvls, simple).time_s > ag.best(GiB, {ring, std::nullopt}).time_s);
    CHECK(ag.best(GiB).algorithm == ring);  // and NCCL picks the ring there
}
