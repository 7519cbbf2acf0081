// "Explain it back": an answer checked for the six ideas and the misconceptions, each found with
// the student's own words as evidence, and a summary of the whole.
#include "explain_parts.hpp"

#include "m2m/core/engine/text.hpp"

namespace m2m::core {

namespace {

using namespace explain_detail;

std::string excerpt(std::string_view answer, const std::vector<Token>& tokens, std::size_t begin, std::size_t end) {
    constexpr std::size_t max_bytes = 90;
    std::string out;
    bool space = false;
    for (std::size_t i = tokens[begin].begin; i < tokens[end - 1].end; ++i) {
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

struct Grader {
    std::string_view answer;
    const Cues& c;
    const Matcher& m;
    std::vector<Mention> mentions;

    std::string quote(const Span& s) const { return excerpt(answer, m.tokens(), s.begin, s.end); }
    /// The phrase together with the machine it is about, when they sit close.
    std::string quote(const Span& s, const Mention& who) const {
        const std::size_t b = std::min(s.begin, who.span.begin), e = std::max(s.end, who.span.end);
        return e - b <= 12 ? excerpt(answer, m.tokens(), b, e) : quote(s);
    }
    static bool sentence_has(const std::vector<Span>& spans, int sentence) {
        const auto it = first_in_sentence(spans, sentence);
        return it != spans.end() && it->sentence == sentence;
    }

    /// A count or a way of working (`strong`) that belongs to `machine`, or a loose word
    /// (`loose`: "many", "few") for it where this sentence or the one before talks about cores.
    std::optional<std::string> about(Machine machine, std::initializer_list<const Cue*> strong, const Cue& loose) const {
        for (const Cue* cue : strong)
            for (const Span& s : m.find(*cue))
                if (const Mention* who = machine_of(m.tokens(), mentions, s); who && who->machine == machine) return quote(s, *who);
        const auto cores = m.find(c.core_word);
        for (const Span& s : m.find(loose))
            if (const Mention* who = machine_of(m.tokens(), mentions, s);
                who && who->machine == machine && (sentence_has(cores, s.sentence) || sentence_has(cores, s.sentence - 1)))
                return quote(s, *who);
        return std::nullopt;
    }

    std::optional<std::string> first(const Cue& cue) const {
        const auto spans = m.find(cue);
        if (spans.empty()) return std::nullopt;
        return quote(spans.front());
    }

    std::optional<std::string> independent(const std::vector<Span>& layers_parallel) const {
        for (const Span& s : m.find(c.independent))
            if (!sentence_has(layers_parallel, s.sentence)) return quote(s);
        return std::nullopt;
    }

    /// "Each layer needs the previous layer's output": a layer, a dependence and an order word
    /// in one sentence, or one of the set phrases ("layer by layer").
    std::optional<std::string> layers_depend() const {
        if (auto q = first(c.layer_order)) return q;
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
        for (const Span& d : depends) {
            const Span* layer = nearest(layers, d);
            const Span* order = nearest(orders, d);
            if (!layer || !order) continue;
            const std::size_t b = std::min({d.begin, layer->begin, order->begin});
            const std::size_t e = std::max({d.end, layer->end, order->end});
            return excerpt(answer, m.tokens(), b, e);
        }
        return std::nullopt;
    }
};

std::string summary_of(const ExplainFeedback& f) {
    const std::size_t n = f.found_count();
    switch (f.kind) {
        case AnswerKind::empty: return "Nothing to check yet: write a few sentences in the box, then press Submit.";
        case AnswerKind::no_words: return "There are no words here to check yet: explain it in a few sentences, then press Submit.";
        case AnswerKind::not_english:
            return "This answer seems to be written in another language. The checker only reads English for now, "
                   "so it may have missed ideas you did write.";
        case AnswerKind::answer: break;
    }
    if (n == explain_idea_count) return "All six ideas are there. Compare your wording with the model answer if you like.";
    if (n == 0)
        return "None of the six ideas showed up yet. Start with what a matrix multiply is made of, then say what each "
               "machine does with it.";
    return std::string(n >= 4 ? "A strong answer" : "A good start") + ": " + format_count_word(static_cast<std::int64_t>(n)) + " of the six ideas. " +
           "The hints below point to what is missing.";
}

bool is_function_word(std::string_view w) {
    static const std::string_view words[] = {
        "the", "a", "an", "is", "are", "of", "and", "to", "in", "it", "that", "this", "for", "on", "with", "as", "be",
        "by", "can", "each", "so", "they", "them", "their", "has", "have", "do", "does", "not", "no", "one", "at", "or",
        "but", "which", "all", "many", "while", "only", "more", "than", "its", "from", "will", "would", "must", "need",
        "because", "other", "there", "these", "what", "why", "how", "much", "very", "same", "time", "then"};
    return std::find(std::begin(words), std::end(words), w) != std::end(words);
}

}  // namespace

ExplainFeedback grade_answer(std::string_view answer) {
    const Reading r = read_answer(answer);
    const std::string_view read = answer.substr(0, r.read_bytes);
    const Cues& c = cues();
    const Matcher m(r, c);
    Grader g{read, c, m, machine_mentions(m, c)};

    ExplainFeedback f;
    f.truncated = r.truncated;
    std::size_t function_words = 0;
    for (const Token& t : r.tokens)
        if (!t.number) ++f.words, function_words += is_function_word(t.raw) ? 1 : 0;

    const auto layers_parallel = m.find(c.layers_parallel);
    const std::optional<std::string> found[explain_idea_count] = {
        g.first(c.dot_products),
        g.independent(layers_parallel),
        g.about(Machine::gpu, {&c.many_cores, &c.parallel}, c.many_word),
        g.about(Machine::cpu, {&c.few_cores, &c.sequential}, c.few_word),
        g.layers_depend(),
        g.first(c.data_movement),
    };
    for (std::size_t i = 0; i < explain_idea_count; ++i)
        f.ideas.push_back({static_cast<ExplainIdea>(i), found[i].has_value(), found[i].value_or("")});

    if (auto q = g.first(c.gpu_faster)) f.misconceptions.push_back({Misconception::gpu_cores_faster, *q});
    if (auto q = g.first(c.cpu_more)) f.misconceptions.push_back({Misconception::cpu_more_cores, *q});
    if (!layers_parallel.empty()) f.misconceptions.push_back({Misconception::layers_in_parallel, g.quote(layers_parallel.front())});

    if (!r.has_content) f.kind = AnswerKind::empty;
    else if (r.ascii_letters == 0 && r.foreign_letters == 0) f.kind = AnswerKind::no_words;
    else if (r.foreign_letters >= 4 && r.foreign_letters >= r.ascii_letters) f.kind = AnswerKind::not_english;
    else if (f.words >= 8 && function_words * 12 < f.words && f.found_count() == 0) f.kind = AnswerKind::not_english;
    else f.kind = AnswerKind::answer;

    f.summary = summary_of(f);
    if (f.truncated)
        f.notes.push_back("Only the first " + format_count(static_cast<std::int64_t>(explain_max_answer_chars)) +
                          " characters were read; a good answer fits in one paragraph.");
    return f;
}

}  // namespace m2m::core
