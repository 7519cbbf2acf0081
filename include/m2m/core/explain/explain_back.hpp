// "Explain it back": a free-text answer checked for the lesson's key ideas, and the student's own runs in words.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "m2m/core/layers/layer_run.hpp"
#include "m2m/core/engine/text.hpp"

namespace m2m::core {

// --- the question and its ideas ----------------------------------------------------------------

std::string_view explain_question();
/// A complete answer in the app's own words, shown when the student asks for it.
std::string_view explain_model_answer();

/// The key ideas a good answer mentions, in the order the checklist shows them.
enum class ExplainIdea {
    dot_products,         ///< a matrix multiply is many dot products (multiply, then add up)
    independent_outputs,  ///< each output (each neuron) of a layer needs nothing from the others
    gpu_many_cores,       ///< a GPU has thousands of small cores that run them at once
    cpu_few_cores,        ///< a CPU has a few big cores that go (mostly) one after another
    layers_depend,        ///< only the layers depend on each other (layer by layer)
    data_movement,        ///< moving the numbers matters too (memory bandwidth, links)
    batch_reuse,          ///< a batch turns a vector product into a matrix product: each weight read serves B inputs
};
inline constexpr std::size_t explain_idea_count = 7;
std::string_view explain_idea_id(ExplainIdea idea);     ///< "dot_products", ... (logs and tests)
std::string_view explain_idea_title(ExplainIdea idea);  ///< the checklist line
std::string_view explain_idea_hint(ExplainIdea idea);   ///< one line that points at a missing idea
/// What to add when the answer named the idea's noun without its relation ("more cores" without
/// how many or what they do at once; "independent" without what is independent of what).
std::string_view explain_idea_relation_hint(ExplainIdea idea);

/// Common wrong ideas the checker notices, each answered with a kind correction.
enum class Misconception {
    clock_speed,              ///< "the CPU (or the GPU) wins because of its higher clock speed"
    graphics_only,            ///< "GPUs are only for graphics"
    gpu_cores_faster,         ///< "each GPU core is faster (better, stronger) than a CPU core"
    more_cores_faster_cores,  ///< "more cores make each core faster"
    faster_at_everything,     ///< "a GPU is just a faster computer", "faster at everything"
    one_big_calculation,      ///< "a GPU does one big (or complex) calculation faster"
    cpu_smarter,              ///< "the CPU is smarter, so it is faster"
    cpu_more_cores,           ///< "the CPU has more cores" / "the GPU has fewer cores"
    gpu_more_memory,          ///< "GPUs have more memory"
    outputs_depend,           ///< "the dot products of a layer depend on each other"
    layers_in_parallel,       ///< "all the layers run at once"
};
inline constexpr std::size_t misconception_count = 11;
std::string_view misconception_id(Misconception m);
std::string_view misconception_note(Misconception m);

// --- checking an answer ------------------------------------------------------------------------

enum class AnswerKind {
    empty,         ///< nothing but white space
    no_words,      ///< symbols or emoji only
    not_english,   ///< mostly another language (the checker reads English only)
    keyword_list,  ///< mostly words without sentences: only what is said in a sentence counts
    answer,        ///< an English answer, checked
};

struct IdeaCheck {
    ExplainIdea idea = ExplainIdea::dot_products;
    bool found = false;
    std::string evidence;   ///< the student's own words that showed the idea, e.g. "thousands of small cores"
    std::string near_miss;  ///< when not found: words that named the idea without its relation ("more cores")
};

struct MisconceptionCheck {
    Misconception which = Misconception::gpu_cores_faster;
    std::string evidence;  ///< the words that suggested it
};

struct ExplainFeedback {
    AnswerKind kind = AnswerKind::empty;
    bool truncated = false;   ///< longer than explain_max_answer_chars: only the start was read
    std::size_t words = 0;    ///< words in Latin letters that were read
    std::vector<IdeaCheck> ideas;  ///< every idea, in ExplainIdea order
    std::vector<MisconceptionCheck> misconceptions;
    std::string summary;      ///< one or two sentences on the whole answer
    std::vector<std::string> notes;  ///< about the reading itself: truncated, another language

    std::size_t found_count() const;
    bool found(ExplainIdea idea) const;
    bool has(Misconception m) const;
};

/// Characters (code points) read from an answer; the rest is ignored and reported. Keeps the
/// check linear and bounded however much is pasted in.
inline constexpr std::size_t explain_max_answer_chars = 20000;

/// Checks `answer` (UTF-8; invalid bytes are read as separators) for the ideas and the
/// misconceptions. Words are matched with their plurals, in any letter case, through synonyms
/// and phrasings, and with one slip of the keyboard in longer words ("paralel", "bandwith").
/// An idea counts only with its relation (what is independent of what, which machine has which
/// cores), never when denied ("not independent"), and never from a bare list of keywords.
ExplainFeedback grade_answer(std::string_view answer);

/// The line the checklist shows under an idea's title: the student's words when found ("you wrote
/// “thousands of small cores”"), the words that came close and what to add when only the noun was
/// there ("You wrote “more cores”. Say how many ..."), else the hint.
std::string explain_idea_line(const IdeaCheck& check);

/// Comma-separated ids of the ideas found, in order ("dot_products,gpu_many_cores"), or "none".
std::string found_ids(const ExplainFeedback& feedback);
/// Comma-separated ids of the misconceptions, or "none".
std::string misconception_ids(const ExplainFeedback& feedback);

// --- facts from the student's own runs -----------------------------------------------------------

/// A Lesson 1 run the student played to its end.
struct LayerRunFact {
    std::vector<int> widths;     ///< inputs, hidden layers, outputs
    bool hardware = false;       ///< hardware timing (else lesson timing)
    std::string cpu_name, gpu_name;
    std::uint32_t cpu_cores = 0, gpu_cores = 0;
    double speedup = 0;          ///< CPU time / GPU time
    int batch = 1;               ///< inputs run through the network together (hardware timing)
    std::string precision = "FP32";  ///< the number format both machines ran: "FP32", "BF16", "FP8"
    bool operator==(const LayerRunFact&) const = default;
};

/// A Lesson 2 tensor send.
struct TransferFact {
    std::string link;            ///< the route's slowest link: "NVLink", "InfiniBand", "PCIe"
    double bytes = 0;
    double time_s = 0;
    double relative_time = 0;    ///< time / the same bytes between two GPUs of one node (1 inside a node)
    bool operator==(const TransferFact&) const = default;
};

/// A Lesson 3 split of the network and what it exchanged in one training step.
struct SplitFact {
    std::string strategy;        ///< as the lesson names it: "data parallel", "tensor parallel", ...
    int gpus = 0;
    double wire_bytes = 0;  ///< on the wires per training step (what the guess is about)
    bool operator==(const SplitFact&) const = default;
};

using RunFact = std::variant<LayerRunFact, TransferFact, SplitFact>;

/// The fact Lesson 1 records for a setup and its result.
LayerRunFact layer_run_fact(const LayerRunSetup& setup, const LayerRunResult& result);

/// The student's runs in a few sentences, Lesson 1 first, each from the latest facts:
/// "In your Lesson 1 run with 512-wide layers the GPU finished 85× sooner than the CPU (...)."
/// Lesson 1 adds how the lead grew with width, and with batch when the same chips and network ran
/// at two batches ("at batch 1 the GPU was 2.6× sooner, at batch 1,024 it was 60× sooner").
/// At most three sentences for Lesson 1, one for each other lesson; empty when there are no facts.
std::vector<std::string> run_fact_sentences(std::span<const RunFact> facts);

}  // namespace m2m::core
