// Lesson 3's split network really run, backward: each GPU's gradients from its own slices, the
// tensor-parallel reduce-scatters and the pipeline's sends back, as a real step makes them.
#include <algorithm>
#include <cmath>

#include "split_machine.hpp"

namespace m2m::core::split_detail {

// Every neuron touches every input, so each adds to the gradient of all of them.
Mat dense_backward(Shard::Layer& x, const Mat& in, const Mat& dy) {
    const int n = dy.rows, inputs = x.part.inputs;
    Mat dx(n, inputs);
    for (int r = 0; r < n; ++r)
        for (int k = 0; k < x.own.count; ++k) {
            const float g = dy.row(r)[k];
            if (g == 0.0f) continue;
            x.grad.biases[static_cast<std::size_t>(k)] += g;
            const std::size_t base = static_cast<std::size_t>(k) * static_cast<std::size_t>(inputs);
            for (int i = 0; i < inputs; ++i) {
                x.grad.weights[base + static_cast<std::size_t>(i)] += g * in.row(r)[i];
                dx.row(r)[i] += g * x.part.weights[base + static_cast<std::size_t>(i)];
            }
        }
    return dx;
}

void embedding_backward(Shard& sh, std::span<const Example> rows, const Mat& d) {
    for (int r = 0; r < d.rows; ++r)
        for (int k = 0; k < sh.embedding_own.count; ++k) {
            const int neuron = sh.embedding_own.first + k;
            const int dim = neuron / context_words - sh.dims_first;
            const int tok = rows[static_cast<std::size_t>(r)].context[neuron % context_words];
            sh.table_grad[static_cast<std::size_t>(tok * sh.dims + dim)] += d.row(r)[k];
        }
}

void SplitMachine::backward(int dr, std::span<const Example> rows, const std::vector<Mat>& logits, double* loss_sum) {
    const int T = m_d.tensor;
    std::vector<Mat> delta = output_gradients(rows, logits, loss_sum);
    for (int st = m_d.pipeline - 1; st >= 0; --st) {
        if (st + 1 < m_d.pipeline) mask(dr, st, last(st), delta);  // arrived from the next stage
        for (int l = last(st); l >= std::max(first(st), 1); --l) {
            std::vector<Mat> partial(static_cast<std::size_t>(T));
            for (int t = 0; t < T; ++t) {
                Shard& sh = shard(dr, t, st);
                partial[static_cast<std::size_t>(t)] =
                    dense_backward(sh.layer(l), sh.saved_in.at(l), delta[static_cast<std::size_t>(t)]);
            }
            std::vector<Mat> next = reduce_scatter(dr, st, l, partial);
            if (l - 1 >= first(st)) {
                if (l - 1 >= 1) mask(dr, st, l - 1, next);
            } else {  // layer l-1 lives on the previous stage: send each slice to its owner
                for (int t = 0; t < T; ++t)
                    record(StepPhase::backward, ExchangeOp::send, l - 1, {gpu_at(m_d, dr, t, st), gpu_at(m_d, dr, t, st - 1)},
                           next[static_cast<std::size_t>(t)].v.size());
            }
            delta = std::move(next);
        }
        if (first(st) == 0)
            for (int t = 0; t < T; ++t) embedding_backward(shard(dr, t, st), rows, delta[static_cast<std::size_t>(t)]);
    }
}

// Each tensor rank of the last stage has every logit, so it forms dLoss/dlogits = softmax -
// one-hot itself and keeps the part for the neurons it owns; rank 0 adds the loss.
std::vector<Mat> SplitMachine::output_gradients(std::span<const Example> rows, const std::vector<Mat>& logits,
                                                double* loss_sum) const {
    const int n = static_cast<int>(rows.size());
    const int T = m_d.tensor;
    const int L = static_cast<int>(m_layers.size());
    std::vector<Mat> delta(static_cast<std::size_t>(T));
    for (int t = 0; t < T; ++t) {
        const NeuronRange own = tensor_range(m_layers, L - 1, t, T);
        Mat& d = delta[static_cast<std::size_t>(t)] = Mat(n, own.count);
        for (int r = 0; r < n; ++r) {
            const Mat& lg = logits[static_cast<std::size_t>(t)];
            std::vector<float> p = softmax(std::vector<float>(lg.row(r), lg.row(r) + lg.cols));
            const auto target = static_cast<std::size_t>(rows[static_cast<std::size_t>(r)].next - 1);
            if (t == 0 && loss_sum) *loss_sum -= std::log(std::max(p[target], 1e-30f));
            p[target] -= 1.0f;
            for (int k = 0; k < own.count; ++k) d.row(r)[k] = p[static_cast<std::size_t>(own.first + k)];
        }
    }
    return delta;
}

// Gradients for layer-1's outputs: add the partial sums of the tensor group, each GPU keeping
// the slice for the neurons it owns (nothing to add with one rank).
std::vector<Mat> SplitMachine::reduce_scatter(int dr, int st, int layer, const std::vector<Mat>& partial) {
    const int T = m_d.tensor;
    if (T == 1) return partial;
    const int n = partial.front().rows;
    record(StepPhase::backward, ExchangeOp::reduce_scatter, layer - 1, tensor_group(dr, st),
           static_cast<std::size_t>(n) * m_layers[static_cast<std::size_t>(layer)].inputs);
    std::vector<Mat> next(static_cast<std::size_t>(T));
    for (int t = 0; t < T; ++t) {
        const NeuronRange own = tensor_range(m_layers, layer - 1, t, T);
        Mat& mine = next[static_cast<std::size_t>(t)] = Mat(n, own.count);
        for (int r = 0; r < n; ++r)
            for (int k = 0; k < own.count; ++k) {
                float sum = 0.0f;
                for (int u = 0; u < T; ++u) sum += partial[static_cast<std::size_t>(u)].row(r)[own.first + k];
                mine.row(r)[k] = sum;
            }
    }
    return next;
}

// Through the ReLU of `layer`: zero where this GPU's own outputs of it were off.
void SplitMachine::mask(int dr, int st, int layer, std::vector<Mat>& grads) {
    for (int t = 0; t < m_d.tensor; ++t) {
        const Mat& out = shard(dr, t, st).saved_out.at(layer);
        Mat& g = grads[static_cast<std::size_t>(t)];
        for (std::size_t j = 0; j < g.v.size(); ++j)
            if (out.v[j] <= 0.0f) g.v[j] = 0.0f;
    }
}

}  // namespace m2m::core::split_detail
