// Lesson 3's split network really run: each GPU's shard of the weights, the forward pass slice by
// slice with its all-gathers and sends, the data-parallel all-reduce, and the split run's API.
//
// [SECTION] shards   [SECTION] forward   [SECTION] gradients   [SECTION] the split run
#include "split_machine.hpp"

#include <algorithm>

namespace m2m::core {

namespace split_detail {

// [SECTION] shards ---------------------------------------------------------------------------

SplitMachine::SplitMachine(const NextWordModel& model, SplitDegrees d) : m_d(d), m_layers(layer_infos(model)) {
    m_starts = stage_starts(static_cast<int>(m_layers.size()), d.pipeline);
    for (int g = 0; g < d.gpus(); ++g) m_shards.push_back(make_shard(model, g));
    m_whole_grads.resize(m_shards.size());
    m_whole_table_grads.resize(m_shards.size());
}

// GPU `gpu`'s slices of the model, copied out once: the embedding dimensions and dense neurons its
// tensor rank owns in its stage's layers, with zeroed gradients beside them.
Shard SplitMachine::make_shard(const NextWordModel& model, int gpu) const {
    Shard s;
    s.c = coord_of(m_d, gpu);
    s.first_layer = first(s.c.stage);
    s.last_layer = last(s.c.stage);
    for (int l = s.first_layer; l <= s.last_layer; ++l) {
        // FSDP's shards are cut along the neurons as tensor parallel's slices are, one per data rank.
        const NeuronRange own = m_d.sharded ? tensor_range(m_layers, l, s.c.data, m_d.data)
                                            : tensor_range(m_layers, l, s.c.tensor, m_d.tensor);
        if (l == 0) {
            s.embedding_own = own;
            s.dims_first = own.first / context_words;
            s.dims = own.count / context_words;
            for (int tok = 0; tok < vocabulary_size(); ++tok)
                for (int k = 0; k < s.dims; ++k)
                    s.table.push_back(model.embeddings[static_cast<std::size_t>(tok * embedding_dims + s.dims_first + k)]);
            s.table_grad.assign(s.table.size(), 0.0f);
            continue;
        }
        const DenseLayer& full = model.dense[static_cast<std::size_t>(l - 1)];
        Shard::Layer x;
        x.layer = l;
        x.own = own;
        x.last = l + 1 == static_cast<int>(m_layers.size());
        x.part.inputs = full.inputs;
        x.part.outputs = own.count;
        x.part.weights.assign(full.weights.begin() + static_cast<std::ptrdiff_t>(own.first) * full.inputs,
                              full.weights.begin() + static_cast<std::ptrdiff_t>(own.end()) * full.inputs);
        x.part.biases.assign(full.biases.begin() + own.first, full.biases.begin() + own.end());
        x.grad = x.part;
        std::fill(x.grad.weights.begin(), x.grad.weights.end(), 0.0f);
        std::fill(x.grad.biases.begin(), x.grad.biases.end(), 0.0f);
        s.dense.push_back(std::move(x));
    }
    return s;
}

std::vector<int> SplitMachine::tensor_group(int dr, int st) const {
    std::vector<int> group;
    for (int t = 0; t < m_d.tensor; ++t) group.push_back(gpu_at(m_d, dr, t, st));
    return group;
}

// Values x 2 B: what bf16 on the wire would carry.
void SplitMachine::record(StepPhase ph, ExchangeOp op, int layer, std::vector<int> gpus, std::size_t values) {
    moved.push_back({ph, op, layer, std::move(gpus), static_cast<Bytes>(values) * activation_bytes_per_value});
}

// [SECTION] forward --------------------------------------------------------------------------

Mat SplitMachine::micro_batch(int dr, std::span<const Example> rows, bool train, double* loss_sum) {
    if (m_d.sharded) return sharded_micro_batch(dr, rows, train, loss_sum);
    const int T = m_d.tensor;
    std::vector<Mat> cur(static_cast<std::size_t>(T));
    for (int st = 0; st < m_d.pipeline; ++st) {
        if (st > 0)  // each tensor rank receives its copy of the previous stage's outputs
            for (int t = 0; t < T; ++t)
                record(StepPhase::forward, ExchangeOp::send, first(st) - 1,
                       {gpu_at(m_d, dr, t, st - 1), gpu_at(m_d, dr, t, st)}, cur[static_cast<std::size_t>(t)].v.size());
        for (int l = first(st); l <= last(st); ++l) {
            std::vector<Mat> slices(static_cast<std::size_t>(T));
            for (int t = 0; t < T; ++t)
                slices[static_cast<std::size_t>(t)] =
                    layer_forward(shard(dr, t, st), l, rows, cur[static_cast<std::size_t>(t)], train);
            cur = gather(dr, st, l, std::move(slices));
        }
    }
    Mat logits = cur[0];
    if (train) backward(dr, rows, cur, loss_sum);
    return logits;
}

// One GPU's outputs of `layer` for the micro-batch: embedding values it holds, or its neurons of a
// dense layer from the full input `in`; with `train`, what the backward pass will need is kept.
Mat SplitMachine::layer_forward(Shard& sh, int layer, std::span<const Example> rows, const Mat& in, bool train) const {
    const int n = static_cast<int>(rows.size());
    Mat out;
    if (layer == 0) {
        out = Mat(n, sh.embedding_own.count);
        for (int r = 0; r < n; ++r)
            for (int k = 0; k < out.cols; ++k) {
                const int neuron = sh.embedding_own.first + k;  // = dim * 3 + position
                const int dim = neuron / context_words - sh.dims_first;
                const int tok = rows[static_cast<std::size_t>(r)].context[neuron % context_words];
                out.row(r)[k] = sh.table[static_cast<std::size_t>(tok * sh.dims + dim)];
            }
    } else {
        Shard::Layer& x = sh.layer(layer);
        out = Mat(n, x.own.count);
        for (int r = 0; r < n; ++r)
            for (int k = 0; k < out.cols; ++k) out.row(r)[k] = neuron_output(x.part, k, in.row(r), x.last);
        if (train) sh.saved_in[layer] = in;
    }
    if (train) sh.saved_out[layer] = out;
    return out;
}

// Tensor-parallel all-gather: every GPU of the group assembles its own copy of the whole layer's
// outputs from everyone's slices (nothing to gather with one rank).
std::vector<Mat> SplitMachine::gather(int dr, int st, int layer, std::vector<Mat> slices) {
    const int T = m_d.tensor;
    if (T == 1) return slices;
    const int n = slices.front().rows;
    const int width = m_layers[static_cast<std::size_t>(layer)].neurons;
    record(StepPhase::forward, ExchangeOp::all_gather, layer, tensor_group(dr, st), static_cast<std::size_t>(n) * width);
    std::vector<Mat> full(static_cast<std::size_t>(T));
    for (Mat& mine : full) {
        mine = Mat(n, width);
        int col = 0;
        for (const Mat& piece : slices) {
            for (int r = 0; r < n; ++r) std::copy(piece.row(r), piece.row(r) + piece.cols, mine.row(r) + col);
            col += piece.cols;
        }
    }
    return full;
}

// [SECTION] gradients ------------------------------------------------------------------------

void SplitMachine::all_reduce_gradients() {
    if (m_d.sharded) return reduce_scatter_shards();
    if (m_d.data <= 1) return;
    for (int st = 0; st < m_d.pipeline; ++st)
        for (int t = 0; t < m_d.tensor; ++t) {
            std::vector<int> group;
            for (int dr = 0; dr < m_d.data; ++dr) group.push_back(gpu_at(m_d, dr, t, st));
            Shard sum = m_shards[static_cast<std::size_t>(group[0])];
            std::size_t values = sum.table_grad.size();
            for (std::size_t k = 1; k < group.size(); ++k) {
                const Shard& o = m_shards[static_cast<std::size_t>(group[k])];
                for (std::size_t j = 0; j < sum.table_grad.size(); ++j) sum.table_grad[j] += o.table_grad[j];
                for (std::size_t L = 0; L < sum.dense.size(); ++L) {
                    auto& a = sum.dense[L].grad;
                    const auto& b = o.dense[L].grad;
                    for (std::size_t j = 0; j < a.weights.size(); ++j) a.weights[j] += b.weights[j];
                    for (std::size_t j = 0; j < a.biases.size(); ++j) a.biases[j] += b.biases[j];
                }
            }
            for (const auto& L : sum.dense) values += L.grad.weights.size() + L.grad.biases.size();
            record(StepPhase::update, ExchangeOp::all_reduce, -1, group, values);
            for (int g : group) {
                Shard& dst = m_shards[static_cast<std::size_t>(g)];
                dst.table_grad = sum.table_grad;
                for (std::size_t L = 0; L < dst.dense.size(); ++L) dst.dense[L].grad = sum.dense[L].grad;
            }
        }
}

NextWordModel SplitMachine::gathered_gradient(const NextWordModel& shape, float scale) const {
    NextWordModel g = shape;
    std::fill(g.embeddings.begin(), g.embeddings.end(), 0.0f);
    for (const Shard& s : m_shards) {
        if (s.c.data != 0 && !m_d.sharded) continue;  // copies beyond the first hold the same; FSDP's shards differ
        for (int tok = 0; tok < vocabulary_size() && s.dims > 0; ++tok)
            for (int k = 0; k < s.dims; ++k)
                g.embeddings[static_cast<std::size_t>(tok * embedding_dims + s.dims_first + k)] =
                    s.table_grad[static_cast<std::size_t>(tok * s.dims + k)] * scale;
        for (const Shard::Layer& x : s.dense) {
            DenseLayer& full = g.dense[static_cast<std::size_t>(x.layer - 1)];
            for (std::size_t j = 0; j < x.grad.weights.size(); ++j)
                full.weights[static_cast<std::size_t>(x.own.first) * static_cast<std::size_t>(full.inputs) + j] =
                    x.grad.weights[j] * scale;
            for (std::size_t j = 0; j < x.grad.biases.size(); ++j)
                full.biases[static_cast<std::size_t>(x.own.first) + j] = x.grad.biases[j] * scale;
        }
    }
    return g;
}

}  // namespace split_detail

// [SECTION] the split run --------------------------------------------------------------------

namespace {

using split_detail::Mat;
using split_detail::SplitMachine;

// Copy d gets prompts [d n/D, (d+1) n/D); micro-batch i of it the i-th equal run of those.
template <typename Fn>
void for_each_micro_batch(std::span<const Example> batch, int copies, int micro_batches, Fn fn) {
    const std::size_t per_copy = batch.size() / static_cast<std::size_t>(copies);
    const std::size_t per_mb = per_copy / static_cast<std::size_t>(micro_batches);
    for (int dr = 0; dr < copies; ++dr)
        for (int i = 0; i < micro_batches; ++i)
            fn(dr, batch.subspan(static_cast<std::size_t>(dr) * per_copy + static_cast<std::size_t>(i) * per_mb, per_mb));
}

void check_batch(const SplitSetup& setup, std::size_t size, int copies, int micro_batches) {
    if (auto p = check_split(setup, false)) throw std::invalid_argument(p->message);
    const std::size_t parts = static_cast<std::size_t>(copies) * static_cast<std::size_t>(micro_batches);
    if (size == 0 || size % parts != 0)
        throw std::invalid_argument("the batch of " + std::to_string(size) + " prompts does not split into " +
                                    std::to_string(parts) + " equal micro-batches");
}

}  // namespace

SplitForwardRun run_split_forward(const NextWordModel& model, const SplitSetup& setup, std::span<const Example> batch) {
    const SplitDegrees d = split_degrees(setup.strategy, setup.gpus);
    const int m = d.pipeline > 1 ? setup.micro_batches : 1;
    check_batch(setup, batch.size(), d.data, m);
    SplitMachine machine(model, d);
    SplitForwardRun out;
    for_each_micro_batch(batch, d.data, m, [&](int dr, std::span<const Example> rows) {
        const Mat logits = machine.micro_batch(dr, rows, false, nullptr);
        for (int r = 0; r < logits.rows; ++r) {
            out.logits.emplace_back(logits.row(r), logits.row(r) + logits.cols);
            out.predicted.push_back(static_cast<int>(std::max_element(logits.row(r), logits.row(r) + logits.cols) -
                                                     logits.row(r)) +
                                    1);
        }
    });
    out.moved = std::move(machine.moved);
    return out;
}

SplitTrainingRun run_split_training_step(const NextWordModel& model, const SplitSetup& setup,
                                         std::span<const Example> batch) {
    const SplitDegrees d = split_degrees(setup.strategy, setup.gpus);
    const int m = d.pipeline > 1 ? setup.micro_batches : 1;
    check_batch(setup, batch.size(), d.data, m);
    SplitMachine machine(model, d);
    double loss = 0;
    for_each_micro_batch(batch, d.data, m,
                         [&](int dr, std::span<const Example> rows) { machine.micro_batch(dr, rows, true, &loss); });
    machine.all_reduce_gradients();
    SplitTrainingRun out;
    out.gradient = machine.gathered_gradient(model, 1.0f / static_cast<float>(batch.size()));
    out.loss = static_cast<float>(loss / static_cast<double>(batch.size()));
    out.moved = std::move(machine.moved);
    return out;
}

Prediction predict_split(const NextWordModel& model, const SplitSetup& setup, std::string_view prompt, int top_k) {
    if (auto p = check_split(setup, false)) throw std::invalid_argument(p->message);
    Prediction p = predict(model, prompt, top_k);  // reads the prompt; its logits are replaced below
    SplitMachine machine(model, split_degrees(setup.strategy, setup.gpus));
    Example ex;
    for (int i = 0; i < context_words; ++i) ex.context[i] = p.context_tokens[i];
    const Mat logits = machine.micro_batch(0, std::span<const Example>(&ex, 1), false, nullptr);
    finish_prediction(p, std::vector<float>(logits.row(0), logits.row(0) + logits.cols), top_k);
    return p;
}

}  // namespace m2m::core
