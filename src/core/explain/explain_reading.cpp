// "Explain it back": an answer read as words and sentences, UTF-8 decoded, capped in length, with
// counts of Latin and other letters so that another language is noticed.
#include <cstdlib>

#include "explain_parts.hpp"

namespace m2m::core::explain_detail {

namespace {

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

}  // namespace

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

}  // namespace m2m::core::explain_detail
