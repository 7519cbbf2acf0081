// Lesson 3's split network really run, inside the core: every GPU keeps only its own slices of
// the weights (a Shard), and a SplitMachine runs micro-batches through them with the exchanges a
// real step makes, recording what moved.
#pragma once

#include <map>
#include <span>
#include <stdexcept>
#include <vector>

#include "m2m/core/split/split.hpp"
#include "split_parts.hpp"

namespace m2m::core::split_detail {

struct Mat {
    int rows = 0;
    int cols = 0;
    std::vector<float> v;
    Mat() = default;
    Mat(int r, int c) : rows(r), cols(c), v(static_cast<std::size_t>(r) * static_cast<std::size_t>(c), 0.0f) {}
    float* row(int r) { return v.data() + static_cast<std::size_t>(r) * static_cast<std::size_t>(cols); }
    const float* row(int r) const { return v.data() + static_cast<std::size_t>(r) * static_cast<std::size_t>(cols); }
};

// One GPU's memory: the slices it holds (copied out of the model once), their gradients,
// and the activations of the micro-batch in flight.
struct Shard {
    struct Layer {
        int layer = 0;
        NeuronRange own;
        DenseLayer part;  ///< rows own.first .. own.end() of the model's layer
        DenseLayer grad;
        bool last = false;
    };
    Coord c;
    int first_layer = 0;
    int last_layer = 0;
    NeuronRange embedding_own;  ///< context values held (count 0: no embedding here)
    int dims_first = 0;
    int dims = 0;
    std::vector<float> table;   ///< [token][dims held]
    std::vector<float> table_grad;
    std::vector<Layer> dense;
    std::map<int, Mat> saved_in;   ///< layer -> its full input (this micro-batch)
    std::map<int, Mat> saved_out;  ///< layer -> this GPU's outputs of it

    Layer& layer(int l) {
        for (Layer& x : dense)
            if (x.layer == l) return x;
        throw std::logic_error("a GPU was asked for a layer it does not hold");
    }
};

class SplitMachine {
public:
    SplitMachine(const NextWordModel& model, SplitDegrees d);

    /// One micro-batch of copy `dr` through the split network; returns its logits (as
    /// tensor rank 0 of the last stage holds them). With `train`, also the backward pass,
    /// adding to each GPU's gradients and to `loss_sum`.
    Mat micro_batch(int dr, std::span<const Example> rows, bool train, double* loss_sum);
    /// Data-parallel copies add their gradients (all-reduce, summing copy 0, 1, ... in order);
    /// FSDP's GPUs reduce-scatter theirs instead, each keeping its own shard's sum.
    void all_reduce_gradients();
    /// The model-shaped gradient assembled from copy 0's slices, times `scale`.
    NextWordModel gathered_gradient(const NextWordModel& shape, float scale) const;

    std::vector<MovedData> moved;

private:
    Shard make_shard(const NextWordModel& model, int gpu) const;
    Shard& shard(int dr, int t, int st) { return m_shards[static_cast<std::size_t>(gpu_at(m_d, dr, t, st))]; }
    int first(int st) const { return m_starts[static_cast<std::size_t>(st)]; }
    int last(int st) const { return stage_last(m_starts, static_cast<int>(m_layers.size()), st); }
    std::vector<int> tensor_group(int dr, int st) const;
    void record(StepPhase ph, ExchangeOp op, int layer, std::vector<int> gpus, std::size_t values);

    // Forward (split_machine.cpp).
    Mat layer_forward(Shard& sh, int layer, std::span<const Example> rows, const Mat& in, bool train) const;
    std::vector<Mat> gather(int dr, int st, int layer, std::vector<Mat> slices);

    // FSDP (split_machine_sharded.cpp): each GPU holds shard `data rank` of every layer, borrows the
    // whole layer from every GPU's shard to compute it, and keeps the whole layer's gradient only
    // until the reduce-scatter.
    Mat sharded_micro_batch(int dr, std::span<const Example> rows, bool train, double* loss_sum);
    Shard borrow(int dr, int layer, StepPhase phase);
    void sharded_backward(int dr, std::span<const Example> rows, const Mat& logits, double* loss_sum);
    void reduce_scatter_shards();
    std::vector<int> all_gpus() const;

    // Backward (split_machine_backward.cpp).
    void backward(int dr, std::span<const Example> rows, const std::vector<Mat>& logits, double* loss_sum);
    std::vector<Mat> output_gradients(std::span<const Example> rows, const std::vector<Mat>& logits,
                                      double* loss_sum) const;
    std::vector<Mat> reduce_scatter(int dr, int st, int layer, const std::vector<Mat>& partial);
    void mask(int dr, int st, int layer, std::vector<Mat>& grads);

    SplitDegrees m_d;
    std::vector<LayerInfo> m_layers;
    std::vector<int> m_starts;
    std::vector<Shard> m_shards;
    /// FSDP: per GPU, the whole of each borrowed layer's gradient (index layer - 1) and of the
    /// embedding table's, summed over its micro-batches until the reduce-scatter.
    std::vector<std::vector<DenseLayer>> m_whole_grads;
    std::vector<std::vector<float>> m_whole_table_grads;
};

/// One GPU's backward through its neurons of a dense layer: adds to its weight and bias gradients
/// and returns its partial sums of the gradient for every input (split_machine_backward.cpp).
Mat dense_backward(Shard::Layer& x, const Mat& in, const Mat& dy);
/// The embedding's gradient: each value's gradient goes to the table row of its word.
void embedding_backward(Shard& sh, std::span<const Example> rows, const Mat& d);

}  // namespace m2m::core::split_detail
