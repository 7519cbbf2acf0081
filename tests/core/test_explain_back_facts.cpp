// "Explain it back": the student's own runs written as sentences (Lesson 1's widths, batches and
// precisions, Lesson 2's sends, Lesson 3's splits).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "m2m/core/engine/text.hpp"
#include "m2m/core/explain/explain_back.hpp"
#include "m2m/presets/presets.hpp"

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
    CHECK(s[1] == "Of the splits you tried in Lesson 3, tensor parallel on 4 GPUs put the most on the wires per training "
                  "step (1.23 MB), pipeline parallel on 4 GPUs the least (3.07 KB).");

    // Runs on different GPU counts are not set against each other: 3D on 8 beside FSDP on 2 made 3D
    // "the most" on the wires, the reverse of Lesson 3's answer on 8 GPUs.
    const std::vector<RunFact> mixed{SplitFact{"FSDP", 2, 43680}, SplitFact{"data parallel", 2, 29120},
                                     SplitFact{"3D parallel", 8, 77504}};
    CHECK(run_fact_sentences(mixed) ==
          std::vector<std::string>{"Of the splits you tried in Lesson 3, FSDP on 2 GPUs put the most on the wires per training "
                                   "step (43.7 KB), data parallel on 2 GPUs the least (29.1 KB)."});

    const std::vector<RunFact> one{SplitFact{"data parallel", 1, 0}, TransferFact{"NVLink", 1e6, 4.2e-6, 1.0}};
    CHECK(run_fact_sentences(one) ==
          std::vector<std::string>{"In your Lesson 2 run a 1 MB tensor sent over NVLink took 4.20 \u00b5s inside one node.",
                                   "In your Lesson 3 run, data parallel on one GPU put nothing on the wires per training step."});
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

TEST_CASE("a Lesson 1 fact defaults to batch 1 in FP32, and says so only when it is not") {
    const LayerRunFact plain;
    CHECK(plain.batch == 1);
    CHECK(plain.precision == "FP32");
    LayerRunFact hw{{64, 1024, 1024, 10}, true, "AMD EPYC 9654", "NVIDIA H100 SXM", 96, 16896, 141.0, 256, "BF16"};
    const std::vector<RunFact> facts{hw};
    CHECK(run_fact_sentences(facts) ==
          std::vector<std::string>{"In your Lesson 1 run with 1,024-wide layers the GPU finished 141\u00d7 sooner than "
                                   "the CPU (hardware timing, NVIDIA H100 SXM against AMD EPYC 9654, batch 256, BF16)."});
}

TEST_CASE("Lesson 1 facts: the same network and chips at two batches, and what reuse did") {
    const LayerRunFact one{{64, 1024, 1024, 10}, true, "AMD EPYC 9654", "NVIDIA H100 SXM", 96, 16896, 7.0, 1, "FP32"};
    const LayerRunFact mid{{64, 1024, 1024, 10}, true, "AMD EPYC 9654", "NVIDIA H100 SXM", 96, 16896, 30.0, 64, "FP32"};
    const LayerRunFact big{{64, 1024, 1024, 10}, true, "AMD EPYC 9654", "NVIDIA H100 SXM", 96, 16896, 62.0, 1024, "FP32"};
    const std::vector<RunFact> facts{one, big, mid};
    const auto s = run_fact_sentences(facts);
    REQUIRE(s.size() == 2);
    CHECK(s[0] == "In your Lesson 1 run with 1,024-wide layers the GPU finished 30\u00d7 sooner than the CPU (hardware "
                  "timing, NVIDIA H100 SXM against AMD EPYC 9654, batch 64).");
    CHECK(s[1] == "With the same network and chips, at batch 1 the GPU was 7\u00d7 sooner, at batch 1,024 it was "
                  "62\u00d7 sooner. At batch 1,024 each weight read from memory served 1,024 inputs, work that the "
                  "GPU's many cores could take on at once.");

    // Another precision, other chips or another network are not set side by side.
    LayerRunFact bf16 = big;
    bf16.precision = "BF16";
    LayerRunFact other = big;
    other.widths = {64, 256, 10};
    CHECK(run_fact_sentences(std::vector<RunFact>{one, bf16}).size() == 1);
    CHECK(run_fact_sentences(std::vector<RunFact>{one, other}).size() == 1);

    // Where the CPU leads at batch 1, the sentence says so, and the GPU is named again.
    LayerRunFact cpu_first = one;
    cpu_first.speedup = 0.5;
    CHECK(run_fact_sentences(std::vector<RunFact>{cpu_first, big}).back() ==
          "With the same network and chips, at batch 1 the CPU was 2\u00d7 sooner, at batch 1,024 the GPU was "
          "62\u00d7 sooner. At batch 1,024 each weight read from memory served 1,024 inputs, work that the GPU's many "
          "cores could take on at once.");
    // A lead that did not grow gets no reason it does not show.
    LayerRunFact flat = big;
    flat.speedup = 7.0;
    CHECK(run_fact_sentences(std::vector<RunFact>{one, flat}).back() ==
          "With the same network and chips, at batch 1 the GPU was 7\u00d7 sooner, at batch 1,024 it was 7\u00d7 "
          "sooner.");
}

TEST_CASE("the width comparison sets only runs timed alike side by side") {
    const LayerRunFact narrow{{4, 6, 6, 3}, true, "AMD EPYC 9654", "NVIDIA H100 SXM", 96, 16896, 0.5, 1, "FP32"};
    LayerRunFact wide{{4, 512, 512, 3}, true, "AMD EPYC 9654", "NVIDIA H100 SXM", 96, 16896, 3.0, 1, "FP32"};
    CHECK(run_fact_sentences(std::vector<RunFact>{narrow, wide}).size() == 2);
    wide.batch = 256;
    CHECK(run_fact_sentences(std::vector<RunFact>{narrow, wide}).size() == 1);
}

TEST_CASE("a hardware run's fact keeps its batch and precision, so a batch's gain is not told as the width's") {
    const auto& cat = m2m::presets::builtin();
    LayerRunSetup s;
    s.mode = TimingMode::hardware;
    s.cpu = cat.find("epyc-9654")->spec;
    s.gpu = cat.find("h100")->spec;
    s.cpu_cores = s.cpu.cores;
    s.gpu_cores = s.gpu.cores;
    s.precision = Precision::bf16;
    s.network.widths = {4, 6, 6, 3};
    const LayerRunFact narrow = layer_run_fact(s, run_layers(s));
    CHECK(narrow.batch == 1);
    CHECK(narrow.precision == "BF16");
    s.network.widths = {4, 4096, 4096, 3};
    s.batch = 4096;
    const LayerRunFact wide = layer_run_fact(s, run_layers(s));
    CHECK(wide.batch == 4096);
    const auto sentences = run_fact_sentences(std::vector<RunFact>{narrow, wide});
    std::string all;
    for (const auto& x : sentences) all += x + "\n";
    CHECK_THAT(all, Catch::Contains("batch 4,096") && Catch::Contains("BF16"));
    CHECK_THAT(all, !Catch::Contains("grew with the width"));  // batch and width both changed: not alike
}
