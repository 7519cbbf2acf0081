// NCCL's tuning tables, copied as numbers (facts, with their file and tag) from NVIDIA/nccl:
// src/graph/tuning.cc (latencies, bandwidth caps, tree correction) and src/graph/search.cc (the
// per-channel speeds its topology search tries). A long table that reads as one thing.
#include "m2m/core/rack/nccl_tuning.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <cstdio>

namespace m2m::core {

namespace {

// NCCL 2.30.7-1 (tag v2.30.7-1, commit 73cf1122), tuning.cc lines 139-212.
const NcclTuning v2_30 = {
    "2.30.7-1",
    // baseLatencies: Tree, Ring, NVLS, NVLS Tree (LL, LL128, Simple)
    {{6.8, 14.0, 8.4}, {6.6, 14.0, 8.4}, {0, 0, 0}, {0, 0, 0}},
    // hwLatencies [NVLink, PCI, NET][Tree, Ring, NVLS, NVLS Tree][LL, LL128, Simple]
    {{{0.6, 1.25, 4.0}, {0.6, 1.9, 3.4}, {0, 0, 25}, {0, 0, 25}},
     {{1.0, 1.9, 4.0}, {1.0, 2.5, 5.7}, {0, 0, 0}, {0, 0, 0}},
     {{5.0, 8.5, 14}, {2.7, 4.0, 14.0}, {0, 0, 18}, {0, 0, 20.9}}},
    // llMaxBws: Volta-N1 / Intel-N2 / Intel-N4, Ampere / AMD, Hopper, Blackwell
    {{39.0, 39.0, 20.4}, {87.7, 22.5, 19.0}, {141.0, 45.0, 35.0}, {2 * 141.0, 2 * 45.0, 2 * 35.0}},
    // perChMaxRingLL128Bws
    {{20.0, 20.0, 20.0}, {20.0, 20.0, 20.0}, {36.7, 36.7, 36.7}, {40.0, 40.0, 40.0}},
    // perChMaxTreeLL128Bws
    {{20.0, 20.0, 20.0}, {20.0, 20.0, 20.0}, {36.7, 36.7, 29.0}, {55.6, 31.67, 20.0}},
    // perChMaxTreeBws
    {{26.5, 18.5, 10.0}, {24.0, 23.6, 17.8}, {38.7, 41.4, 36.0}, {70.0, 42.8, 24.0}},
    // perChMaxNVLSTreeBws
    {{26.5, 18.5, 10.0}, {24.0, 23.6, 17.8}, {0.0, 57.7, 45.5}, {0.0, 96.0, 80.0}},
    // nvlsEfficiency
    {0.0, 0.0, 0.85, 0.74},
    true,
    false,
    false,
    true,
    true,
};

// NCCL 2.22.3-1 (tag v2.22.3-1), tuning.cc baseLat, hwLat, llMaxBws and perChMax*Bws. Blackwell
// did not exist yet: its rows repeat Hopper's, as 2.22 would treat any sm90+ GPU.
const NcclTuning v2_22 = {
    "2.22.3-1",
    {{6.8, 14.0, 0}, {6.6, 14.0, 8.4}, {0, 0, 0}, {0, 0, 0}},
    {{{0.6, 1.25, 28}, {0.6, 1.9, 3.4}, {0, 0, 25}, {0, 0, 25}},
     {{1.0, 1.9, 28}, {1.0, 2.5, 5.7}, {0, 0, 0}, {0, 0, 0}},
     {{5.0, 8.5, 28}, {2.7, 4.0, 14.0}, {0, 0, 18}, {0, 0, 14}}},
    {{39.0, 39.0, 20.4}, {87.7, 22.5, 19.0}, {141.0, 45.0, 35.0}, {141.0, 45.0, 35.0}},
    {{20.0, 20.0, 20.0}, {20.0, 20.0, 20.0}, {36.7, 36.7, 36.7}, {36.7, 36.7, 36.7}},
    {{20.0, 20.0, 20.0}, {20.0, 20.0, 20.0}, {36.7, 36.7, 29.0}, {36.7, 36.7, 29.0}},
    {{26.5, 18.5, 10.0}, {24.0, 23.6, 17.8}, {38.7, 41.4, 36.0}, {38.7, 41.4, 36.0}},
    {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}},
    {0.0, 0.0, 0.0, 0.0},
    false,
    true,
    true,
    false,
    false,
    false,
    false,
    16,
    false,
    true,
    false,
    3,  // nvls_min_node_gpus: gpuCount <= 2 turns NVLS off
};

// The other tags, each as 2.22.3-1 with what its tuning.cc (lines 56-105, ncclTopoTuneModel)
// has otherwise. Indexes as above: hop_latency_us[NVLink 0, PCI 1, net 2][tree 0, ring 1, NVLS 2,
// NVLS tree 3][LL, LL128, Simple 2]; ll_max_GBps[generation: Hopper 2, Blackwell 3].
constexpr int simple = 2, tree = 0, nvls = 2, nvls_tree = 3, nvlink = 0, pci = 1, net = 2, hopper = 2, blackwell = 3;

// 2.21.5-1 prices every collective as 2.22.3-1 does (ncclTopoTuneModel differs only in CollNet's
// NIC count).
constexpr NcclTuning make_v2_21() {
    NcclTuning t = v2_22;
    t.version = "2.21.5-1";
    t.channel_cells = false;  // the 32 KB traffic cells per channel came with 2.22
    return t;
}

// 2.23.4-1: the tree's Simple latency cut (base 8.4 us, a hop 4 us inside a node, 14 across);
// 2(N-1) network steps in a ring all-reduce; no LL128 penalty with one GPU per node; one GPU per
// node priced at the tree's network hop.
constexpr NcclTuning make_v2_23() {
    NcclTuning t = v2_22;
    t.version = "2.23.4-1";
    t.base_latency_us[tree][simple] = 8.4;
    t.hop_latency_us[nvlink][tree][simple] = t.hop_latency_us[pci][tree][simple] = 4.0;
    t.hop_latency_us[net][tree][simple] = 14;
    t.ring_two_n_network_steps = t.ring_ll128_one_per_node_penalty = false;
    t.one_per_node_tree_latency = true;
    return t;
}

// 2.20.5-1: NVLS's hop 23 us (25 from 2.21); Hopper's LL capped at Ampere's 87.7 GB/s (141 from
// 2.21) and ring LL at a quarter of the wire (line 181; a half from 2.21).
constexpr NcclTuning make_v2_20() {
    NcclTuning t = v2_22;
    t.version = "2.20.5-1";
    t.hop_latency_us[nvlink][nvls][simple] = t.hop_latency_us[nvlink][nvls_tree][simple] = 23;
    for (int g : {hopper, blackwell}) t.ll_max_GBps[g][0] = 87.7, t.ll_max_GBps[g][1] = 22.5, t.ll_max_GBps[g][2] = 19.0;
    t.ring_ll_quarter = true;
    t.channel_cells = false;
    return t;
}

// 2.18.5-1: as 2.20, but the tree's Simple hop 4 us on NVLink and 6 on PCI (28 from 2.19), 14
// across nodes; NVLS's 23 us in its base latency, the NVLS tree's network hop 19 us; NVLS priced
// the 2.18 way (lines 178-222, nvls_2_18).
constexpr NcclTuning make_v2_18() {
    NcclTuning t = make_v2_20();
    t.version = "2.18.5-1";
    t.hop_latency_us[nvlink][tree][simple] = 4;
    t.hop_latency_us[pci][tree][simple] = 6;
    t.hop_latency_us[net][tree][simple] = 14;
    t.base_latency_us[nvls][simple] = t.base_latency_us[nvls_tree][simple] = 23.0;
    t.hop_latency_us[nvlink][nvls][simple] = t.hop_latency_us[nvlink][nvls_tree][simple] = 0;
    t.hop_latency_us[net][nvls_tree][simple] = 19;
    t.nvls_2_18 = true;
    return t;
}

const NcclTuning v2_21 = make_v2_21(), v2_23 = make_v2_23(), v2_20 = make_v2_20(), v2_18 = make_v2_18();

// treeCorrectionFactor (2.30.7-1 tuning.cc line 623; 2.22 has the first 23 columns, the same).
constexpr double tree_correction[3][24] = {
    {1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0, 1.0, 1.0},
    {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9, 1.0, 1.0, 1.0},
    {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9, .9}};

// search.cc (2.30.7-1) lines 1051-1064: speedArrayIntra/Inter (up to sm80), sm90 and sm100.
constexpr double intra_sm80[] = {40.0, 30.0, 20.0, 18.0, 15.0, 12.0, 10.0, 9.0, 7.0, 6.0, 5.0, 4.0, 3.0};
constexpr double inter_sm80[] = {48.0, 30.0, 28.0, 24.0, 20.0, 18.0, 15.0, 12.0, 10.0, 9.0,
                                 7.0,  6.0,  5.0,  4.0,  3.0,  2.4,  1.2,  0.24, 0.12};
constexpr double intra_sm90[] = {60.0, 50.0, 40.0, 30.0, 24.0, 20.0, 15.0, 12.0, 11.0, 6.0, 3.0};
constexpr double inter_sm90[] = {48.0, 45.0, 42.0, 40.0, 30.0, 24.0, 22.0, 20.0, 17.5,
                                 15.0, 12.0, 6.0,  3.0,  2.4,  1.2,  0.24, 0.12};
constexpr double intra_sm100[] = {90.0, 80.0, 70.0, 60.0, 50.0, 45.0, 40.0, 30.0, 24.0, 20.0, 19.0, 18.0};
constexpr double inter_sm100[] = {96.0, 86.0, 80.0, 48.0, 45.1, 42.0, 40.0, 30.0, 24.0, 22.0,
                                  20.0, 17.5, 15.0, 12.0, 6.0,  3.0,  2.4,  1.2,  0.24, 0.12};

}  // namespace

const NcclTuning& nccl_tuning() { return v2_30; }
const NcclTuning& nccl_tuning_2_22() { return v2_22; }

const NcclTuning* nccl_tuning_of(std::string_view version) {
    for (const NcclTuning* t : {&v2_18, &v2_20, &v2_21, &v2_22, &v2_23, &v2_30}) {
        const std::string_view full = t->version, bare = full.substr(0, full.find('-'));
        if (version == full || version == bare) return t;
    }
    return nullptr;
}

std::string_view nccl_versions() { return "2.18.5, 2.20.5, 2.21.5, 2.22.3, 2.23.4, 2.30.7"; }

bool nccl_knows(const NcclTuning& t, GpuGeneration g) {
    if (g != GpuGeneration::blackwell) return true;
    int major = 0, minor = 0;
    std::sscanf(std::string(t.version).c_str(), "%d.%d", &major, &minor);
    return major > 2 || (major == 2 && minor >= 25);
}

double nccl_tree_correction(CollectiveProtocol protocol, double bytes, int columns) {
    // NCCL: logSize = log2i(nBytes >> 6), applied for 0 <= logSize < 23.
    const auto whole = static_cast<unsigned long long>(bytes);
    if (whole < 64) return 1.0;
    const int log_size = static_cast<int>(std::floor(std::log2(static_cast<double>(whole >> 6))));
    if (log_size < 0 || log_size >= std::min(columns, 24)) return 1.0;
    return tree_correction[static_cast<int>(protocol)][log_size];
}

std::span<const double> nccl_intra_speeds(GpuGeneration g) {
    switch (g) {
    case GpuGeneration::ampere: return intra_sm80;
    case GpuGeneration::hopper: return intra_sm90;
    case GpuGeneration::blackwell: return intra_sm100;
    }
    return intra_sm80;
}

std::span<const double> nccl_inter_speeds(GpuGeneration g) {
    switch (g) {
    case GpuGeneration::ampere: return inter_sm80;
    case GpuGeneration::hopper: return inter_sm90;
    case GpuGeneration::blackwell: return inter_sm100;
    }
    return inter_sm80;
}

std::string_view collective_algorithm_name(CollectiveAlgorithm a) {
    switch (a) {
    case CollectiveAlgorithm::tree: return "tree";
    case CollectiveAlgorithm::ring: return "ring";
    case CollectiveAlgorithm::nvls: return "nvls";
    case CollectiveAlgorithm::nvls_tree: return "nvls_tree";
    case CollectiveAlgorithm::p2p: return "p2p";
    }
    return "ring";
}

std::string_view collective_algorithm_label(CollectiveAlgorithm a) {
    switch (a) {
    case CollectiveAlgorithm::tree: return "tree";
    case CollectiveAlgorithm::ring: return "ring";
    case CollectiveAlgorithm::nvls: return "NVLS";
    case CollectiveAlgorithm::nvls_tree: return "NVLS tree";
    case CollectiveAlgorithm::p2p: return "point-to-point";
    }
    return "ring";
}

std::string collective_algorithm_phrase(CollectiveAlgorithm a) {
    const std::string label(collective_algorithm_label(a));
    if (a == CollectiveAlgorithm::nvls) return label;
    if (a == CollectiveAlgorithm::p2p) return label + " sends";
    return "the " + label;
}

std::string_view collective_protocol_name(CollectiveProtocol p) {
    switch (p) {
    case CollectiveProtocol::ll: return "ll";
    case CollectiveProtocol::ll128: return "ll128";
    case CollectiveProtocol::simple: return "simple";
    }
    return "simple";
}

std::string_view collective_protocol_label(CollectiveProtocol p) {
    switch (p) {
    case CollectiveProtocol::ll: return "LL";
    case CollectiveProtocol::ll128: return "LL128";
    case CollectiveProtocol::simple: return "Simple";
    }
    return "Simple";
}

}  // namespace m2m::core
