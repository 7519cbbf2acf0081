// What one collective costs by NCCL's own closed-form model (latency + bytes / bandwidth per
// algorithm and protocol), and the algorithm and protocol NCCL would pick: cheap enough (a few
// microseconds) for the estimator to call for every exchange of a training step.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "m2m/core/rack/nccl_tuning.hpp"
#include "m2m/core/rack/topology.hpp"

namespace m2m::core {

enum class CollectiveOp { all_reduce, all_gather, reduce_scatter, broadcast, all_to_all };
/// "allreduce", "allgather", "reducescatter", "broadcast", "alltoall" (the command line's spelling).
std::string_view collective_op_name(CollectiveOp op);
/// "all-reduce", "all-gather", "reduce-scatter", "broadcast", "all-to-all".
std::string_view collective_op_label(CollectiveOp op);
std::optional<CollectiveOp> parse_collective_op(std::string_view name);
inline constexpr CollectiveOp all_collective_ops[] = {CollectiveOp::all_reduce, CollectiveOp::all_gather,
                                                      CollectiveOp::reduce_scatter, CollectiveOp::broadcast,
                                                      CollectiveOp::all_to_all};

/// nccl-tests (doc/PERFORMANCE.md): busbw = algbw x factor: 2(n-1)/n for all-reduce, (n-1)/n
/// for all-gather, reduce-scatter and all-to-all, 1 for broadcast. 0 when n < 2.
double busbw_factor(CollectiveOp op, std::size_t n);

/// What crosses the wires for nccl-tests' size S among n GPUs, all GPUs' sends added up: each
/// GPU sends busbw_factor x S (a ring all-reduce 2(n-1)/n x S), so n x that in all; a broadcast
/// reaches the n-1 others with S each. What "bytes exchanged" should say, not S itself.
double bytes_on_wires(CollectiveOp op, std::size_t n, double bytes);

/// Who takes part: `gpus` in all, at most `gpus_per_node` of them in any one node, over `nodes`
/// nodes. Every GPU has its own NIC (DGX and HGX nodes do), so a node's members use as many NICs.
struct CollectiveGroup {
    std::uint32_t gpus = 0;
    std::uint32_t gpus_per_node = 0;  ///< the most in any node
    std::uint32_t nodes = 0;
    std::uint32_t fewest_per_node = 0;  ///< the fewest in any node (0: as gpus_per_node)
    /// NVLS needs enough GPUs in every node: 8 + 1 leaves a node of one.
    std::uint32_t fewest() const { return fewest_per_node ? fewest_per_node : gpus_per_node; }
};
/// The group of these GPUs of the cluster.
CollectiveGroup collective_group(const Cluster& cluster, std::span<const GpuId> gpus);
/// The first `gpus` GPUs of a cluster with `node_size` GPUs per node: whole nodes first.
CollectiveGroup first_gpus_group(std::uint32_t gpus, std::uint32_t node_size);

/// An algorithm and protocol asked for; empty = NCCL's choice ("auto"). `nvls` means NVLS inside
/// one node and NVLS tree across nodes, as NCCL_ALGO=NVLS and NVLSTree do.
struct CollectiveChoice {
    std::optional<CollectiveAlgorithm> algorithm;
    std::optional<CollectiveProtocol> protocol;
};

/// NCCL's topology search for one algorithm, as this model reads it (docs/rack_model.md):
/// channels and the per-channel bandwidth inside a node and across nodes, GB/s one direction.
struct NcclGraph {
    std::uint32_t channels = 0;
    double intra_GBps = 0;
    double inter_GBps = 0;
};

struct CollectiveCost {
    CollectiveAlgorithm algorithm = CollectiveAlgorithm::ring;
    CollectiveProtocol protocol = CollectiveProtocol::simple;
    double latency_s = 0;       ///< NCCL's latency term
    double bandwidth_GBps = 0;  ///< NCCL's bandwidth term at this size (algbw with no latency)
    double nccl_time_s = 0;     ///< NCCL's own estimate, latency_s + bytes / bandwidth: what it picks by
    /// The rate the run moves the bytes at: bandwidth_GBps, except NVLS in one node and the tree
    /// across nodes, which run faster than NCCL's estimate gives them (NcclModel::run_bandwidth).
    double run_bandwidth_GBps = 0;
    /// NVLS and the NVLS tree: the loops their pipeline needs to fill before the stream runs at
    /// its rate, which NCCL's estimate leaves out (NcclModel::pipeline_fill_s); 0 for the others.
    double pipeline_fill_s = 0;
    double pipeline_loop_bytes = 0;  ///< NVLS (tree): the bytes of one loop (channels x GPUs x chunk)
    /// Ring and tree: the channels and threads per channel NCCL runs this size on (enqueue.cc
    /// gives a small message fewer of both), of `max_channels`; the time NCCL's estimate leaves
    /// out by pricing every size at the full width's bandwidth (NcclModel::width).
    std::uint32_t channels = 0;
    std::uint32_t threads = 0;
    std::uint32_t max_channels = 0;
    double narrow_s = 0;
    double time_s = 0;               ///< latency_s + bytes / run_bandwidth_GBps + pipeline_fill_s + narrow_s
    double algbw_GBps = 0;      ///< bytes / time_s
    double busbw_GBps = 0;      ///< algbw x busbw_factor
};

/// NCCL's cost table for one group and collective: latency and bandwidth per algorithm and
/// protocol (ncclTopoTuneModel), and the time of a size (ncclTopoGetAlgoTime). Build once, ask
/// for many sizes.
class NcclModel {
public:
    /// Throws std::invalid_argument for a group that is empty or inconsistent.
    NcclModel(const SystemSpec& system, CollectiveGroup group, CollectiveOp op, const NcclTuning& tuning = nccl_tuning());

    const CollectiveGroup& group() const { return m_group; }
    CollectiveOp op() const { return m_op; }
    const NcclGraph& graph(CollectiveAlgorithm a) const { return m_graph[static_cast<int>(a)]; }
    /// NCCL would consider it for this collective on this system (its bandwidth is not zero).
    bool available(CollectiveAlgorithm a, CollectiveProtocol p) const { return bandwidth(a, p) > 0; }
    double latency_s(CollectiveAlgorithm a, CollectiveProtocol p) const;
    /// What latency_s is made of: NCCL's base latency, and the price of one NVLink hop and of
    /// one network hop in this algorithm's formula (the ring's NVLink hop includes the network
    /// overhead across nodes).
    struct LatencyParts {
        double base_s = 0;
        double nvlink_hop_s = 0;
        double network_hop_s = 0;
    };
    LatencyParts latency_parts(CollectiveAlgorithm a, CollectiveProtocol p) const;
    /// Algorithm bandwidth before the size-dependent corrections, GB/s; 0 when not available.
    double bandwidth(CollectiveAlgorithm a, CollectiveProtocol p) const;
    /// Empty when the choice can run; else one sentence saying why not and what is accepted.
    std::string refusal(const CollectiveChoice& choice) const;
    /// The cost of one algorithm and protocol (must be available).
    CollectiveCost cost(double bytes, CollectiveAlgorithm a, CollectiveProtocol p) const;
    /// NVLS streams through a pipeline of warps (device/all_reduce.h): some copy each GPU's input
    /// into its own buffer that the switch reads, some add through the switch and multicast the
    /// sum, some copy it from the GPU's own buffer into the output (reduce-scatter and all-gather
    /// have two of these stages). It moves the data in loops of channels x GPUs x chunk bytes, the chunk shrinking for smaller
    /// messages (enqueue.cc), and the first loop passes every stage before the last one starts:
    /// (stages - 1) loops at the stream's rate, which NCCL's estimate leaves out. The NVLS tree
    /// runs the same three stages in each node, the sum going up and down the tree between the
    /// add and the multicast a chunk per channel at a time (its own chunk rule). 0 for every
    /// other algorithm.
    double pipeline_fill_s(CollectiveAlgorithm a, double bytes, double bandwidth_GBps) const;
    /// How wide NCCL runs a ring or NVLS at this size (enqueue.cc): a ring starts from all its
    /// channels and the protocol's threads, and takes channels away, then halves the threads,
    /// while the message has fewer than `threshold` bytes per thread (64 for Simple, 8 for LL128,
    /// 8 x GPUs for LL), never under 3 warps; from 2.22 each channel also needs a 32 KB cell of
    /// traffic, which is what can leave NVLS's channels idle. `fraction` is the share of the full
    /// width's threads at work: the model takes each thread to move its bytes at a fixed pace (the
    /// full width's being NCCL's bandwidth), so the bandwidth term is NCCL's over `fraction`. The
    /// tree keeps its full width (fraction 1): NCCL's estimate has its own medium-size penalty.
    struct Width {
        std::uint32_t channels = 0;
        std::uint32_t threads = 0;
        double fraction = 1.0;
    };
    Width width(CollectiveAlgorithm a, CollectiveProtocol p, double bytes) const;
    /// The algorithm bandwidth a run reaches, given NCCL's estimate of it. In an NVLS all-reduce
    /// in one node the switch reads all of every GPU's input (S bytes out of each), adds, and each
    /// GPU stores the sum of its slice back through the switch to all n (S/n out, S in): S(1 + 1/n)
    /// each way per GPU. At NCCL's NVLS efficiency of the link's rate B: algbw = efficiency x B x
    /// n/(n+1). NCCL's estimate gives each of its n channels min(2 x efficiency x (n-1)/n x
    /// bwIntra, bwInter), with bwIntra the fastest speed its search lists that (n+1) channels fit
    /// in B and bwInter, in one node, at most the fastest speed on the list (60 GB/s Hopper, 90
    /// Blackwell): 476 against 490 GB/s busbw on 8 H100s, 240 against 378 on 4, 720 against 831
    /// on 8 B200s. NVLS's all-gather in one node only multicasts (send S/n, receive S: NVIDIA/nccl
    /// #1083): algbw = B, no efficiency; its reduce-scatter has the switch read and add all S of
    /// each input: efficiency x B. The tree runs without the 15% NCCL's estimate charges its plain
    /// TREE pattern (tree_pattern_charged): forced trees on two B200 clusters, 4 to 64 nodes,
    /// measured 190.7 to 195.9 GB/s busbw, NCCL's own per-channel ceiling (24 GB/s x 8 channels)
    /// with no charge. Every other algorithm runs at the estimate's rate.
    ///
    /// The tree's rule assumes what the presets describe, a NIC of its own for every GPU: where two
    /// GPUs share a PCIe switch with a NIC the balanced tree is found and NCCL charges nothing.
    double run_bandwidth(CollectiveAlgorithm a, double estimate_GBps) const;
    /// Whether NCCL's search settles on its plain TREE pattern (search.cc), whose traffic enters
    /// and leaves a node through one GPU and which its estimate charges 15% (tuning.cc): with one
    /// GPU a node, and across nodes from Hopper on, where a GPU with a NIC of its own (PIX) finds
    /// no second GPU as close to that NIC for the balanced tree and the search tries the plain
    /// one next. Inside one node there is no NIC and the balanced tree stays.
    bool tree_pattern_charged() const;
    static constexpr double tree_pattern_charge = 0.85;
    /// NVLS and the NVLS tree: one loop's bytes at this size (0 for the others).
    double pipeline_loop_bytes(CollectiveAlgorithm a, double bytes) const;
    /// The available algorithm and protocol within `choice` that NCCL picks: the least of its own
    /// estimate (nccl_time_s; ties go to the earlier algorithm and protocol in NCCL's order). Throws
    /// std::invalid_argument with refusal(choice) when nothing can run.
    CollectiveCost best(double bytes, const CollectiveChoice& choice = {}) const;
    /// The algorithms this collective can use here, in NCCL's order (tree, ring, nvls, nvls_tree, p2p).
    std::vector<CollectiveAlgorithm> algorithms() const;

private:
    /// Fills in what a run adds to NCCL's estimate (pipeline fill, narrow width) and time_s.
    void add_runtime_effects(CollectiveCost& c, double bytes) const;
    /// NVLS's channels here (transport/nvls.cc).
    double nvls_channels() const;
    void tune(const SystemSpec& system);
    double bus_bandwidth(CollectiveAlgorithm a, CollectiveProtocol p) const;
    double latency_us(CollectiveAlgorithm a, CollectiveProtocol p) const;
    void tune_p2p(const SystemSpec& system);

    CollectiveGroup m_group;
    CollectiveOp m_op;
    const NcclTuning& m_t;
    GpuGeneration m_generation = GpuGeneration::hopper;
    HostCpu m_host = HostCpu::intel;
    bool m_nvls = false;
    double m_nic_GBps = 0;  ///< one NIC, one direction (the NVLS tree's channels on Blackwell read it)
    double m_nvlink_GBps = 0;  ///< one GPU's NVLink at NCCL's rate, one direction (NVLS's run reads it)
    NcclGraph m_graph[5];
    double m_latency_us[5][3] = {};
    double m_bandwidth_GBps[5][3] = {};
    std::uint32_t m_exec_channels = 0;
};

/// NCCL's cost over a range of sizes, for the bus-bandwidth plot and `sim collective --sweep`:
/// each algorithm at its best protocol, and NCCL's pick, at every size from `from_bytes` to
/// `to_bytes` in x2 steps (8 B to 16 GiB: 32 sizes).
struct CollectiveSweep {
    CollectiveOp op = CollectiveOp::all_reduce;
    CollectiveGroup group;
    std::vector<double> sizes;
    std::vector<CollectiveAlgorithm> algorithms;      ///< those that can run, NCCL's order
    std::vector<std::vector<CollectiveCost>> curves;  ///< [algorithm][size], the algorithm's best protocol
    std::vector<CollectiveCost> picks;                ///< NCCL's choice at each size
    /// The busbw each GPU's wires allow: its NVLink, and (across nodes) its node's NICs
    /// shared by its members (all-to-all: its own NIC, which carries the share bound for other
    /// nodes), both one direction, achievable. 0 when there is no such ceiling.
    double nvlink_ceiling_GBps = 0;
    double network_ceiling_GBps = 0;
    double latency_floor_s = 0;  ///< the smallest latency of any algorithm: no size is faster
    /// The first of `sizes` from which NCCL's pick is bandwidth-bound for good (the wires take
    /// longer than the fixed cost and a small message's narrow pace, as the story says, at it and
    /// every larger size). 0 when no size is, or the smallest already is.
    double crossover_bytes = 0;
};
CollectiveSweep sweep_collective(const SystemSpec& system, const CollectiveGroup& group, CollectiveOp op,
                                 double from_bytes = 8, double to_bytes = 16.0 * (1ull << 30),
                                 const NcclTuning& tuning = nccl_tuning());

/// The one call the estimator makes per exchange: NCCL's choice (or `choice`) for `bytes`
/// among `group`, with its time, algbw and busbw. A group of one GPU costs nothing. Throws
/// std::invalid_argument when the choice cannot run (NVLS on a DGX A100, a tree all-gather).
CollectiveCost collective_cost(const SystemSpec& system, const CollectiveGroup& group, CollectiveOp op, double bytes,
                               const CollectiveChoice& choice = {});

}  // namespace m2m::core
