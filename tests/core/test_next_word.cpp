// Lesson 3's little network: its shape, its deterministic training, its backprop, its predictions.
#include <catch2/catch.hpp>
#include <cmath>
#include <numeric>

#include "m2m/core/split/next_word.hpp"

using namespace m2m::core;

TEST_CASE("the network knows two dozen words plus <s> for an empty context") {
    CHECK(vocabulary_size() == 25);
    CHECK(output_words() == 24);
    CHECK(vocabulary()[start_token] == "<s>");
    CHECK(token_of("cat") > 0);
    CHECK(token_of(".") > 0);
    CHECK(token_of("zebra") == -1);
    CHECK(token_of("<s>") == -1);  // an input only, never predicted
}

TEST_CASE("every corpus sentence uses only known words and gives one example per word") {
    std::size_t words = 0;
    for (const std::string& line : corpus()) {
        CHECK(line.substr(line.size() - 2) == " .");
        words += prompt_words(line).size();
    }
    const std::vector<Example> ex = corpus_examples();
    CHECK(ex.size() == words);
    // A sentence starts from an empty context.
    CHECK(ex[0].context[0] == start_token);
    CHECK(ex[0].context[2] == start_token);
    CHECK(ex[1].context[2] == ex[0].next);
}

TEST_CASE("the network reads 3 words of 8 numbers, has 3 hidden layers of 48 and one output per word") {
    const NextWordModel m = initial_model(1);
    const std::vector<LayerInfo> layers = layer_infos(m);
    REQUIRE(layers.size() == 5);
    CHECK(layers[0].name == "embedding");
    CHECK(layers[0].neurons == 24);
    CHECK(layers[1].neurons == 48);
    CHECK(layers[3].neurons == 48);
    CHECK(layers[4].name == "output");
    CHECK(layers[4].neurons == 24);
    // 25 x 8 table + (24 x 48 + 48) + 2 x (48 x 48 + 48) + (48 x 24 + 24)
    CHECK(parameter_count(m) == 200 + 1200 + 2 * 2352 + 1176);
    CHECK(parameter_count(m) == 7280);
}

TEST_CASE("the context vector is laid out dimension by dimension, each word's value side by side") {
    const NextWordModel m = initial_model(3);
    const int ctx[context_words] = {token_of("the"), token_of("cat"), token_of("sat")};
    const std::vector<float> x = context_vector(m, ctx);
    REQUIRE(x.size() == 24);
    for (int d = 0; d < embedding_dims; ++d)
        for (int pos = 0; pos < context_words; ++pos)
            CHECK(x[static_cast<std::size_t>(d * 3 + pos)] ==
                  m.embeddings[static_cast<std::size_t>(ctx[pos] * embedding_dims + d)]);
}

TEST_CASE("the same seed gives the same trained weights, bit for bit") {
    TrainingSetup s;
    s.epochs = 4;
    TrainingReport ra, rb;
    const NextWordModel a = train_next_word_model(s, &ra);
    const NextWordModel b = train_next_word_model(s, &rb);
    CHECK(a.embeddings == b.embeddings);
    REQUIRE(a.dense.size() == b.dense.size());
    for (std::size_t l = 0; l < a.dense.size(); ++l) {
        CHECK(a.dense[l].weights == b.dense[l].weights);
        CHECK(a.dense[l].biases == b.dense[l].biases);
    }
    CHECK(ra.final_loss == rb.final_loss);
    s.seed += 1;
    CHECK(train_next_word_model(s).embeddings != a.embeddings);
}

TEST_CASE("the shared trained model is the default training run") {
    const NextWordModel fresh = train_next_word_model(TrainingSetup{});
    const NextWordModel& shared = trained_next_word_model();
    CHECK(fresh.embeddings == shared.embeddings);
    for (std::size_t l = 0; l < fresh.dense.size(); ++l) CHECK(fresh.dense[l].weights == shared.dense[l].weights);
}

TEST_CASE("training lowers the corpus loss well below its start") {
    const TrainingReport& r = trained_next_word_report();
    CHECK(r.epochs == TrainingSetup{}.epochs);
    CHECK(r.examples == static_cast<int>(corpus_examples().size()));
    CHECK(r.first_epoch_loss > 2.0f);      // about ln 24 = 3.2 at random, falling within the epoch
    CHECK(r.final_loss < 0.7f);            // what is left is the corpus's own ambiguity
    CHECK(r.accuracy > 0.7f);
}

TEST_CASE("backpropagation agrees with a finite difference of the loss") {
    const NextWordModel m = initial_model(7);
    const std::vector<Example> all = corpus_examples();
    const std::span<const Example> batch(all.data(), 16);
    const NextWordModel g = mean_gradient(m, batch);
    auto loss_of = [&](const NextWordModel& x) {
        float l = 0;
        mean_gradient(x, batch, &l);
        return static_cast<double>(l);
    };
    // A few weights in each layer, and one embedding value that the batch reads.
    struct Probe {
        int layer;  // -1: embedding
        std::size_t index;
    };
    const std::vector<Probe> probes = {{-1, static_cast<std::size_t>(token_of("the") * embedding_dims + 2)},
                                       {0, 5}, {0, 600}, {1, 77}, {2, 1500}, {3, 12}, {3, 1000}};
    for (const Probe& p : probes) {
        const float h = 1e-2f;
        NextWordModel up = m, down = m;
        float* wu = p.layer < 0 ? &up.embeddings[p.index] : &up.dense[static_cast<std::size_t>(p.layer)].weights[p.index];
        float* wd = p.layer < 0 ? &down.embeddings[p.index] : &down.dense[static_cast<std::size_t>(p.layer)].weights[p.index];
        *wu += h;
        *wd -= h;
        const double numeric = (loss_of(up) - loss_of(down)) / (2.0 * h);
        const double analytic =
            p.layer < 0 ? g.embeddings[p.index] : g.dense[static_cast<std::size_t>(p.layer)].weights[p.index];
        INFO("layer " << p.layer << " index " << p.index);
        CHECK(analytic == Approx(numeric).margin(2e-3).epsilon(0.05));
    }
}

TEST_CASE("after \"the cat sat on the\" the trained network expects \"mat\"") {
    const Prediction p = predict(trained_next_word_model(), "the cat sat on the");
    CHECK(p.word == "mat");
    CHECK(p.context == std::vector<std::string>{"sat", "on", "the"});
    CHECK(p.unknown_words.empty());
    REQUIRE(p.top.size() == 5);
    CHECK(p.top[0].probability > 0.5f);
    for (std::size_t i = 1; i < p.top.size(); ++i) CHECK(p.top[i - 1].probability >= p.top[i].probability);
    const std::vector<float> probs = softmax(p.logits);
    CHECK(std::accumulate(probs.begin(), probs.end(), 0.0) == Approx(1.0).epsilon(1e-5));
    CHECK_THAT(p.sentence, Catch::Contains("\"mat\""));
}

TEST_CASE("the trained network continues other corpus patterns sensibly") {
    const NextWordModel& m = trained_next_word_model();
    CHECK(predict(m, "the fish swam in the").word == "pond");
    CHECK(predict(m, "the bird flew in the").word == "sky");
    CHECK(predict(m, "").word == "the");
}

TEST_CASE("an unknown word is named in the answer and read as <s>") {
    const Prediction p = predict(trained_next_word_model(), "The zebra SAT on the");
    CHECK(p.unknown_words == std::vector<std::string>{"zebra"});
    CHECK(p.context == std::vector<std::string>{"sat", "on", "the"});
    CHECK_THAT(p.sentence, Catch::Contains("zebra"));
    const Prediction q = predict(trained_next_word_model(), "a zebra");
    CHECK(q.context == std::vector<std::string>{"<s>", "a", "<s>"});
}

TEST_CASE("a short prompt is padded with <s> and punctuation other than a full stop is dropped") {
    CHECK(prompt_words("The cat, sat.") == std::vector<std::string>{"the", "cat", "sat", "."});
    const Prediction p = predict(trained_next_word_model(), "the cat");
    CHECK(p.context == std::vector<std::string>{"<s>", "the", "cat"});
}
