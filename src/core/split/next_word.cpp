// Lesson 3's little network: vocabulary, corpus, forward pass and prediction (its training:
// next_word_training.cpp).
//
// [SECTION] vocabulary and corpus
// [SECTION] shape and forward pass
// [SECTION] prediction
#include "m2m/core/split/next_word.hpp"
#include "m2m/core/engine/text.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <stdexcept>

namespace m2m::core {

// [SECTION] vocabulary and corpus -------------------------------------------------------------

const std::vector<std::string>& vocabulary() {
    static const std::vector<std::string> words = {
        std::string(start_word),
        "the", "a",   "cat",   "dog",   "bird", "fish", "sat", "ran", "slept", "swam", "flew", "on",
        "in",  "under", "to",  "mat",   "rug",  "tree", "pond", "sky", "park", "bed",  "and",  ".",
    };
    return words;
}

int vocabulary_size() { return static_cast<int>(vocabulary().size()); }
int output_words() { return vocabulary_size() - 1; }

int token_of(std::string_view word) {
    const auto& v = vocabulary();
    for (std::size_t i = 1; i < v.size(); ++i)
        if (v[i] == word) return static_cast<int>(i);
    return -1;
}

const std::vector<std::string>& corpus() {
    // Written for this lesson. "sat on the" is followed by "mat" more often than by anything
    // else, so the network has a clear answer for the lesson's prompt "the cat sat on the".
    static const std::vector<std::string> lines = {
        "the cat sat on the mat .",
        "the cat sat on the mat .",
        "a cat sat on the mat .",
        "the dog sat on the rug .",
        "the dog sat on the mat .",
        "the cat slept on the bed .",
        "the dog slept on the rug .",
        "the cat slept under the tree .",
        "the dog ran to the park .",
        "the dog ran to the tree .",
        "a dog ran in the park .",
        "the cat ran under the bed .",
        "the bird flew to the tree .",
        "the bird flew in the sky .",
        "a bird sat in the tree .",
        "the bird sat on the mat .",
        "the fish swam in the pond .",
        "a fish swam under the tree .",
        "the fish slept in the pond .",
        "the cat sat on the mat and the dog sat on the rug .",
        "the dog ran to the park and the cat sat on the mat .",
        "the bird sat in the tree and the cat sat under the tree .",
        "the fish swam in the pond and the bird flew in the sky .",
        "a cat and a dog ran to the park .",
        "the cat and the dog slept on the bed .",
        "a bird and a fish sat in the pond .",
        "the dog slept under the bed .",
        "the cat ran to the mat .",
    };
    return lines;
}

std::vector<Example> corpus_examples() {
    std::vector<Example> out;
    for (const std::string& line : corpus()) {
        Example e;
        for (const std::string& w : prompt_words(line)) {
            const int t = token_of(w);
            if (t < 0) throw std::logic_error("corpus word '" + w + "' is not in the vocabulary");
            e.next = t;
            out.push_back(e);
            for (int i = 0; i + 1 < context_words; ++i) e.context[i] = e.context[i + 1];
            e.context[context_words - 1] = t;
        }
    }
    return out;
}

// [SECTION] shape and forward pass ------------------------------------------------------------

std::vector<LayerInfo> layer_infos(const NextWordModel& model) {
    std::vector<LayerInfo> out;
    out.push_back({"embedding", context_words * embedding_dims, 0,
                   static_cast<std::int64_t>(model.embeddings.size())});
    for (std::size_t l = 0; l < model.dense.size(); ++l) {
        const DenseLayer& d = model.dense[l];
        const bool last = l + 1 == model.dense.size();
        out.push_back({last ? "output" : "hidden " + std::to_string(l + 1), d.outputs, d.inputs, d.parameters()});
    }
    return out;
}

int layer_count(const NextWordModel& model) { return 1 + static_cast<int>(model.dense.size()); }

std::int64_t parameter_count(const NextWordModel& model) {
    std::int64_t p = static_cast<std::int64_t>(model.embeddings.size());
    for (const DenseLayer& d : model.dense) p += d.parameters();
    return p;
}

std::vector<float> context_vector(const NextWordModel& model, const int (&context)[context_words]) {
    std::vector<float> x(static_cast<std::size_t>(context_words * embedding_dims));
    for (int d = 0; d < embedding_dims; ++d)
        for (int pos = 0; pos < context_words; ++pos)
            x[static_cast<std::size_t>(d * context_words + pos)] =
                model.embeddings[static_cast<std::size_t>(context[pos] * embedding_dims + d)];
    return x;
}

float neuron_output(const DenseLayer& layer, int neuron, const float* input, bool last) {
    const float* w = layer.weights.data() + static_cast<std::size_t>(neuron) * layer.inputs;
    float sum = layer.biases[static_cast<std::size_t>(neuron)];
    for (int i = 0; i < layer.inputs; ++i) sum += w[i] * input[i];
    return last ? sum : std::max(sum, 0.0f);
}

ForwardPass forward(const NextWordModel& model, const int (&context)[context_words]) {
    ForwardPass f;
    f.values.reserve(model.dense.size() + 1);
    f.values.push_back(context_vector(model, context));
    for (std::size_t l = 0; l < model.dense.size(); ++l) {
        const DenseLayer& d = model.dense[l];
        const bool last = l + 1 == model.dense.size();
        std::vector<float> y(static_cast<std::size_t>(d.outputs));
        for (int o = 0; o < d.outputs; ++o) y[static_cast<std::size_t>(o)] = neuron_output(d, o, f.values.back().data(), last);
        f.values.push_back(std::move(y));
    }
    return f;
}

std::vector<float> softmax(const std::vector<float>& logits) {
    std::vector<float> p(logits.size());
    if (logits.empty()) return p;
    const float top = *std::max_element(logits.begin(), logits.end());
    float sum = 0;
    for (std::size_t i = 0; i < logits.size(); ++i) sum += p[i] = std::exp(logits[i] - top);
    for (float& v : p) v /= sum;
    return p;
}

// [SECTION] prediction ------------------------------------------------------------------------

std::vector<std::string> prompt_words(std::string_view prompt) {
    std::vector<std::string> out;
    std::string word;
    auto flush = [&] {
        if (!word.empty()) out.push_back(std::move(word));
        word.clear();
    };
    for (char c : prompt) {
        const auto u = static_cast<unsigned char>(c);
        if (std::isalnum(u) || c == '\'' || c == '<' || c == '>' || u >= 0x80) {
            word += static_cast<char>(std::tolower(u));
        } else if (c == '.') {
            flush();
            out.emplace_back(".");
        } else {
            flush();  // spaces and other punctuation separate words and are dropped
        }
    }
    flush();
    return out;
}

void finish_prediction(Prediction& p, std::vector<float> logits, int top_k) {
    p.logits = std::move(logits);
    p.top.clear();
    const std::vector<float> probs = softmax(p.logits);
    std::vector<int> order(probs.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return probs[static_cast<std::size_t>(a)] > probs[static_cast<std::size_t>(b)]; });
    const int k = std::clamp(top_k, 1, static_cast<int>(order.size()));
    for (int i = 0; i < k; ++i)
        p.top.push_back({vocabulary()[static_cast<std::size_t>(order[static_cast<std::size_t>(i)] + 1)],
                         probs[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])]});
    p.word = p.top.front().word;

    std::string read;
    for (const std::string& w : p.context) read += (read.empty() ? "" : " ") + w;
    const std::string pct = format_percent(p.top.front().probability, 0);
    p.sentence = "Reading the last three words \"" + read + "\", the network's best guess for the next word is \"" +
                 p.word + "\" (" + pct + ").";
    if (!p.unknown_words.empty()) {
        std::string names;
        for (const std::string& w : p.unknown_words) names += (names.empty() ? "\"" : ", \"") + w + "\"";
        p.sentence += " It has never seen " + names + ", so " +
                      (p.unknown_words.size() == 1 ? std::string("that word was") : std::string("those words were")) +
                      " read as \"<s>\" (no word at all).";
    }
}

Prediction predict(const NextWordModel& model, std::string_view prompt, int top_k) {
    Prediction p;
    p.words = prompt_words(prompt);
    std::vector<int> tokens;
    for (const std::string& w : p.words) {
        const int t = w == start_word ? start_token : token_of(w);
        if (t < 0 && std::find(p.unknown_words.begin(), p.unknown_words.end(), w) == p.unknown_words.end())
            p.unknown_words.push_back(w);
        tokens.push_back(t < 0 ? start_token : t);
    }
    for (int i = 0; i < context_words; ++i) {
        const int from_end = context_words - i;
        p.context_tokens[i] =
            static_cast<int>(tokens.size()) >= from_end ? tokens[tokens.size() - static_cast<std::size_t>(from_end)] : start_token;
        p.context.push_back(vocabulary()[static_cast<std::size_t>(p.context_tokens[i])]);
    }
    finish_prediction(p, forward(model, p.context_tokens).logits(), top_k);
    return p;
}

}  // namespace m2m::core
