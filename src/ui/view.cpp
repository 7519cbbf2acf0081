// The app-wide view state.
#include "ui/view.hpp"

#include <cstdint>

namespace m2m::ui {

View& view() {
    static View v;
    return v;
}

namespace {
ImDrawCallback g_filler = nullptr;
}

void set_opaque_filler(ImDrawCallback filler) { g_filler = filler; }

void fill_opaque(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 colour) {
    if (!g_filler) {
        dl->AddRectFilled(a, b, colour);
        return;
    }
    dl->PushClipRect(a, b, true);
    dl->AddCallback(g_filler, reinterpret_cast<void*>(static_cast<std::uintptr_t>(colour | IM_COL32_A_MASK)));
    dl->PopClipRect();
}

}  // namespace m2m::ui
