// What the parts of Lesson 3's split share, inside the core only: the Megatron rank order, where
// each GPU sits, which layers and neurons it holds, and the steps that build a SplitResult.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "m2m/core/split/split.hpp"

namespace m2m::core::split_detail {

/// The network's weight layers: the hidden layers and the output layer (the embedding is not one).
inline constexpr int dense_layer_count = hidden_layers + 1;

struct Coord {
    int data = 0;
    int tensor = 0;
    int stage = 0;
};

// Megatron-LM's rank order: tensor rank fastest, then data, then pipeline stage, so a
// tensor-parallel group is always neighbouring GPUs (inside one node when it can be).
inline Coord coord_of(const SplitDegrees& d, int gpu) {
    return {(gpu / d.tensor) % d.data, gpu % d.tensor, gpu / (d.tensor * d.data)};
}
inline int gpu_at(const SplitDegrees& d, int data, int tensor, int stage) {
    return stage * d.data * d.tensor + data * d.tensor + tensor;
}

/// The first ceil(G/2) GPUs in node 0, the rest in node 1.
inline int node_of(const SplitSetup& s, int gpu) {
    return s.placement == Placement::two_nodes && gpu >= (s.gpus + 1) / 2 ? 1 : 0;
}
/// Two nodes of Lesson 2's cluster in one rack, each as ClusterShape makes a node (8 GPUs, a
/// DGX): enough for every placement the lesson offers.
ClusterShape split_cluster_shape();
/// GPU `gpu`'s number in that cluster: node 1 starts at ClusterShape::gpus_per_node.
GpuId cluster_gpu_of(const SplitSetup& s, int gpu);

/// Tensor rank `rank` of `ranks` holds neurons [rank w/T, (rank+1) w/T) of a layer w wide. For the
/// embedding (24 = 3 positions x 8 dimensions, dimension-major) that is dimensions [t 8/T, (t+1) 8/T).
NeuronRange tensor_range(const std::vector<LayerInfo>& layers, int layer, int rank, int ranks);
/// First network layer of each stage: stage 0 starts with the embedding, and the dense
/// layers are dealt out in equal runs.
std::vector<int> stage_starts(int layer_count, int stages);
/// Last network layer of `stage`.
int stage_last(const std::vector<int>& starts, int layer_count, int stage);
/// "3" or "0-11": a neuron range as the sentences write it.
std::string range_text(const NeuronRange& r);

/// One kernel or exchange of the step as added to the work graph (split_step.cpp).
struct KernelRecord {
    TaskId task;
    StepTaskKind kind;
    int gpu;
    int layer;
    int micro_batch;
};
struct CommRecord {
    TaskId start;
    TaskId finish;
    int exchange;
    int micro_batch;
};

/// The exchanges of one step (split_exchanges.cpp), from the plan's degrees, layers and holdings.
std::vector<Exchange> plan_exchanges(const SplitResult& r);
/// Times every exchange on Lesson 2's cluster, builds the step's work graph, schedules it and
/// fills r.step (split_step.cpp).
void run_step(SplitResult& r);
/// A collective exchange (not a send) as Lesson 2's cluster runs it: its op, bytes and GPUs.
CollectiveSetup exchange_collective(const SplitResult& r, const Exchange& e);
/// Each exchange on idle links, for the exchange list: a send's route, a collective's ring.
void time_exchanges(SplitResult& r, const Cluster& cluster);
/// Every GPU's row of the scheduled step: its tasks, idle gaps and time split (split_step_rows.cpp).
void summarise_rows(const SplitResult& plan, const std::vector<KernelRecord>& kernels, const std::vector<CommRecord>& comms,
                    StepTimeline& out);

/// The same step in the other placement (one node against two), told beside this one: the time
/// its GPUs would wait on exchanges there, and where two nodes wait less, why (split_placement.cpp).
std::string placement_sentence(const SplitResult& r, const SplitResult& other);
/// The plan told in sentences (split_sentences.cpp).
std::string gpu_sentence(const SplitResult& r, const GpuHolding& g);
std::string holds_sentence(const SplitResult& r);
std::string exchange_sentence(const SplitResult& r, bool with_bytes);
/// With `compare` false, nothing that sets this split's bytes against another's (a pending guess).
std::string why_sentence(const SplitResult& r, bool compare = true);
std::string time_sentence(const SplitResult& r);
std::string time_sentence_before_run(const SplitResult& r);  ///< the step time, not its exchanging share
std::string timing_sentence(const SplitSetup& setup);  ///< which timing the step used, and what it means

}  // namespace m2m::core::split_detail
