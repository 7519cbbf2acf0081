// Building the font atlas with FreeType; falls back to ImGui's own font when DejaVu is missing.
#include "ui/fonts.hpp"

#include <imgui.h>
#include <imgui_freetype.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <filesystem>

namespace m2m::ui {

std::string font_path() {
    if (const char* env = std::getenv("M2M_FONT"); env && *env) return env;
    return "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
}

namespace {

// Latin-1, Greek, General Punctuation (the curly quotes, dashes and ellipsis of text a student
// pastes into Explain it back), arrows and maths operators whole; of the other blocks only the
// characters the app's own text uses (ᵢ ₁ ○ ●). Box drawing, phonetic extensions and the super- and
// subscript block whole cost first-frame time for glyphs nothing shows: ~490 glyphs a face fewer.
// tests/ui/test_glyphs.cpp reads every source file and fails on a character used there that the
// atlas lacks, and checks the punctuation people paste.
const ImWchar* glyph_ranges() {
    static const ImWchar ranges[] = {0x0020, 0x00FF, 0x0370, 0x03FF, 0x1D62, 0x1D62, 0x2000, 0x206F, 0x2081, 0x2081,
                                     0x2190, 0x21FF, 0x2200, 0x22FF, 0x25CB, 0x25CB, 0x25CF, 0x25CF, 0};
    return ranges;
}

// Discs in the atlas for fill_disc, radii 8 to 128 px: a filled circle drawn as one textured square
// instead of a fan of thin triangles, which llvmpipe shades block by block around the centre
// again and again (measured: 76 discs of radius 30, 4.5 ms as fans, 1.8 ms as squares).
constexpr std::array<float, 5> disc_radii{8, 16, 32, 64, 128};
struct Disc {
    int rect = -1;
    ImVec2 uv0, uv1;
};
std::array<Disc, disc_radii.size()> discs;

void add_disc_rects(ImFontAtlas& atlas) {
    for (std::size_t i = 0; i < discs.size(); ++i) {
        const int side = static_cast<int>(2 * disc_radii[i]) + 2;  // a texel of clear edge all round
        discs[i] = Disc{atlas.AddCustomRectRegular(side, side), {}, {}};
    }
}

// White, its alpha the share of each texel inside the circle (anti-aliased edge).
void paint_discs(ImFontAtlas& atlas) {
    unsigned char* pixels = nullptr;
    int width = 0, height = 0;
    atlas.GetTexDataAsRGBA32(&pixels, &width, &height);
    for (std::size_t i = 0; i < discs.size(); ++i) {
        const ImFontAtlasCustomRect* r = atlas.GetCustomRectByIndex(discs[i].rect);
        if (!pixels || !r || !r->IsPacked()) {
            discs[i].rect = -1;
            continue;
        }
        const float c = static_cast<float>(r->Width) * 0.5f, radius = disc_radii[i];
        for (int y = 0; y < r->Height; ++y)
            for (int x = 0; x < r->Width; ++x) {
                const float d = std::hypot(static_cast<float>(x) + 0.5f - c, static_cast<float>(y) + 0.5f - c);
                unsigned char* p = pixels + 4 * ((r->Y + y) * width + r->X + x);
                p[0] = p[1] = p[2] = 255;
                p[3] = static_cast<unsigned char>(std::lround(255.0f * std::clamp(radius - d + 0.5f, 0.0f, 1.0f)));
            }
        atlas.CalcCustomRectUV(r, &discs[i].uv0, &discs[i].uv1);
    }
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
    add_disc_rects(*io.Fonts);
    io.Fonts->Build();
    paint_discs(*io.Fonts);
    return status;
}

void fill_disc(ImDrawList* dl, ImVec2 centre, float radius, ImU32 colour) {
    // The smallest disc at least this large: drawn at most 2x smaller, which bilinear sampling
    // keeps smooth. Small circles stay ImGui's (few triangles, and ImGui's own atlas has no disc).
    const Disc* pick = nullptr;
    for (std::size_t i = 0; i < discs.size() && !pick; ++i)
        if (discs[i].rect >= 0 && disc_radii[i] >= radius) pick = &discs[i];
    if (radius < 6.0f || !pick || !ImGui::GetIO().Fonts->TexID) {
        dl->AddCircleFilled(centre, radius, colour, 0);
        return;
    }
    // The disc's edge sits a texel inside its square: the square grows by that share.
    const float grow = radius * (1.0f + 1.0f / (2.0f * disc_radii[static_cast<std::size_t>(pick - discs.data())]));
    dl->AddImage(ImGui::GetIO().Fonts->TexID, ImVec2(centre.x - grow, centre.y - grow), ImVec2(centre.x + grow, centre.y + grow),
                 pick->uv0, pick->uv1, colour);
}

}  // namespace m2m::ui
