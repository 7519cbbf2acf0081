// NVLS's pipeline, the app's addition to NCCL's closed-form estimate (which gives NVLS and the
// NVLS tree their full bandwidth from the first byte): the loops their warp groups pass from stage
// to stage, read from NCCL's device code (src/device/all_reduce.h), its channel counts
// (src/transport/nvls.cc) and its chunk rules (src/enqueue.cc).
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

double NcclModel::pipeline_fill_s(CollectiveAlgorithm a, double bytes, double bandwidth_GBps) const {
    const double loop = pipeline_loop_bytes(a, bytes);
    if (!(loop > 0) || !(bandwidth_GBps > 0)) return 0;
    return (nvls_stages(m_op, a) - 1) * loop / (bandwidth_GBps * 1e9);
}

}  // namespace m2m::core
