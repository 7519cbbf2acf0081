// Run only on purpose (hidden tags): each breaks an ImGui rule inside a test, and
// tests/ui/imgui_assert.sh checks that the test then fails, by name, instead of passing.
#include <imgui.h>

#include <catch2/catch.hpp>

#include "headless.hpp"

TEST_CASE("an out-of-range index into an ImVector in our code", "[.][imgui_assert_inline]") {
    ImVector<int> v;
    v.push_back(1);
    const int i = v.Size + 2;
    CHECK(v[i] == 1);  // IM_ASSERT(i >= 0 && i < Size) in imgui.h, compiled into this file
}

TEST_CASE("a window begun in a frame and never ended", "[.][imgui_assert_library]") {
    m2m::test::Headless ui;
    ui.frame([] { ImGui::Begin("never ended"); });  // libimgui.a's end-of-frame check
    CHECK(true);
}
