// "Explain it back": an answer checked for the ideas and the misconceptions, each found with the
// student's own words as evidence, what kind of answer it is, and a summary of the whole.
#include "explain_parts.hpp"

#include "m2m/core/engine/text.hpp"

namespace m2m::core {

namespace {

using namespace explain_detail;

std::string of_the_ideas(std::size_t n) {
    return format_count_word(static_cast<std::int64_t>(n)) + " of the " +
           format_count_word(static_cast<std::int64_t>(explain_idea_count)) + " ideas";
}

std::string summary_of(const ExplainFeedback& f) {
    const std::size_t n = f.found_count();
    switch (f.kind) {
        case AnswerKind::empty: return "Nothing to check yet: write a few sentences in the box, then press Submit.";
        case AnswerKind::no_words: return "There are no words here to check yet: explain it in a few sentences, then press Submit.";
        case AnswerKind::not_english:
            return "This answer seems to be written in another language. The checker only reads English for now, "
                   "so it may have missed ideas you did write.";
        case AnswerKind::keyword_list:
            return "This reads like a list of keywords, and a list earns little: an idea counts only when a sentence "
                   "says how its words connect, such as what is independent of what, or which machine has which "
                   "cores. " +
                   (n == 0 ? std::string("Try joining the words into a few sentences.")
                           : "The parts written as sentences show " + of_the_ideas(n) + ".");
        case AnswerKind::answer: break;
    }
    if (n == explain_idea_count)
        return "All " + format_count_word(static_cast<std::int64_t>(n)) +
               " ideas are there. Compare your wording with the model answer if you like.";
    const bool near = std::any_of(f.ideas.begin(), f.ideas.end(), [](const IdeaCheck& c) { return !c.near_miss.empty(); });
    const std::string named =
        near ? " Some words are there without what they connect to; the hints say what to add." : "";
    if (n == 0)
        return "None of the " + format_count_word(static_cast<std::int64_t>(explain_idea_count)) +
               " ideas showed up yet. Start with what a matrix multiply is made of, then say what each machine does "
               "with it." + named;
    return std::string(n >= 4 ? "A strong answer" : "A good start") + ": " + of_the_ideas(n) + "." +
           (near ? named : " The hints below point to what is missing.");
}

AnswerKind kind_of(const Reading& r, const Style& style) {
    if (!r.has_content) return AnswerKind::empty;
    if (r.ascii_letters == 0 && r.foreign_letters == 0) return AnswerKind::no_words;
    if (r.foreign_letters >= 4 && r.foreign_letters >= r.ascii_letters) return AnswerKind::not_english;
    if (style.foreign_prose) return AnswerKind::not_english;
    if (style.keyword_list) return AnswerKind::keyword_list;
    return AnswerKind::answer;
}

}  // namespace

ExplainFeedback grade_answer(std::string_view answer) {
    const Reading r = read_answer(answer);
    const Cues& c = cues();
    Matcher m(r, c);
    // The machines are named wherever they are, even in a list ("GPU: thousands of small cores");
    // what is said of them counts only in sentences.
    std::vector<Mention> mentions = machine_mentions(m, c);
    const Style style = writing_style(r, m.table());
    if (style.keyword_list) m.mask(style.bare);
    const Evidence e{answer.substr(0, r.read_bytes), c, m, std::move(mentions)};

    ExplainFeedback f;
    f.truncated = r.truncated;
    f.words = style.words;
    const std::vector<Finding> found = find_ideas(e);
    for (std::size_t i = 0; i < explain_idea_count; ++i)
        f.ideas.push_back({static_cast<ExplainIdea>(i), found[i].evidence.has_value(), found[i].evidence.value_or(""),
                           found[i].evidence ? "" : found[i].near_miss.value_or("")});
    f.misconceptions = find_misconceptions(e);
    f.kind = kind_of(r, style);
    f.summary = summary_of(f);
    if (style.copied_model)
        f.notes.push_back("Much of this is the model answer, word for word. The checklist counts it, but the point is "
                          "to say it in your own words: try again without looking.");
    if (f.truncated)
        f.notes.push_back("Only the first " + format_count(static_cast<std::int64_t>(explain_max_answer_chars)) +
                          " characters were read; a good answer fits in one paragraph.");
    return f;
}

}  // namespace m2m::core
