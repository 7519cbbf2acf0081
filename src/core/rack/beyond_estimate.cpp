// What a run does that NCCL's closed-form estimate leaves out (the estimate gives every size its
// algorithm's full bandwidth from the first byte), read from NCCL's own code:
// - NVLS's pipeline: the loops its warp groups pass from stage to stage (src/device/all_reduce.h,
//   channel counts in src/transport/nvls.cc, chunk rules in src/enqueue.cc);
// - a small message's width: the fewer channels and threads enqueue.cc gives it.
#include <algorithm>

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

double NcclModel::pipeline_loop_bytes(CollectiveAlgorithm a, double bytes) const {
    if (nvls_stages(m_op, a) == 0 || !(bytes > 0)) return 0;
    const bool one_node = m_group.nodes == 1;
    if (a == CollectiveAlgorithm::nvls && one_node) {
        // Channels (transport/nvls.cc: 16 on Hopper) x heads (one per GPU of the node) chunks at
        // a time; the chunk 128 KB (NCCL_NVLS_CHUNKSIZE), 64 KB for messages under 64 such loops,
        // 32 KB under 8, 16 KB under 2 (enqueue.cc, the same from 2.18 to 2.30).
        const double channels = m_generation == GpuGeneration::blackwell ? m_t.nvls_channels_blackwell : 16.0;
        const double at_once = channels * m_group.gpus_per_node;
        double chunk = 128 * KiB;
        if (bytes < 64 * at_once * chunk) chunk = 64 * KiB;
        if (bytes < 8 * at_once * chunk) chunk = 32 * KiB;
        if (bytes < 2 * at_once * chunk) chunk = 16 * KiB;
        return std::min(at_once * chunk, bytes);
    }
    if (a != CollectiveAlgorithm::nvls_tree || one_node) return 0;
    // The NVLS tree: a head per GPU with its own NIC. Hopper: 16 channels, the chunk 128 KB, 64 KB
    // from four nodes (NCCL_NVLSTREE_MAX_CHUNKSIZE's default). Blackwell under 2.30 (nvls.cc,
    // ncclNvlsTreeSm100Tuning, for 400 Gb/s NICs behind a PCIe switch beside their GPU): 32
    // channels on two nodes, 24 on more, the chunk at most 64 KB; before 2.30, Hopper's chunk and
    // NVLS's channels. Then enqueue.cc's rule (2.21 to 2.30): 256 KB under 32 loops, 128 KB under
    // 16, 64 KB under 4, 32 KB under 1.
    double channels = 16, chunk = m_group.nodes >= 4 ? 64 * KiB : 128 * KiB;
    if (m_generation == GpuGeneration::blackwell) {
        channels = m_t.nvls_channels_blackwell;
        if (m_t.nvls_tree_sm100_tuning && m_nic_GBps >= 48.0) {
            channels = m_group.nodes == 2 ? 32 : 24;
            chunk = 64 * KiB;
        }
    }
    const double at_once = channels * m_group.gpus_per_node;
    if (bytes < 32 * at_once * chunk && chunk > 256 * KiB) chunk = 256 * KiB;
    if (bytes < 16 * at_once * chunk && chunk > 128 * KiB) chunk = 128 * KiB;
    if (bytes < 4 * at_once * chunk && chunk > 64 * KiB) chunk = 64 * KiB;
    if (bytes < at_once * chunk && chunk > 32 * KiB) chunk = 32 * KiB;
    return std::min(at_once * chunk, bytes);
}

NcclModel::Width NcclModel::width(CollectiveAlgorithm a, CollectiveProtocol p, double bytes) const {
    const bool ring = a == CollectiveAlgorithm::ring;
    if ((!ring && a != CollectiveAlgorithm::tree) || m_exec_channels == 0) return {};
    // comm->maxThreads (tuning.cc, NVLink systems): LL 512, LL128 640, Simple 512; the thresholds
    // (comm.h): NCCL_LL_THREAD_THRESHOLD 8 (x ranks for the ring), LL128 8, Simple 64.
    const double full_threads = p == CollectiveProtocol::ll128 ? 640 : 512;
    double threshold = p == CollectiveProtocol::simple ? 64 : 8;
    if (ring && p == CollectiveProtocol::ll) threshold *= m_group.gpus;
    std::uint32_t nc = m_exec_channels;
    double nt = full_threads;
    while (bytes < nc * nt * threshold && nc >= 2) --nc;
    while (bytes < nc * nt * threshold && static_cast<int>(nt) % 128 == 0) nt /= 2;
    if (!ring) nt = 640;  // "Tree now uses all threads always"
    const double full = static_cast<double>(m_exec_channels) * (ring ? full_threads : 640.0);
    return {nc, static_cast<std::uint32_t>(nt), nc * nt / full};
}

void NcclModel::add_runtime_effects(CollectiveCost& c, double bytes) const {
    c.pipeline_fill_s = pipeline_fill_s(c.algorithm, bytes, c.bandwidth_GBps);
    c.pipeline_loop_bytes = pipeline_loop_bytes(c.algorithm, bytes);
    const Width w = width(c.algorithm, c.protocol, bytes);
    if (w.channels > 0) {
        c.channels = w.channels;
        c.threads = w.threads;
        c.max_channels = m_exec_channels;
        c.narrow_s = bytes / (c.bandwidth_GBps * 1e9) * (1.0 / w.fraction - 1.0);
    }
    c.time_s = c.nccl_time_s + c.pipeline_fill_s + c.narrow_s;
}

double NcclModel::pipeline_fill_s(CollectiveAlgorithm a, double bytes, double bandwidth_GBps) const {
    const double loop = pipeline_loop_bytes(a, bytes);
    if (!(loop > 0) || !(bandwidth_GBps > 0)) return 0;
    return (nvls_stages(m_op, a) - 1) * loop / (bandwidth_GBps * 1e9);
}

}  // namespace m2m::core
