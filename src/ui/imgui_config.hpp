// ImGui's compile-time configuration for our code (IMGUI_USER_CONFIG, set by CMake on m2m_ui
// and everything that links it). Debian's libimgui.a keeps its assertions on; this keeps ours on
// too in Release builds, where NDEBUG would otherwise compile out every IM_ASSERT in imgui.h's
// inline code as used from our files. A failed one says what failed and aborts, as the
// library's do, so a headless UI test that breaks an ImGui rule fails (Catch2 reports the
// SIGABRT and the test's name) instead of passing on undefined behaviour.
#pragma once

namespace m2m::ui {
[[noreturn]] void imgui_assert_failed(const char* expression, const char* file, int line);
}

#define IM_ASSERT(_EXPR) ((_EXPR) ? (void)0 : ::m2m::ui::imgui_assert_failed(#_EXPR, __FILE__, __LINE__))
