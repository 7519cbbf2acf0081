// Small labels for the home screen's pictures.
#include "lessons/home_picture.hpp"

namespace m2m::lessons {

void small_label(ImDrawList* dl, const char* text, float cx, float y, float max_w, ImU32 colour) {
    const float size = small_label_height();
    const float w = ImGui::GetFont()->CalcTextSizeA(size, 1e9f, 0.0f, text).x;
    if (w > max_w) return;
    dl->AddText(ImGui::GetFont(), size, ImVec2(cx - w * 0.5f, y), colour, text);
}

float small_label_height() { return ImGui::GetFontSize() * 0.8f; }

}  // namespace m2m::lessons
