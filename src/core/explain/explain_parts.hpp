// What the parts of the "Explain it back" checker share, inside the core only: the answer read as
// words, phrase patterns and the cues built from them, a matcher, and which machine a phrase is about.
//
// [SECTION] the answer as words   [SECTION] phrase patterns   [SECTION] the cues
// [SECTION] matching   [SECTION] which machine
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

// [SECTION] phrase patterns ----------------------------------------------------------------------
//
// A pattern is written as words separated by spaces: "thousand|many ~3 core|thread". Each word
// may list alternatives with '|'; "stem*" matches any word that begins with the stem; "~N"
// allows up to N other words before the next one. A plain word matches its plural too, and a
// word of six letters or more also matches with one slip (a letter missing, extra, wrong or two
// swapped); "=word" matches exactly that spelling. Special words: NEG (not, no, never, don't,
// ...), BIGNUM (a number of 100 or more), SMALLNUM (1 to 64); "@gpu" and "@cpu" stand for the
// words that name each machine. A phrase never spans two sentences.

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
    bool negatable = true;  // a NEG just before or inside the match cancels it
    bool has_neg = false;
};

/// A pattern list with optional guards, for one kind of cue.
struct Cue {
    std::vector<Pattern> patterns;
    std::vector<std::uint16_t> not_after;       // the word just before the match must not be one of these
    std::vector<std::uint16_t> reject_in_span;  // nor may any of these appear inside the match
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

/// A cue from pattern specs, with the words that may not come just before a match and those that
/// may not appear inside it ('|'-separated, macros allowed).
Cue cue(Vocabulary& v, std::initializer_list<std::string_view> specs, std::string_view not_after = {},
        std::string_view reject_in_span = {});
bool is_negation(std::string_view word);

// [SECTION] the cues (explain_cues.cpp) -----------------------------------------------------------

/// Every cue of the checker, compiled once.
struct Cues {
    Vocabulary vocab;
    Cue gpu, cpu, core_word;
    Cue many_cores, many_word, parallel, few_cores, few_word, sequential;
    Cue dot_products, independent, layer_order, layer_word, depend_word, order_word, data_movement;
    Cue gpu_faster, cpu_more, layers_parallel;
};

/// The checker's cues, built on first use.
const Cues& cues();

// [SECTION] matching (explain_patterns.cpp) -------------------------------------------------------

/// Which vocabulary entries each distinct word matches, computed once per distinct word.
class MatchTable {
public:
    MatchTable(const Vocabulary& v, const std::vector<Token>& tokens);
    bool has(std::size_t token, std::uint16_t alt) const {
        const std::size_t row = m_row[token];
        return (m_bits[row * m_words + alt / 64] >> (alt % 64)) & 1u;
    }

private:
    std::size_t m_words;
    std::vector<std::uint64_t> m_bits;
    std::vector<std::size_t> m_row;
};

/// Where a cue matched: tokens [begin, end).
struct Span {
    std::size_t begin = 0, end = 0;
    int sentence = 0;
};

class Matcher {
public:
    Matcher(const Reading& r, const Cues& c) : m_tokens(r.tokens), m_table(c.vocab, r.tokens) {}

    /// Every place where `c` matches, in reading order (at most one match per starting word).
    std::vector<Span> find(const Cue& c) const {
        std::vector<Span> out;
        for (std::size_t i = 0; i < m_tokens.size(); ++i)
            for (const Pattern& p : c.patterns)
                if (auto end = match(p, 0, i, i); end && accepted(c, p, i, *end)) {
                    out.push_back({i, *end, m_tokens[i].sentence});
                    break;
                }
        return out;
    }
    bool any_in(std::size_t begin, std::size_t end, const std::vector<std::uint16_t>& alts) const {
        for (std::size_t i = begin; i < end; ++i)
            if (token_is(i, alts)) return true;
        return false;
    }
    const std::vector<Token>& tokens() const { return m_tokens; }

private:
    bool token_is(std::size_t i, const std::vector<std::uint16_t>& alts) const {
        return std::any_of(alts.begin(), alts.end(), [&](std::uint16_t a) { return m_table.has(i, a); });
    }

    // Phrases are a few words with small gaps, so this backtracking costs a constant per word.
    std::optional<std::size_t> match(const Pattern& p, std::size_t k, std::size_t pos, std::size_t first) const {
        if (k == p.elements.size()) return pos;
        const Element& e = p.elements[k];
        const int sentence = m_tokens[first].sentence;
        const std::size_t last = k == 0 ? pos : pos + static_cast<std::size_t>(e.gap);
        for (std::size_t q = pos; q <= last && q < m_tokens.size() && m_tokens[q].sentence == sentence; ++q)
            if (token_is(q, e.alts))
                if (auto end = match(p, k + 1, q + 1, first)) return end;
        return std::nullopt;
    }

    bool accepted(const Cue& c, const Pattern& p, std::size_t begin, std::size_t end) const {
        const int sentence = m_tokens[begin].sentence;
        if (begin > 0 && m_tokens[begin - 1].sentence == sentence && token_is(begin - 1, c.not_after)) return false;
        if (any_in(begin, end, c.reject_in_span)) return false;
        if (c.negatable && p.negatable) {
            // "not independent", "doesn't really depend", "no need for ..." cancel the cue.
            for (std::size_t i = begin >= 3 ? begin - 3 : 0; i < end; ++i)
                if (m_tokens[i].sentence == sentence && !m_tokens[i].number && is_negation(m_tokens[i].raw)) return false;
        }
        return true;
    }

    const std::vector<Token>& m_tokens;
    MatchTable m_table;
};

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

}  // namespace m2m::core::explain_detail
