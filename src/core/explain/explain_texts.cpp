// "Explain it back": the question, the model answer, and the checklist's ideas and misconceptions
// in words (two tables: one row per idea, one per misconception with its gentle correction).
#include <algorithm>
#include <array>

#include "m2m/core/explain/explain_back.hpp"

namespace m2m::core {

std::string_view explain_question() {
    return "Why is a matrix multiply the perfect job for a GPU, and a bad fit for a CPU?";
}

std::string_view explain_model_answer() {
    return "A matrix multiply is nothing more than a large pile of dot products: every number in the result "
           "is one row of the first matrix multiplied, pair by pair, with one column of the second, and the "
           "products added up. In a layer of a network each of those dot products is one neuron, and no "
           "neuron needs anything from its neighbours in the same layer, only the numbers that came out of the "
           "layer before. So every dot product of a layer can be worked on at the same moment. A GPU is built "
           "for exactly that: thousands of small, simple cores that take a whole layer at once. A CPU has a "
           "few big, clever cores, so the same dot products queue up and go through a handful at a time, "
           "mostly one after another. Order matters in one place only: between layers, because a layer can "
           "start only when the one before it has finished. And cores are only as fast as the numbers can "
           "reach them: the weights stream in from memory, and between GPUs over links such as NVLink, so "
           "memory bandwidth and moving data decide much of the speed too. That is why inputs go through in "
           "batches. One input at a time, each weight is fetched from memory to be used once, and memory sets "
           "the pace. A batch of 256 inputs turns the layer's matrix-vector product into a matrix-matrix "
           "product: each weight read from memory serves all 256 inputs, so the work done per byte moved (the "
           "arithmetic intensity) grows with the batch until the cores, not the memory, set the pace, and that "
           "is where the GPU's thousands of cores pay off.";
}

namespace {

struct IdeaText {
    std::string_view id, title, hint, relation;
};
constexpr std::array<IdeaText, explain_idea_count> idea_texts{{
    {"dot_products", "A matrix multiply is many dot products",
     "Say what a matrix multiply breaks into: each number of the result is a row times a column, "
     "multiplied pair by pair and added up.",
     "Say what the dot products make up: a matrix multiply, or a layer, is many of them, one for each number "
     "of the result."},
    {"independent_outputs", "Each output is independent of the others in its layer",
     "Does a neuron have to wait for its neighbours in the same layer? Say why not needing each "
     "other's results matters.",
     "Say what is independent of what: each neuron (each dot product) of a layer needs nothing from the "
     "others in that layer."},
    {"gpu_many_cores", "A GPU has thousands of small cores that run them at once",
     "Describe the GPU's side: how many cores it has, and what they do with all those dot products at the "
     "same moment.",
     "Say how many cores a GPU has (thousands) and what they do with the dot products: take them all at the "
     "same moment."},
    {"cpu_few_cores", "A CPU has a few big cores that go mostly one after another",
     "Describe the CPU's side: only a handful of strong cores, so the dot products queue up and take turns.",
     "Say how few cores a CPU has (a handful of big ones) and what follows: the dot products queue up and go "
     "mostly one after another."},
    {"layers_depend", "Only the layers depend on each other",
     "Where does waiting happen? Say which part of the network has to go in order, and why.",
     "Say which part has to wait, and for what: each layer needs the outputs of the layer before it."},
    {"data_movement", "Moving the numbers matters too",
     "Cores only help if the weights reach them in time: mention memory bandwidth, or the links that "
     "carry numbers between chips.",
     "Say what has to move and why it matters: the weights stream in from memory, and the cores wait when "
     "they come too slowly."},
    {"batch_reuse", "A batch reuses each weight: a vector product becomes a matrix product",
     "What changes when many inputs go through a layer together? Say how many inputs each weight read from "
     "memory then serves, and what that does to the work done per byte (the arithmetic intensity).",
     "Say what a batch does to each weight: read from memory once, it serves every input of the batch, so "
     "the work done per byte grows with the batch."},
}};

struct MisconceptionText {
    std::string_view id, note;
};
constexpr std::array<MisconceptionText, misconception_count> misconception_texts{{
    {"clock_speed",
     "Clock speed is not what decides this one. A CPU core does tick faster than a GPU core, but a matrix "
     "multiply is won by how many multiply-adds the whole chip does in each tick, and thousands of slower GPU "
     "cores together do far more of them than a few fast ones."},
    {"graphics_only",
     "GPUs began as graphics chips, and that is a clue rather than a limit: drawing a picture is thousands of "
     "small, independent sums, one per pixel. A layer of dot products has the same shape, which is why the "
     "same chips now run most of AI."},
    {"gpu_cores_faster",
     "Careful: one GPU core is not faster or better than one CPU core; it is usually slower and simpler. "
     "The GPU wins by having thousands of them working at the same time."},
    {"more_cores_faster_cores",
     "More cores do not make any one core faster: each core keeps its own speed. What more cores buy is more "
     "dot products at the same moment, so the whole layer finishes sooner."},
    {"faster_at_everything",
     "Not at everything: a GPU shines when a job splits into many independent pieces. Work that must go step "
     "by step, or a job so small that starting the GPU takes longer than the work, is often faster on a CPU."},
    {"one_big_calculation",
     "A GPU does not do one big or complicated calculation faster; its cores are simple. It wins when the "
     "work splits into thousands of small, alike pieces, such as the dot products of a layer, and does them "
     "side by side."},
    {"cpu_smarter",
     "The CPU's cores are indeed the cleverer ones: they guess branches and reorder work on the fly. But a "
     "matrix multiply needs no cleverness, only the same multiply-add again and again, so many simple cores "
     "doing it at once beat a few clever ones."},
    {"cpu_more_cores",
     "Check the core counts: a CPU has a few to a few dozen cores, a GPU thousands. The CPU's cores "
     "are the bigger ones, not the more numerous."},
    {"gpu_more_memory",
     "Memory size is not the GPU's edge: a server CPU can usually hold far more memory than a GPU. What the "
     "GPU has is faster memory, able to keep thousands of cores fed, and that is what a big layer needs."},
    {"outputs_depend",
     "Within one layer the dot products do not wait for each other: each needs only the layer's inputs and "
     "its own row of weights. The waiting happens between layers, which is why a whole layer can run at once."},
    {"layers_in_parallel",
     "Not quite: the layers cannot all run at once, because each one needs the outputs of the layer "
     "before it. It is the neurons inside one layer that can."},
}};

}  // namespace

std::string_view explain_idea_id(ExplainIdea idea) { return idea_texts[static_cast<std::size_t>(idea)].id; }
std::string_view explain_idea_title(ExplainIdea idea) { return idea_texts[static_cast<std::size_t>(idea)].title; }
std::string_view explain_idea_hint(ExplainIdea idea) { return idea_texts[static_cast<std::size_t>(idea)].hint; }
std::string_view explain_idea_relation_hint(ExplainIdea idea) {
    return idea_texts[static_cast<std::size_t>(idea)].relation;
}
std::string_view misconception_id(Misconception m) { return misconception_texts[static_cast<std::size_t>(m)].id; }
std::string_view misconception_note(Misconception m) { return misconception_texts[static_cast<std::size_t>(m)].note; }

std::size_t ExplainFeedback::found_count() const {
    return static_cast<std::size_t>(std::count_if(ideas.begin(), ideas.end(), [](const IdeaCheck& c) { return c.found; }));
}
bool ExplainFeedback::found(ExplainIdea idea) const {
    return std::any_of(ideas.begin(), ideas.end(), [&](const IdeaCheck& c) { return c.idea == idea && c.found; });
}
bool ExplainFeedback::has(Misconception m) const {
    return std::any_of(misconceptions.begin(), misconceptions.end(), [&](const MisconceptionCheck& c) { return c.which == m; });
}

std::string explain_idea_line(const IdeaCheck& c) {
    constexpr std::string_view open = "\xe2\x80\x9c", close = "\xe2\x80\x9d";  // curly quotes
    if (c.found) return "you wrote " + std::string(open) + c.evidence + std::string(close);
    if (!c.near_miss.empty())
        return "You wrote " + std::string(open) + c.near_miss + std::string(close) + ". " +
               std::string(explain_idea_relation_hint(c.idea));
    return "Hint: " + std::string(explain_idea_hint(c.idea));
}

std::string found_ids(const ExplainFeedback& f) {
    std::string out;
    for (const auto& c : f.ideas)
        if (c.found) out += (out.empty() ? "" : ",") + std::string(explain_idea_id(c.idea));
    return out.empty() ? "none" : out;
}

std::string misconception_ids(const ExplainFeedback& f) {
    std::string out;
    for (const auto& c : f.misconceptions) out += (out.empty() ? "" : ",") + std::string(misconception_id(c.which));
    return out.empty() ? "none" : out;
}

}  // namespace m2m::core
