// Lesson 3's little network trained: backpropagation of the cross-entropy loss and Adam, from a
// seeded start, once per run of the app.
#include "m2m/core/split/next_word.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace m2m::core {

namespace {

// splitmix64 (Steele, Lea & Flood 2014): a tiny generator whose output is fixed by the
// algorithm, unlike std::uniform_real_distribution, whose output differs between libraries.
struct SplitMix64 {
    std::uint64_t state;
    std::uint64_t next() {
        std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    /// Uniform in [-limit, limit), from the top 24 bits (a float's whole mantissa).
    float uniform(float limit) {
        const float unit = static_cast<float>(next() >> 40) / 16777216.0f;
        return (2.0f * unit - 1.0f) * limit;
    }
};

DenseLayer make_layer(int inputs, int outputs, float limit, SplitMix64& rng) {
    DenseLayer d;
    d.inputs = inputs;
    d.outputs = outputs;
    d.weights.resize(static_cast<std::size_t>(inputs) * outputs);
    for (float& w : d.weights) w = rng.uniform(limit);
    d.biases.assign(static_cast<std::size_t>(outputs), 0.0f);
    return d;
}

// All parameters as one flat list of spans, so gradients and Adam's moments share an index.
struct ParamView {
    std::vector<float*> data;
    std::vector<std::size_t> size;
};
ParamView params_of(NextWordModel& m) {
    ParamView v;
    v.data.push_back(m.embeddings.data());
    v.size.push_back(m.embeddings.size());
    for (DenseLayer& d : m.dense) {
        v.data.push_back(d.weights.data());
        v.size.push_back(d.weights.size());
        v.data.push_back(d.biases.data());
        v.size.push_back(d.biases.size());
    }
    return v;
}

// Adds the gradient of -log softmax(logits)[target] for one example to `grad` (same layout
// as ParamView: embeddings, then weights and biases of each dense layer); returns the loss.
float accumulate_gradient(const NextWordModel& m, const Example& ex, std::vector<std::vector<float>>& grad) {
    const ForwardPass f = forward(m, ex.context);
    std::vector<float> delta = softmax(f.logits());
    const float loss = -std::log(std::max(delta[static_cast<std::size_t>(ex.next - 1)], 1e-30f));
    delta[static_cast<std::size_t>(ex.next - 1)] -= 1.0f;  // d loss / d logits = p - onehot
    for (std::size_t l = m.dense.size(); l-- > 0;) {
        const DenseLayer& d = m.dense[l];
        const std::vector<float>& in = f.values[l];
        std::vector<float>& gw = grad[1 + 2 * l];
        std::vector<float>& gb = grad[2 + 2 * l];
        std::vector<float> din(static_cast<std::size_t>(d.inputs), 0.0f);
        for (int o = 0; o < d.outputs; ++o) {
            const float g = delta[static_cast<std::size_t>(o)];
            if (g == 0.0f) continue;
            gb[static_cast<std::size_t>(o)] += g;
            const std::size_t row = static_cast<std::size_t>(o) * d.inputs;
            for (int i = 0; i < d.inputs; ++i) {
                gw[row + i] += g * in[static_cast<std::size_t>(i)];
                din[static_cast<std::size_t>(i)] += g * d.weights[row + i];
            }
        }
        if (l > 0)  // through the ReLU of the layer below: zero where it was off
            for (std::size_t i = 0; i < din.size(); ++i)
                if (in[i] <= 0.0f) din[i] = 0.0f;
        delta = std::move(din);
    }
    for (int d = 0; d < embedding_dims; ++d)
        for (int pos = 0; pos < context_words; ++pos)
            grad[0][static_cast<std::size_t>(ex.context[pos] * embedding_dims + d)] +=
                delta[static_cast<std::size_t>(d * context_words + pos)];
    return loss;
}

struct Evaluation {
    float loss = 0;
    float accuracy = 0;
};
Evaluation evaluate(const NextWordModel& m, const std::vector<Example>& examples) {
    double loss = 0;
    int right = 0;
    for (const Example& ex : examples) {
        const std::vector<float> p = softmax(forward(m, ex.context).logits());
        loss -= std::log(std::max(p[static_cast<std::size_t>(ex.next - 1)], 1e-30f));
        right += static_cast<int>(std::max_element(p.begin(), p.end()) - p.begin()) + 1 == ex.next;
    }
    const double n = static_cast<double>(std::max<std::size_t>(examples.size(), 1));
    return {static_cast<float>(loss / n), static_cast<float>(right / n)};
}

}  // namespace

NextWordModel mean_gradient(const NextWordModel& model, std::span<const Example> batch, float* loss) {
    NextWordModel g = model;
    ParamView view = params_of(g);
    std::vector<std::vector<float>> sums(view.data.size());
    for (std::size_t i = 0; i < view.data.size(); ++i) sums[i].assign(view.size[i], 0.0f);
    double total = 0;
    for (const Example& ex : batch) total += accumulate_gradient(model, ex, sums);
    const float scale = batch.empty() ? 0.0f : 1.0f / static_cast<float>(batch.size());
    for (std::size_t i = 0; i < view.data.size(); ++i)
        for (std::size_t j = 0; j < view.size[i]; ++j) view.data[i][j] = sums[i][j] * scale;
    if (loss) *loss = batch.empty() ? 0.0f : static_cast<float>(total / static_cast<double>(batch.size()));
    return g;
}

NextWordModel initial_model(std::uint64_t seed) {
    SplitMix64 rng{seed};
    NextWordModel m;
    m.embeddings.resize(static_cast<std::size_t>(vocabulary_size() * embedding_dims));
    for (float& e : m.embeddings) e = rng.uniform(1.0f);
    int inputs = context_words * embedding_dims;
    for (int l = 0; l < hidden_layers; ++l) {
        // He-uniform for ReLU layers: limit sqrt(6 / fan_in) (He et al. 2015).
        m.dense.push_back(make_layer(inputs, hidden_width, std::sqrt(6.0f / static_cast<float>(inputs)), rng));
        inputs = hidden_width;
    }
    // Glorot-uniform for the output: limit sqrt(6 / (fan_in + fan_out)) (Glorot & Bengio 2010).
    m.dense.push_back(
        make_layer(inputs, output_words(), std::sqrt(6.0f / static_cast<float>(inputs + output_words())), rng));
    return m;
}

NextWordModel train_next_word_model(const TrainingSetup& setup, TrainingReport* report) {
    if (setup.epochs < 0 || setup.batch_size < 1 || !(setup.learning_rate > 0))
        throw std::invalid_argument("training needs epochs >= 0, a batch of at least 1 and a positive learning rate");
    NextWordModel m = initial_model(setup.seed);
    const std::vector<Example> examples = corpus_examples();
    ParamView view = params_of(m);
    std::vector<std::vector<float>> grad(view.data.size()), first(view.data.size()), second(view.data.size());
    for (std::size_t i = 0; i < view.data.size(); ++i) {
        grad[i].assign(view.size[i], 0.0f);
        first[i].assign(view.size[i], 0.0f);
        second[i].assign(view.size[i], 0.0f);
    }
    // Adam (Kingma & Ba 2015, Algorithm 1): m = b1 m + (1-b1) g; v = b2 v + (1-b2) g^2;
    // w -= lr * (m / (1 - b1^t)) / (sqrt(v / (1 - b2^t)) + eps).
    const float beta1 = 0.9f, beta2 = 0.999f, eps = 1e-8f;
    float beta1_t = 1.0f, beta2_t = 1.0f;
    SplitMix64 shuffle_rng{setup.seed ^ 0x5EED5EED5EED5EEDull};
    std::vector<std::size_t> order(examples.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;

    TrainingReport r;
    r.examples = static_cast<int>(examples.size());
    for (int epoch = 0; epoch < setup.epochs; ++epoch) {
        for (std::size_t i = order.size(); i > 1; --i)  // Fisher-Yates
            std::swap(order[i - 1], order[shuffle_rng.next() % i]);
        double epoch_loss = 0;
        for (std::size_t begin = 0; begin < order.size(); begin += static_cast<std::size_t>(setup.batch_size)) {
            const std::size_t end = std::min(order.size(), begin + static_cast<std::size_t>(setup.batch_size));
            for (auto& g : grad) std::fill(g.begin(), g.end(), 0.0f);
            for (std::size_t k = begin; k < end; ++k) epoch_loss += accumulate_gradient(m, examples[order[k]], grad);
            const float scale = 1.0f / static_cast<float>(end - begin);  // mean over the batch
            beta1_t *= beta1;
            beta2_t *= beta2;
            const float lr_t = setup.learning_rate * std::sqrt(1.0f - beta2_t) / (1.0f - beta1_t);
            for (std::size_t p = 0; p < view.data.size(); ++p) {
                float* w = view.data[p];
                for (std::size_t j = 0; j < view.size[p]; ++j) {
                    const float g = grad[p][j] * scale;
                    first[p][j] = beta1 * first[p][j] + (1.0f - beta1) * g;
                    second[p][j] = beta2 * second[p][j] + (1.0f - beta2) * g * g;
                    w[j] -= lr_t * first[p][j] / (std::sqrt(second[p][j]) + eps);
                }
            }
            ++r.steps;
        }
        if (epoch == 0) r.first_epoch_loss = static_cast<float>(epoch_loss / static_cast<double>(examples.size()));
        ++r.epochs;
    }
    const Evaluation e = evaluate(m, examples);
    r.final_loss = e.loss;
    r.accuracy = e.accuracy;
    if (report) *report = r;
    return m;
}

namespace {
struct TrainedOnce {
    TrainingReport report;
    NextWordModel model;
    TrainedOnce() : model(train_next_word_model(TrainingSetup{}, &report)) {}
};
const TrainedOnce& trained_once() {
    static const TrainedOnce once;  // deterministic, so sharing one copy changes nothing
    return once;
}
}  // namespace

const NextWordModel& trained_next_word_model() { return trained_once().model; }
const TrainingReport& trained_next_word_report() { return trained_once().report; }

}  // namespace m2m::core
