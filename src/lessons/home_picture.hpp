// What every lesson's home-screen picture draws with: small labels that never spill out of the
// picture. Each lesson draws its own picture (Lesson::draw_home_picture, in its own folder).
#pragma once

#include <imgui.h>

namespace m2m::lessons {

/// Small text (0.8 of the font size) centred on `cx`, drawn only when it fits `max_w`.
void small_label(ImDrawList* dl, const char* text, float cx, float y, float max_w, ImU32 colour);
/// The height of small_label's text.
float small_label_height();

}  // namespace m2m::lessons
