// The font atlas holds every character the app's own text uses. load_fonts rasterises Latin-1 and
// then only the symbols the sources use (a whole Unicode block costs first-frame time), so this
// reads every source file, decodes its text (raw UTF-8 and the "\xcf\x83" and "\u2192" escapes
// of string literals alike) and looks each character up in the built atlas.
#include <catch2/catch.hpp>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>

#include "headless.hpp"

namespace {

int hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// The file's bytes with "\xHH" turned into the byte and "\uHHHH" into its UTF-8.
std::string unescaped(const std::string& in) {
    std::string out;
    for (std::size_t i = 0; i < in.size(); ++i) {
        if (in[i] == '\\' && i + 3 < in.size() && in[i + 1] == 'x' && hex(in[i + 2]) >= 0 && hex(in[i + 3]) >= 0) {
            out += static_cast<char>(hex(in[i + 2]) * 16 + hex(in[i + 3]));
            i += 3;
        } else if (in[i] == '\\' && i + 5 < in.size() && in[i + 1] == 'u' && hex(in[i + 2]) >= 0 && hex(in[i + 3]) >= 0 &&
                   hex(in[i + 4]) >= 0 && hex(in[i + 5]) >= 0) {
            const std::uint32_t c = static_cast<std::uint32_t>((hex(in[i + 2]) << 12) | (hex(in[i + 3]) << 8) |
                                                               (hex(in[i + 4]) << 4) | hex(in[i + 5]));
            if (c < 0x800) {
                out += static_cast<char>(0xC0 | (c >> 6));
            } else {
                out += static_cast<char>(0xE0 | (c >> 12));
                out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
            }
            out += static_cast<char>(0x80 | (c & 0x3F));
            i += 5;
        } else {
            out += in[i];
        }
    }
    return out;
}

// Every code point above Latin-1 in a UTF-8 text.
void collect(const std::string& text, const std::string& where, std::map<std::uint32_t, std::string>& seen) {
    for (std::size_t i = 0; i < text.size();) {
        const auto b = static_cast<unsigned char>(text[i]);
        const int n = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 1;
        std::uint32_t c = n == 1 ? b : n == 2 ? (b & 0x1F) : n == 3 ? (b & 0x0F) : (b & 0x07);
        for (int k = 1; k < n && i + static_cast<std::size_t>(k) < text.size(); ++k)
            c = (c << 6) | (static_cast<unsigned char>(text[i + static_cast<std::size_t>(k)]) & 0x3F);
        if (c > 0xFF && !seen.count(c)) seen[c] = where;
        i += static_cast<std::size_t>(n);
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
