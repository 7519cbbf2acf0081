// Building the font atlas with FreeType; falls back to ImGui's own font when DejaVu is missing.
#include "ui/fonts.hpp"

#include <imgui.h>
#include <imgui_freetype.h>

#include <cstdlib>
#include <filesystem>

namespace m2m::ui {

std::string font_path() {
    if (const char* env = std::getenv("M2M_FONT"); env && *env) return env;
    return "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
}

namespace {

const ImWchar* glyph_ranges() {
    // Latin + Latin-1 (× µ ·), Greek (σ Σ), subscripts (ᵢ), punctuation (— …), arrows (→), maths (√ ≤ ≈),
    // block elements for bars.
    static const ImWchar ranges[] = {0x0020, 0x00FF, 0x0370, 0x03FF, 0x1D00, 0x1DBF, 0x2000, 0x206F, 0x2070, 0x209F,
                                     0x2190, 0x21FF, 0x2200, 0x22FF, 0x2500, 0x25FF, 0};
    return ranges;
}

std::string bold_path(const std::string& regular) {
    const auto pos = regular.rfind("DejaVuSans.ttf");
    if (pos == std::string::npos) return regular;
    return regular.substr(0, pos) + "DejaVuSans-Bold.ttf";
}

}  // namespace

FontStatus load_fonts(ImGuiIO& io, float scale) {
    FontStatus status;
    io.Fonts->Clear();
    io.Fonts->FontBuilderIO = ImGuiFreeType::GetBuilderForFreeType();
    const float px = base_font_px * scale;
    const std::string path = font_path();
    std::error_code ec;
    if (std::filesystem::is_regular_file(path, ec)) {
        io.Fonts->AddFontFromFileTTF(path.c_str(), px, nullptr, glyph_ranges());
        const std::string bold = bold_path(path);
        io.Fonts->AddFontFromFileTTF(std::filesystem::is_regular_file(bold, ec) ? bold.c_str() : path.c_str(),
                                     px * 1.6f, nullptr, glyph_ranges());
    } else {
        status.fallback = true;
        status.message = "font " + path +
                         " not found: using ImGui's built-in font (symbols like \xcf\x83 and \xc3\x97 may show as ?). "
                         "Install fonts-dejavu-core to fix this.";
        ImFontConfig cfg;
        cfg.SizePixels = px;
        io.Fonts->AddFontDefault(&cfg);
        cfg.SizePixels = px * 1.6f;
        io.Fonts->AddFontDefault(&cfg);
    }
    io.Fonts->Build();
    return status;
}

}  // namespace m2m::ui
