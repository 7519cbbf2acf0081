// "Explain it back": good and partial answers as students write them, each with its exact checklist
// (a data table; explain_answers.hpp runs it).
#include "explain_answers.hpp"

using namespace m2m;
using core::AnswerKind;
using test::AnswerCase;

namespace {

constexpr const char* all_ideas =
    "dot_products,independent_outputs,gpu_many_cores,cpu_few_cores,layers_depend,data_movement,batch_reuse";

std::vector<AnswerCase> good_answers() {
    return {
        {"the model answer (noted as the model answer's own words)", std::string(core::explain_model_answer()),
         AnswerKind::answer, all_ideas, "none", "none", 1},
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
        {"every idea, batching included, as a student explains it",
         "A matrix multiplication is basically a huge number of dot products, one for every entry of the output. None "
         "of those dot products depend on each other, so a GPU with its thousands of tiny cores can crunch them all "
         "simultaneously. A CPU only has 8-16 powerful cores, so it works through them a few at a time. The only thing "
         "that has to happen in order is the layers, since each layer needs the previous layer's output. Also the "
         "weights have to come from memory fast enough, which is why HBM bandwidth matters. And if you batch lots of "
         "inputs together, every weight you load gets reused for all of them, so the GPU stays busy instead of waiting "
         "on memory.",
         AnswerKind::answer, all_ideas, "none"},
        {"every idea, in a tight paragraph",
         "Each neuron is a dot product of the inputs and its weights. They don't need each other's results, so a GPU "
         "runs a whole layer at once on thousands of cores, while a CPU with a few cores goes mostly one after "
         "another. Layers still go in order because each one waits for the layer before. Memory bandwidth limits both, "
         "and batching helps: one weight read serves every input in the batch, so the arithmetic intensity grows.",
         AnswerKind::answer, all_ideas, "none"},
        {"a long, wandering answer that gets there",
         "GPUs have been around since the 90s for video games, my brother has a really good one. They are really good "
         "at graphics because a screen has millions of pixels and every pixel can be coloured at the same time. It "
         "turns out AI is similar. A neural network layer is a matrix multiplication, which is a lot of dot products, "
         "and each dot product is independent from the others. So a GPU with thousands of small cores can do them all "
         "at once, while a CPU only has maybe 8 or 16 cores and has to do them in small groups, one after another. But "
         "you can't do all layers at once because the next layer needs the answer from the one before. Also the memory "
         "has to be fast enough to feed the cores, which is why GPUs use HBM with huge bandwidth. I also read that "
         "training uses big batches so the weights get reused for many inputs, which makes the GPU even more "
         "efficient. That's why Nvidia is worth so much now.",
         AnswerKind::answer, all_ideas, "none"},
        {"notes with arrows", "matrix multiplication = lots of dot products, each output independent -> GPU does them "
                              "all at once with thousands of cores, CPU only has like 8 cores so it does them one after "
                              "another",
         AnswerKind::answer, "dot_products,independent_outputs,gpu_many_cores,cpu_few_cores", "none"},
    };
}

std::vector<AnswerCase> batch_and_notation_answers() {
    return {
        {"a batch makes the weights go further",
         "When we process one input at a time the GPU waits on memory for every weight. If we process 256 inputs "
         "together, each weight that comes from memory is used 256 times, so the GPU has enough work per byte to keep "
         "its cores busy.",
         AnswerKind::answer, "data_movement,batch_reuse", "none"},
        {"from a vector product to a matrix product",
         "Batching turns the matrix-vector product into a matrix-matrix product, which is compute bound instead of "
         "memory bound.",
         AnswerKind::answer, "data_movement,batch_reuse", "none"},
        {"the bound flips with the batch",
         "At batch 1 the layer is memory bound, but with a large batch the arithmetic intensity goes up and it becomes "
         "compute bound.",
         AnswerKind::answer, "data_movement,batch_reuse", "none"},
        {"loaded once, used many times",
         "When the batch size is large, the weights are loaded once and used many times, which makes the computation "
         "compute-bound, which suits the GPU.",
         AnswerKind::answer, "batch_reuse", "none"},
        {"reuse in six words", "A batch of inputs reuses the same weights.", AnswerKind::answer, "batch_reuse", "none"},
        {"the formula", "Each output element C[i][j] = sum over k of A[i][k]*B[k][j], and every (i,j) can be computed "
                        "independently, so you can give each one to a different GPU thread.",
         AnswerKind::answer, "dot_products,independent_outputs", "none"},
        {"neurons that don't talk, layers that wait",
         "Neurons in the same layer don't talk to each other, so a GPU can work on all of them at the same time, but "
         "the next layer has to wait until this one is done.",
         AnswerKind::answer, "independent_outputs,gpu_many_cores,layers_depend", "none"},
        {"layer by layer, in one go", "Layer by layer, the GPU handles each layer in one go with thousands of threads, "
                                      "whereas the CPU crawls through the neurons one at a time. That's why it wins.",
         AnswerKind::answer, "gpu_many_cores,cpu_few_cores,layers_depend", "none"},
    };
}

std::vector<AnswerCase> partial_answers() {
    return {
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
        {"a professor and a thousand students",
         "A CPU is like one really smart professor and a GPU is like a thousand students who can each only add and "
         "multiply, but for a huge worksheet of simple sums the students finish first.",
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
        {"throughput against latency", "It's about throughput vs latency. CPUs are built for low latency on a few "
                                       "threads, GPUs for throughput on thousands of threads.",
         AnswerKind::answer, "gpu_many_cores,cpu_few_cores", "none"},
        {"multiply-adds per clock", "Matrix multiplication is just multiply-adds. A CPU core can do maybe 32 of them per "
                                    "clock, a GPU can do tens of thousands per clock across all its cores.",
         AnswerKind::answer, "dot_products,gpu_many_cores,cpu_few_cores", "none"},
        {"core counts from the spec sheet", "The cpu has like 16 cores and the gpu has 16896 cuda cores, so the gpu can "
                                            "do way more dot products in parallel.",
         AnswerKind::answer, "dot_products,gpu_many_cores,cpu_few_cores", "none"},
    };
}

std::vector<AnswerCase> short_partial_answers() {
    return {
        {"only the wires", "The bottleneck is often memory bandwidth: the weights have to be loaded from HBM, and between "
                           "GPUs they move over NVLink or InfiniBand.",
         AnswerKind::answer, "data_movement", "none"},
        {"parallel work, independent calculations", "GPUs are designed for parallel work. Matrix multiplication has lots "
                                                    "of independent calculations so the GPU can do them at the same time.",
         AnswerKind::answer, "independent_outputs,gpu_many_cores", "none"},
        {"more cores, and what they do at once", "its because the gpu has way more cores than the cpu so it can do more "
                                                 "stuff at the same time",
         AnswerKind::answer, "gpu_many_cores", "none"},
        {"one thing against thousands", "the cpu does one thing at a time but the gpu does thousands of things at once",
         AnswerKind::answer, "gpu_many_cores,cpu_few_cores", "none"},
        {"equals signs for verbs", "GPU = many cores = parallel. CPU = few cores = sequential.", AnswerKind::answer,
         "gpu_many_cores,cpu_few_cores", "none"},
        {"hard things in turn, simple things many at a time",
         "CPUs are good at doing complicated things one after another, GPUs are good at doing simple things many at a "
         "time.",
         AnswerKind::answer, "gpu_many_cores,cpu_few_cores", "none"},
        {"cheap cores, and thousands of them on a chip",
         "I think the GPU wins because each core is simple and cheap, so they can fit thousands on the chip, while a CPU "
         "core is big and complex.",
         AnswerKind::answer, "gpu_many_cores,cpu_few_cores", "none"},
        {"a few at once, even with a high clock", "Even a fast CPU with a high clock can only do a few dot products at once.",
         AnswerKind::answer, "cpu_few_cores", "none", "dot_products"},
        {"a lazy half", "A GPU is good because it's parallel.", AnswerKind::answer, "gpu_many_cores", "none"},
        // A reviewer: "... does not matter" earned the wires' idea. Taken back just after, it is not said;
        // a denial of something else ("is not free") leaves it said.
        {"the wires taken back", "A GPU has thousands of cores. Memory bandwidth does not matter.", AnswerKind::answer,
         "gpu_many_cores", "none", "data_movement"},
        {"the link taken back", "A GPU has thousands of cores. The bandwidth of the links isn't important.",
         AnswerKind::answer, "gpu_many_cores", "none", "data_movement"},
        {"the wires not free", "A GPU has thousands of cores. Memory bandwidth is not free, it matters.",
         AnswerKind::answer, "gpu_many_cores,data_movement", "none"},
        {"the GPU is not the CPU", "The GPU doesn't go one neuron at a time like the CPU, it does the whole layer at once.",
         AnswerKind::answer, "gpu_many_cores", "none"},
        {"shouting", "A MATRIX MULTIPLY IS JUST MANY DOT PRODUCTS.", AnswerKind::answer, "dot_products", "none"},
        {"line breaks from the answer box's wrap",
         "A GPU runs them on thousands\nof small cores at once, while a CPU with 16 big\ncores goes mostly one after another.",
         AnswerKind::answer, "gpu_many_cores,cpu_few_cores", "none"},
        {"a bullet list", "- a CPU: a few big cores\n- thousands of small cores on a GPU", AnswerKind::answer,
         "gpu_many_cores,cpu_few_cores", "none"},
        {"neurons that don't talk", "Neurons in the same layer don't talk to each other.", AnswerKind::answer,
         "independent_outputs", "none"},
    };
}

// Nouns without their relation: nothing counts yet, and the hint can say what to add.
std::vector<AnswerCase> near_misses() {
    return {
        {"more cores alone", "GPUs have more cores.", AnswerKind::answer, "none", "none", "gpu_many_cores"},
        {"more cores as the reason", "GPUs are better because they have more cores.", AnswerKind::answer, "none", "none",
         "gpu_many_cores"},
        {"many small cores, doing what?", "GPUs have many small cores.", AnswerKind::answer, "none", "none",
         "gpu_many_cores"},
        {"fewer cores alone", "CPUs have fewer cores.", AnswerKind::answer, "none", "none", "cpu_few_cores"},
        {"independent, but what?", "It's independent.", AnswerKind::answer, "none", "none", "independent_outputs"},
        {"dot products, but of what?", "The dot products are independent.", AnswerKind::answer, "independent_outputs",
         "none", "dot_products"},
        {"batches, and then?", "We use batches.", AnswerKind::answer, "none", "none", "batch_reuse"},
        {"a term from the roofline", "The arithmetic intensity is important.", AnswerKind::answer, "none", "none",
         "batch_reuse"},
        {"far more of them", "GPU cores are not faster than CPU cores; there are simply far more of them.",
         AnswerKind::answer, "none", "none", "gpu_many_cores"},
    };
}

}  // namespace

TEST_CASE("every good answer in the table gets exactly its checklist") {
    test::check_answers(good_answers());
    test::check_answers(batch_and_notation_answers());
}

TEST_CASE("every partial answer in the table gets exactly its checklist") {
    test::check_answers(partial_answers());
    test::check_answers(short_partial_answers());
}

TEST_CASE("a noun without its relation earns nothing yet, and is kept as a near miss") {
    test::check_answers(near_misses());
}
