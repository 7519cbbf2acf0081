// Fonts: DejaVu Sans through FreeType at the UI scale's pixel size, with the lesson's symbols.
#pragma once

#include <string>

#include <imgui.h>

namespace m2m::ui {

inline constexpr float base_font_px = 20.0f;

struct FontStatus {
    bool fallback = false;  ///< the DejaVu file was missing and ImGui's built-in font is used
    std::string message;    ///< why, for the user
};

/// Where DejaVu Sans lives on Debian (fonts-dejavu-core); M2M_FONT overrides it.
std::string font_path();

/// Clears io.Fonts and builds it anew at base_font_px * scale, so text stays crisp at
/// every scale (no stretched bitmap). Adds a bold face as io.Fonts->Fonts[1] for headlines.
/// Also puts anti-aliased white discs in the atlas for fill_disc.
FontStatus load_fonts(ImGuiIO& io, float scale);

/// A filled circle as one square of the font atlas's texture (load_fonts' discs) instead of a fan
/// of triangles: under llvmpipe a fan's thin triangles around the centre cost far more than the
/// square's pixels. Circles under 6 px, or before the atlas has discs, are ImGui's own.
void fill_disc(ImDrawList* dl, ImVec2 centre, float radius, ImU32 colour);

}  // namespace m2m::ui
