// The smallest text a frame actually drew, measured from its draw data (what --log-state prints as
// text_min_px and the layout tests assert), so no widget or direct AddText call can hide from it.
#pragma once

#include <imgui.h>

namespace m2m::ui {

/// The smallest font size, in pixels, of any whole glyph in `data`. Every text ImGui draws (its
/// widgets' and a panel's AddText) becomes one textured quad per glyph, sampled from the font
/// atlas at that glyph's rectangle: a quad whose texture coordinates are a glyph's, and whose
/// height is s times the glyph's height in its font, is text drawn at s times that font's size.
/// Glyphs cut by a clip rectangle (their coordinates no longer a glyph's) are not counted.
/// 0 when the frame drew no text.
float smallest_text_px(const ImDrawData* data, const ImFontAtlas* atlas);

}  // namespace m2m::ui
