// What a run does that NCCL's closed-form estimate leaves out (the estimate gives every size its
// algorithm's full bandwidth from the first byte), read from NCCL's own code:
// - NVLS's pipeline: the loops its warp groups pass from stage to stage (src/device/all_reduce.h,
//   channel counts in src/transport/nvls.cc, chunk rules in src/enqueue.cc);
// - a small message's width: the fewer channels and threads enqueue.cc gives it;
// - NVLS's rate in one node, which the estimate holds to the speeds its search lists;
// - the tree's rate across nodes, which the estimate charges for its plain TREE pattern.
#include <algorithm>
#include <cmath>
#include <limits>

#include "m2m/core/rack/collective_cost.hpp"

namespace m2m::core {

namespace {

// Stages a chunk passes in one node: scatter, add and multicast through the switch, gather
// (all_reduce.h); reduce-scatter scatters then adds, all-gather multicasts then gathers. The NVLS
// tree (all-reduce only) runs the same three in each node: between the add and the multicast its
// sum goes up the tree and back down, one chunk per channel at a time (an eighth of a loop on an
// 8-GPU node), which the model counts as part of that stage rather than as stages of their own.
int nvls_stages(CollectiveOp op, CollectiveAlgorithm a) {
    if (op == CollectiveOp::all_reduce) return 3;
    if (a == CollectiveAlgorithm::nvls_tree) return 0;
    return op == CollectiveOp::all_gather || op == CollectiveOp::reduce_scatter ? 2 : 0;
}

constexpr double KiB = 1024;

}  // namespace

// NVLS's channels (transport/nvls.cc): 16 on Hopper; on Blackwell 24 in one node (from 2.27) and 32
// across nodes, which 2.30's ncclNvlsTreeSm100Tuning sets to 24 from three nodes for 400 Gb/s NICs.
double NcclModel::nvls_channels() const {
    if (m_generation != GpuGeneration::blackwell) return 16;
    if (m_group.nodes == 1) return m_t.nvls_channels_blackwell;
    if (m_t.nvls_tree_sm100_tuning && m_nic_GBps >= 48.0 && m_group.nodes > 2) return 24;
    return m_t.nvls_channels_blackwell == 16 ? 16 : 32;
}

double NcclModel::pipeline_loop_bytes(CollectiveAlgorithm a, double bytes) const {
    if (nvls_stages(m_op, a) == 0 || !(bytes > 0)) return 0;
    const bool one_node = m_group.nodes == 1;
    const double at_once = nvls_channels() * m_group.gpus_per_node;  // a chunk per channel and head (GPU)
    if (a == CollectiveAlgorithm::nvls && one_node) {
        // The chunk 128 KB (NCCL_NVLS_CHUNKSIZE), 64 KB for messages under 64 such loops, 32 KB
        // under 8, 16 KB under 2 (enqueue.cc, the same from 2.18 to 2.30).
        double chunk = 128 * KiB;
        if (bytes < 64 * at_once * chunk) chunk = 64 * KiB;
        if (bytes < 8 * at_once * chunk) chunk = 32 * KiB;
        if (bytes < 2 * at_once * chunk) chunk = 16 * KiB;
        return std::min(at_once * chunk, bytes);
    }
    if (a != CollectiveAlgorithm::nvls_tree || one_node) return 0;
    // The NVLS tree's chunk (enqueue.cc, 2.21 to 2.30): NCCL_NVLS_CHUNKSIZE's 128 KB, at most 64
    // KB from four nodes (NCCL_NVLSTREE_MAX_CHUNKSIZE's default). 2.18 and 2.20 started from the
    // Simple protocol's 512 KB step instead; that is not modelled (no measured row runs the NVLS
    // tree on them). Blackwell under 2.30 (ncclNvlsTreeSm100Tuning, 400 Gb/s NICs, each behind a
    // PCIe switch beside its GPU as on a DGX B200): on two nodes 256 KB with 4 GPUs a node or
    // fewer, 128 KB with 9 to 15, else 64 KB; on more nodes 64 KB.
    const std::uint32_t ppn = m_group.gpus_per_node;
    double chunk = m_group.nodes >= 4 ? 64 * KiB : 128 * KiB;
    if (m_generation == GpuGeneration::blackwell && m_t.nvls_tree_sm100_tuning && m_nic_GBps >= 48.0) {
        if (m_group.nodes > 2) chunk = 64 * KiB;
        else if (ppn <= 4) chunk = 256 * KiB;
        else chunk = ppn >= 9 && ppn <= 15 ? 128 * KiB : 64 * KiB;
    }
    // Then 256 KB under 32 loops, 128 KB under 16, 64 KB under 4, 32 KB under 1.
    if (bytes < 32 * at_once * chunk && chunk > 256 * KiB) chunk = 256 * KiB;
    if (bytes < 16 * at_once * chunk && chunk > 128 * KiB) chunk = 128 * KiB;
    if (bytes < 4 * at_once * chunk && chunk > 64 * KiB) chunk = 64 * KiB;
    if (bytes < at_once * chunk && chunk > 32 * KiB) chunk = 32 * KiB;
    return std::min(at_once * chunk, bytes);
}

NcclModel::Width NcclModel::width(CollectiveAlgorithm a, CollectiveProtocol p, double bytes) const {
    const bool ring = a == CollectiveAlgorithm::ring, nvls_kind = a == CollectiveAlgorithm::nvls ||
                                                                a == CollectiveAlgorithm::nvls_tree;
    // The tree is left at its full width: NCCL's estimate already takes its own measured
    // medium-size penalty (treeCorrectionFactor), and no published row checks it narrower.
    if ((!ring && !nvls_kind) || m_exec_channels == 0 || !(bytes > 0)) return {};
    // From 2.22 (enqueue.cc, scheduleCollTasksToPlan) a channel gets at least one cell of 32 KB
    // of traffic: an all-reduce moves 2 bytes per byte, a gather n, LL 4 times that.
    double cells = std::numeric_limits<double>::infinity();
    if (m_t.channel_cells) {
        const double n = m_group.gpus;
        const bool gather = m_op == CollectiveOp::all_gather || m_op == CollectiveOp::reduce_scatter;
        const double per_byte = (m_op == CollectiveOp::all_reduce ? 2 : gather ? n : 1) * (p == CollectiveProtocol::ll ? 4 : 1);
        const double cell = std::ceil(std::ceil(32 * KiB / per_byte) / 16) * 16;
        cells = std::ceil((gather ? bytes / n : bytes) / cell);
    }
    if (nvls_kind) {  // NVLS runs all its channels' threads; only the cells can leave some idle
        const double full = nvls_channels();
        const double nc = std::min(full, cells);
        return {static_cast<std::uint32_t>(nc), 640, nc / full};
    }
    // The ring (topoGetAlgoInfo): comm->maxThreads on NVLink systems (LL 512, LL128 640, Simple
    // 512) and the thresholds (comm.h: NCCL_LL_THREAD_THRESHOLD 8, x ranks for the ring; LL128 8;
    // Simple 64). Channels go first, then threads halve; Simple adds a warp for sync, and no
    // channel runs fewer than 3 warps.
    const double full_threads = p == CollectiveProtocol::ll128 ? 640 : 512;
    double threshold = p == CollectiveProtocol::simple ? 64 : 8;
    if (p == CollectiveProtocol::ll) threshold *= m_group.gpus;
    double nc = m_exec_channels, nt = full_threads;
    while (bytes < nc * nt * threshold && nc >= 2) --nc;
    while (bytes < nc * nt * threshold && static_cast<int>(nt) % 128 == 0) nt /= 2;
    const double sync = p == CollectiveProtocol::simple ? 32 : 0;
    nt = std::max(nt + sync, 96.0);
    nc = std::min(nc, cells);
    return {static_cast<std::uint32_t>(nc), static_cast<std::uint32_t>(nt),
            nc * nt / (m_exec_channels * (full_threads + sync))};
}

bool NcclModel::tree_pattern_charged() const {
    const bool one_per_node = m_group.gpus == m_group.nodes;
    return m_group.nodes > 1 && (one_per_node || m_generation != GpuGeneration::ampere);
}

double NcclModel::run_bandwidth(CollectiveAlgorithm a, double estimate_GBps) const {
    // The tree's 15% is the estimate's, not the run's: measured trees reach the per-channel ceiling.
    if (a == CollectiveAlgorithm::tree && tree_pattern_charged()) return estimate_GBps / tree_pattern_charge;
    if (a != CollectiveAlgorithm::nvls || m_group.nodes != 1 || !(estimate_GBps > 0)) return estimate_GBps;
    // An all-gather only multicasts: each GPU stores its S/n once and the switch copies it to all,
    // so each GPU takes in S at its link's rate (NVIDIA/nccl #1083: send S/n, receive S), the rate
    // a ring streams at; algbw = B. No reduction in the switch, so no NVLS efficiency.
    if (m_op == CollectiveOp::all_gather) return m_nvlink_GBps;
    if (m_op != CollectiveOp::all_reduce && m_op != CollectiveOp::reduce_scatter) return estimate_GBps;
    // The efficiency is NCCL's tuning constant (2.28.3 on); the wires and the kernel's loop are
    // older, so every version's run uses it (8 H100s measured 479-480 GB/s busbw on 2.18 and 2.20).
    // It prices the switch's reduction: an all-reduce moves S(1 + 1/n) each way (n/(n+1) below),
    // a reduce-scatter has the switch read all S of each GPU's input to add it (#1083: send S).
    const double n = m_group.gpus;
    const int row = m_generation == GpuGeneration::ampere ? 1 : m_generation == GpuGeneration::hopper ? 2 : 3;
    const double efficiency = nccl_tuning().nvls_efficiency[row];
    const double wires = efficiency * m_nvlink_GBps * (m_op == CollectiveOp::all_reduce ? n / (n + 1) : 1.0);
    return wires > 0 ? wires : estimate_GBps;  // no efficiency for the generation (a custom preset): NCCL's
}

void NcclModel::add_runtime_effects(CollectiveCost& c, double bytes) const {
    c.pipeline_fill_s = pipeline_fill_s(c.algorithm, bytes, c.run_bandwidth_GBps);
    c.pipeline_loop_bytes = pipeline_loop_bytes(c.algorithm, bytes);
    const Width w = width(c.algorithm, c.protocol, bytes);
    if (w.channels > 0) {
        c.channels = w.channels;
        c.threads = w.threads;
        const bool nvls_kind = c.algorithm == CollectiveAlgorithm::nvls || c.algorithm == CollectiveAlgorithm::nvls_tree;
        c.max_channels = nvls_kind ? static_cast<std::uint32_t>(nvls_channels()) : m_exec_channels;
        c.narrow_s = bytes / (c.run_bandwidth_GBps * 1e9) * (1.0 / w.fraction - 1.0);
    }
    const double streamed_s = c.run_bandwidth_GBps == c.bandwidth_GBps ? c.nccl_time_s
                                                                         : c.latency_s + bytes / (c.run_bandwidth_GBps * 1e9);
    c.time_s = streamed_s + c.pipeline_fill_s + c.narrow_s;
}

double NcclModel::pipeline_fill_s(CollectiveAlgorithm a, double bytes, double bandwidth_GBps) const {
    const double loop = pipeline_loop_bytes(a, bytes);
    if (!(loop > 0) || !(bandwidth_GBps > 0)) return 0;
    return (nvls_stages(m_op, a) - 1) * loop / (bandwidth_GBps * 1e9);
}

}  // namespace m2m::core
