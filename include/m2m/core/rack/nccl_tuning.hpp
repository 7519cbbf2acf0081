// NCCL's own tuning figures (NVIDIA/nccl src/graph/tuning.cc and search.cc) for the collectives
// Lesson 2 models, as published in several tags: the model's (2.30.7-1), and the older ones that
// published measurements were taken with (2.18.5, 2.20.5, 2.21.5, 2.22.3, 2.23.4), so that each
// measurement can be set beside the cost model of the NCCL that produced it.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace m2m::core {

/// The algorithms NCCL's cost model prices that this model keeps (NCCL's CollNet and PAT are
/// left out: they need IB SHARP switches or one GPU per node; docs/rack_model.md says more).
enum class CollectiveAlgorithm { tree, ring, nvls, nvls_tree, p2p };
/// NCCL's protocols: LL (8-byte flag with every 8 bytes: low latency, half the wire), LL128
/// (one 8-byte flag per 128-byte line), Simple (bulk copies with a fence: the full wire).
enum class CollectiveProtocol { ll, ll128, simple };
/// NCCL's compute-capability rows: the caps below are per GPU generation.
enum class GpuGeneration { ampere, hopper, blackwell };
/// The host CPU's maker: NCCL's network overhead (1 us Intel, 2 us AMD) and its LL cap across
/// nodes depend on it.
enum class HostCpu { intel, amd };

/// One NCCL version's figures. Indexes: [algorithm] tree, ring, nvls, nvls_tree (NCCL's order
/// without CollNet); [protocol] LL, LL128, Simple; [hardware] NVLink, PCI, network; [nodes] one
/// node, two nodes, three or more; [generation] Volta, Ampere, Hopper, Blackwell.
struct NcclTuning {
    std::string_view version;               ///< "2.30.7-1"
    double base_latency_us[4][3];           ///< baseLat / baseLatencies
    double hop_latency_us[3][4][3];         ///< hwLat / hwLatencies
    double ll_max_GBps[4][3];               ///< llMaxBws: row = generation on one node, 0 Intel / 1 AMD across nodes
    double ring_ll128_per_channel_GBps[4][3];  ///< perChMaxRingLL128Bws
    double tree_ll128_per_channel_GBps[4][3];  ///< perChMaxTreeLL128Bws
    double tree_per_channel_GBps[4][3];        ///< perChMaxTreeBws
    double nvls_tree_per_channel_GBps[4][3];   ///< perChMaxNVLSTreeBws (2.28.3+; 0 = no cap)
    double nvls_efficiency[4];                 ///< nvlsEfficiency (2.28.3+)
    /// 2.28.3+: NVLS bandwidth is bwIntra x efficiency x (C-1)/C (x2 for all-reduce), converted
    /// to algbw with n/nsteps like the ring. Before: min(bwIntra, bwInter) (NVLS-tree: bwInter/2
    /// on 3+ nodes), converted with 5/6.
    bool nvls_efficiency_model = true;
    /// Up to 2.22: a ring all-reduce across N nodes counts 2N network steps, not 2(N-1).
    bool ring_two_n_network_steps = false;
    /// Up to 2.22: ring LL128 keeps 0.7 of the wire, not 0.92, with one GPU per node.
    bool ring_ll128_one_per_node_penalty = false;
    /// 2.23+: with one GPU per node every network hop is priced as the tree's.
    bool one_per_node_tree_latency = true;
    /// 2.28+: on Blackwell with an x86 host the NVLS tree's bandwidth takes the tree correction too.
    bool blackwell_nvls_tree_correction = true;
    /// Up to 2.20: ring LL keeps a quarter of the wire for an all-reduce or across nodes (a third
    /// for a gather inside a node), and Hopper's LL cap is Ampere's 87.7 GB/s; 2.21+: a half.
    bool ring_ll_quarter = false;
    /// 2.18 only: NVLS takes the graph's speed without the network side's minimum, the NVLS tree
    /// converts to algbw with 0.70 N / (2 (N - 1)) and pays 2 (N - 1) network hops, and neither is
    /// priced for all-gather or reduce-scatter.
    bool nvls_2_18 = false;
    /// NVLS channels on one Blackwell node (transport/nvls.cc: NVLS_NCHANNELS_SM100_NVL 24 from
    /// 2.27; 16 before, as on Hopper).
    std::uint32_t nvls_channels_blackwell = 24;
    /// 2.30: Blackwell's NVLS tree takes its channels and chunk from the NICs (transport/nvls.cc,
    /// ncclNvlsTreeSm100Tuning): 32 channels on two nodes, 24 on more, with 400 Gb/s NICs, the
    /// chunk at most 64 KB where each NIC sits behind a PCIe switch beside its GPU. Before: Hopper's.
    bool nvls_tree_sm100_tuning = true;
    /// 2.22+: each channel gets at least a 32 KB cell of traffic (enqueue.cc,
    /// scheduleCollTasksToPlan), so a small message runs on fewer channels still.
    bool channel_cells = true;
    /// connect.cc ("4 compute channels per search channel to reach peak BW on <8 PPN"): across
    /// nodes, with the ring graph's channels faster than 45 GB/s, the execution channels double
    /// once more while under 16. Up to 2.19 the rule was "while 32 allows", which would double 16
    /// too; here it gives the same counts because 8 H100s a node get 45 GB/s channels (8 x 48
    /// would not fit their NVLink), which the rule skips. On Hopper always; on Blackwell too from
    /// 2.25 (`minCompCap >= 90`, before `== 90`).
    bool extra_channels_blackwell = true;
    /// NVLS needs at least this many GPUs of the communicator in a node: up to 2.28.3,
    /// transport/nvls.cc turns it off when its topology holds two GPUs or fewer (`gpuCount <= 2`).
    std::uint32_t nvls_min_node_gpus = 2;
};

/// The version the model uses: NCCL 2.30.7-1 (tag 73cf1122), src/graph/tuning.cc lines 139-212.
const NcclTuning& nccl_tuning();
/// NCCL 2.22.3-1 (the figures NVIDIA/nccl issue #1453's log was printed with).
const NcclTuning& nccl_tuning_2_22();
/// The figures of the NCCL version "2.18.5" (or "2.18.5-1"): one of nccl_versions(); nullptr
/// for another.
const NcclTuning* nccl_tuning_of(std::string_view version);
/// The versions nccl_tuning_of knows, oldest first: "2.18.5, 2.20.5, 2.21.5, 2.22.3, 2.23.4, 2.30.7".
std::string_view nccl_versions();
/// Whether version `t` had figures for GPUs of generation `g`: Blackwell's rows entered tuning.cc
/// in NCCL 2.25.1 (BLACKWELL_COMPCAP_IDX), so 2.18 to 2.23 have none and priced no B200.
bool nccl_knows(const NcclTuning& t, GpuGeneration g);

/// treeCorrectionFactor[protocol][log2(bytes / 64)] (tuning.cc, "Trees are not perfectly
/// sticking to the model for medium sizes"): the tree's bandwidth is multiplied by it for sizes
/// 64 B to 256 MB (`columns` 23; the NVLS tree on Blackwell reads 24, to 512 MB). 1 outside.
double nccl_tree_correction(CollectiveProtocol protocol, double bytes, int columns = 23);

/// The per-channel speeds NCCL's topology search tries, fastest first (search.cc
/// speedArrayIntra/Inter and their sm90/sm100 variants): inside one node, and across nodes.
std::span<const double> nccl_intra_speeds(GpuGeneration g);
std::span<const double> nccl_inter_speeds(GpuGeneration g);

/// "ring", "tree", "nvls", "nvls_tree", "p2p": the names the command line prints.
std::string_view collective_algorithm_name(CollectiveAlgorithm a);
/// "ring", "tree", "NVLS", "NVLS tree", "point-to-point": what a reader sees.
std::string_view collective_algorithm_label(CollectiveAlgorithm a);
/// "the ring", "the tree", "NVLS" (a name: NVLink SHARP), "the NVLS tree", "point-to-point sends":
/// the label as a sentence uses it.
std::string collective_algorithm_phrase(CollectiveAlgorithm a);
/// "ll", "ll128", "simple".
std::string_view collective_protocol_name(CollectiveProtocol p);
/// "LL", "LL128", "Simple".
std::string_view collective_protocol_label(CollectiveProtocol p);

inline constexpr std::array<CollectiveProtocol, 3> all_protocols = {CollectiveProtocol::ll, CollectiveProtocol::ll128,
                                                                    CollectiveProtocol::simple};

}  // namespace m2m::core
