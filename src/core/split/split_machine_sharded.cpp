// Lesson 3's FSDP really run: each GPU keeps one shard of every layer, all-gathers a layer's whole
// weights from every shard just before computing it (forward, and again backward), and the GPUs
// reduce-scatter each layer's gradient so each keeps the sum for its own shard.
#include <algorithm>

#include "split_machine.hpp"

namespace m2m::core::split_detail {

std::vector<int> SplitMachine::all_gpus() const {
    std::vector<int> all;
    for (int g = 0; g < m_d.gpus(); ++g) all.push_back(g);
    return all;
}

// The whole of `layer`, assembled from every GPU's shard in rank order (the all-gather), for copy
// `dr`'s GPU; recorded once per layer and pass: the GPUs gather it together, in one collective.
Shard SplitMachine::borrow(int dr, int layer, StepPhase phase) {
    const int G = m_d.data;
    Shard full;
    full.c = m_shards[static_cast<std::size_t>(dr)].c;
    full.first_layer = 0;
    full.last_layer = static_cast<int>(m_layers.size()) - 1;
    if (layer == 0) {
        full.embedding_own = {0, m_layers[0].neurons};
        full.dims = embedding_dims;
        for (int tok = 0; tok < vocabulary_size(); ++tok)
            for (const Shard& s : m_shards)
                for (int k = 0; k < s.dims; ++k) full.table.push_back(s.table[static_cast<std::size_t>(tok * s.dims + k)]);
        full.table_grad.assign(full.table.size(), 0.0f);
    } else {
        Shard::Layer x;
        x.layer = layer;
        x.own = {0, m_layers[static_cast<std::size_t>(layer)].neurons};
        x.last = layer + 1 == static_cast<int>(m_layers.size());
        x.part.inputs = m_layers[static_cast<std::size_t>(layer)].inputs;
        x.part.outputs = x.own.count;
        for (Shard& s : m_shards) {
            const DenseLayer& piece = s.layer(layer).part;
            x.part.weights.insert(x.part.weights.end(), piece.weights.begin(), piece.weights.end());
            x.part.biases.insert(x.part.biases.end(), piece.biases.begin(), piece.biases.end());
        }
        x.grad = x.part;
        std::fill(x.grad.weights.begin(), x.grad.weights.end(), 0.0f);
        std::fill(x.grad.biases.begin(), x.grad.biases.end(), 0.0f);
        full.dense.push_back(std::move(x));
    }
    if (G > 1 && dr == 0)
        record(phase, ExchangeOp::all_gather, layer, all_gpus(),
               static_cast<std::size_t>(m_layers[static_cast<std::size_t>(layer)].parameters));
    return full;
}

// Every layer computed whole on the borrowed weights; what the backward needs stays on the GPU.
Mat SplitMachine::sharded_micro_batch(int dr, std::span<const Example> rows, bool train, double* loss_sum) {
    Shard& mine = m_shards[static_cast<std::size_t>(dr)];
    Mat cur;
    for (int l = 0; l < static_cast<int>(m_layers.size()); ++l) {
        Shard full = borrow(dr, l, StepPhase::forward);
        cur = layer_forward(full, l, rows, cur, train);
        if (!train) continue;
        if (full.saved_in.count(l)) mine.saved_in[l] = std::move(full.saved_in[l]);
        mine.saved_out[l] = std::move(full.saved_out[l]);
    }
    if (train) sharded_backward(dr, rows, cur, loss_sum);
    return cur;
}

void SplitMachine::sharded_backward(int dr, std::span<const Example> rows, const Mat& logits, double* loss_sum) {
    Shard& mine = m_shards[static_cast<std::size_t>(dr)];
    const int L = static_cast<int>(m_layers.size());
    auto& whole = m_whole_grads[static_cast<std::size_t>(dr)];
    if (whole.empty())
        for (int l = 1; l < L; ++l) {
            DenseLayer g;
            g.inputs = m_layers[static_cast<std::size_t>(l)].inputs;
            g.outputs = m_layers[static_cast<std::size_t>(l)].neurons;
            g.weights.assign(static_cast<std::size_t>(g.inputs) * static_cast<std::size_t>(g.outputs), 0.0f);
            g.biases.assign(static_cast<std::size_t>(g.outputs), 0.0f);
            whole.push_back(std::move(g));
        }
    Mat delta = output_gradients(rows, std::vector<Mat>{logits}, loss_sum).front();
    for (int l = L - 1; l >= 1; --l) {
        Shard full = borrow(dr, l, StepPhase::backward);
        Shard::Layer& x = full.layer(l);
        Mat next = dense_backward(x, mine.saved_in.at(l), delta);
        DenseLayer& acc = whole[static_cast<std::size_t>(l - 1)];
        for (std::size_t j = 0; j < acc.weights.size(); ++j) acc.weights[j] += x.grad.weights[j];
        for (std::size_t j = 0; j < acc.biases.size(); ++j) acc.biases[j] += x.grad.biases[j];
        if (l - 1 >= 1) {  // through the ReLU of layer l-1
            const Mat& out = mine.saved_out.at(l - 1);
            for (std::size_t j = 0; j < next.v.size(); ++j)
                if (out.v[j] <= 0.0f) next.v[j] = 0.0f;
        }
        delta = std::move(next);
    }
    Shard full = borrow(dr, 0, StepPhase::backward);  // FSDP gathers the embedding's shards too
    embedding_backward(full, rows, delta);
    auto& table = m_whole_table_grads[static_cast<std::size_t>(dr)];
    table.resize(full.table_grad.size(), 0.0f);
    for (std::size_t j = 0; j < table.size(); ++j) table[j] += full.table_grad[j];
}

// Each layer's whole gradients added over the GPUs (in rank order), each GPU keeping the rows of
// its own shard: a reduce-scatter, recorded once per layer, last layer first as the backward ends.
void SplitMachine::reduce_scatter_shards() {
    const int L = static_cast<int>(m_layers.size());
    const std::size_t G = m_shards.size();
    for (int l = L - 1; l >= 0; --l) {
        if (G > 1)
            record(StepPhase::backward, ExchangeOp::reduce_scatter, l, all_gpus(),
                   static_cast<std::size_t>(m_layers[static_cast<std::size_t>(l)].parameters));
        for (std::size_t g = 0; g < G; ++g) {
            Shard& s = m_shards[g];
            if (l == 0) {
                for (int tok = 0; tok < vocabulary_size(); ++tok)
                    for (int k = 0; k < s.dims; ++k) {
                        float sum = 0.0f;
                        for (std::size_t u = 0; u < G; ++u)
                            if (!m_whole_table_grads[u].empty())
                                sum += m_whole_table_grads[u][static_cast<std::size_t>(tok * embedding_dims + s.dims_first + k)];
                        s.table_grad[static_cast<std::size_t>(tok * s.dims + k)] = sum;
                    }
                continue;
            }
            Shard::Layer& x = s.layer(l);
            const std::size_t in = static_cast<std::size_t>(x.part.inputs);
            for (std::size_t j = 0; j < x.grad.weights.size(); ++j) {
                float sum = 0.0f;
                for (std::size_t u = 0; u < G; ++u)
                    if (!m_whole_grads[u].empty())
                        sum += m_whole_grads[u][static_cast<std::size_t>(l - 1)].weights[static_cast<std::size_t>(x.own.first) * in + j];
                x.grad.weights[j] = sum;
            }
            for (std::size_t j = 0; j < x.grad.biases.size(); ++j) {
                float sum = 0.0f;
                for (std::size_t u = 0; u < G; ++u)
                    if (!m_whole_grads[u].empty())
                        sum += m_whole_grads[u][static_cast<std::size_t>(l - 1)].biases[static_cast<std::size_t>(x.own.first) + j];
                x.grad.biases[j] = sum;
            }
        }
    }
}

}  // namespace m2m::core::split_detail
