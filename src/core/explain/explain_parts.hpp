// What the parts of the "Explain it back" checker share, inside the core only: the answer read as
// words, phrase patterns and the cues built from them, a matcher, which machine a phrase is about,
// and how the answer is written (sentences or a list of keywords).
//
// [SECTION] the answer as words   [SECTION] phrase patterns   [SECTION] the cues
// [SECTION] matching   [SECTION] how it is written   [SECTION] which machine
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "m2m/core/explain/explain_back.hpp"

namespace m2m::core::explain_detail {

// [SECTION] the answer as words (explain_reading.cpp) -------------------------------------------

/// One word of the answer: lower-case ASCII letters and digits, apostrophes dropped
/// ("don't" -> "dont"), with where it sits in the original text.
struct Token {
    std::string raw;        ///< as written, lower-cased
    std::string base;       ///< plural dropped: "cores" -> "core", "dependencies" -> "dependency"
    bool number = false;
    double value = 0;
    int sentence = 0;
    bool clause_break = false;       ///< a comma, colon, bracket or dash comes just before it
    std::size_t begin = 0, end = 0;  ///< bytes in the answer
};

struct Reading {
    std::vector<Token> tokens;
    std::size_t read_bytes = 0;      ///< bytes read (up to the character cap)
    bool truncated = false;
    bool has_content = false;        ///< anything but white space
    std::size_t ascii_letters = 0;
    std::size_t foreign_letters = 0; ///< letters of other scripts (Greek, Cyrillic, CJK, ...)
};

/// Reads at most explain_max_answer_chars code points of `answer` into words and sentences.
Reading read_answer(std::string_view answer);
/// The word without a plural ending: "cores" -> "core", "dependencies" -> "dependency".
std::string plural_base(const std::string& word);

// [SECTION] phrase patterns (explain_patterns.cpp) ------------------------------------------------
//
// A pattern is written as words separated by spaces: "thousand|many ~3 core|thread". Each word
// may list alternatives with '|'; "stem*" matches any word that begins with the stem; "~N"
// allows up to N other words before the next one. A plain word matches its plural too, and a
// word of six letters or more also matches with one slip (a letter missing, extra, wrong or two
// swapped); "=word" matches exactly that spelling. Special words: NEG (not, no, never, don't,
// ...), BIGNUM (a number of 100 or more), SMALLNUM (1 to 64); "@gpu" and "@cpu" stand for the
// words that name each machine, "@corew" for the words for a core. A phrase never spans two
// sentences.

enum class AltKind { word, exact, prefix, neg, big_number, small_number };

struct Alt {
    AltKind kind = AltKind::word;
    std::string text;
    bool operator==(const Alt&) const = default;
};

struct Element {
    std::vector<std::uint16_t> alts;  // vocabulary ids
    int gap = 0;                      // other words allowed before this element
};

struct Pattern {
    std::vector<Element> elements;
    bool negatable = true;  // a NEG in the clause just before or inside the match cancels it
};

/// A pattern list with optional guards, for one kind of cue.
struct Cue {
    std::vector<Pattern> patterns;
    std::vector<std::uint16_t> not_after;       // the word just before the match must not be one of these
    std::vector<std::uint16_t> not_before;      // nor the word just after it
    std::vector<std::uint16_t> reject_in_span;  // nor may any of these appear inside the match
    std::vector<std::uint16_t> reject_near;     // nor within `near_window` words of it in its sentence
    bool negatable = true;                      // false: "can't do many dot products at once" still names them
};

struct Vocabulary {
    std::vector<Alt> alts;
    std::uint16_t intern(const Alt& a) {
        for (std::size_t i = 0; i < alts.size(); ++i)
            if (alts[i] == a) return static_cast<std::uint16_t>(i);
        alts.push_back(a);
        return static_cast<std::uint16_t>(alts.size() - 1);
    }
};

/// The guards of a cue, each a '|'-separated word list (macros allowed).
struct Guards {
    std::string_view not_after = {}, reject_in_span = {}, not_before = {}, reject_near = {};
};

/// A cue from pattern specs and its guards.
Cue cue(Vocabulary& v, std::initializer_list<std::string_view> specs, const Guards& guards = {});
/// The old shorthand: the words that may not come just before a match, and those not inside it.
inline Cue cue(Vocabulary& v, std::initializer_list<std::string_view> specs, std::string_view not_after,
               std::string_view reject_in_span = {}) {
    return cue(v, specs, Guards{not_after, reject_in_span, {}, {}});
}
bool is_negation(std::string_view word);
/// Words that end the reach of a negation: "not fast, but ...", "doesn't wait and runs at once".
bool ends_negation_scope(std::string_view word);

// [SECTION] the cues (explain_cues.cpp, explain_cues_wrong.cpp) ----------------------------------

/// Every cue of the checker, compiled once.
struct Cues {
    Vocabulary vocab;
    Cue gpu, cpu, core_word;
    // The GPU's side: counts of cores strong enough alone ("thousands of cores") and weak ones that
    // need "at once" beside them ("more cores"), doing things at once, and the loose count words.
    Cue many_cores, more_cores, parallel, many_word, more_word;
    Cue few_cores, fewer_cores, sequential, few_word;
    Cue dot_products, dot_noun, dot_whole, dot_whole_after, doing_word, independent, independent_thing;
    Cue layer_order, layer_word, depend_word, order_word, data_movement, data_noun, data_matters, data_weighs;
    Cue reuse, reuse_noun;
    // Misconceptions, in Misconception order.
    Cue clock, graphics, gpu_faster, cpu_slower, more_cores_faster, faster_everything, big_calculation, smarter,
        cpu_more, gpu_fewer, more_memory, outputs_depend, layers_parallel, layers_independent;
};

/// The checker's cues, built on first use.
const Cues& cues();
void add_misconception_cues(Cues& k);

// [SECTION] matching (explain_patterns.cpp) -------------------------------------------------------

/// Which vocabulary entries each distinct word matches, computed once per distinct word.
class MatchTable {
public:
    MatchTable(const Vocabulary& v, const std::vector<Token>& tokens);
    bool has(std::size_t token, std::uint16_t alt) const {
        const std::size_t row = m_row[token];
        return (m_bits[row * m_words + alt / 64] >> (alt % 64)) & 1u;
    }
    /// The word is one the checker knows (it matches some entry): a sign of an English answer.
    bool known(std::size_t token) const { return m_known[m_row[token]]; }

private:
    std::size_t m_words;
    std::vector<std::uint64_t> m_bits;
    std::vector<std::size_t> m_row;
    std::vector<bool> m_known;
};

/// Where a cue matched: tokens [begin, end).
struct Span {
    std::size_t begin = 0, end = 0;
    int sentence = 0;
};

/// Whether a match stands as written or was denied ("not independent", "the CPU can't ... at once").
enum class Polarity { affirmed, denied };

class Matcher {
public:
    Matcher(const Reading& r, const Cues& c) : m_tokens(r.tokens), m_table(c.vocab, r.tokens) {}

    /// Every place where `c` matches with `polarity`, in reading order (at most one match per
    /// starting word), leaving out words masked as a bare list of keywords.
    std::vector<Span> find(const Cue& c, Polarity polarity = Polarity::affirmed) const;
    /// Whether any single-word alternative of `words` sits within `before` words before `s` or
    /// `after` words after it, in its sentence.
    bool near(const Span& s, const Cue& words, std::size_t before, std::size_t after) const;
    /// A negation in the clause just before `s` with none of `unless` between them: "is not dot
    /// products" denies what a matrix multiply is made of, "can't do many dot products" does not.
    bool denied_before(const Span& s, const Cue& unless) const;
    /// "Memory bandwidth does not matter": a negation in the words just after the span, in its
    /// clause, with one of `weighs` ("matter", "limit", "important") right after it.
    bool denied_after(const Span& s, const Cue& weighs) const;
    /// Marks the words that sit in bare lists of keywords: matches that touch them are not found.
    void mask(std::vector<bool> bare) { m_bare = std::move(bare); }

    const std::vector<Token>& tokens() const { return m_tokens; }
    const MatchTable& table() const { return m_table; }

private:
    bool token_is(std::size_t i, const std::vector<std::uint16_t>& alts) const {
        return std::any_of(alts.begin(), alts.end(), [&](std::uint16_t a) { return m_table.has(i, a); });
    }
    std::optional<std::size_t> match(const Pattern& p, std::size_t k, std::size_t pos, std::size_t first) const;
    bool guarded(const Cue& c, std::size_t begin, std::size_t end) const;
    bool negated(std::size_t begin, std::size_t end) const;

    const std::vector<Token>& m_tokens;
    MatchTable m_table;
    std::vector<bool> m_bare;
};

// [SECTION] how it is written (explain_style.cpp) ------------------------------------------------

/// How the answer is written: the share of English connecting words ("the", "of", "has", "so"),
/// of words the checker knows, the words that sit in bare fragments (a run of words between
/// commas or full stops with hardly a connecting word: "dot products, independent, cores"), and
/// whether it is the model answer pasted in.
struct Style {
    std::size_t words = 0, connecting = 0, known = 0;
    bool keyword_list = false;  ///< at least half the words sit in bare fragments
    bool foreign_prose = false; ///< long, with almost no English connecting word and few known words
    bool copied_model = false;  ///< mostly the model answer's own words, pasted
    std::vector<bool> bare;     ///< per token: in a bare fragment
};

Style writing_style(const Reading& r, const MatchTable& table);

// [SECTION] which machine (explain_machines.cpp) --------------------------------------------------
//
// "GPUs have thousands of cores while a CPU has a few": each count belongs to the machine named
// nearest to it in its sentence, preferring the one named before it (the sentence's subject);
// a sentence that names neither ("It has thousands of cores.") refers to the last machine named
// in the sentence before. Only machines within `window` words are weighed, so a run-on answer
// costs linear time.

enum class Machine { none, cpu, gpu };

struct Mention {
    Span span;
    Machine machine;
    bool compared = false;  ///< "... than a CPU": the object of a comparison, rarely what follows is about
};

std::vector<Mention> machine_mentions(const Matcher& m, const Cues& c);
/// The machine phrase `s` is about, or nullptr.
const Mention* machine_of(const std::vector<Token>& t, const std::vector<Mention>& mentions, const Span& s);

inline const Span& span_of(const Span& s) { return s; }
inline const Span& span_of(const Mention& m) { return m.span; }
/// The first item of `v` (sorted by span.begin) whose span begins at or after `token`.
template <class T>
typename std::vector<T>::const_iterator first_from(const std::vector<T>& v, std::size_t token) {
    return std::partition_point(v.begin(), v.end(), [&](const T& x) { return span_of(x).begin < token; });
}

/// The first item of `v` (sorted by span.begin) in sentence `sentence` or later.
template <class T>
typename std::vector<T>::const_iterator first_in_sentence(const std::vector<T>& v, int sentence) {
    return std::partition_point(v.begin(), v.end(), [&](const T& x) { return span_of(x).sentence < sentence; });
}

// [SECTION] finding the ideas and the misconceptions (explain_ideas.cpp, explain_wrong.cpp) -------

/// The student's words for an idea, or for its noun without the relation.
struct Finding {
    std::optional<std::string> evidence, near_miss;
};

/// What the finders share: the answer, the matcher and who each phrase is about.
struct Evidence {
    std::string_view answer;
    const Cues& c;
    const Matcher& m;
    std::vector<Mention> mentions;

    std::string quote(const Span& s) const;
    /// The phrase together with the machine it is about, when they sit close.
    std::string quote(const Span& s, const Mention& who) const;
    Machine machine(const Span& s) const {
        const Mention* who = machine_of(m.tokens(), mentions, s);
        return who ? who->machine : Machine::none;
    }
    static bool sentence_has(const std::vector<Span>& spans, int sentence) {
        const auto it = first_in_sentence(spans, sentence);
        return it != spans.end() && it->sentence == sentence;
    }
};

/// Each idea's finding, in ExplainIdea order.
std::vector<Finding> find_ideas(const Evidence& e);
/// Each misconception found, in Misconception order, with the words that suggested it.
std::vector<MisconceptionCheck> find_misconceptions(const Evidence& e);

}  // namespace m2m::core::explain_detail
