// "Explain it back": which machine, the CPU or the GPU, each phrase of an answer is about (the one
// named nearest in its sentence, or the sentence before).
#include "explain_parts.hpp"

namespace m2m::core::explain_detail {

std::vector<Mention> machine_mentions(const Matcher& m, const Cues& c) {
    std::vector<Mention> out;
    const auto gpus = m.find(c.gpu);
    for (const Span& s : gpus) out.push_back({s, Machine::gpu});
    for (const Span& s : m.find(c.cpu)) {
        // "graphics processor" names the GPU, not a CPU
        const auto g = first_from(gpus, s.end);  // the GPU phrase starting last before s ends
        const bool inside_gpu = g != gpus.begin() && std::prev(g)->end > s.begin;
        if (!inside_gpu) out.push_back({s, Machine::cpu});
    }
    std::sort(out.begin(), out.end(), [](const Mention& a, const Mention& b) { return a.span.begin < b.span.begin; });
    const auto& t = m.tokens();
    auto is = [&](std::size_t i, std::string_view w) { return t[i].raw == w && t[i].sentence == t[i + 1].sentence; };
    auto comparing = [&](std::size_t i) {
        return is(i, "than") || is(i, "unlike") || is(i, "versus") || is(i, "vs") ||
               ((is(i, "to") || is(i, "with")) && i >= 1 && (is(i - 1, "compared") || is(i - 1, "comparison")));
    };
    for (Mention& x : out) {
        const std::size_t b = x.span.begin;
        const bool article = b >= 1 && (is(b - 1, "a") || is(b - 1, "an") || is(b - 1, "the"));
        x.compared = (b >= 1 && comparing(b - 1)) || (b >= 2 && article && comparing(b - 2));
    }
    return out;
}

namespace {

constexpr std::size_t window = 40;

bool any_token(const std::vector<Token>& t, std::size_t begin, std::size_t end, bool (*pred)(const Token&)) {
    for (std::size_t i = begin; i < end; ++i)
        if (pred(t[i])) return true;
    return false;
}

}  // namespace

const Mention* machine_of(const std::vector<Token>& t, const std::vector<Mention>& mentions, const Span& s) {
    const Mention* best = nullptr;
    double best_d = 1e9;
    for (auto it = first_from(mentions, s.begin > window ? s.begin - window : 0);
         it != mentions.end() && it->span.begin <= s.end + window; ++it) {
        const Mention& m = *it;
        if (m.span.sentence != s.sentence) continue;
        double d = 0;
        if (m.span.end <= s.begin) {
            d = static_cast<double>(s.begin - m.span.end);
        } else if (m.span.begin >= s.end) {
            // A machine named after the phrase, past a comma or a "while", starts the next clause:
            // "CPUs do hard things one after another, GPUs ..." is about the CPU.
            d = 1.5 * static_cast<double>(m.span.begin - s.end + 1);
            if (any_token(t, s.end, m.span.begin + 1, [](const Token& k) {
                    return k.clause_break || k.raw == "while" || k.raw == "whereas" || k.raw == "but";
                }))
                d *= 8;
        }
        if (m.compared) d *= 3;
        if (d < best_d) best_d = d, best = &m;
    }
    // "A CPU has more cores than a GPU, so it ...": "it" and "they" point back to the sentence's subject.
    if (best && best->span.end <= s.begin &&
        any_token(t, best->span.end, s.begin, [](const Token& k) { return k.raw == "it" || k.raw == "they"; }))
        for (auto it = first_in_sentence(mentions, s.sentence); it != mentions.end() && it->span.begin < s.begin; ++it)
            if (!it->compared) return &*it;
    if (best) return best;
    const Mention* before = nullptr;  // the sentence before: its last machine that is not a comparison's object
    for (auto it = first_in_sentence(mentions, s.sentence - 1); it != mentions.end() && it->span.sentence == s.sentence - 1; ++it)
        if (!before || before->compared || !it->compared) before = &*it;
    return before;
}

}  // namespace m2m::core::explain_detail
