// NVLS's pipeline inside one node, the app's addition to NCCL's closed-form estimate (which
// gives NVLS its full bandwidth from the first byte): the loops its warp groups pass from stage to
// stage, read from NCCL's device code (src/device/all_reduce.h), its channel counts
// (src/transport/nvls.cc) and its chunk rule (src/enqueue.cc).
#include <algorithm>

#include "m2m/core/rack/collective_cost.hpp"

namespace m2m::core {

namespace {

// Stages a chunk passes in one node: scatter, add and multicast through the switch, gather
// (all_reduce.h); reduce-scatter scatters then adds, all-gather multicasts then gathers.
int nvls_stages(CollectiveOp op) {
    if (op == CollectiveOp::all_reduce) return 3;
    return op == CollectiveOp::all_gather || op == CollectiveOp::reduce_scatter ? 2 : 0;
}

}  // namespace

double NcclModel::pipeline_loop_bytes(CollectiveAlgorithm a, double bytes) const {
    if (a != CollectiveAlgorithm::nvls || m_group.nodes != 1 || nvls_stages(m_op) == 0 || !(bytes > 0)) return 0;
    // Channels (transport/nvls.cc: 16 on Hopper) x heads (one per GPU of the node) chunks at a
    // time; the chunk 128 KB (NCCL_NVLS_CHUNKSIZE), 64 KB for messages under 64 such loops,
    // 32 KB under 8, 16 KB under 2 (enqueue.cc, the same from 2.18 to 2.30).
    const double channels = m_generation == GpuGeneration::blackwell ? m_t.nvls_channels_blackwell : 16.0;
    const double at_once = channels * m_group.gpus_per_node;
    double chunk = 131072;
    if (bytes < 64 * at_once * chunk) chunk = 65536;
    if (bytes < 8 * at_once * chunk) chunk = 32768;
    if (bytes < 2 * at_once * chunk) chunk = 16384;
    return std::min(at_once * chunk, bytes);
}

double NcclModel::pipeline_fill_s(CollectiveAlgorithm a, double bytes, double bandwidth_GBps) const {
    const double loop = pipeline_loop_bytes(a, bytes);
    if (!(loop > 0) || !(bandwidth_GBps > 0)) return 0;
    return (nvls_stages(m_op) - 1) * loop / (bandwidth_GBps * 1e9);
}

}  // namespace m2m::core
