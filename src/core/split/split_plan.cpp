// Lesson 3's plan of a split: which GPU holds which layers and neurons, its bytes, and the
// exchanges and sentences of one step (no timeline: that is split_step.cpp).
#include <algorithm>
#include <stdexcept>

#include "m2m/core/split/split.hpp"
#include "split_parts.hpp"

namespace m2m::core {

namespace split_detail {

ClusterShape split_cluster_shape() {
    ClusterShape shape;
    shape.nodes_per_rack = 2;
    shape.racks = 1;
    return shape;
}

GpuId cluster_gpu_of(const SplitSetup& s, int gpu) {
    return node_of(s, gpu) == 0 ? static_cast<GpuId>(gpu)
                                : split_cluster_shape().gpus_per_node + static_cast<GpuId>(gpu - (s.gpus + 1) / 2);
}

NeuronRange tensor_range(const std::vector<LayerInfo>& layers, int layer, int rank, int ranks) {
    const int per = layers[static_cast<std::size_t>(layer)].neurons / ranks;
    return {rank * per, per};
}

std::vector<int> stage_starts(int layer_count, int stages) {
    const int per = (layer_count - 1) / stages;
    std::vector<int> out(static_cast<std::size_t>(stages));
    for (int s = 0; s < stages; ++s) out[static_cast<std::size_t>(s)] = s == 0 ? 0 : 1 + s * per;
    return out;
}

int stage_last(const std::vector<int>& starts, int layer_count, int stage) {
    return stage + 1 < static_cast<int>(starts.size()) ? starts[static_cast<std::size_t>(stage) + 1] - 1
                                                         : layer_count - 1;
}

std::string range_text(const NeuronRange& r) {
    return r.count == 1 ? std::to_string(r.first) : std::to_string(r.first) + "-" + std::to_string(r.end() - 1);
}

}  // namespace split_detail

namespace {

using namespace split_detail;

std::int64_t layer_params_held(const NextWordModel& model, int layer, const NeuronRange& r) {
    if (r.count == 0) return 0;
    if (layer == 0) return static_cast<std::int64_t>(vocabulary_size()) * (r.count / context_words);
    const DenseLayer& d = model.dense[static_cast<std::size_t>(layer - 1)];
    return static_cast<std::int64_t>(r.count) * (d.inputs + 1);
}

// What GPU `g` holds: its rank in each dimension, its layers and neurons, and their bytes.
GpuHolding holding(const NextWordModel& model, const SplitResult& r, int g) {
    const SplitDegrees& d = r.degrees;
    const int layers = static_cast<int>(r.layers.size());
    const Coord c = coord_of(d, g);
    GpuHolding h;
    h.gpu = g;
    h.cluster_gpu = cluster_gpu_of(r.setup, g);
    h.node = node_of(r.setup, g);
    h.data_rank = c.data;
    h.tensor_rank = c.tensor;
    h.stage = c.stage;
    h.first_layer = r.stage_first_layer[static_cast<std::size_t>(c.stage)];
    h.last_layer = stage_last(r.stage_first_layer, layers, c.stage);
    h.prompts = step_prompts / d.data;
    h.micro_batches = r.micro_batches;
    // Activations kept for the backward pass: all micro-batches with GPipe; at most p - s
    // of them on stage s with 1F1B (Narayanan et al. 2021).
    const int kept = static_cast<int>(activations_in_flight(r.setup.schedule, d.pipeline, c.stage, r.micro_batches));
    h.rows_in_flight = kept * (h.prompts / r.micro_batches);
    std::int64_t saved_values = 0, widest_layer = 0;
    for (int l = 0; l < layers; ++l) {
        const LayerInfo& info = r.layers[static_cast<std::size_t>(l)];
        const bool held = l >= h.first_layer && l <= h.last_layer;
        // FSDP keeps shard c.data of every layer, cut along the neurons as tensor parallel's slices are.
        const NeuronRange n = d.sharded ? tensor_range(r.layers, l, c.data, d.data)
                              : held    ? tensor_range(r.layers, l, c.tensor, d.tensor)
                                        : NeuronRange{};
        h.neurons.push_back(n);
        h.layer_parameters.push_back(layer_params_held(model, l, n));
        h.neuron_count += n.count;
        h.parameters += h.layer_parameters.back();
        widest_layer = std::max(widest_layer, info.parameters);
        // Each layer keeps its full input (dW = dY^T X needs it) and the outputs it computes (the
        // ReLU's on/off pattern): (inputs + outputs) values per prompt. FSDP computes every neuron.
        if (held) saved_values += info.inputs + (d.sharded ? info.neurons : n.count);
    }
    // FSDP borrows one whole layer at a time: its bf16 weights, and its bf16 gradient until the
    // reduce-scatter leaves only the shard's (Rajbhandari et al. 2020, ZeRO-3's temporary buffers).
    if (d.sharded && d.data > 1) h.bytes.borrowed = widest_layer * (weight_bytes_per_parameter + gradient_bytes_per_parameter);
    h.bytes.weights = h.parameters * weight_bytes_per_parameter;
    h.bytes.gradients = h.parameters * gradient_bytes_per_parameter;
    h.bytes.optimizer = h.parameters * optimizer_bytes_per_parameter;
    h.bytes.activations = saved_values * h.rows_in_flight * activation_bytes_per_value;
    return h;
}

}  // namespace

SplitResult plan_split(const NextWordModel& model, const SplitSetup& setup) {
    if (auto p = check_split(setup, false)) throw std::invalid_argument(p->message);
    SplitResult r;
    r.setup = setup;
    r.degrees = split_degrees(setup.strategy, setup.gpus);
    const SplitDegrees& d = r.degrees;
    r.micro_batches = d.pipeline > 1 ? setup.micro_batches : 1;
    r.layers = layer_infos(model);
    const int layers = static_cast<int>(r.layers.size());
    if (layers != 1 + dense_layer_count) throw std::invalid_argument("the model does not have Lesson 3's shape");
    r.stage_first_layer = stage_starts(layers, d.pipeline);
    for (int g = 0; g < d.gpus(); ++g) r.gpus.push_back(holding(model, r, g));
    for (GpuHolding& h : r.gpus) h.sentence = gpu_sentence(r, h);
    r.exchanges = plan_exchanges(r);
    for (const Exchange& e : r.exchanges) {
        r.exchanged_bytes += e.total_bytes();
        r.wire_bytes += wire_bytes(e) * e.times;
    }
    r.bubble_fraction = pipeline_bubble_fraction(d.pipeline, r.micro_batches);
    r.holds_sentence = holds_sentence(r);
    r.exchange_sentence = exchange_sentence(r, true);
    r.exchange_sentence_before_run = exchange_sentence(r, false);
    r.why_sentence = why_sentence(r);
    r.why_sentence_before_run = why_sentence(r, false);
    return r;
}

SplitResult run_split(const NextWordModel& model, const SplitSetup& setup) {
    if (auto p = check_split(setup, true)) throw std::invalid_argument(p->message);
    SplitResult r = plan_split(model, setup);
    run_step(r);
    r.time_sentence = time_sentence(r);
    r.time_sentence_before_run = time_sentence_before_run(r);
    if (setup.gpus >= 2 && !r.exchanges.empty()) {  // the same step in the other placement, for comparison
        SplitSetup other = setup;
        other.placement = setup.placement == Placement::one_node ? Placement::two_nodes : Placement::one_node;
        SplitResult o = plan_split(model, other);
        run_step(o);
        r.placement_sentence = placement_sentence(r, o);
    }
    return r;
}

}  // namespace m2m::core
