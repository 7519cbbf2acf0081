# Tests of the UI without a window, and of the real app under Xvfb.
add_executable(test_ui
  tests/ui/test_layer_panel.cpp
  tests/ui/test_rack_panel.cpp
  tests/ui/test_split_panel.cpp
  tests/ui/test_timeline_view.cpp
  tests/ui/test_imgui_asserts.cpp
  tests/ui/headless.cpp
)
target_link_libraries(test_ui PRIVATE m2m_ui Catch2::Catch2WithMain)
target_compile_options(test_ui PRIVATE ${M2M_WARNINGS})
catch_discover_tests(test_ui TEST_PREFIX "ui: ")
# IM_ASSERT is a test failure, not a silent pass: our code's (kept on in Release by
# src/ui/imgui_config.hpp) and the library's (Debian builds libimgui.a with assertions on).
add_test(NAME "ui: a failed IM_ASSERT in our code fails the headless test that hit it"
  COMMAND bash ${CMAKE_SOURCE_DIR}/tests/ui/imgui_assert.sh $<TARGET_FILE:test_ui> imgui_assert_inline "ImGui assertion failed: i >= 0 && i < Size")
add_test(NAME "ui: a broken ImGui rule caught inside libimgui fails the headless test that broke it"
  COMMAND bash ${CMAKE_SOURCE_DIR}/tests/ui/imgui_assert.sh $<TARGET_FILE:test_ui> imgui_assert_library "Mismatched Begin")

add_executable(test_app_files tests/app/test_files.cpp tests/ui/headless.cpp)
target_link_libraries(test_app_files PRIVATE m2m_app_files Catch2::Catch2WithMain)
target_compile_options(test_app_files PRIVATE ${M2M_WARNINGS})
catch_discover_tests(test_app_files TEST_PREFIX "files: ")

# Input faster than a frame (src/app/input_trickle.*): pure, so no window and no ImGui.
add_executable(test_input_trickle tests/app/test_input_trickle.cpp src/app/input_trickle.cpp)
target_include_directories(test_input_trickle PRIVATE src)
target_link_libraries(test_input_trickle PRIVATE Catch2::Catch2WithMain)
target_compile_options(test_input_trickle PRIVATE ${M2M_WARNINGS})
catch_discover_tests(test_input_trickle TEST_PREFIX "input: ")

set(M2M_XVFB xvfb-run -a -s "-screen 0 1920x1080x24 -noreset")
set(M2M_SHOTS ${CMAKE_BINARY_DIR}/screenshots)
add_test(NAME "app: bad input exits 2 with one line" COMMAND bash ${CMAKE_SOURCE_DIR}/tests/app/cli_errors.sh $<TARGET_FILE:math-to-metal>)
add_test(NAME "app: a missing font, old OpenGL and an unwritable settings folder each get a clear message"
  COMMAND ${M2M_XVFB} bash ${CMAKE_SOURCE_DIR}/tests/app/faults.sh $<TARGET_FILE:math-to-metal> ${M2M_SHOTS})
add_test(NAME "app: a screenshot of Lesson 1 is a non-blank 1920x1080 PNG"
  COMMAND ${M2M_XVFB} bash ${CMAKE_SOURCE_DIR}/tests/app/screenshot.sh $<TARGET_FILE:math-to-metal> ${M2M_SHOTS} --lesson layers)
add_test(NAME "app: a screenshot mid-run in hardware mode at the widest settings"
  COMMAND ${M2M_XVFB} bash ${CMAKE_SOURCE_DIR}/tests/app/screenshot.sh $<TARGET_FILE:math-to-metal> ${M2M_SHOTS}
    --mode hardware --widths 4096,4096,4096,4096,4096,4096,4096,4096,4096,4096,4096,4096,4096,4096,4096,4096,4096,4096 --play --frames 20)
add_test(NAME "app: xdotool drags the width slider and clicks Run in Lesson 1"
  COMMAND ${M2M_XVFB} bash ${CMAKE_SOURCE_DIR}/tests/app/drive_layers.sh $<TARGET_FILE:math-to-metal> ${M2M_SHOTS})
add_test(NAME "app: on a slow machine (150 ms frames) quick key taps, a typed value and Return still arrive"
  COMMAND ${M2M_XVFB} bash ${CMAKE_SOURCE_DIR}/tests/app/drive_layers.sh $<TARGET_FILE:math-to-metal> ${M2M_SHOTS} --slow-frames 150)
add_test(NAME "app: a screenshot of Lesson 3 mid-step is a non-blank 1920x1080 PNG"
  COMMAND ${M2M_XVFB} bash ${CMAKE_SOURCE_DIR}/tests/app/screenshot.sh $<TARGET_FILE:math-to-metal> ${M2M_SHOTS} --lesson split --play --frames 30)
add_test(NAME "app: xdotool picks tensor parallel and runs a step in Lesson 3"
  COMMAND ${M2M_XVFB} bash ${CMAKE_SOURCE_DIR}/tests/app/drive_split.sh $<TARGET_FILE:math-to-metal> ${M2M_SHOTS})
add_test(NAME "app: a screenshot of Lesson 2 mid-send is a non-blank 1920x1080 PNG"
  COMMAND ${M2M_XVFB} bash ${CMAKE_SOURCE_DIR}/tests/app/screenshot.sh $<TARGET_FILE:math-to-metal> ${M2M_SHOTS} --lesson rack --play --frames 20)
add_test(NAME "app: xdotool clicks two GPUs in different nodes and Send in Lesson 2"
  COMMAND ${M2M_XVFB} bash ${CMAKE_SOURCE_DIR}/tests/app/drive_rack.sh $<TARGET_FILE:math-to-metal> ${M2M_SHOTS})
add_test(NAME "app: a screenshot of Explain it back is a non-blank 1920x1080 PNG"
  COMMAND ${M2M_XVFB} bash ${CMAKE_SOURCE_DIR}/tests/app/screenshot.sh $<TARGET_FILE:math-to-metal> ${M2M_SHOTS} --lesson explain)
add_test(NAME "app: a screenshot of Explain it back with its checklist, from a scenario"
  COMMAND ${M2M_XVFB} bash ${CMAKE_SOURCE_DIR}/tests/app/screenshot.sh $<TARGET_FILE:math-to-metal> ${M2M_SHOTS}
    --scenario ${CMAKE_SOURCE_DIR}/tests/app/explain_scenario.json)
add_test(NAME "app: xdotool types an answer and clicks Submit in Explain it back"
  COMMAND ${M2M_XVFB} bash ${CMAKE_SOURCE_DIR}/tests/app/drive_explain.sh $<TARGET_FILE:math-to-metal> ${M2M_SHOTS})
add_test(NAME "app: an instructor walks every lesson by keyboard at 1280x720"
  COMMAND ${M2M_XVFB} bash ${CMAKE_SOURCE_DIR}/tests/app/drive_classroom.sh $<TARGET_FILE:math-to-metal> ${M2M_SHOTS} 1280x720)
add_test(NAME "app: an instructor walks every lesson by keyboard at 1024x768"
  COMMAND ${M2M_XVFB} bash ${CMAKE_SOURCE_DIR}/tests/app/drive_classroom.sh $<TARGET_FILE:math-to-metal> ${M2M_SHOTS} 1024x768)
