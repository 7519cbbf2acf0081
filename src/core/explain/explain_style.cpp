// "Explain it back": how an answer is written. English prose is nearly half connecting words
// ("the", "of", "has", "so"); a list of keywords has almost none, and neither has prose in another
// language, but a list is made of words the checker knows. And an answer pasted from the model
// answer shares long runs of words with it.
#include <functional>
#include <unordered_set>

#include "explain_parts.hpp"

namespace m2m::core::explain_detail {

namespace {

/// English words that join others into a sentence: articles, pronouns, prepositions,
/// conjunctions, auxiliaries, quantifiers and the commonest verbs.
bool is_connecting_word(std::string_view w) {
    static const std::string_view words[] = {
        "a", "an", "the", "is", "are", "was", "were", "be", "been", "being", "am", "of", "and", "to", "in", "it", "its",
        "that", "this", "these", "those", "for", "on", "with", "as", "by", "can", "could", "each", "every", "so", "they",
        "them", "their", "theirs", "he", "she", "we", "you", "i", "us", "our", "your", "has", "have", "had", "do", "does",
        "did", "not", "no", "one", "at", "or", "but", "which", "who", "whose", "all", "many", "few", "while", "only",
        "more", "than", "from", "will", "would", "must", "should", "may", "might", "shall", "need", "needs", "because",
        "other", "there", "here", "what", "why", "how", "when", "where", "much", "very", "same", "then", "if", "into",
        "onto", "over", "under", "through", "after", "before", "like", "unlike", "between", "per", "across", "about",
        "whereas", "since", "also", "too", "just", "some", "most", "any", "both", "such", "own", "up", "out", "dont",
        "doesnt", "cant", "cannot", "isnt", "arent", "wont", "get", "gets", "got", "make", "makes", "made", "take",
        "takes", "go", "goes", "run", "runs", "work", "works", "use", "uses", "used", "mean", "means", "let", "lets",
        "way", "thing", "things", "even", "still", "again", "therefore", "thus", "however", "although", "though", "yet",
        "within", "without", "instead", "rather", "whole", "another", "once"};
    return std::find(std::begin(words), std::end(words), w) != std::end(words);
}

/// Six words in a row, as one hash.
std::size_t run_hash(const std::vector<Token>& t, std::size_t i) {
    std::string s;
    for (std::size_t k = i; k < i + 6; ++k) s += t[k].raw + ' ';
    return std::hash<std::string>{}(s);
}

/// Every run of six words of the model answer, built once.
const std::unordered_set<std::size_t>& model_runs() {
    static const std::unordered_set<std::size_t> runs = [] {
        const Reading model = read_answer(explain_model_answer());
        std::unordered_set<std::size_t> out;
        for (std::size_t i = 0; i + 6 <= model.tokens.size(); ++i) out.insert(run_hash(model.tokens, i));
        return out;
    }();
    return runs;
}

/// At least half the answer's runs of six words, and five or more, come word for word from the model answer.
bool copies_model_answer(const std::vector<Token>& t) {
    if (t.size() < 10) return false;
    const auto& runs = model_runs();
    std::size_t hits = 0;
    for (std::size_t i = 0; i + 6 <= t.size(); ++i) hits += runs.count(run_hash(t, i));
    return hits >= 5 && hits * 2 >= t.size() - 5;
}

}  // namespace

// A fragment is a run of words between sentence ends, commas, colons, brackets and dashes. It is
// bare when fewer than one word in six connects ("dot products", "GPU thousands cores parallel").
// The answer is a keyword list when at least half its words sit in bare fragments, and they are
// more than one short label ("GPU: thousands of small cores." is a note, not a list).
Style writing_style(const Reading& r, const MatchTable& table) {
    Style s;
    const auto& t = r.tokens;
    s.bare.assign(t.size(), false);
    std::size_t bare_words = 0, bare_fragments = 0, longest_bare = 0;
    for (std::size_t begin = 0; begin < t.size();) {
        std::size_t end = begin + 1;
        while (end < t.size() && t[end].sentence == t[begin].sentence && !t[end].clause_break) ++end;
        std::size_t words = 0, connecting = 0;
        for (std::size_t i = begin; i < end; ++i) {
            if (t[i].number) continue;
            ++words;
            if (is_connecting_word(t[i].raw)) ++connecting;
            if (table.known(i)) ++s.known;
        }
        s.words += words;
        s.connecting += connecting;
        if (words > 0 && connecting * 6 < words) {
            std::fill(s.bare.begin() + static_cast<std::ptrdiff_t>(begin), s.bare.begin() + static_cast<std::ptrdiff_t>(end), true);
            bare_words += words;
            ++bare_fragments;
            longest_bare = std::max(longest_bare, words);
        }
        begin = end;
    }
    const bool mostly_bare = s.words >= 3 && bare_words * 2 >= s.words && (bare_fragments >= 2 || longest_bare >= 4);
    // Another language written in Latin letters: long, with hardly an English connecting word,
    // and few words the checker knows (a list of English keywords is nearly all known words).
    s.foreign_prose = s.words >= 8 && s.connecting * 12 < s.words && s.known * 3 < s.words;
    s.keyword_list = mostly_bare && !s.foreign_prose;
    if (!s.keyword_list) s.bare.clear();
    s.copied_model = copies_model_answer(t);
    return s;
}

}  // namespace m2m::core::explain_detail
