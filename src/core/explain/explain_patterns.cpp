// "Explain it back": phrase patterns compiled from their text, and matched word by word with
// plurals, prefixes, negation and one slip of the keyboard.
#include <unordered_map>

#include "explain_parts.hpp"

namespace m2m::core::explain_detail {

namespace {

std::string expand_macros(std::string_view spec) {
    static const std::pair<std::string_view, std::string_view> macros[] = {
        {"@gpu", "gpu|gpgpu|graphic|cuda|accelerator|h100|a100|b200|v100"},
        {"@cpu", "cpu|processor|xeon|epyc|ryzen"},
        {"@corew", "core|thread|alu|processor|unit|worker|lane|calculator|engine"},
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
            if (alt.kind == AltKind::neg) p.has_neg = true;
            e.alts.push_back(v.intern(alt));
        }
        p.elements.push_back(std::move(e));
    }
    p.negatable = !p.has_neg;
    return p;
}

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
                                             "former", "fasten", "defend", "powered", "serious", "sequel"};
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

}  // namespace

Cue cue(Vocabulary& v, std::initializer_list<std::string_view> specs, std::string_view not_after,
        std::string_view reject_in_span) {
    Cue c;
    for (std::string_view s : specs) c.patterns.push_back(compile(v, s));
    // Named, not temporaries: a range-for keeps split()'s vector alive but not the string its
    // views point into (reading them was a heap-use-after-free; found by fuzz_scenario).
    const std::string after = expand_macros(not_after), reject = expand_macros(reject_in_span);
    for (std::string_view a : split(after, '|')) c.not_after.push_back(v.intern(parse_alt(a)));
    for (std::string_view a : split(reject, '|')) c.reject_in_span.push_back(v.intern(parse_alt(a)));
    return c;
}

bool is_negation(std::string_view w) {
    static const std::string_view words[] = {"not", "no", "never", "none", "nor", "neither", "without", "dont", "doesnt",
                                             "didnt", "isnt", "arent", "wasnt", "werent", "cant", "cannot", "wont",
                                             "shouldnt", "couldnt", "wouldnt", "hasnt", "havent", "nothing"};
    return std::find(std::begin(words), std::end(words), w) != std::end(words);
}

MatchTable::MatchTable(const Vocabulary& v, const std::vector<Token>& tokens)
    : m_words((v.alts.size() + 63) / 64), m_row(tokens.size()) {
    std::unordered_map<std::string, std::size_t> rows;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const auto [it, added] = rows.try_emplace(tokens[i].raw, rows.size());
        m_row[i] = it->second;
        if (!added) continue;
        m_bits.resize(rows.size() * m_words, 0);
        for (std::size_t a = 0; a < v.alts.size(); ++a)
            if (alt_matches(v.alts[a], tokens[i])) m_bits[it->second * m_words + a / 64] |= std::uint64_t{1} << (a % 64);
    }
}

}  // namespace m2m::core::explain_detail
