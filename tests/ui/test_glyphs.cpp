// The font atlas holds every character the app's own text uses. load_fonts rasterises some Unicode
// blocks whole and of the others only the symbols the sources use (a whole block costs first-frame
// time), so this reads every source file, decodes its text (raw UTF-8 and the "\xcf\x83" and
// "\u2192" escapes of string literals alike) and looks each character up in the built atlas.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>

#include <imgui_internal.h>  // ImTextCharFromUtf8, ImTextCharToUtf8

#include "headless.hpp"

namespace {

int hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// A code point as UTF-8 (ImGui's own encoder; ImGui 1.86 keeps 16-bit characters, so one beyond
// them becomes U+FFFD, which the atlas lacks and the test then reports).
void append_utf8(std::string& out, std::uint32_t c) {
    char buf[5] = {};
    out += ImTextCharToUtf8(buf, c);
}

// `digits` hex digits at in[at], or -1.
long hex_run(const std::string& in, std::size_t at, int digits) {
    if (at + static_cast<std::size_t>(digits) > in.size()) return -1;
    long v = 0;
    for (int k = 0; k < digits; ++k) {
        const int h = hex(in[at + static_cast<std::size_t>(k)]);
        if (h < 0) return -1;
        v = v * 16 + h;
    }
    return v;
}

// The file's bytes with "\xHH" turned into the byte and "\uHHHH" and "\UHHHHHHHH" into UTF-8.
std::string unescaped(const std::string& in) {
    std::string out;
    for (std::size_t i = 0; i < in.size(); ++i) {
        if (in[i] == '\\' && i + 1 < in.size() && in[i + 1] == '\\') {  // an escaped backslash
            out += "\\\\";
            ++i;
            continue;
        }
        long v = -1;
        if (in[i] == '\\' && i + 1 < in.size() && in[i + 1] == 'x' && (v = hex_run(in, i + 2, 2)) >= 0) {
            out += static_cast<char>(v);
            i += 3;
        } else if (in[i] == '\\' && i + 1 < in.size() && in[i + 1] == 'u' && (v = hex_run(in, i + 2, 4)) >= 0) {
            append_utf8(out, static_cast<std::uint32_t>(v));
            i += 5;
        } else if (in[i] == '\\' && i + 1 < in.size() && in[i + 1] == 'U' && (v = hex_run(in, i + 2, 8)) >= 0) {
            append_utf8(out, static_cast<std::uint32_t>(v));
            i += 9;
        } else {
            out += in[i];
        }
    }
    return out;
}

// Every code point above Latin-1 in a UTF-8 text (ImGui's own decoder, as the atlas reads text).
void collect(const std::string& text, const std::string& where, std::map<std::uint32_t, std::string>& seen) {
    const char* p = text.data();
    const char* end = p + text.size();
    while (p < end) {
        unsigned int c = 0;
        p += std::max(1, ImTextCharFromUtf8(&c, p, end));
        if (c > 0xFF && !seen.count(c)) seen[c] = where;
    }
}

}  // namespace

TEST_CASE("every character the app's text uses is in the font atlas") {
    m2m::test::Headless ui;
    std::map<std::uint32_t, std::string> seen;
    const std::filesystem::path root = M2M_SOURCE_DIR;
    for (const char* dir : {"src", "include", "assets"})
        for (const auto& e : std::filesystem::recursive_directory_iterator(root / dir)) {
            const std::string ext = e.path().extension().string();
            if (!e.is_regular_file() || (ext != ".cpp" && ext != ".hpp" && ext != ".json")) continue;
            // The soak test types text the font lacks on purpose (CJK, an emoji) to see it survive.
            if (e.path().filename() == "monkey.cpp") continue;
            std::ifstream in(e.path(), std::ios::binary);
            const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            collect(unescaped(text), e.path().lexically_relative(root).string(), seen);
        }
    // The sources use some (σ, →, ●, ...): a scan that found none would test nothing.
    REQUIRE(seen.size() >= 10);
    REQUIRE(ImGui::GetIO().Fonts->Fonts.Size >= 2);
    for (const ImFont* font : ImGui::GetIO().Fonts->Fonts)
        for (const auto& [c, where] : seen) {
            INFO("U+" << std::hex << std::uppercase << c << " used in " << where);
            CHECK(font->FindGlyphNoFallback(static_cast<ImWchar>(c)) != nullptr);
        }
}

TEST_CASE("the punctuation and symbols a student pastes into an answer are in the font atlas") {
    // Explain it back shows the student's own text and quotes it back: what a word processor puts
    // there (curly quotes, dashes, an ellipsis, a bullet) and what a maths answer may hold.
    m2m::test::Headless ui;
    const char32_t pasted[] = {U'\u2018', U'\u2019', U'\u201C', U'\u201D', U'\u2013', U'\u2014', U'\u2026', U'\u2022',
                               U'\u00D7', U'\u00B5', U'\u03C3', U'\u03A3', U'\u2192', U'\u2248', U'\u2264', U'\u2265', U'\u221A'};
    for (const ImFont* font : ImGui::GetIO().Fonts->Fonts)
        for (char32_t c : pasted) {
            INFO("U+" << std::hex << std::uppercase << static_cast<std::uint32_t>(c));
            CHECK(font->FindGlyphNoFallback(static_cast<ImWchar>(c)) != nullptr);
        }
}
