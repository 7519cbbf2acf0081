// "Explain it back": the student's own runs written as sentences (Lesson 1's widths, Lesson 2's
// sends, Lesson 3's splits).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "m2m/core/engine/text.hpp"
#include "m2m/core/explain/explain_back.hpp"

using namespace m2m::core;

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
