// "Explain it back": each idea found with its relation, not just its noun: "dot products" with the
// matrix they make up, "independent" with what is independent, "more cores" with what they do at
// once. A noun said without its relation is kept as a near miss, so the hint can say what to add.
#include "explain_parts.hpp"

namespace m2m::core::explain_detail {

namespace {

/// Spans of several cues in reading order.
std::vector<Span> merged(std::initializer_list<std::vector<Span>> lists) {
    std::vector<Span> out;
    for (const auto& l : lists) out.insert(out.end(), l.begin(), l.end());
    std::sort(out.begin(), out.end(), [](const Span& a, const Span& b) { return a.begin < b.begin; });
    return out;
}

struct IdeaFinder {
    const Evidence& e;
    const Cues& c = e.c;
    const Matcher& m = e.m;

    std::optional<std::string> first(const Cue& cue) const {
        const auto spans = m.find(cue);
        if (spans.empty()) return std::nullopt;
        return e.quote(spans.front());
    }

    /// A count or a way of working that belongs to `machine`, said (or denied) as `polarity`.
    std::optional<std::string> about(Machine machine, std::initializer_list<const Cue*> said, Polarity polarity) const {
        for (const Cue* cue : said)
            for (const Span& s : m.find(*cue, polarity))
                if (const Mention* who = machine_of(m.tokens(), e.mentions, s); who && who->machine == machine)
                    return e.quote(s, *who);
        return std::nullopt;
    }

    /// A loose count word ("thousands", "few") for `machine` where this sentence or the one before
    /// talks about cores, and the count is of them (a core word within six words): "A GPU just has thousands of them.", "the GPU
    /// has thousands." (not "if we process 256 inputs").
    std::optional<std::string> loose(Machine machine, const Cue& words) const {
        const auto cores = m.find(c.core_word);
        const auto& t = m.tokens();
        auto counts_cores = [&](const Span& s) {
            if (s.end == t.size() || t[s.end].sentence != s.sentence || t[s.end].clause_break) return true;
            for (std::size_t i = s.end; i < std::min(t.size(), s.end + 6) && t[i].sentence == s.sentence; ++i) {
                const auto core = first_from(cores, i);
                if (t[i].raw == "them" || t[i].raw == "ones" || (core != cores.end() && core->begin == i)) return true;
            }
            return false;
        };
        for (const Span& s : m.find(words))
            if (const Mention* who = machine_of(t, e.mentions, s);
                who && who->machine == machine && counts_cores(s) &&
                (Evidence::sentence_has(cores, s.sentence) || Evidence::sentence_has(cores, s.sentence - 1)))
                return e.quote(s, *who);
        return std::nullopt;
    }

    /// "More cores", "many small cores", "fewer cores": half the idea. With `partner` (doing them at
    /// once, or one after another) in the same sentence it is the whole idea; alone, a near miss.
    Finding half(Machine machine, std::initializer_list<const Cue*> counts, const Cue& loose_words, const Cue& partner) const {
        const auto partners = m.find(partner);
        Finding f;
        for (const Cue* cue : counts)
            for (const Span& s : m.find(*cue)) {
                const Mention* who = machine_of(m.tokens(), e.mentions, s);
                if (!who || who->machine != machine) continue;
                if (Evidence::sentence_has(partners, s.sentence)) return {e.quote(s, *who), {}};
                if (!f.near_miss) f.near_miss = e.quote(s, *who);
            }
        if (!f.near_miss) f.near_miss = loose(machine, loose_words);
        return f;
    }

    Finding dot_products() const {
        if (auto q = first(c.dot_products)) return {q, {}};
        Finding f;
        for (const Span& s : m.find(c.dot_noun)) {
            if (m.denied_before(s, c.doing_word)) continue;  // "is not dot products", "isn't made of dot products"
            if (m.near(s, c.dot_whole, 8, 0) || m.near(s, c.dot_whole_after, 0, 4)) return {e.quote(s), {}};
            if (!f.near_miss) f.near_miss = e.quote(s);
        }
        return f;
    }

    /// Not in a sentence that puts the layers in parallel or makes the outputs wait for each other.
    Finding independent(const std::vector<Span>& wrong) const {
        Finding f;
        for (const Span& s : m.find(c.independent)) {
            if (Evidence::sentence_has(wrong, s.sentence)) continue;
            if (m.near(s, c.independent_thing, 8, 6)) return {e.quote(s), {}};
            if (!f.near_miss) f.near_miss = e.quote(s);
        }
        return f;
    }

    Finding gpu() const {
        if (auto q = about(Machine::gpu, {&c.many_cores, &c.parallel}, Polarity::affirmed)) return {q, {}};
        // "The GPU doesn't go one by one", "a GPU doesn't have just a few cores".
        if (auto q = about(Machine::gpu, {&c.sequential, &c.few_cores}, Polarity::denied)) return {q, {}};
        if (auto q = loose(Machine::gpu, c.many_word)) return {q, {}};
        return half(Machine::gpu, {&c.more_cores}, c.more_word, c.parallel);
    }

    Finding cpu() const {
        if (auto q = about(Machine::cpu, {&c.few_cores, &c.sequential}, Polarity::affirmed)) return {q, {}};
        // "The CPU can't do them all at once", "a CPU doesn't have thousands of cores".
        if (auto q = about(Machine::cpu, {&c.many_cores, &c.more_cores, &c.parallel}, Polarity::denied)) return {q, {}};
        if (auto q = loose(Machine::cpu, c.few_word)) return {q, {}};
        return half(Machine::cpu, {&c.fewer_cores}, c.fewer_cores, c.sequential);
    }

    /// "Each layer needs the previous layer's output": a layer, a dependence and an order word
    /// in one sentence, or one of the set phrases ("layer by layer").
    std::optional<std::string> layers_depend(const std::vector<Span>& wrong) const {
        for (const Span& s : m.find(c.layer_order))
            if (!Evidence::sentence_has(wrong, s.sentence)) return e.quote(s);
        const auto layers = m.find(c.layer_word), depends = m.find(c.depend_word), orders = m.find(c.order_word);
        // The span of `spans` in d's sentence that sits nearest to d: the last one starting
        // before d or the first one starting from d.
        auto nearest = [](const std::vector<Span>& spans, const Span& d) {
            const Span* best = nullptr;
            std::size_t best_d = SIZE_MAX;
            const auto it = first_from(spans, d.begin);
            for (auto c : {it == spans.begin() ? spans.end() : std::prev(it), it}) {
                if (c == spans.end() || c->sentence != d.sentence) continue;
                const std::size_t dist = c->end <= d.begin ? d.begin - c->end : c->begin >= d.end ? c->begin - d.end : 0;
                if (dist < best_d) best = &*c, best_d = dist;
            }
            return best;
        };
        // Within six words of the dependence, so a run of nouns joined by "and" is not read as one.
        auto gap = [](const Span& a, const Span& d) {
            return a.end <= d.begin ? d.begin - a.end : a.begin >= d.end ? a.begin - d.end : 0;
        };
        for (const Span& d : depends) {
            if (Evidence::sentence_has(wrong, d.sentence)) continue;  // "neurons in a layer need each other's outputs"
            const Span* layer = nearest(layers, d);
            const Span* order = nearest(orders, d);
            if (!layer || !order || gap(*layer, d) > 6 || gap(*order, d) > 6) continue;
            Span whole{std::min({d.begin, layer->begin, order->begin}), std::max({d.end, layer->end, order->end}), d.sentence};
            return e.quote(whole);
        }
        return std::nullopt;
    }

    /// Memory traffic said as such, or a noun for it (bandwidth, NVLink) with what it does beside it.
    Finding data_movement() const {
        // Said, unless taken back just after ("memory bandwidth does not matter").
        for (const Span& s : m.find(c.data_movement))
            if (!m.denied_after(s, c.data_weighs)) return {e.quote(s), {}};
        Finding f;
        for (const Span& s : m.find(c.data_noun)) {
            if (m.near(s, c.data_matters, 6, 6) && !m.denied_after(s, c.data_weighs)) return {e.quote(s), {}};
            if (!f.near_miss) f.near_miss = e.quote(s);
        }
        return f;
    }

    Finding reuse() const {
        if (auto q = first(c.reuse)) return {q, {}};
        return {{}, first(c.reuse_noun)};
    }
};

}  // namespace

std::string Evidence::quote(const Span& s) const {
    constexpr std::size_t max_bytes = 90;
    const auto& tokens = m.tokens();
    std::string out;
    bool space = false;
    for (std::size_t i = tokens[s.begin].begin; i < tokens[s.end - 1].end; ++i) {
        const char ch = answer[i];
        if (ch == ' ' || ch == '\n' || ch == '\t' || ch == '\r') {
            space = true;
            continue;
        }
        if (space) out.push_back(' ');
        space = false;
        out.push_back(ch);
    }
    if (out.size() > max_bytes) {
        std::size_t cut = max_bytes;
        while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;  // not inside a character
        out.resize(cut);
        out += "\xe2\x80\xa6";
    }
    return out;
}

std::string Evidence::quote(const Span& s, const Mention& who) const {
    const std::size_t b = std::min(s.begin, who.span.begin), e = std::max(s.end, who.span.end);
    if (e - b <= 12) return quote(Span{b, e, s.sentence});
    // Too far apart: the phrase with up to four words before it in its clause ("they can do more at once").
    const auto& t = m.tokens();
    std::size_t from = s.begin;
    while (from > 0 && s.begin - from < 4 && !t[from].clause_break && t[from - 1].sentence == s.sentence) --from;
    return quote(Span{from, s.end, s.sentence});
}

std::vector<Finding> find_ideas(const Evidence& e) {
    const IdeaFinder f{e};
    const auto wrong = merged({e.m.find(e.c.layers_parallel), e.m.find(e.c.layers_independent), e.m.find(e.c.outputs_depend)});
    std::vector<Finding> out{f.dot_products(), f.independent(wrong), f.gpu(), f.cpu(),
                             Finding{f.layers_depend(wrong), {}}, f.data_movement(), f.reuse()};
    return out;
}

}  // namespace m2m::core::explain_detail
