// "Explain it back": a table of real-sounding answers and the exact feedback each must get,
// and the student's runs written as sentences.
#include <catch2/catch.hpp>

#include <chrono>
#include <string>
#include <vector>

#include "m2m/core/explain/explain_back.hpp"
#include "m2m/core/engine/text.hpp"

using namespace m2m::core;

namespace {

struct Case {
    const char* what;
    std::string answer;
    AnswerKind kind;
    const char* found;           // found_ids()
    const char* misconceptions;  // misconception_ids()
};

const std::string good_typed =
    "A matrix multiply is many dot products. Each neuron is independent of the others in its layer. A GPU has "
    "thousands of small cores that run them at once; a CPU has a few big cores that go one after another. Only the "
    "layers depend on each other. Memory bandwidth matters too. ";

std::vector<Case> table() {
    return {
        // Good answers.
        {"the model answer", std::string(explain_model_answer()), AnswerKind::answer,
         "dot_products,independent_outputs,gpu_many_cores,cpu_few_cores,layers_depend,data_movement", "none"},
        {"a good answer with a student's spelling",
         "Because matrix multiplication is made of lots of dot prodcuts which are independant of each other. GPUs have "
         "thousends of cores that work in paralell, CPUs have few cores and work sequencially. Layers have to wait for "
         "eachother. Memory bandwith matters too.",
         AnswerKind::answer, "dot_products,independent_outputs,gpu_many_cores,cpu_few_cores,layers_depend,data_movement",
         "none"},
        {"a good answer in other words",
         "Each output is the sum of input times weight, so it is a multiply-accumulate. The outputs dont need each "
         "other's results. The CPU goes one by one. The GPU does all of them at once. The next layer needs the outputs "
         "of this layer. NVLink moves the tensors between GPUs.",
         AnswerKind::answer, "dot_products,independent_outputs,gpu_many_cores,cpu_few_cores,layers_depend,data_movement",
         "none"},
        // Partial answers.
        {"the usual textbook sentence",
         "Matrix multiplication consists of many independent dot products that can be computed in parallel. GPUs have "
         "thousands of cores so they can compute them simultaneously, while CPUs only have a few cores and must do them "
         "mostly sequentially.",
         AnswerKind::answer, "dot_products,independent_outputs,gpu_many_cores,cpu_few_cores", "none"},
        {"everything but the dot products",
         "A GPU has thousands of small cores while a CPU has a few big ones. Each neuron in a layer doesn't depend on the "
         "others, so they can all go at once, but each layer has to wait for the previous one. Moving the weights from "
         "memory also takes time (memory bandwidth).",
         AnswerKind::answer, "independent_outputs,gpu_many_cores,cpu_few_cores,layers_depend,data_movement", "none"},
        {"lower case, one typo, and the two machines in one sentence",
         "matrix multiplication is a lot of multiplications and additions. a gpu does lots of them in paralel, a cpu "
         "does them one at a time.",
         AnswerKind::answer, "dot_products,gpu_many_cores,cpu_few_cores", "none"},
        {"a numbers-first answer",
         "Unlike a CPU, a GPU has 16,896 cores, whereas the CPU has only 8 cores; the CPU goes through the neurons one "
         "after the other.",
         AnswerKind::answer, "gpu_many_cores,cpu_few_cores", "none"},
        {"an analogy", "A GPU is like a huge team of workers who each do one tiny sum at the same time, while a CPU is "
                       "like a few experts who work through the list one by one.",
         AnswerKind::answer, "gpu_many_cores,cpu_few_cores", "none"},
        {"rows and columns", "Each row of the first matrix times each column of the second gives one entry; all "
                             "entries can be calculated separately.",
         AnswerKind::answer, "dot_products,independent_outputs", "none"},
        {"within a layer, and across layers", "Every neuron only needs the previous layer's outputs, so the neurons of "
                                              "one layer don't have to wait for each other.",
         AnswerKind::answer, "independent_outputs,layers_depend", "none"},
        {"the CPU as a generalist", "CPUs are optimised for single-threaded, sequential work with a few powerful cores. "
                                    "GPUs are massively parallel.",
         AnswerKind::answer, "gpu_many_cores,cpu_few_cores", "none"},
        {"only the wires", "The bottleneck is often memory bandwidth: the weights have to be loaded from HBM, and between "
                           "GPUs they move over NVLink or InfiniBand.",
         AnswerKind::answer, "data_movement", "none"},
        {"shouting", "A MATRIX MULTIPLY IS JUST MANY DOT PRODUCTS.", AnswerKind::answer, "dot_products", "none"},
        {"hyphens and odd punctuation", "dot-products!!! multiply\xe2\x80\x93" "add; layer-by-layer...", AnswerKind::answer,
         "dot_products,layers_depend", "none"},
        {"line breaks from the answer box's wrap",
         "A GPU runs them on thousands\nof small cores at once, while a CPU with 16 big\ncores goes mostly one after another.",
         AnswerKind::answer, "gpu_many_cores,cpu_few_cores", "none"},
        {"a bullet list", "- a CPU: a few big cores\n- thousands of small cores on a GPU", AnswerKind::answer,
         "gpu_many_cores,cpu_few_cores", "none"},
        {"a negated sentence still names the dot products", "A CPU can't do many dot products at once.",
         AnswerKind::answer, "dot_products", "none"},
        {"a slower GPU core, said right", "Each GPU core is actually slower than a CPU core. A GPU just has thousands of them.",
         AnswerKind::answer, "gpu_many_cores", "none"},
        {"the misconception, denied", "GPU cores are not faster than CPU cores; there are simply far more of them.",
         AnswerKind::answer, "gpu_many_cores", "none"},
        {"layers in parallel, denied", "The layers themselves cannot run in parallel: each one waits for the layer before.",
         AnswerKind::answer, "layers_depend", "none"},
        // Wrong answers.
        {"too short", "Because GPUs are faster.", AnswerKind::answer, "none", "none"},
        {"off the topic", "A GPU is good for graphics and games. A CPU is the brain of the computer.", AnswerKind::answer,
         "none", "none"},
        {"faster GPU cores", "GPU cores are faster than CPU cores, so the GPU wins.", AnswerKind::answer, "none",
         "gpu_cores_faster"},
        {"a higher clock", "The GPU has a higher clock speed, so it finishes sooner.", AnswerKind::answer, "none",
         "gpu_cores_faster"},
        {"the core counts swapped", "A CPU has more cores than a GPU, so it is better at parallel work.",
         AnswerKind::answer, "none", "cpu_more_cores"},
        {"all layers at once", "All the layers can be computed at the same time on a GPU, because they are independent.",
         AnswerKind::answer, "gpu_many_cores", "layers_in_parallel"},
        {"different layers on different cores", "Different layers run in parallel on different cores.", AnswerKind::answer,
         "none", "layers_in_parallel"},
        // Nothing, or nothing the checker can read.
        {"empty", "", AnswerKind::empty, "none", "none"},
        {"white space only", "   \n\t  \n", AnswerKind::empty, "none", "none"},
        {"Unicode spaces only", "\xc2\xa0\xe3\x80\x80\xe2\x80\x83", AnswerKind::empty, "none", "none"},
        {"emoji only", "\xf0\x9f\x9a\x80\xf0\x9f\x9a\x80\xf0\x9f\x94\xa5 \xf0\x9f\xa4\xb7", AnswerKind::no_words, "none",
         "none"},
        {"Greek", "\xce\x9f \xcf\x80\xce\xbf\xce\xbb\xce\xbb\xce\xb1\xcf\x80\xce\xbb\xce\xb1\xcf\x83\xce\xb9\xce\xb1\xcf\x83"
                  "\xce\xbc\xcf\x8c\xcf\x82 \xcf\x80\xce\xb9\xce\xbd\xce\xac\xce\xba\xcf\x89\xce\xbd \xce\xb5\xce\xaf\xce\xbd"
                  "\xce\xb1\xce\xb9 \xcf\x80\xce\xbf\xce\xbb\xce\xbb\xce\xac \xce\xb5\xcf\x83\xcf\x89\xcf\x84\xce\xb5\xcf\x81"
                  "\xce\xb9\xce\xba\xce\xac \xce\xb3\xce\xb9\xce\xbd\xcf\x8c\xce\xbc\xce\xb5\xce\xbd\xce\xb1 \xcf\x83\xce\xb5 "
                  "\xce\xbc\xce\xb9\xce\xb1 GPU.",
         AnswerKind::not_english, "none", "none"},
        {"Chinese", "\xe7\x9f\xa9\xe9\x98\xb5\xe4\xb9\x98\xe6\xb3\x95\xe6\x98\xaf\xe5\xbe\x88\xe5\xa4\x9a\xe7\x82\xb9\xe7\xa7"
                    "\xaf\xef\xbc\x8c GPU \xe6\x9c\x89\xe6\x88\x90\xe5\x8d\x83\xe4\xb8\x8a\xe4\xb8\x87\xe4\xb8\xaa\xe5\xb0\x8f"
                    "\xe6\xa0\xb8\xe5\xbf\x83\xe3\x80\x82",
         AnswerKind::not_english, "none", "none"},
        {"German", "Die Matrixmultiplikation besteht aus vielen Skalarprodukten, die unabh\xc3\xa4ngig voneinander "
                   "berechnet werden k\xc3\xb6nnen, deshalb ist eine Grafikkarte besser.",
         AnswerKind::not_english, "none", "none"},
        {"English with a symbol and an emoji",
         "A GPU \xf0\x9f\x9a\x80 has thousands of cores that compute \xcf\x83(w\xc2\xb7" "a) for every neuron at once.",
         AnswerKind::answer, "gpu_many_cores", "none"},
        {"broken UTF-8 bytes",
         "A GPU has thousands of \xff\xfe cores\xc3 and a CPU \xe2\x82 has few cores \xed\xa0\x80 one at a time.\x01 dot "
         "products",
         AnswerKind::answer, "dot_products,gpu_many_cores,cpu_few_cores", "none"},
    };
}

}  // namespace

TEST_CASE("every answer in the table gets exactly its feedback") {
    for (const Case& c : table()) {
        INFO(c.what << ": \"" << c.answer << "\"");
        const ExplainFeedback f = grade_answer(c.answer);
        CHECK(f.kind == c.kind);
        CHECK(found_ids(f) == c.found);
        CHECK(misconception_ids(f) == c.misconceptions);
        REQUIRE(f.ideas.size() == explain_idea_count);
        for (std::size_t i = 0; i < explain_idea_count; ++i) {
            CHECK(f.ideas[i].idea == static_cast<ExplainIdea>(i));
            CHECK(f.ideas[i].found == !f.ideas[i].evidence.empty());  // a found idea quotes the student
        }
        CHECK_FALSE(f.truncated);
        CHECK(f.notes.empty());
    }
}

TEST_CASE("the evidence quotes the student's own words, the machine included when it is close") {
    const auto f = grade_answer(
        "Unlike a CPU, a GPU has 16,896 cores, whereas the CPU has only 8 cores; the CPU goes through the neurons one "
        "after the other.");
    CHECK(f.ideas[2].evidence == "GPU has 16,896 cores");
    CHECK(f.ideas[3].evidence == "CPU has only 8 cores");
    CHECK(grade_answer("Layers have to wait for eachother.").ideas[4].evidence == "Layers have to wait for eachother");
    CHECK(grade_answer("GPU cores are faster than CPU cores.").misconceptions.at(0).evidence == "GPU cores are faster");
    CHECK(grade_answer("A GPU \xf0\x9f\x9a\x80 has thousands of cores.").ideas[2].evidence ==
          "GPU \xf0\x9f\x9a\x80 has thousands of cores");
}

TEST_CASE("the summary says how many ideas are there, in words") {
    CHECK(grade_answer(explain_model_answer()).summary ==
          "All six ideas are there. Compare your wording with the model answer if you like.");
    CHECK(grade_answer("A matrix multiply is many dot products.").summary ==
          "A good start: one of the six ideas. The hints below point to what is missing.");
    CHECK(grade_answer("Many independent dot products; the GPU runs them at once, a CPU one at a time.").summary ==
          "A strong answer: four of the six ideas. The hints below point to what is missing.");
    CHECK(grade_answer("Because GPUs are faster.").summary ==
          "None of the six ideas showed up yet. Start with what a matrix multiply is made of, then say what each "
          "machine does with it.");
    CHECK(grade_answer(" ").summary == "Nothing to check yet: write a few sentences in the box, then press Submit.");
    CHECK(grade_answer("\xf0\x9f\xa4\xb7").summary ==
          "There are no words here to check yet: explain it in a few sentences, then press Submit.");
    CHECK(grade_answer("\xe7\x9f\xa9\xe9\x98\xb5\xe4\xb9\x98\xe6\xb3\x95\xe6\x98\xaf\xe5\xbe\x88\xe5\xa4\x9a").summary ==
          "This answer seems to be written in another language. The checker only reads English for now, so it may "
          "have missed ideas you did write.");
}

TEST_CASE("every idea has a title and a hint, and every misconception a kind note") {
    for (std::size_t i = 0; i < explain_idea_count; ++i) {
        const auto idea = static_cast<ExplainIdea>(i);
        CHECK_FALSE(explain_idea_id(idea).empty());
        CHECK_FALSE(explain_idea_title(idea).empty());
        CHECK(explain_idea_hint(idea).size() > 40);
    }
    CHECK(explain_idea_hint(ExplainIdea::data_movement) ==
          "Cores only help if the weights reach them in time: mention memory bandwidth, or the links that carry "
          "numbers between chips.");
    for (auto m : {Misconception::gpu_cores_faster, Misconception::cpu_more_cores, Misconception::layers_in_parallel})
        CHECK(misconception_note(m).size() > 40);
    CHECK(explain_question() == "Why is a matrix multiply the perfect job for a GPU, and a bad fit for a CPU?");
}

TEST_CASE("a 100 KB answer is read up to the cap, quickly, and the student is told") {
    const std::string filler(100 * 1024 - good_typed.size(), 'x');
    const auto t0 = std::chrono::steady_clock::now();
    const auto f = grade_answer(good_typed + filler);
    const auto soup = [] {  // the worst case for the phrase matcher: one endless sentence of its own words
        std::string s;
        const char* words[] = {"not ", "layer ", "depend ", "gpu ", "cpu ", "many ", "few ", "cores ", "at ", "once ",
                               "than ", "it ", "one ", "after ", "another ", "dot ", "products ", "memory "};
        for (std::size_t i = 0; s.size() < 100 * 1024; ++i) s += words[(i * 7 + i / 3) % 18];
        return grade_answer(s);
    }();
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    CHECK(f.found_count() == 6);
    CHECK(f.truncated);
    CHECK(f.notes == std::vector<std::string>{"Only the first 20,000 characters were read; a good answer fits in one paragraph."});
    CHECK(soup.truncated);
    CHECK(soup.words < 20000 / 2);
    CHECK(ms < 2000);  // generous for a loaded shared machine; ~10 ms each when idle

    const auto repeated = [] {
        std::string s;
        while (s.size() < 100 * 1024) s += good_typed;
        return grade_answer(s);
    }();
    CHECK(repeated.found_count() == 6);
    CHECK(repeated.truncated);

    const auto no_spaces = grade_answer(std::string(100 * 1024, 'a'));
    CHECK(no_spaces.kind == AnswerKind::answer);
    CHECK(no_spaces.found_count() == 0);
    CHECK(no_spaces.truncated);
    CHECK(no_spaces.words == 1);

    // The cap counts characters, not bytes, and never cuts one in half.
    std::string greek;
    for (int i = 0; i < 30000; ++i) greek += "\xcf\x83";
    const auto g = grade_answer(greek);
    CHECK(g.kind == AnswerKind::not_english);
    CHECK(g.truncated);
}

TEST_CASE("an answer exactly at the cap is read whole") {
    std::string s = "dot products ";
    s += std::string(explain_max_answer_chars - s.size(), ' ');
    const auto f = grade_answer(s);
    CHECK_FALSE(f.truncated);
    CHECK(f.found(ExplainIdea::dot_products));
    CHECK(grade_answer(s + "x").truncated);
}

// --- facts from runs ---------------------------------------------------------------------------

TEST_CASE("a Lesson 1 run becomes a sentence with its widths and its speedup") {
    LayerRunSetup setup;
    setup.network.widths = {4, 512, 512, 3};
    setup.gpu_cores = 512;
    const LayerRunResult result = run_layers(setup);
    const LayerRunFact fact = layer_run_fact(setup, result);
    CHECK(fact.widths == std::vector<int>{4, 512, 512, 3});
    CHECK(fact.speedup == result.speedup);
    const std::vector<RunFact> facts{fact};
    const auto s = run_fact_sentences(facts);
    REQUIRE(s.size() == 1);
    CHECK(s[0] == "In your Lesson 1 run with 512-wide layers the GPU finished " + format_ratio(result.speedup) +
                      " sooner than the CPU (lesson timing, 1 CPU core against 512 GPU cores).");
}

TEST_CASE("Lesson 1 facts: the latest run, and how the lead grew with width") {
    LayerRunFact narrow{{4, 6, 6, 3}, false, "", "", 1, 6, 5.0};
    LayerRunFact wide{{4, 512, 512, 3}, false, "", "", 1, 512, 85.0};
    const std::vector<RunFact> facts{narrow, wide};
    const auto s = run_fact_sentences(facts);
    REQUIRE(s.size() == 2);
    CHECK(s[0] == "In your Lesson 1 run with 512-wide layers the GPU finished 85\u00d7 sooner than the CPU (lesson "
                  "timing, 1 CPU core against 512 GPU cores).");
    CHECK(s[1] == "Across your runs the GPU's lead grew with the width of the layers: 5\u00d7 with 6-wide layers, "
                  "85\u00d7 with 512-wide layers. A wider layer is more dot products that can all run at once.");

    LayerRunFact hw{{4, 8}, true, "AMD EPYC 9654", "NVIDIA H100 SXM", 96, 16896, 0.4};
    const std::vector<RunFact> slow{hw};
    CHECK(run_fact_sentences(slow) ==
          std::vector<std::string>{"In your Lesson 1 run with no hidden layer the CPU finished first: the GPU took "
                                   "2.5\u00d7 as long (hardware timing, NVIDIA H100 SXM against AMD EPYC 9654)."});
    LayerRunFact mixed{{4, 512, 64, 3}, false, "", "", 2, 512, 1.0};
    const std::vector<RunFact> even{mixed};
    CHECK(run_fact_sentences(even)[0] ==
          "In your Lesson 1 run with hidden layers of 512 and 64 neurons both machines finished at about the same time "
          "(lesson timing, 2 CPU cores against 512 GPU cores).");
}

TEST_CASE("Lesson 2 and 3 facts: the slower link, and the strategy that moved the most bytes") {
    const std::vector<RunFact> facts{
        TransferFact{"NVLink", 1e9, 2.3e-3, 1.0},
        TransferFact{"InfiniBand", 1e9, 20.8e-3, 9.0},
        SplitFact{"data parallel", 4, 58200},
        SplitFact{"tensor parallel", 4, 1.23e6},
        SplitFact{"pipeline parallel", 4, 3072},
        SplitFact{"data parallel", 2, 29100},
    };
    const auto s = run_fact_sentences(facts);
    REQUIRE(s.size() == 2);
    CHECK(s[0] == "In your Lesson 2 run a 1 GB tensor sent over InfiniBand took 20.8 ms, 9\u00d7 as long as the same "
                  "send between two GPUs of one node.");
    CHECK(s[1] == "Of the splits you tried in Lesson 3, tensor parallel on 4 GPUs exchanged the most per training step "
                  "(1.23 MB), pipeline parallel on 4 GPUs the least (3.07 KB).");

    const std::vector<RunFact> one{SplitFact{"data parallel", 1, 0}, TransferFact{"NVLink", 1e6, 4.2e-6, 1.0}};
    CHECK(run_fact_sentences(one) ==
          std::vector<std::string>{"In your Lesson 2 run a 1 MB tensor sent over NVLink took 4.20 \u00b5s inside one node.",
                                   "In your Lesson 3 run, data parallel on one GPU exchanged nothing per training step."});
    CHECK(run_fact_sentences({}).empty());
}

TEST_CASE("ratios and byte counts are written the same way in every lesson") {
    CHECK(format_ratio(5.0) == "5\u00d7");
    CHECK(format_ratio(2.5) == "2.5\u00d7");
    CHECK(format_ratio(85.3) == "85\u00d7");
    CHECK(format_ratio(0.68) == "0.68\u00d7");
    CHECK(format_ratio(1234) == "1234\u00d7");
    CHECK(format_bytes(512) == "512 B");
    CHECK(format_bytes(58200) == "58.2 KB");
    CHECK(format_bytes(1e9) == "1 GB");
    CHECK(format_bytes(123456) == "123 KB");
    CHECK(format_bytes(999999) == "1 MB");
}
