// "Explain it back": reads a free-text answer as words, finds the lesson's ideas through phrase
// patterns, and writes the student's own runs as sentences. Standard library only.
//
// [SECTION] texts   [SECTION] reading the answer   [SECTION] phrase patterns
// [SECTION] which machine a phrase is about   [SECTION] the ideas   [SECTION] facts from runs
#include "m2m/core/explain/explain_back.hpp"
#include "m2m/core/engine/text.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <initializer_list>
#include <optional>
#include <unordered_map>

namespace m2m::core {

// [SECTION] texts ---------------------------------------------------------------------------------

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

// [SECTION] reading the answer ---------------------------------------------------------------------

namespace {

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

/// Decodes one UTF-8 code point at `i`; invalid or truncated sequences read as U+FFFD, one byte.
char32_t decode(std::string_view s, std::size_t i, std::size_t& len) {
    const auto b = static_cast<unsigned char>(s[i]);
    len = 1;
    if (b < 0x80) return b;
    std::size_t n = b >= 0xF0 && b < 0xF5 ? 4 : b >= 0xE0 ? 3 : b >= 0xC2 && b < 0xE0 ? 2 : 0;
    if (n == 0 || i + n > s.size()) return 0xFFFD;
    char32_t cp = b & (n == 2 ? 0x1F : n == 3 ? 0x0F : 0x07);
    for (std::size_t k = 1; k < n; ++k) {
        const auto c = static_cast<unsigned char>(s[i + k]);
        if ((c & 0xC0) != 0x80) return 0xFFFD;
        cp = (cp << 6) | (c & 0x3F);
    }
    // Overlong forms and surrogates are invalid.
    if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0xFFFD;
    len = n;
    return cp;
}

bool is_space(char32_t c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || c == 0xA0 ||
           (c >= 0x2000 && c <= 0x200B) || c == 0x2028 || c == 0x2029 || c == 0x3000 || c == 0xFEFF;
}

bool ends_sentence(char32_t c) {
    return c == '.' || c == '!' || c == '?' || c == ';' || c == 0x3002 || c == 0xFF01 || c == 0xFF1F || c == 0x2029;
}

/// A line break inside a paragraph is only a space (the answer box wraps long lines with one);
/// a blank line or a new bullet ("- ", "* ", "• ") starts a new sentence.
bool newline_ends_sentence(std::string_view s, std::size_t after) {
    std::size_t j = after;
    while (j < s.size() && (s[j] == ' ' || s[j] == '\t' || s[j] == '\r')) ++j;
    return j == s.size() || s[j] == '\n' || s[j] == '-' || s[j] == '*' || s.substr(j, 3) == "\xe2\x80\xa2";
}

/// A letter of a script other than Latin's ASCII: a sign that the answer is in another language.
bool is_foreign_letter(char32_t c) {
    if (c < 0xC0 || c == 0xD7 || c == 0xF7) return false;
    if (c >= 0x2000 && c <= 0x2BFF) return false;  // punctuation, arrows, maths, symbols, dingbats
    if (c >= 0x3000 && c <= 0x303F) return false;  // CJK punctuation
    if (c >= 0xE000 && c <= 0xF8FF) return false;  // private use
    if (c >= 0xFE00 && c <= 0xFE0F) return false;  // variation selectors
    if (c >= 0xFF00 && c <= 0xFF20) return false;  // full-width punctuation
    if (c == 0xFFFD || c >= 0x1F000) return false;  // replacement character, emoji
    return true;
}

std::string plural_base(const std::string& w) {
    const std::size_t n = w.size();
    auto ends = [&](std::string_view suf) { return n >= suf.size() && w.compare(n - suf.size(), suf.size(), suf) == 0; };
    if (n > 4 && ends("ies")) return w.substr(0, n - 3) + "y";
    if (n > 4 && (ends("ches") || ends("shes") || ends("xes") || ends("sses"))) return w.substr(0, n - 2);
    if (n > 3 && ends("s") && !ends("ss") && !ends("is")) return w.substr(0, n - 1);  // "gpus" -> "gpu"
    return w;
}

Reading read_answer(std::string_view s) {
    Reading r;
    std::string word;
    bool word_is_number = false;
    std::size_t word_begin = 0, chars = 0;
    int sentence = 0;
    bool clause_break = false;
    auto flush = [&](std::size_t end) {
        if (word.empty()) return;
        Token t;
        t.raw = word;
        t.number = word_is_number;
        if (t.number) t.value = std::strtod(word.c_str(), nullptr);
        t.base = t.number ? word : plural_base(word);
        t.sentence = sentence;
        t.clause_break = clause_break;
        clause_break = false;
        t.begin = word_begin;
        t.end = end;
        r.tokens.push_back(std::move(t));
        word.clear();
    };
    std::size_t i = 0;
    while (i < s.size()) {
        if (chars == explain_max_answer_chars) {
            r.truncated = true;
            break;
        }
        std::size_t len = 1;
        const char32_t c = decode(s, i, len);
        ++chars;
        const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        const bool digit = c >= '0' && c <= '9';
        const bool next_digit = i + len < s.size() && s[i + len] >= '0' && s[i + len] <= '9';
        if (!is_space(c)) r.has_content = true;
        if (alpha || digit) {
            if (word.empty()) {
                word_begin = i;
                word_is_number = digit;
            }
            word_is_number = word_is_number && digit;
            word.push_back(static_cast<char>(alpha ? (c | 0x20) : c));
            if (alpha) ++r.ascii_letters;
        } else if ((c == '\'' || c == 0x2019 || c == 0x2018) && !word.empty() && !word_is_number) {
            // "don't", "GPU's": the apostrophe joins, so "dont" and "gpus" stay one word each
        } else if ((c == ',' || c == '.') && word_is_number && !word.empty() && next_digit) {
            if (c == '.') word.push_back('.');  // 2.5 keeps its point; 16,896 drops the separator
        } else {
            flush(i);
            if (ends_sentence(c) || (c == '\n' && newline_ends_sentence(s, i + 1))) ++sentence;
            if (c == ',' || c == ':' || c == '(' || c == ')' || c == 0x2013 || c == 0x2014) clause_break = true;
            if (is_foreign_letter(c)) ++r.foreign_letters;
        }
        i += len;
    }
    flush(i);
    r.read_bytes = i;
    return r;
}

// [SECTION] phrase patterns ------------------------------------------------------------------------
//
// A pattern is written as words separated by spaces: "thousand|many ~3 core|thread". Each word
// may list alternatives with '|'; "stem*" matches any word that begins with the stem; "~N"
// allows up to N other words before the next one. A plain word matches its plural too, and a
// word of six letters or more also matches with one slip (a letter missing, extra, wrong or two
// swapped); "=word" matches exactly that spelling. Special words: NEG (not, no, never, don't, ...), BIGNUM (a number of 100 or more),
// SMALLNUM (1 to 64); "@gpu" and "@cpu" stand for the words that name each machine.
// A phrase never spans two sentences.

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

Cue cue(Vocabulary& v, std::initializer_list<std::string_view> specs, std::string_view not_after = {},
        std::string_view reject_in_span = {}) {
    Cue c;
    for (std::string_view s : specs) c.patterns.push_back(compile(v, s));
    // Named, not temporaries: a range-for keeps split()'s vector alive but not the string its
    // views point into (reading them was a heap-use-after-free; found by fuzz_scenario).
    const std::string after = expand_macros(not_after), reject = expand_macros(reject_in_span);
    for (std::string_view a : split(after, '|')) c.not_after.push_back(v.intern(parse_alt(a)));
    for (std::string_view a : split(reject, '|')) c.reject_in_span.push_back(v.intern(parse_alt(a)));
    return c;
}

/// Every cue of the checker, compiled once.
struct Cues {
    Vocabulary vocab;
    Cue gpu, cpu, core_word;
    Cue many_cores, many_word, parallel, few_cores, few_word, sequential;
    Cue dot_products, independent, layer_order, layer_word, depend_word, order_word, data_movement;
    Cue gpu_faster, cpu_more, layers_parallel;
};

const Cues& cues() {
    static const Cues c = [] {
        Cues k;
        Vocabulary& v = k.vocab;
        k.gpu = cue(v, {"@gpu", "graphic card|processor|processing|chip|unit|board", "video card", "tensor core"});
        k.cpu = cue(v, {"cpu", "central processing unit", "central processor", "processor", "xeon|epyc|ryzen"});
        k.core_word = cue(v, {"@corew", "=ones"});

        // The GPU's side: many cores, or doing the work all at once.
        k.many_cores = cue(v,
                           {"thousand|hundred|many|lot|ton|load|plenty|multitude|myriad|army|huge|massive|countless ~3 "
                            "core|thread|alu|processor|unit|worker|lane|calculator",
                            "more ~2 core|thread|alu", "BIGNUM ~2 core|thread|alu|unit|processor|lane|worker",
                            "massively|highly|extremely|hugely|very parallel", "massive|huge|enormous ~1 parallelism",
                            "cuda core", "small|tiny|simple|little|weak ~2 core"});
        k.many_word = cue(v, {"many|thousand|hundred|lot|ton|load|plenty|countless|more|BIGNUM"});
        k.parallel = cue(v, {"parallel", "parallel*", "paralleli*", "at once", "same time", "simultan*", "concurren*",
                             "all together", "in one go", "side by side", "in one step", "all in one"});
        // The CPU's side: a few big cores, or one thing after another.
        k.few_cores = cue(v, {"few|fewer|handful|couple|less|only ~3 core|thread|processor|worker|alu",
                              "small|limited|low number ~3 core|thread|processor",
                              "SMALLNUM ~2 core|thread|processor",
                              "big|large|powerful|complex|fast|strong|beefy|fat|heavy|smart|clever|sophisticated|general "
                              "~2 core|thread|processor"});
        k.few_word = cue(v, {"few|fewer|handful|couple|only|less|limited|SMALLNUM"});
        k.sequential = cue(v, {"one ~1 after ~1 another|other", "one ~3 at ~1 a time", "one by one", "sequen*",
                               "serial|serially", "in series", "in turn", "take|taking|takes turn", "step by step",
                               "single ~1 thread*|core", "one thread|core", "consecutive*", "queue", "linearly"});

        k.dot_products = cue(v, {"dot ~1 product|prod|products", "dotproduct", "inner|scalar product",
                                 "multipl* ~6 add|addition|adding|added|sum|summed|summing|summation|accumulat*",
                                 "sum|summing|summed|addition ~4 product|=times|multipl*", "weighted sum",
                                 "row ~7 column|col", "column ~4 row", "fma|mac|madd"},
                             "matrix|matrice|matmul");
        k.dot_products.negatable = false;
        k.independent = cue(v, {"independen*", "separately", "on its|their own", "by itself|themselves",
                                "in isolation", "isolated", "self contained",
                                "NEG ~4 depend*|rely|relies|reli*|wait*|need*|require*|affect*|interact*|interfer*|care "
                                "~6 each|one other|another",
                                "NEG ~4 depend*|rely|relies|reli*|wait*|need*|require*|affect*|interact*|interfer*|care "
                                "~6 each|one|other|others|another|eachother|rest|neighbour*|neighbor*",
                                "NEG ~2 dependenc*|dependent|connection|interaction|communication ~4 between|among|within",
                                "without wait*|depend*|coordinat*|sync*",
                                "embarrassingly|trivially|perfectly|naturally parallel",
                                "any|whatever|arbitrary order", "order ~2 NEG matter"});
        k.layer_order = cue(v, {"layer by|after layer", "one ~1 layer ~1 at ~1 a time",
                                "layer ~4 sequen*|serial*|consecutive*", "layer ~4 in sequence|order|turn",
                                "layer ~4 one ~1 after ~1 another|other",
                                "sequen*|serial* ~4 layer", "in sequence|order ~4 layer", "one after another ~4 layer",
                                "only ~3 on|upon ~3 previous|prior|preceding|earlier|last",
                                "output|result|answer ~3 of ~3 previous|prior|preceding|earlier|last ~1 layer"});
        k.layer_word = cue(v, {"layer"});
        k.depend_word = cue(v, {"depend*", "wait*", "need*", "rely|relies|reli*", "require*", "feed*", "use|uses ~3 output",
                                "start*|begin*|until"});
        k.order_word = cue(v, {"previous|prior|preceding|earlier|before|last|next|following|other|finish*|done|complete*|"
                               "output|result|answer|first|another|eachother"});
        k.data_movement = cue(
            v, {"bandwidth*", "nvlink", "nv link", "infiniband", "infini band", "pcie|pci", "interconnect*", "hbm|vram|dram",
                "cache", "memory ~3 bandwidth|speed|bound|access|traffic|transfer|bottleneck|wall|throughput|fast|slow|read|"
                "latency|limit*",
                "bound ~2 memory",
                "move|moving|movement|transfer*|copy|copying|copied|fetch*|shuffl*|ship*|send|sending|stream*|load|loading "
                "~4 data|number|weight|value|matri*|tensor|input|activation|parameter|byte|operand",
                "data|number|weight|byte|tensor ~3 move|moving|movement|moved|transfer*|travel*|flow*|copied|shipped|sent",
                "communicat*", "link", "wire", "cable", "bus", "feed ~2 core", "core ~3 fed|starv*"});

        // Misconceptions.
        k.gpu_faster = cue(v, {"@gpu ~2 core|thread ~4 faster|quicker|stronger|powerful|speedier",
                               "@cpu ~2 core|thread ~4 slower|weaker", "@cpu ~2 core|thread ~4 less powerful",
                               "@gpu ~4 higher|faster|greater|better ~2 clock|frequency|ghz"},
                           "", "NEG|together|combined|overall|collectively|total|many|thousand|all");
        k.cpu_more = cue(v, {"@cpu ~4 more|many|thousand|hundred|lot|BIGNUM ~2 core|thread", "@gpu ~4 fewer|less ~2 core|thread"},
                         "",
                         "NEG|few|fewer|less|handful|@gpu|powerful|complex|capable|advanced|sophisticated|big|bigger|larger|"
                         "stronger|faster|smart|clever|general");
        // Plural "layers" only: "the GPU computes the layer at once" is right.
        k.layers_parallel = cue(v, {"all|different|separate|multiple|several|the ~1 =layers ~6 independen*|parallel|simultan*|concurren*",
                                    "all|different|separate|multiple|several|the ~1 =layers ~6 at once",
                                    "all|different|separate|multiple|several|the ~1 =layers ~6 same time",
                                    "=layers ~3 are|can|run*|be ~3 independen*|parallel|simultan*",
                                    "=layers ~3 are|can|run*|be ~3 at once"},
                                "in|within|of|inside|same|each|per|one|a|the|its|their|every",
                                "NEG|neuron|output|node|dot|unit|element|product|core|calculation|computation|inside|within");
        return k;
    }();
    return c;
}

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

bool is_negation(std::string_view w) {
    static const std::string_view words[] = {"not", "no", "never", "none", "nor", "neither", "without", "dont", "doesnt",
                                             "didnt", "isnt", "arent", "wasnt", "werent", "cant", "cannot", "wont",
                                             "shouldnt", "couldnt", "wouldnt", "hasnt", "havent", "nothing"};
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

// [SECTION] which machine a phrase is about --------------------------------------------------------
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

std::vector<Mention> machine_mentions(const Matcher& m, const Cues& c) {
    std::vector<Mention> out;
    const auto gpus = m.find(c.gpu);
    for (const Span& s : gpus) out.push_back({s, Machine::gpu});
    for (const Span& s : m.find(c.cpu)) {
        // "graphics processor" names the GPU, not a CPU
        const bool inside_gpu = std::any_of(gpus.begin(), gpus.end(), [&](const Span& g) { return s.begin < g.end && g.begin < s.end; });
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

constexpr std::size_t window = 40;

bool any_token(const std::vector<Token>& t, std::size_t begin, std::size_t end, bool (*pred)(const Token&)) {
    for (std::size_t i = begin; i < end; ++i)
        if (pred(t[i])) return true;
    return false;
}

/// The first item of `v` (sorted by span.begin) whose span begins at or after `token`.
template <class T>
typename std::vector<T>::const_iterator first_from(const std::vector<T>& v, std::size_t token) {
    return std::partition_point(v.begin(), v.end(), [&](const T& x) { return span_of(x).begin < token; });
}
const Span& span_of(const Span& s) { return s; }
const Span& span_of(const Mention& m) { return m.span; }

/// The first item of `v` (sorted by span.begin) in sentence `sentence` or later.
template <class T>
typename std::vector<T>::const_iterator first_in_sentence(const std::vector<T>& v, int sentence) {
    return std::partition_point(v.begin(), v.end(), [&](const T& x) { return span_of(x).sentence < sentence; });
}

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
            // A machine named after the phrase, past a comma or a "while", starts the next clause.
            d = 1.5 * static_cast<double>(m.span.begin - s.end + 1);
            if (any_token(t, s.end, m.span.begin + 1, [](const Token& k) {
                    return k.clause_break || k.raw == "while" || k.raw == "whereas" || k.raw == "but";
                }))
                d *= 3;
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

// [SECTION] the ideas ------------------------------------------------------------------------------

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

// [SECTION] facts from runs ------------------------------------------------------------------------

LayerRunFact layer_run_fact(const LayerRunSetup& setup, const LayerRunResult& result) {
    LayerRunFact f;
    f.widths = setup.network.widths;
    f.hardware = setup.mode == TimingMode::hardware;
    f.cpu_name = setup.cpu.name;
    f.gpu_name = setup.gpu.name;
    f.cpu_cores = setup.cpu_cores;
    f.gpu_cores = setup.gpu_cores;
    f.speedup = result.speedup;
    return f;
}

namespace {

std::vector<int> hidden_of(const LayerRunFact& f) {
    return f.widths.size() > 2 ? std::vector<int>(f.widths.begin() + 1, f.widths.end() - 1) : std::vector<int>{};
}

std::string list_text(const std::vector<int>& v) {
    std::string s;
    for (std::size_t i = 0; i < v.size(); ++i)
        s += (i == 0 ? "" : i + 1 == v.size() ? " and " : ", ") + format_count(v[i]);
    return s;
}

std::string network_text(const LayerRunFact& f) {
    const auto hidden = hidden_of(f);
    if (hidden.empty()) return "with no hidden layer";
    const bool uniform = std::all_of(hidden.begin(), hidden.end(), [&](int w) { return w == hidden.front(); });
    if (!uniform) return "with hidden layers of " + list_text(hidden) + " neurons";
    const std::string w = format_count(hidden.front()) + "-wide";
    return hidden.size() == 1 ? "with one " + w + " hidden layer" : "with " + w + " layers";
}

std::string cores_text(std::uint32_t n, const char* machine) {
    return format_count(n) + " " + machine + (n == 1 ? " core" : " cores");
}

std::string timing_text(const LayerRunFact& f) {
    if (f.hardware) return "hardware timing, " + f.gpu_name + " against " + f.cpu_name;
    return "lesson timing, " + cores_text(f.cpu_cores, "CPU") + " against " + cores_text(f.gpu_cores, "GPU");
}

std::vector<std::string> layer_sentences(const std::vector<const LayerRunFact*>& runs) {
    if (runs.empty()) return {};
    const LayerRunFact& f = *runs.back();
    std::string s = "In your Lesson 1 run " + network_text(f);
    if (f.speedup >= 1.05) s += " the GPU finished " + format_ratio(f.speedup) + " sooner than the CPU";
    else if (f.speedup > 0 && f.speedup <= 1 / 1.05) s += " the CPU finished first: the GPU took " + format_ratio(1 / f.speedup) + " as long";
    else s += " both machines finished at about the same time";
    std::vector<std::string> out{s + " (" + timing_text(f) + ")."};

    // The narrowest and the widest run timed the same way show how the gap grows with width.
    const LayerRunFact *narrow = nullptr, *wide = nullptr;
    auto widest = [](const LayerRunFact& r) { const auto h = hidden_of(r); return *std::max_element(h.begin(), h.end()); };
    for (const LayerRunFact* r : runs) {
        if (r->hardware != f.hardware || hidden_of(*r).empty()) continue;
        if (!narrow || widest(*r) < widest(*narrow)) narrow = r;
        if (!wide || widest(*r) > widest(*wide)) wide = r;
    }
    if (narrow && wide && widest(*narrow) != widest(*wide)) {
        const std::string a = format_ratio(narrow->speedup) + " with " + format_count(widest(*narrow)) + "-wide layers";
        const std::string b = format_ratio(wide->speedup) + " with " + format_count(widest(*wide)) + "-wide layers";
        if (wide->speedup > narrow->speedup * 1.05)
            out.push_back("Across your runs the GPU's lead grew with the width of the layers: " + a + ", " + b +
                          ". A wider layer is more dot products that can all run at once.");
        else
            out.push_back("Across your runs: " + a + ", " + b + ".");
    }
    return out;
}

std::vector<std::string> transfer_sentences(const std::vector<const TransferFact*>& sends) {
    if (sends.empty()) return {};
    const TransferFact& t = *sends.back();
    const std::string what = "In your Lesson 2 run a " + format_bytes(t.bytes) + " tensor sent over " + t.link;
    if (t.relative_time >= 1.05)
        return {what + " took " + format_seconds(t.time_s) + ", " + format_ratio(t.relative_time) +
                " as long as the same send between two GPUs of one node."};
    if (t.relative_time > 0) return {what + " took " + format_seconds(t.time_s) + " inside one node."};
    return {};
}

std::vector<std::string> split_sentences(const std::vector<const SplitFact*>& splits) {
    // The latest run of each strategy.
    std::vector<const SplitFact*> latest;
    for (auto it = splits.rbegin(); it != splits.rend(); ++it)
        if (std::none_of(latest.begin(), latest.end(), [&](const SplitFact* s) { return s->strategy == (*it)->strategy; }))
            latest.push_back(*it);
    if (latest.empty()) return {};
    auto gpus = [](const SplitFact& s) { return s.gpus == 1 ? std::string("one GPU") : format_count(s.gpus) + " GPUs"; };
    auto bytes = [](const SplitFact& s) { return s.exchanged_bytes > 0 ? format_bytes(s.exchanged_bytes) : std::string("nothing"); };
    if (latest.size() == 1) {
        const SplitFact& s = *latest.front();
        return {"In your Lesson 3 run, " + s.strategy + " on " + gpus(s) + " exchanged " + bytes(s) + " per training step."};
    }
    const auto [lo, hi] = std::minmax_element(latest.begin(), latest.end(), [](const SplitFact* a, const SplitFact* b) {
        return a->exchanged_bytes < b->exchanged_bytes;
    });
    return {"Of the splits you tried in Lesson 3, " + (*hi)->strategy + " on " + gpus(**hi) +
            " exchanged the most per training step (" + bytes(**hi) + "), " + (*lo)->strategy + " on " + gpus(**lo) +
            " the least (" + bytes(**lo) + ")."};
}

}  // namespace

std::vector<std::string> run_fact_sentences(std::span<const RunFact> facts) {
    std::vector<const LayerRunFact*> runs;
    std::vector<const TransferFact*> sends;
    std::vector<const SplitFact*> splits;
    for (const RunFact& f : facts) {
        if (const auto* l = std::get_if<LayerRunFact>(&f)) runs.push_back(l);
        else if (const auto* t = std::get_if<TransferFact>(&f)) sends.push_back(t);
        else if (const auto* s = std::get_if<SplitFact>(&f)) splits.push_back(s);
    }
    std::vector<std::string> out;
    for (auto&& part : {layer_sentences(runs), transfer_sentences(sends), split_sentences(splits)})
        out.insert(out.end(), part.begin(), part.end());
    return out;
}

}  // namespace m2m::core
