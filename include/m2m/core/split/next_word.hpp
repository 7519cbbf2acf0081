// Lesson 3's little network: a next-word predictor, its tiny corpus, and its deterministic training.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace m2m::core {

/// The shape every part of Lesson 3 shares. Widths are chosen so that 1, 2, 3, 4, 6 and 8 GPUs
/// split every layer (and the 48-prompt batch) evenly.
inline constexpr int context_words = 3;      ///< the network reads the last 3 words
inline constexpr int embedding_dims = 8;     ///< each word becomes 8 numbers
inline constexpr int hidden_width = 48;      ///< neurons in each hidden layer
inline constexpr int hidden_layers = 3;
inline constexpr int start_token = 0;        ///< "<s>": fills the context before the first word
inline constexpr std::string_view start_word = "<s>";

/// The words the network knows. Token 0 is "<s>", an input only; tokens 1.. are the words
/// it can predict, one output neuron each (output neuron i is token i + 1).
const std::vector<std::string>& vocabulary();
int vocabulary_size();   ///< including "<s>"
int output_words();      ///< vocabulary_size() - 1
/// The token of `word` (lower case), or -1 when the network does not know it.
int token_of(std::string_view word);

/// The corpus the network learns from: short sentences the project wrote, one per line,
/// words separated by spaces, each ending in " .".
const std::vector<std::string>& corpus();

/// One example: the last `context_words` tokens and the token that came next.
struct Example {
    int context[context_words] = {start_token, start_token, start_token};
    int next = start_token;
};
/// Every (context, next word) pair in the corpus, in corpus order; each sentence starts
/// from a context of "<s>" tokens.
std::vector<Example> corpus_examples();

/// One fully connected layer. Weights are stored neuron by neuron: neuron o's weights are
/// weights[o * inputs .. o * inputs + inputs), so a GPU holding neurons [a, b) holds one
/// contiguous block of rows (a column split of the weight matrix W, y = W x + b).
struct DenseLayer {
    int inputs = 0;
    int outputs = 0;
    std::vector<float> weights;
    std::vector<float> biases;
    std::int64_t parameters() const { return static_cast<std::int64_t>(inputs) * outputs + outputs; }
};

/// The whole network. Layer 0 is the embedding: a table of `embedding_dims` numbers per word;
/// its "neurons" are the context vector, laid out dimension-major,
/// x[d * context_words + position] = table[word at position][d], so that a GPU holding
/// embedding dimensions [a, b) holds context neurons [a * 3, b * 3), one contiguous range.
/// Then `hidden_layers` ReLU layers of `hidden_width`, then the output layer (one logit per
/// word), whose softmax is the prediction.
struct NextWordModel {
    std::vector<float> embeddings;   ///< [token][dim], vocabulary_size() x embedding_dims
    std::vector<DenseLayer> dense;   ///< hidden layers, then the output layer
};

/// What the lesson draws: layer 0 (embedding) .. layer 4 (output).
struct LayerInfo {
    std::string name;                 ///< "embedding", "hidden 1", ..., "output"
    int neurons = 0;                  ///< width of the layer's output
    int inputs = 0;                   ///< values each neuron reads (0 for the embedding)
    std::int64_t parameters = 0;
};
std::vector<LayerInfo> layer_infos(const NextWordModel& model);
int layer_count(const NextWordModel& model);          ///< embedding + dense layers
std::int64_t parameter_count(const NextWordModel& model);

/// Layer activations of one forward pass; values[0] is the context vector, values.back() the
/// logits (before the softmax). Hidden values are after the ReLU.
struct ForwardPass {
    std::vector<std::vector<float>> values;
    const std::vector<float>& logits() const { return values.back(); }
};
/// The context vector (layer 0) of `context`.
std::vector<float> context_vector(const NextWordModel& model, const int (&context)[context_words]);
/// One dense layer on one input vector: y = W x + b, then ReLU unless `last`.
/// Each neuron's sum runs over its inputs in index order, so any GPU computing the same
/// neuron from the same inputs gets the same bits.
float neuron_output(const DenseLayer& layer, int neuron, const float* input, bool last);
ForwardPass forward(const NextWordModel& model, const int (&context)[context_words]);
/// Softmax over the logits (max subtracted first, so exp never overflows).
std::vector<float> softmax(const std::vector<float>& logits);

struct TrainingSetup {
    std::uint64_t seed = 20240611;  ///< initial weights; same seed, same model, bit for bit
    int epochs = 60;                ///< passes over the corpus
    int batch_size = 16;            ///< examples per Adam step
    float learning_rate = 0.01f;    ///< Adam's step size
};
struct TrainingReport {
    int epochs = 0;
    int steps = 0;
    int examples = 0;
    float first_epoch_loss = 0;  ///< mean cross-entropy (nats) over the first epoch
    float final_loss = 0;        ///< mean cross-entropy over the corpus after training
    float accuracy = 0;          ///< share of corpus examples whose top word is the true next word
};

/// The gradient of the mean cross-entropy over `batch`, in the model's own shape (the
/// embedding table, each layer's weights and biases); `loss` gets the mean loss.
NextWordModel mean_gradient(const NextWordModel& model, std::span<const Example> batch, float* loss = nullptr);

/// Random weights from `seed` (He-uniform for the ReLU layers, Glorot-uniform for the output,
/// biases zero) drawn with splitmix64, so the same seed gives the same numbers everywhere.
NextWordModel initial_model(std::uint64_t seed);
/// Trains with mini-batch Adam (Kingma & Ba 2015, beta1 0.9, beta2 0.999, eps 1e-8) on the
/// mean cross-entropy of the corpus examples, visiting them in a seeded shuffled order.
/// Single-threaded float arithmetic in a fixed order: deterministic.
NextWordModel train_next_word_model(const TrainingSetup& setup, TrainingReport* report = nullptr);
/// The default training run, done once on first use and then shared (read only).
const NextWordModel& trained_next_word_model();
const TrainingReport& trained_next_word_report();

struct WordProbability {
    std::string word;
    float probability = 0;
};
struct Prediction {
    std::vector<std::string> words;          ///< the prompt, lower-cased and split
    std::vector<std::string> unknown_words;  ///< prompt words not in the vocabulary
    std::vector<std::string> context;        ///< the 3 words the network read ("<s>" = none)
    int context_tokens[context_words] = {start_token, start_token, start_token};
    std::string word;                        ///< the most likely next word
    std::vector<WordProbability> top;        ///< most likely first
    std::vector<float> logits;
    /// "After "sat on the" the network expects "mat" (62%)." plus, when the prompt had words
    /// the network does not know, a sentence that names them and says they were read as "<s>".
    std::string sentence;
};
/// Splits `prompt` into words (lower case; "." is a word of its own; other punctuation dropped).
std::vector<std::string> prompt_words(std::string_view prompt);
/// Reads the last 3 words of `prompt` and returns the `top_k` most likely next words.
/// An unknown word is read as "<s>" (no information) and listed in `unknown_words`.
Prediction predict(const NextWordModel& model, std::string_view prompt, int top_k = 5);
/// Fills `p`'s logits, top words, word and sentence from `logits` (its words, unknown words and
/// context already set): lets a split network's logits be read the same way.
void finish_prediction(Prediction& p, std::vector<float> logits, int top_k);

}  // namespace m2m::core
