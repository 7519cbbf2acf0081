// What a failed IM_ASSERT in our code does (see imgui_config.hpp).
#include <cstdio>
#include <cstdlib>

#include "ui/imgui_config.hpp"

namespace m2m::ui {

void imgui_assert_failed(const char* expression, const char* file, int line) {
    std::fprintf(stderr, "math-to-metal: ImGui assertion failed: %s (%s:%d)\n", expression, file, line);
    std::abort();
}

}  // namespace m2m::ui
