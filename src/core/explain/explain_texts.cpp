// "Explain it back": the question, the model answer, and the checklist's ideas and misconceptions
// in words (a table: one row per idea).
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
           "memory bandwidth and moving data decide much of the speed too.";
}

namespace {

struct IdeaText {
    std::string_view id, title, hint;
};
constexpr std::array<IdeaText, explain_idea_count> idea_texts{{
    {"dot_products", "A matrix multiply is many dot products",
     "Say what a matrix multiply breaks into: each number of the result is a row times a column, "
     "multiplied pair by pair and added up."},
    {"independent_outputs", "Each output is independent of the others in its layer",
     "Does a neuron have to wait for its neighbours in the same layer? Say why not needing each "
     "other's results matters."},
    {"gpu_many_cores", "A GPU has thousands of small cores that run them at once",
     "Describe the GPU's side: how many cores it has, and what they do with all those dot products at the "
     "same moment."},
    {"cpu_few_cores", "A CPU has a few big cores that go mostly one after another",
     "Describe the CPU's side: only a handful of strong cores, so the dot products queue up and take turns."},
    {"layers_depend", "Only the layers depend on each other",
     "Where does waiting happen? Say which part of the network has to go in order, and why."},
    {"data_movement", "Moving the numbers matters too",
     "Cores only help if the weights reach them in time: mention memory bandwidth, or the links that "
     "carry numbers between chips."},
}};

struct MisconceptionText {
    std::string_view id, note;
};
constexpr std::array<MisconceptionText, 3> misconception_texts{{
    {"gpu_cores_faster",
     "Careful: one GPU core is not faster than one CPU core; it is usually slower and simpler. "
     "The GPU wins by having thousands of them working at the same time."},
    {"cpu_more_cores",
     "Check the core counts: a CPU has a few to a few dozen cores, a GPU thousands. The CPU's cores "
     "are the bigger ones, not the more numerous."},
    {"layers_in_parallel",
     "Not quite: the layers cannot all run at once, because each one needs the outputs of the layer "
     "before it. It is the neurons inside one layer that can."},
}};

}  // namespace

std::string_view explain_idea_id(ExplainIdea idea) { return idea_texts[static_cast<std::size_t>(idea)].id; }
std::string_view explain_idea_title(ExplainIdea idea) { return idea_texts[static_cast<std::size_t>(idea)].title; }
std::string_view explain_idea_hint(ExplainIdea idea) { return idea_texts[static_cast<std::size_t>(idea)].hint; }
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
