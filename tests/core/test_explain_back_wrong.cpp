// "Explain it back": wrong answers (each misconception a teacher expects, named with a kind
// correction), right ones that must not be mistaken for them, and answers that try to game the
// checker; each with its exact checklist (a data table; explain_answers.hpp runs it).
#include "explain_answers.hpp"

using namespace m2m;
using core::AnswerKind;
using test::AnswerCase;

namespace {

std::vector<AnswerCase> wrong_answers() {
    return {
        {"clock speed and graphics, from the issue",
         "CPU is better because it has a higher clock speed... GPUs are only for graphics", AnswerKind::answer, "none",
         "clock_speed,graphics_only"},
        {"faster computers with better cores, from the issue", "GPUs are just faster computers with better cores",
         AnswerKind::answer, "none", "gpu_cores_faster,faster_at_everything"},
        {"too short", "Because GPUs are faster.", AnswerKind::answer, "none", "none"},
        {"off the topic", "A GPU is good for graphics and games. A CPU is the brain of the computer.", AnswerKind::answer,
         "none", "none"},
        {"faster GPU cores", "GPU cores are faster than CPU cores, so the GPU wins.", AnswerKind::answer, "none",
         "gpu_cores_faster"},
        {"better cores", "GPU has better cores than CPU.", AnswerKind::answer, "none", "gpu_cores_faster"},
        {"a higher clock", "The GPU has a higher clock speed, so it finishes sooner.", AnswerKind::answer, "none",
         "clock_speed"},
        {"the CPU's clock as the reason", "The CPU has a higher clock speed, so it is better at this.",
         AnswerKind::answer, "none", "clock_speed"},
        {"a frequency, not a clock", "GPU cores run at a higher frequency than CPU cores.", AnswerKind::answer, "none",
         "clock_speed"},
        {"only for games", "GPUs are only good for games and graphics, so I don't think they are better for matrices.",
         AnswerKind::answer, "none", "graphics_only"},
        {"more cores make faster cores", "More cores makes each one faster.", AnswerKind::answer, "none",
         "more_cores_faster_cores"},
        {"thousands of cores, so each is faster",
         "Because GPUs have thousands of cores, each core is faster than a CPU core.", AnswerKind::answer,
         "gpu_many_cores", "more_cores_faster_cores"},
        {"faster at everything", "The GPU is faster at everything.", AnswerKind::answer, "none", "faster_at_everything"},
        {"always faster", "GPUs are always faster than CPUs.", AnswerKind::answer, "none", "faster_at_everything"},
        {"faster at all tasks", "GPUs are faster at all tasks.", AnswerKind::answer, "none", "faster_at_everything"},
        {"one huge calculation", "A GPU can do one huge calculation really fast, a CPU can't.", AnswerKind::answer,
         "none", "one_big_calculation"},
        {"complex maths", "GPUs are good at complex math.", AnswerKind::answer, "none", "one_big_calculation"},
    };
}

std::vector<AnswerCase> wrong_answers_about_the_work() {
    return {
        {"the smarter CPU", "The CPU is the brain of the computer so it is smarter and faster than a GPU.",
         AnswerKind::answer, "none", "cpu_smarter"},
        {"the core counts swapped", "A CPU has more cores than a GPU, so it is better at parallel work.",
         AnswerKind::answer, "none", "cpu_more_cores"},
        {"fewer but stronger GPU cores", "GPUs have fewer but stronger cores.", AnswerKind::answer, "none",
         "gpu_cores_faster,cpu_more_cores"},
        {"more memory", "GPUs have more memory than CPUs, that is why they are better for AI.", AnswerKind::answer,
         "none", "gpu_more_memory"},
        {"bigger memory", "GPUs have bigger memory than CPUs.", AnswerKind::answer, "none", "gpu_more_memory"},
        {"more memory, by a pronoun", "GPUs are great at this because they have more memory.", AnswerKind::answer, "none",
         "gpu_more_memory"},
        {"more RAM for the whole matrix", "A GPU has more RAM so it can hold the whole matrix.", AnswerKind::answer,
         "none", "gpu_more_memory"},
        {"dot products in a chain", "Each dot product depends on the previous one, so they have to be done in order.",
         AnswerKind::answer, "dot_products", "outputs_depend"},
        {"neurons that wait for each other",
         "The neurons in a layer can't be computed at the same time because they need each other's outputs.",
         AnswerKind::answer, "none", "outputs_depend"},
        {"dot products NOT independent", "The dot products are NOT independent, so the GPU has to do them together.",
         AnswerKind::answer, "none", "outputs_depend", "dot_products"},
        {"all layers at once", "All the layers can be computed at the same time on a GPU, because they are independent.",
         AnswerKind::answer, "gpu_many_cores", "layers_in_parallel"},
        {"different layers on different cores", "Different layers run in parallel on different cores.", AnswerKind::answer,
         "none", "layers_in_parallel"},
        {"layers that need nothing", "The layers don't depend on each other, so they can run at once.",
         AnswerKind::answer, "none", "layers_in_parallel"},
        {"every layer at the same time", "The GPU computes every layer at the same time.", AnswerKind::answer,
         "gpu_many_cores", "layers_in_parallel"},
        {"the whole network at once", "The GPU runs the whole network at once.", AnswerKind::answer, "gpu_many_cores",
         "layers_in_parallel"},
    };
}

// Right answers near a misconception's words: a concession, a denial, history, a different noun.
std::vector<AnswerCase> right_answers_near_wrong_words() {
    return {
        {"a slower GPU core, said right", "Each GPU core is actually slower than a CPU core. A GPU just has thousands of them.",
         AnswerKind::answer, "gpu_many_cores", "none"},
        {"slower cores, thousands at once",
         "GPU cores are slower than CPU cores, but there are thousands of them working at once.", AnswerKind::answer,
         "gpu_many_cores", "none"},
        {"the misconception, denied", "GPU cores are not faster than CPU cores; there are simply far more of them.",
         AnswerKind::answer, "none", "none", "gpu_many_cores"},
        {"layers in parallel, denied", "The layers themselves cannot run in parallel: each one waits for the layer before.",
         AnswerKind::answer, "layers_depend", "none"},
        {"a clock conceded", "Even though a CPU has a higher clock speed, the GPU has thousands of cores that work at once.",
         AnswerKind::answer, "gpu_many_cores", "none"},
        {"a clock, but more cores", "CPUs have higher clock speeds so they should be faster, but GPUs have more cores.",
         AnswerKind::answer, "none", "none", "gpu_many_cores"},
        {"a clock that doesn't help", "A CPU has a higher clock speed, but that doesn't help much when there are "
                                      "millions of independent multiplications to do.",
         AnswerKind::answer, "independent_outputs", "none"},
        {"a lower clock, more cores", "The GPU's clock is lower, around 2 GHz, but it makes up for it with thousands of "
                                      "cores.",
         AnswerKind::answer, "gpu_many_cores", "none"},
        {"no faster clock needed", "The GPU doesn't need a faster clock, it just needs more cores.", AnswerKind::answer,
         "none", "none", "gpu_many_cores"},
        {"graphics as history", "GPUs were originally designed for graphics, but their many cores also suit matrix "
                                "multiplication.",
         AnswerKind::answer, "none", "none", "gpu_many_cores"},
        {"not only for graphics", "GPUs are not just for graphics, they are good at anything with lots of independent math.",
         AnswerKind::answer, "independent_outputs", "none"},
        {"made for graphics, like AI", "GPUs are faster because they are made for graphics and AI is like graphics.",
         AnswerKind::answer, "none", "none"},
        {"fast VRAM is right", "GPUs have a lot of VRAM which is really fast.", AnswerKind::answer, "data_movement",
         "none"},
        {"more memory bandwidth is right", "GPUs have more memory bandwidth than CPUs.", AnswerKind::answer,
         "data_movement", "none"},
        {"more memory bandwidth, by a pronoun", "GPUs win because they have more memory bandwidth than CPUs.",
         AnswerKind::answer, "data_movement", "none"},
        {"a big calculation split up", "The GPU splits a big calculation into thousands of small ones and runs them side "
                                       "by side.",
         AnswerKind::answer, "gpu_many_cores", "none"},
        {"better at this, not at everything", "GPUs are better at matrix multiplication, not at everything: a CPU is "
                                              "still better for programs with lots of branches.",
         AnswerKind::answer, "none", "none"},
        {"not faster at everything", "The GPU is not faster at everything, only at work that splits into independent pieces.",
         AnswerKind::answer, "independent_outputs", "none"},
        {"the neurons of a layer need only the layer before",
         "Each neuron in a layer doesn't depend on the other neurons in that layer, only on the outputs of the previous "
         "layer.",
         AnswerKind::answer, "independent_outputs,layers_depend", "none"},
        {"a neuron waits for a layer, not for its neighbours",
         "Each neuron waits for the previous layer, not for the other neurons in its layer.", AnswerKind::answer,
         "independent_outputs,layers_depend", "none"},
        {"numbered layers wait", "Layer 2 has to wait for layer 1.", AnswerKind::answer, "layers_depend", "none"},
        {"numbered layers in words", "Layer two must wait for layer one.", AnswerKind::answer, "layers_depend", "none"},
        {"waits for no other output", "Each output waits for no other output in its layer.", AnswerKind::answer,
         "independent_outputs", "none"},
        {"depends on none of the others", "A neuron depends on none of the other neurons in its layer.",
         AnswerKind::answer, "independent_outputs", "none"},
        {"no, they are independent", "No, each neuron is independent of the others, and the GPU runs them all at once.",
         AnswerKind::answer, "independent_outputs,gpu_many_cores", "none"},
        {"the CPU doesn't", "The CPU doesn't have thousands of cores, it only has a few, so it can't do every dot product "
                            "at once.",
         AnswerKind::answer, "dot_products,cpu_few_cores", "none"},
        {"a negated sentence still names the dot products", "A CPU can't do many dot products at once.",
         AnswerKind::answer, "dot_products,cpu_few_cores", "none"},
        {"unlike the CPU", "Unlike the CPU, which has a handful of cores, the GPU has thousands.", AnswerKind::answer,
         "gpu_many_cores,cpu_few_cores", "none"},
    };
}

// Answers that try to score without explaining: lists of keywords, the question, denials.
std::vector<AnswerCase> gamed_answers() {
    return {
        {"a bare keyword list, from the issue",
         "dot products independent thousands cores parallel few cores sequential layers memory bandwidth",
         AnswerKind::keyword_list, "none", "none"},
        {"keywords between commas", "dot products, independent, thousands of cores, parallel, few cores, sequential, "
                                    "layers, memory bandwidth, batch",
         AnswerKind::keyword_list, "none", "none"},
        {"keywords with a few phrases", "matrix multiply dot products, independent, GPU thousands of cores, CPU few "
                                        "cores, layers, bandwidth",
         AnswerKind::keyword_list, "gpu_many_cores,cpu_few_cores", "none"},
        {"keywords as bullets", "- dot products\n- independent\n- GPU: thousands of cores\n- CPU: few cores\n- memory "
                                "bandwidth",
         AnswerKind::keyword_list, "gpu_many_cores,cpu_few_cores", "none"},
        {"keywords on lines of their own", "dot products\nparallel\ncores\nmemory", AnswerKind::keyword_list, "none",
         "none"},
        {"keywords as one-word sentences", "Dot products. Independent. Thousands of cores. Few cores. Layers. Memory "
                                           "bandwidth. Batch.",
         AnswerKind::keyword_list, "none", "none"},
        {"keywords joined by 'and' (two ideas hold up)",
         "The answer is dot products and independent and thousands of cores and few cores and layers depend and memory "
         "bandwidth and batch reuse.",
         AnswerKind::answer, "independent_outputs,data_movement", "none", "dot_products,batch_reuse"},
        {"keywords said three times", "GPU GPU GPU parallel parallel parallel cores cores cores dot product dot product "
                                      "independent",
         AnswerKind::keyword_list, "none", "none"},
        {"hyphens and odd punctuation", "dot-products!!! multiply\xe2\x80\x93" "add; layer-by-layer...",
         AnswerKind::keyword_list, "layers_depend", "none"},
        {"two labels", "GPUs = fast. CPUs = slow.", AnswerKind::keyword_list, "none", "none"},
        {"the question copied back", std::string(core::explain_question()), AnswerKind::answer, "none", "none"},
        {"the model answer's words, each denied",
         "A matrix multiply is nothing more than a large pile of dot products. No neuron is independent. The GPU does not "
         "have thousands of small cores. The CPU does not go one after another.",
         AnswerKind::answer, "dot_products", "outputs_depend"},
        {"every idea denied", "A matrix multiply is not dot products and the neurons are not independent and GPUs do not "
                              "run them at once.",
         AnswerKind::answer, "none", "outputs_depend"},
        {"one word", "idk", AnswerKind::answer, "none", "none"},
    };
}

}  // namespace

TEST_CASE("every wrong answer in the table names its misconceptions") {
    test::check_answers(wrong_answers());
    test::check_answers(wrong_answers_about_the_work());
}

TEST_CASE("a right answer near a misconception's words is not called wrong") {
    test::check_answers(right_answers_near_wrong_words());
}

TEST_CASE("a keyword list, the question or a denial earns little") { test::check_answers(gamed_answers()); }
