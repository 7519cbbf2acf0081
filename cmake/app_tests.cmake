# Tests of the UI without a window, and of the real app under Xvfb.
add_executable(test_ui
  tests/ui/test_layer_panel.cpp
  tests/ui/headless.cpp
)
target_link_libraries(test_ui PRIVATE m2m_ui Catch2::Catch2WithMain)
target_compile_options(test_ui PRIVATE ${M2M_WARNINGS})
catch_discover_tests(test_ui TEST_PREFIX "ui: ")

set(M2M_XVFB xvfb-run -a -s "-screen 0 1920x1080x24")
set(M2M_SHOTS ${CMAKE_BINARY_DIR}/screenshots)
add_test(NAME "app: bad input exits 2 with one line" COMMAND bash ${CMAKE_SOURCE_DIR}/tests/app/cli_errors.sh $<TARGET_FILE:math-to-metal>)
add_test(NAME "app: a screenshot of Lesson 1 is a non-blank 1920x1080 PNG"
  COMMAND ${M2M_XVFB} bash ${CMAKE_SOURCE_DIR}/tests/app/screenshot.sh $<TARGET_FILE:math-to-metal> ${M2M_SHOTS} --lesson layers)
add_test(NAME "app: a screenshot mid-run in hardware mode at the widest settings"
  COMMAND ${M2M_XVFB} bash ${CMAKE_SOURCE_DIR}/tests/app/screenshot.sh $<TARGET_FILE:math-to-metal> ${M2M_SHOTS}
    --mode hardware --widths 4096,4096,4096,4096,4096,4096,4096,4096,4096,4096,4096,4096,4096,4096,4096,4096,4096,4096 --play --frames 20)
add_test(NAME "app: xdotool drags the width slider and clicks Run in Lesson 1"
  COMMAND ${M2M_XVFB} bash ${CMAKE_SOURCE_DIR}/tests/app/drive_layers.sh $<TARGET_FILE:math-to-metal> ${M2M_SHOTS})
