// Finding glyph quads in a frame's draw data and the size each was drawn at.
#include "ui/text_measure.hpp"

#include <cstdint>
#include <cstring>
#include <unordered_map>

namespace m2m::ui {

namespace {

std::uint64_t uv_key(float u, float v) {
    std::uint32_t a = 0, b = 0;
    std::memcpy(&a, &u, sizeof a);
    std::memcpy(&b, &v, sizeof b);
    return (static_cast<std::uint64_t>(a) << 32) | b;
}

struct GlyphSize {
    float height;     // the glyph's height at its font's size, in pixels
    float font_size;  // that font's size
    float v1;         // its bottom texture coordinate: a glyph cut at the bottom has another
};

// Every glyph of every font in the atlas, by its top-left texture coordinate.
std::unordered_map<std::uint64_t, GlyphSize> glyphs_by_uv(const ImFontAtlas* atlas) {
    std::unordered_map<std::uint64_t, GlyphSize> out;
    for (const ImFont* font : atlas->Fonts)
        for (const ImFontGlyph& g : font->Glyphs)
            if (g.Visible && g.Y1 - g.Y0 >= 2.0f) out.emplace(uv_key(g.U0, g.V0), GlyphSize{g.Y1 - g.Y0, font->FontSize, g.V1});
    return out;
}

// ImFont::RenderText writes each glyph as vertices v..v+3 (top-left, top-right, bottom-right,
// bottom-left) and indices v, v+1, v+2, v, v+2, v+3.
bool is_quad(const ImDrawIdx* idx) {
    return idx[1] == idx[0] + 1 && idx[2] == idx[0] + 2 && idx[3] == idx[0] && idx[4] == idx[0] + 2 && idx[5] == idx[0] + 3;
}

}  // namespace

float smallest_text_px(const ImDrawData* data, const ImFontAtlas* atlas) {
    if (!data || !atlas) return 0;
    const auto glyphs = glyphs_by_uv(atlas);
    float smallest = 0;
    for (int l = 0; l < data->CmdListsCount; ++l) {
        const ImDrawList* list = data->CmdLists[l];
        for (const ImDrawCmd& cmd : list->CmdBuffer) {
            if (cmd.UserCallback || cmd.TextureId != atlas->TexID) continue;
            const ImDrawIdx* idx = list->IdxBuffer.Data + cmd.IdxOffset;
            for (unsigned i = 0; i + 6 <= cmd.ElemCount;) {
                if (!is_quad(idx + i)) {
                    i += 3;
                    continue;
                }
                const ImDrawVert& top = list->VtxBuffer[static_cast<int>(cmd.VtxOffset + idx[i])];
                const ImDrawVert& bottom = list->VtxBuffer[static_cast<int>(cmd.VtxOffset + idx[i] + 2)];
                const auto it = glyphs.find(uv_key(top.uv.x, top.uv.y));
                if (it != glyphs.end() && bottom.uv.y == it->second.v1) {
                    const float px = it->second.font_size * (bottom.pos.y - top.pos.y) / it->second.height;
                    if (px > 0 && (smallest == 0 || px < smallest)) smallest = px;
                }
                i += 6;
            }
        }
    }
    return smallest;
}

}  // namespace m2m::ui
