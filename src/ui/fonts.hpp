// Fonts: DejaVu Sans through FreeType at the UI scale's pixel size, with the lesson's symbols.
#pragma once

#include <string>

struct ImGuiIO;

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
FontStatus load_fonts(ImGuiIO& io, float scale);

}  // namespace m2m::ui
