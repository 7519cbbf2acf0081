// The view's theme switch and the opaque fill.
#include "ui/view.hpp"

#include <cstdint>

namespace m2m::ui {

void apply_theme(View& view, ThemeKind kind, float scale) {
    view.theme = make_theme(kind);
    view.scale = scale;
    apply_imgui_style(view.theme, scale);
}

void fill_opaque(const View& view, ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 colour) {
    if (!view.opaque_filler) {
        dl->AddRectFilled(a, b, colour);
        return;
    }
    dl->PushClipRect(a, b, true);
    dl->AddCallback(view.opaque_filler, reinterpret_cast<void*>(static_cast<std::uintptr_t>(colour | IM_COL32_A_MASK)));
    dl->PopClipRect();
}

}  // namespace m2m::ui
