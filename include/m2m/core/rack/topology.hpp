// Lesson 2's cluster: racks of nodes of GPUs, the wires between them (NVLink, PCIe, InfiniBand),
// routes between GPUs, and transfers as tasks on link pools in the shared scheduler.
//
// [SECTION] systems and links   [SECTION] the cluster and its routes   [SECTION] transfers
// [SECTION] what the lesson says
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "m2m/core/engine/scheduler.hpp"
#include "m2m/core/engine/work_graph.hpp"
#include "m2m/core/rack/nccl_tuning.hpp"

namespace m2m::core {

/// Global GPU number: node * gpus_per_node + local index; nodes are numbered rack by rack.
using GpuId = std::uint32_t;
/// Index into a Cluster's link table (one entry per link direction).
using LinkId = std::uint32_t;

/// What a route or hop runs on. "local" is a GPU sending to itself (no wire at all).
enum class LinkType { local, nvlink, pcie, infiniband };
/// "local", "nvlink", "pcie", "infiniband": the names the command line prints.
std::string_view link_type_name(LinkType type);
/// "local", "NVLink", "PCIe", "InfiniBand": the names a reader sees.
std::string_view link_type_label(LinkType type);

/// One kind of wire, as a preset gives it. Every rate here is ONE direction: NVLink 4's
/// "900 GB/s" is both directions added together, so a tensor sent one way gets 450 GB/s raw.
// [SECTION] systems and links ---------------------------------------------------------

struct LinkSpec {
    std::string name;         ///< e.g. "NVLink 4", "InfiniBand NDR", "PCIe Gen5 x16"
    double raw_GBps = 0;      ///< data-sheet rate, one direction (GB/s = 1e9 bytes/s)
    double efficiency = 1;    ///< share of raw_GBps that NCCL achieves on it (one constant per link type)
    double latency_s = 0;     ///< latency added by crossing this kind of link (see SystemSpec)
    double effective_GBps() const { return raw_GBps * efficiency; }
};

/// A node generation (DGX A100 / H100 / B200) reduced to what the wires need. Figures and
/// their sources come from assets/hardware.json ("systems"), read by m2m::presets.
///
/// Latency model (NCCL's own cost model, src/graph/tuning.cc, LL protocol: the one NCCL uses
/// for small messages, the only ones where latency shows):
///   - a send over NVLink (GPU -> NVSwitch -> GPU) costs nvlink.latency_s (0.6 us), switch included;
///   - a send onto the network costs infiniband.latency_s (2.7 us, "network hop"), NIC and first
///     switch included; PCIe hops to and from the NIC add nothing of their own;
///   - leaving the rack adds switch_latency_s per extra switch crossed (spine, then the far
///     leaf: 2 x ~0.6 us, the IB switch port latency);
///   - a collective's latency is NCCL's own, per algorithm and protocol (collective_cost.hpp).
struct SystemSpec {
    std::string id;    ///< preset key, e.g. "h100"
    std::string name;  ///< e.g. "DGX H100: 8x H100 SXM, NVLink 4 + NVSwitch, InfiniBand NDR"
    LinkSpec nvlink;      ///< one GPU's NVLink ports together, GPU <-> NVSwitch, one direction
    LinkSpec pcie;        ///< GPU <-> its own NIC (GPUDirect RDMA), one direction
    LinkSpec infiniband;  ///< one NIC <-> leaf switch, and each leaf <-> spine uplink, one direction
    double switch_latency_s = 0;
    /// What NCCL's collective model needs beyond the wires: the GPUs' generation (its caps are
    /// per compute capability), the host CPU's maker, and whether the NVSwitch can add
    /// (NVLink SHARP, "NVLS": H100, H200 and B200 systems; not A100's).
    GpuGeneration generation = GpuGeneration::hopper;
    HostCpu host_cpu = HostCpu::intel;
    bool nvls = false;
    std::string source;  ///< "label: value (source)" lines, for a sources view
};

/// The cluster's size. Every GPU has one NIC; each rack has one leaf switch; racks meet at
/// the spine. Leaf uplinks default to one per NIC below the leaf: full bisection bandwidth, as in
/// a DGX H100 SuperPOD (scaling-book, "How to Think About GPUs") and in the Llama 3 paper's
/// 3,072-GPU pods (Dubey et al. 2024, sec. 3.3.1).
// [SECTION] the cluster and its routes ------------------------------------------------

struct ClusterShape {
    /// A DGX A100, H100 or B200 node holds 8 GPUs (MLCommons system descriptions).
    std::uint32_t gpus_per_node = 8;
    std::uint32_t nodes_per_rack = 8;
    std::uint32_t racks = 2;
    std::uint32_t leaf_uplinks = 0;  ///< InfiniBand links from each leaf to the spine; 0 = one per NIC
    std::uint32_t gpus_per_rack() const { return gpus_per_node * nodes_per_rack; }
    std::uint64_t gpu_count() const { return std::uint64_t{gpus_per_rack()} * racks; }
};

inline constexpr std::uint32_t max_gpus_per_node = 64;
inline constexpr std::uint64_t max_cluster_gpus = 131072;

/// Empty when the shape is valid, else a sentence saying what is wrong.
std::string validate(const ClusterShape& shape);

/// The directed links of the cluster. Each GPU owns six (its NVLink ports to and from the
/// NVSwitch, PCIe to and from its NIC, its NIC to and from the leaf); each rack owns two
/// (its leaf's uplinks to the spine and downlinks from it), each a pool of `lanes` links.
enum class LinkRole {
    gpu_to_nvswitch,
    nvswitch_to_gpu,
    gpu_to_nic,
    nic_to_gpu,
    nic_to_leaf,
    leaf_to_nic,
    leaf_to_spine,
    spine_to_leaf
};

struct Link {
    LinkRole role = LinkRole::gpu_to_nvswitch;
    LinkType type = LinkType::nvlink;
    std::uint32_t owner = 0;   ///< GPU id, or rack index for leaf_to_spine / spine_to_leaf
    std::uint32_t lanes = 1;   ///< identical links in its pool (leaf uplinks), else 1
    double bandwidth_GBps = 0; ///< effective, one direction, per lane
    double latency_s = 0;      ///< added by a transfer that crosses it
};

/// The path between two GPUs: GPU -> NVSwitch -> GPU inside a node; GPU -> NIC -> leaf ->
/// (spine -> leaf) -> NIC -> GPU across nodes. Empty (type local) when from == to.
struct Route {
    GpuId from = 0;
    GpuId to = 0;
    LinkType type = LinkType::local;  ///< nvlink inside a node, infiniband across nodes
    std::vector<LinkId> links;        ///< hops in order
    double latency_s = 0;             ///< sum of the hops' latencies
    double bandwidth_GBps = 0;        ///< bottleneck: the slowest hop, effective, one direction; 0 if local
    std::size_t hops() const { return links.size(); }
};

class Cluster {
public:
    /// Throws std::invalid_argument when validate(shape) is not empty.
    Cluster(ClusterShape shape, SystemSpec system);

    const ClusterShape& shape() const { return m_shape; }
    const SystemSpec& system() const { return m_system; }
    std::uint32_t gpu_count() const { return m_gpus; }
    std::uint32_t node_count() const { return m_shape.nodes_per_rack * m_shape.racks; }
    bool contains(GpuId gpu) const { return gpu < m_gpus; }
    std::uint32_t node_of(GpuId gpu) const { return gpu / m_shape.gpus_per_node; }
    std::uint32_t local_of(GpuId gpu) const { return gpu % m_shape.gpus_per_node; }
    std::uint32_t rack_of(GpuId gpu) const { return node_of(gpu) / m_shape.nodes_per_rack; }

    std::size_t link_count() const { return std::size_t{m_gpus} * 6 + std::size_t{m_shape.racks} * 2; }
    LinkId gpu_link(GpuId gpu, LinkRole role) const;   ///< role must be one of the six per-GPU roles
    LinkId rack_link(std::uint32_t rack, LinkRole role) const;  ///< leaf_to_spine or spine_to_leaf
    Link link(LinkId id) const;
    /// "GPU 3 -> NVSwitch (node 0)", "NIC 9 -> leaf (rack 0)", "leaf (rack 0) -> spine", ...
    std::string link_name(LinkId id) const;

    /// Throws std::out_of_range when either GPU is not in the cluster.
    Route route(GpuId from, GpuId to) const;
    /// One GPU's NVLink port into its node's NVSwitch (`into`) or out of it: what NVLS sends
    /// cross, the switch adding what comes in. from = to = the GPU.
    Route switch_route(GpuId gpu, bool into) const;
    /// The route's hop names in order (link_name of each link).
    std::vector<std::string> path_names(const Route& r) const;

private:
    ClusterShape m_shape;
    SystemSpec m_system;
    std::uint32_t m_gpus = 0;
};

// [SECTION] transfers ---------------------------------------------------------------------------

/// A tensor's time on an idle route: latency + bytes / bottleneck bandwidth. The hops are
/// pipelined (cut-through): the tensor streams through every hop at once, so the slowest
/// hop sets the rate and the hops' latencies add; it is not stored and forwarded hop by hop.
double transfer_seconds(const Route& r, double bytes);
/// The same in the scheduler's unit (picoseconds), rounded once.
SimTime transfer_duration(const Route& r, double bytes);
/// The same bytes between two GPUs of one node (NVLink), from the system's figures: the
/// yardstick for "relative time".
double nvlink_reference_seconds(const SystemSpec& system, double bytes);

/// The pools of a cluster's links inside one work graph, each made the first time a
/// transfer needs it (so a graph holds only the links it uses). Keeps a reference to both.
class LinkPools {
public:
    LinkPools(const Cluster& cluster, WorkGraph& graph);
    PoolId pool(LinkId link);
    /// The link a pool was made for; cluster().link_count() for a pool that is not a link's.
    LinkId link_of(PoolId pool) const;
    const Cluster& cluster() const { return m_cluster; }
    WorkGraph& graph() { return m_graph; }

private:
    const Cluster& m_cluster;
    WorkGraph& m_graph;
    std::vector<PoolId> m_pool_of_link;
    std::vector<LinkId> m_link_of_pool;
};

/// Adds one transfer: a task that holds one member of every link pool on the route for
/// latency + bytes / bottleneck (picoseconds). A local route adds a zero-length task on no
/// pool. The scheduler gives each link to one transfer at a time, first come first served,
/// so two equal tensors on one link end at 1x and 2x their lone time: the same last finish
/// as fair sharing (both at half rate end together at 2x), but the first ends earlier.
TaskId add_transfer(LinkPools& pools, const Route& r, double bytes);

/// The sharing rule above in one sentence, for the panel to show next to a shared link.
std::string_view link_sharing_rule();

struct TransferRequest {
    GpuId from = 0;
    GpuId to = 0;
    Bytes bytes = 0;
};

/// One transfer as the scheduler ran it.
struct TransferRun {
    TransferRequest request;
    Route route;
    double latency_s = 0;    ///< the route's latency
    double bandwidth_s = 0;  ///< bytes / bottleneck bandwidth
    double start_s = 0;      ///< when it got every link (later than 0 when it waited for a busy one)
    double end_s = 0;
};

struct TransfersResult {
    std::vector<TransferRun> transfers;  ///< in request order
    Timeline timeline;                   ///< picoseconds; task i is transfer i
    double makespan_s = 0;
};

/// Schedules transfers that are all ready at time 0, in request order (FIFO on shared links).
/// Throws std::out_of_range for a GPU outside the cluster, std::invalid_argument for bytes < 0.
TransfersResult run_transfers(const Cluster& cluster, std::span<const TransferRequest> requests);

/// The lesson's "send a tensor" readout.
struct TransferResult {
    TransferRun run;
    double time_s = 0;            ///< latency_s + bandwidth_s on the idle route
    double reference_s = 0;       ///< the same bytes between two GPUs of one node
    double relative_time = 0;     ///< time_s / reference_s (1 inside a node, 0 when local)
};
TransferResult run_transfer(const Cluster& cluster, GpuId from, GpuId to, Bytes bytes);

// [SECTION] what the lesson says (the panel and the command line only show these) -------------

/// That NVLink's quoted rate is both directions added together, with this system's figures.
std::string nvlink_direction_note(const SystemSpec& system);

/// One send in words and formatted numbers, computed from the result.
struct TransferStory {
    std::string link;            ///< "NVLink", "InfiniBand", "local"
    std::string bandwidth;       ///< the bottleneck, one direction, achievable: "371 GB/s"
    std::string relative_time;   ///< vs the same bytes over NVLink inside a node: "1×", "7.7×"
    std::string hops;            ///< "2"
    std::string time;            ///< latency + bytes / bandwidth: "20.8 ms"
    std::string latency;         ///< "3.9 µs"
    std::string bandwidth_time;  ///< bytes / bottleneck: "20.8 ms"
    bool latency_bound = false;  ///< the latency is the larger part of the time
    std::string bound;           ///< "1 KB: latency-bound", "1 GB: bandwidth-bound"
    std::string verdict;         ///< where the time goes and why, two sentences at most
    std::string path;            ///< "GPU 0 → NVSwitch (node 0) → GPU 5"
};
TransferStory tell(const Cluster& cluster, const TransferResult& r);

}  // namespace m2m::core
