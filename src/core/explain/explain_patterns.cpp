// "Explain it back": phrase patterns compiled from their text, and matched word by word with
// plurals, prefixes, negation (up to the clause's start) and one slip of the keyboard.
//
// [SECTION] compiling a pattern   [SECTION] one word against one alternative   [SECTION] cues and
// negation words   [SECTION] the match table   [SECTION] the matcher
#include <unordered_map>

#include "explain_parts.hpp"

namespace m2m::core::explain_detail {

namespace {

// [SECTION] compiling a pattern ------------------------------------------------------------------

std::string expand_macros(std::string_view spec) {
    static const std::pair<std::string_view, std::string_view> macros[] = {
        {"@gpu", "gpu|gpgpu|graphic|cuda|accelerator|h100|a100|b200|v100"},
        {"@cpu", "cpu|processor|xeon|epyc|ryzen"},
        // Analogies count as cores: "a huge team of workers", "a few experts", "a thousand students".
        {"@corew", "core|thread|alu|processor|unit|worker|lane|calculator|engine|student|helper|expert|professor|chef|"
                   "cook|clerk|employee|mathematician"},
        {"@thing", "neuron|output|dot|product|entry|element|calculation|computation|result|row|column|cell|sum|"
                   "multiplication|operation|task|piece|part|job|node|unit|value|number"},
    };
    std::string out(spec);
    for (const auto& [name, body] : macros)
        for (std::size_t p; (p = out.find(name)) != std::string::npos;) out.replace(p, name.size(), body);
    return out;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
    std::vector<std::string_view> out;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= s.size(); ++i)
        if (i == s.size() || s[i] == sep) {
            if (i > start) out.push_back(s.substr(start, i - start));
            start = i + 1;
        }
    return out;
}

Alt parse_alt(std::string_view a) {
    if (a == "NEG") return {AltKind::neg, ""};
    if (a == "BIGNUM") return {AltKind::big_number, ""};
    if (a == "SMALLNUM") return {AltKind::small_number, ""};
    if (a.back() == '*') return {AltKind::prefix, std::string(a.substr(0, a.size() - 1))};
    if (a.front() == '=') return {AltKind::exact, std::string(a.substr(1))};
    return {AltKind::word, plural_base(std::string(a))};
}

Pattern compile(Vocabulary& v, std::string_view spec) {
    Pattern p;
    const std::string text = expand_macros(spec);
    int gap = 0;
    bool has_neg = false;
    for (std::string_view part : split(text, ' ')) {
        if (part.front() == '~') {
            gap = std::stoi(std::string(part.substr(1)));
            continue;
        }
        Element e;
        e.gap = gap;
        gap = 0;
        for (std::string_view a : split(part, '|')) {
            const Alt alt = parse_alt(a);
            if (alt.kind == AltKind::neg) has_neg = true;
            e.alts.push_back(v.intern(alt));
        }
        p.elements.push_back(std::move(e));
    }
    p.negatable = !has_neg;  // a pattern that spells out its negation is not cancelled by it
    return p;
}

// [SECTION] one word against one alternative -------------------------------------------------------

/// True when `a` and `b` differ by at most one insertion, deletion, substitution or swap of neighbours.
bool one_slip(std::string_view a, std::string_view b) {
    if (a.size() > b.size()) std::swap(a, b);
    if (b.size() - a.size() > 1) return false;
    std::size_t i = 0;
    while (i < a.size() && a[i] == b[i]) ++i;
    if (i == a.size()) return true;
    if (a.size() == b.size()) {
        if (a.substr(i + 1) == b.substr(i + 1)) return true;  // one wrong letter
        return i + 1 < a.size() && a[i] == b[i + 1] && a[i + 1] == b[i] && a.substr(i + 2) == b.substr(i + 2);
    }
    return a.substr(i) == b.substr(i + 1);  // one letter missing
}

/// Real words one slip away from a pattern word that must not count as it.
bool slip_excluded(std::string_view w) {
    static const std::string_view words[] = {"lower", "later", "player", "father", "master", "neutron", "threat",
                                             "former", "fasten", "defend", "powered", "serious", "sequel", "professor",
                                             "processor"};
    return std::find(std::begin(words), std::end(words), w) != std::end(words);
}

bool alt_matches(const Alt& a, const Token& t) {
    switch (a.kind) {
        case AltKind::neg: return !t.number && is_negation(t.raw);
        case AltKind::exact: return !t.number && t.raw == a.text;
        case AltKind::big_number: return t.number && t.value >= 100;
        case AltKind::small_number: return t.number && t.value >= 1 && t.value <= 64;
        case AltKind::word:
            if (t.number) return false;
            if (t.raw == a.text || t.base == a.text) return true;
            return a.text.size() >= 6 && !slip_excluded(t.raw) && (one_slip(t.raw, a.text) || one_slip(t.base, a.text));
        case AltKind::prefix: {
            if (t.number) return false;
            if (t.raw.starts_with(a.text)) return true;
            if (a.text.size() < 6 || slip_excluded(t.raw)) return false;
            for (std::size_t len = a.text.size() - 1; len <= a.text.size() + 1 && len <= t.raw.size(); ++len)
                if (one_slip(std::string_view(t.raw).substr(0, len), a.text)) return true;
            return false;
        }
    }
    return false;
}

std::vector<std::uint16_t> word_list(Vocabulary& v, std::string_view words) {
    // Named, not a temporary: a range-for keeps split()'s vector alive but not the string its
    // views point into (reading them was a heap-use-after-free; found by fuzz_scenario).
    const std::string text = expand_macros(words);
    std::vector<std::uint16_t> out;
    for (std::string_view a : split(text, '|')) out.push_back(v.intern(parse_alt(a)));
    return out;
}

}  // namespace

// [SECTION] cues and negation words ----------------------------------------------------------------

Cue cue(Vocabulary& v, std::initializer_list<std::string_view> specs, const Guards& g) {
    Cue c;
    for (std::string_view s : specs) c.patterns.push_back(compile(v, s));
    c.not_after = word_list(v, g.not_after);
    c.reject_in_span = word_list(v, g.reject_in_span);
    c.not_before = word_list(v, g.not_before);
    c.reject_near = word_list(v, g.reject_near);
    return c;
}

bool is_negation(std::string_view w) {
    static const std::string_view words[] = {"not", "no", "never", "none", "nor", "neither", "without", "dont", "doesnt",
                                             "didnt", "isnt", "arent", "wasnt", "werent", "cant", "cannot", "wont",
                                             "shouldnt", "couldnt", "wouldnt", "hasnt", "havent", "nothing"};
    return std::find(std::begin(words), std::end(words), w) != std::end(words);
}

bool ends_negation_scope(std::string_view w) {
    static const std::string_view words[] = {"but", "while", "whilst", "whereas", "however", "although", "though",
                                             "yet", "unlike", "instead", "because", "since", "so", "therefore",
                                             "thus", "hence", "which", "who", "and", "or", "rather", "when", "whenever",
                                             "if", "unless", "until", "where"};
    return std::find(std::begin(words), std::end(words), w) != std::end(words);
}

// [SECTION] the match table ------------------------------------------------------------------------

MatchTable::MatchTable(const Vocabulary& v, const std::vector<Token>& tokens)
    : m_words((v.alts.size() + 63) / 64), m_row(tokens.size()) {
    std::unordered_map<std::string, std::size_t> rows;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const auto [it, added] = rows.try_emplace(tokens[i].raw, rows.size());
        m_row[i] = it->second;
        if (!added) continue;
        m_bits.resize(rows.size() * m_words, 0);
        bool any = false;
        for (std::size_t a = 0; a < v.alts.size(); ++a)
            if (alt_matches(v.alts[a], tokens[i])) {
                m_bits[it->second * m_words + a / 64] |= std::uint64_t{1} << (a % 64);
                any = true;
            }
        m_known.push_back(any);
    }
}

// [SECTION] the matcher ----------------------------------------------------------------------------

std::vector<Span> Matcher::find(const Cue& c, Polarity polarity) const {
    std::vector<Span> out;
    for (std::size_t i = 0; i < m_tokens.size(); ++i)
        for (const Pattern& p : c.patterns) {
            const auto end = match(p, 0, i, i);
            if (!end || !guarded(c, i, *end)) continue;
            const bool denied = c.negatable && p.negatable && negated(i, *end);
            if (denied != (polarity == Polarity::denied)) continue;
            if (!m_bare.empty() && std::any_of(m_bare.begin() + static_cast<std::ptrdiff_t>(i),
                                               m_bare.begin() + static_cast<std::ptrdiff_t>(*end), [](bool b) { return b; }))
                continue;
            out.push_back({i, *end, m_tokens[i].sentence});
            break;
        }
    return out;
}

bool Matcher::near(const Span& s, const Cue& words, std::size_t before, std::size_t after) const {
    const std::size_t from = s.begin > before ? s.begin - before : 0;
    const std::size_t to = std::min(m_tokens.size(), s.end + after);
    for (std::size_t i = from; i < to; ++i) {
        if (m_tokens[i].sentence != s.sentence) continue;
        for (const Pattern& p : words.patterns)
            if (p.elements.size() == 1 && token_is(i, p.elements[0].alts)) return true;
    }
    return false;
}

// Phrases are a few words with small gaps, so this backtracking costs a constant per word.
std::optional<std::size_t> Matcher::match(const Pattern& p, std::size_t k, std::size_t pos, std::size_t first) const {
    if (k == p.elements.size()) return pos;
    const Element& e = p.elements[k];
    const int sentence = m_tokens[first].sentence;
    const std::size_t last = k == 0 ? pos : pos + static_cast<std::size_t>(e.gap);
    for (std::size_t q = pos; q <= last && q < m_tokens.size() && m_tokens[q].sentence == sentence; ++q)
        if (token_is(q, e.alts))
            if (auto end = match(p, k + 1, q + 1, first)) return end;
    return std::nullopt;
}

bool Matcher::guarded(const Cue& c, std::size_t begin, std::size_t end) const {
    const int sentence = m_tokens[begin].sentence;
    if (begin > 0 && m_tokens[begin - 1].sentence == sentence && token_is(begin - 1, c.not_after)) return false;
    if (end < m_tokens.size() && m_tokens[end].sentence == sentence && token_is(end, c.not_before)) return false;
    for (std::size_t i = begin; i < end; ++i)
        if (token_is(i, c.reject_in_span)) return false;
    if (c.reject_near.empty()) return true;
    constexpr std::size_t near_window = 10;
    const std::size_t from = begin > near_window ? begin - near_window : 0;
    const std::size_t to = std::min(m_tokens.size(), end + near_window);
    for (std::size_t i = from; i < to; ++i)
        if (m_tokens[i].sentence == sentence && token_is(i, c.reject_near)) return false;
    return true;
}

bool Matcher::denied_before(const Span& s, const Cue& unless) const {
    std::size_t from = s.begin;
    while (from > 0 && s.begin - from < 5 && !m_tokens[from].clause_break &&
           m_tokens[from - 1].sentence == s.sentence && !ends_negation_scope(m_tokens[from - 1].raw)) {
        --from;
        if (!m_tokens[from].number && is_negation(m_tokens[from].raw)) {
            for (std::size_t i = from + 1; i < s.begin; ++i)
                for (const Pattern& p : unless.patterns)
                    if (p.elements.size() == 1 && token_is(i, p.elements[0].alts)) return false;
            return true;
        }
    }
    return false;
}

bool Matcher::denied_after(const Span& s, const Cue& weighs) const {
    constexpr std::size_t reach = 4, then = 3;
    for (std::size_t i = s.end; i < m_tokens.size() && i < s.end + reach; ++i) {
        if (m_tokens[i].sentence != s.sentence || m_tokens[i].clause_break || ends_negation_scope(m_tokens[i].raw)) return false;
        if (m_tokens[i].number || !is_negation(m_tokens[i].raw)) continue;
        for (std::size_t j = i + 1; j < m_tokens.size() && j <= i + then && m_tokens[j].sentence == s.sentence &&
                                    !m_tokens[j].clause_break;
             ++j)
            for (const Pattern& p : weighs.patterns)
                if (p.elements.size() == 1 && token_is(j, p.elements[0].alts)) return true;
        return false;
    }
    return false;
}

// "not independent", "doesn't really depend", "can't do many dot products at once": a negation
// inside the match, or up to eight words before it in the same clause, denies it. A comma, "but",
// "and", "because" ... end the negation's reach ("No, each neuron is independent").
bool Matcher::negated(std::size_t begin, std::size_t end) const {
    constexpr std::size_t reach = 8;
    std::size_t from = begin;
    while (from > 0 && begin - from < reach && !m_tokens[from].clause_break &&
           m_tokens[from - 1].sentence == m_tokens[begin].sentence && !ends_negation_scope(m_tokens[from - 1].raw))
        --from;
    for (std::size_t i = from; i < end; ++i)
        if (!m_tokens[i].number && is_negation(m_tokens[i].raw)) return true;
    return false;
}

}  // namespace m2m::core::explain_detail
