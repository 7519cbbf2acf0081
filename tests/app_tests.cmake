# Tests of the UI without a window, and of the real app under Xvfb (included when the app is built).
add_executable(test_ui
  ui/headless.cpp
  ui/test_imgui_asserts.cpp
  ui/test_timeline_view.cpp
  ui/test_home_screen.cpp
  ui/test_wrap.cpp
  ui/test_playback_controls.cpp
  ui/test_typed_slider.cpp
  ui/test_key_help.cpp
  ui/test_log_log_plot.cpp
  ui/test_glyphs.cpp
  ui/test_classroom.cpp
  ui/test_no_clipping.cpp
  ui/test_layout.cpp
  ui/test_layer_panel.cpp
  ui/test_real_scale_view.cpp
  measure/test_measure_view.cpp
  ui/test_rack_panel.cpp
  ui/test_rack_zoom.cpp
  ui/test_frame_damage.cpp
  ui/test_split_panel.cpp
  ui/test_frontier_view.cpp
  ui/test_explain_panel.cpp
)
target_link_libraries(test_ui PRIVATE m2m_lessons Catch2::Catch2WithMain)
target_compile_definitions(test_ui PRIVATE M2M_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
target_compile_options(test_ui PRIVATE ${M2M_WARNINGS})
catch_discover_tests(test_ui TEST_PREFIX "ui: ")
# IM_ASSERT is a test failure, not a silent pass: our code's (kept on in Release by
# src/ui/imgui_config.hpp) and the library's (Debian builds libimgui.a with assertions on).
add_test(NAME "ui: a failed IM_ASSERT in our code fails the headless test that hit it"
  COMMAND bash ${CMAKE_SOURCE_DIR}/tests/ui/imgui_assert.sh $<TARGET_FILE:test_ui> imgui_assert_inline "ImGui assertion failed: i >= 0 && i < Size")
add_test(NAME "ui: a broken ImGui rule caught inside libimgui fails the headless test that broke it"
  COMMAND bash ${CMAKE_SOURCE_DIR}/tests/ui/imgui_assert.sh $<TARGET_FILE:test_ui> imgui_assert_library "Mismatched Begin")

add_executable(test_app_files app/test_files.cpp app/test_home_settings.cpp ui/headless.cpp)
target_link_libraries(test_app_files PRIVATE m2m_app_files Catch2::Catch2WithMain)
target_compile_options(test_app_files PRIVATE ${M2M_WARNINGS})
catch_discover_tests(test_app_files TEST_PREFIX "files: ")

# Input faster than a frame (src/app/input_trickle.*): pure, so no window and no ImGui.
add_executable(test_input_trickle app/test_input_trickle.cpp ${CMAKE_SOURCE_DIR}/src/app/input_trickle.cpp)
target_include_directories(test_input_trickle PRIVATE ${CMAKE_SOURCE_DIR}/src)
target_link_libraries(test_input_trickle PRIVATE Catch2::Catch2WithMain)
target_compile_options(test_input_trickle PRIVATE ${M2M_WARNINGS})
catch_discover_tests(test_input_trickle TEST_PREFIX "input: ")

set(M2M_XVFB bash ${CMAKE_SOURCE_DIR}/tests/app/xvfb.sh)
set(M2M_SHOTS ${CMAKE_BINARY_DIR}/screenshots)
add_test(NAME "app: the README's nccl-tests tables are what scripts/collective_fidelity prints"
  COMMAND bash ${CMAKE_SOURCE_DIR}/tests/app/readme_fidelity.sh $<TARGET_FILE:math-to-metal> ${CMAKE_SOURCE_DIR}/README.md)
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
add_test(NAME "app: xdotool drags Lesson 1's batch slider and the roofline point moves, the speedup hidden until the run ends"
  COMMAND ${M2M_XVFB} bash ${CMAKE_SOURCE_DIR}/tests/app/drive_batch.sh $<TARGET_FILE:math-to-metal> ${M2M_SHOTS})
add_test(NAME "app: on a slow machine (150 ms frames) quick key taps, a typed value and Return still arrive"
  COMMAND ${M2M_XVFB} bash ${CMAKE_SOURCE_DIR}/tests/app/drive_layers.sh $<TARGET_FILE:math-to-metal> ${M2M_SHOTS} --slow-frames 150)
add_test(NAME "app: a screenshot of Lesson 3 mid-step is a non-blank 1920x1080 PNG"
  COMMAND ${M2M_XVFB} bash ${CMAKE_SOURCE_DIR}/tests/app/screenshot.sh $<TARGET_FILE:math-to-metal> ${M2M_SHOTS} --lesson split --play --frames 30)
add_test(NAME "app: xdotool picks tensor parallel and runs a step in Lesson 3"
  COMMAND ${M2M_XVFB} bash ${CMAKE_SOURCE_DIR}/tests/app/drive_split.sh $<TARGET_FILE:math-to-metal> ${M2M_SHOTS})
add_test(NAME "app: xdotool picks FSDP on 4 GPUs in Lesson 3 and plays a step to its end"
  COMMAND ${M2M_XVFB} bash ${CMAKE_SOURCE_DIR}/tests/app/drive_split_fsdp.sh $<TARGET_FILE:math-to-metal> ${M2M_SHOTS})
add_test(NAME "app: a screenshot of Lesson 2 mid-send is a non-blank 1920x1080 PNG"
  COMMAND ${M2M_XVFB} bash ${CMAKE_SOURCE_DIR}/tests/app/screenshot.sh $<TARGET_FILE:math-to-metal> ${M2M_SHOTS} --lesson rack --play --frames 20)
add_test(NAME "app: xdotool clicks two GPUs in different nodes and Send in Lesson 2"
  COMMAND ${M2M_XVFB} bash ${CMAKE_SOURCE_DIR}/tests/app/drive_rack.sh $<TARGET_FILE:math-to-metal> ${M2M_SHOTS})
add_test(NAME "app: after a tooltip, a menu and a send, and a training step at 1.5x, the screen drawn in parts equals it drawn whole"
  COMMAND ${M2M_XVFB} bash ${CMAKE_SOURCE_DIR}/tests/app/drive_damage.sh $<TARGET_FILE:math-to-metal> ${M2M_SHOTS})
add_test(NAME "app: xdotool picks the tree for 8 B on 128 GPUs in Lesson 2 and sees its links light in turn"
  COMMAND ${M2M_XVFB} bash ${CMAKE_SOURCE_DIR}/tests/app/drive_rack_tree.sh $<TARGET_FILE:math-to-metal> ${M2M_SHOTS})
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
add_test(NAME "app: C folds the control panel and H enters presenter view, and the scene grows each time"
  COMMAND ${M2M_XVFB} bash ${CMAKE_SOURCE_DIR}/tests/app/drive_presenter.sh $<TARGET_FILE:math-to-metal> ${M2M_SHOTS} layers)
add_test(NAME "app: in presenter view Lesson 3's strip picks the split and takes the guess, whose bytes stay hidden"
  COMMAND ${M2M_XVFB} bash ${CMAKE_SOURCE_DIR}/tests/app/drive_presenter.sh $<TARGET_FILE:math-to-metal> ${M2M_SHOTS} split)

# The classroom: the home screen, predict-then-reveal, and the walk through every lesson.
add_test(NAME "app: the home screen opens first, a click opens a lesson, and Home comes back"
  COMMAND ${M2M_XVFB} bash ${CMAKE_SOURCE_DIR}/tests/app/drive_home.sh $<TARGET_FILE:math-to-metal> ${M2M_SHOTS})
add_test(NAME "app: a guess before a send in Lesson 2 and a step in Lesson 3 is revealed after the run"
  COMMAND ${M2M_XVFB} bash ${CMAKE_SOURCE_DIR}/tests/app/drive_predict.sh $<TARGET_FILE:math-to-metal> ${M2M_SHOTS})
add_test(NAME "app: predict, then reveal works at 1024x768 and scale 1.5"
  COMMAND ${M2M_XVFB} bash ${CMAKE_SOURCE_DIR}/tests/app/drive_predict.sh $<TARGET_FILE:math-to-metal> ${M2M_SHOTS} 1024x768 1.5)
add_test(NAME "app: G and N make each lesson's guess from the keyboard, in presenter view and with the box scrolled out of sight"
  COMMAND ${M2M_XVFB} bash ${CMAKE_SOURCE_DIR}/tests/app/drive_guess_keys.sh $<TARGET_FILE:math-to-metal> ${M2M_SHOTS})

# The real-scale tabs (Lesson 1's and Lesson 3's), from scenarios.
add_test(NAME "app: a screenshot of Lesson 1's real scale view, from a scenario"
  COMMAND ${M2M_XVFB} bash ${CMAKE_SOURCE_DIR}/tests/app/screenshot_view.sh $<TARGET_FILE:math-to-metal> ${M2M_SHOTS}
    real_scale_gpus --scenario ${CMAKE_SOURCE_DIR}/tests/app/real_scale_scenario.json)
add_test(NAME "app: a count typed into the Real scale tab's GPU slider goes to the nearest it takes, and words are said"
  COMMAND ${M2M_XVFB} bash ${CMAKE_SOURCE_DIR}/tests/app/drive_real_scale_typed.sh $<TARGET_FILE:math-to-metal> ${M2M_SHOTS})
add_test(NAME "app: a screenshot of Lesson 3's frontier scale view, from a scenario"
  COMMAND ${M2M_XVFB} bash ${CMAKE_SOURCE_DIR}/tests/app/screenshot_view.sh $<TARGET_FILE:math-to-metal> ${M2M_SHOTS}
    frontier_search_tab --scenario ${CMAKE_SOURCE_DIR}/tests/app/frontier_scenario.json)

# Measure this machine: the GL compute path, its command line and its section of Lesson 1.
add_executable(test_measure_gl measure/test_gl_path.cpp)
target_link_libraries(test_measure_gl PRIVATE m2m_measure_gl m2m_glad Catch2::Catch2WithMain)
target_compile_options(test_measure_gl PRIVATE ${M2M_WARNINGS})
set(M2M_MEASURE_XVFB xvfb-run -a -s "-screen 0 640x480x24 -noreset")
add_test(NAME "app: measure: the GL compute path runs under Xvfb and agrees with the CPU"
  COMMAND ${M2M_MEASURE_XVFB} $<TARGET_FILE:test_measure_gl> "[gl]")
# Mesa offers only OpenGL 3.3 when told to (the environment is set in the command, since the
# "app: " tests' ENVIRONMENT property is set for all of them in tests/CMakeLists.txt).
add_test(NAME "app: measure: a GL 3.3 context makes the GPU row say compute is unavailable"
  COMMAND env MESA_GL_VERSION_OVERRIDE=3.3 MESA_GLSL_VERSION_OVERRIDE=330
    ${M2M_MEASURE_XVFB} $<TARGET_FILE:test_measure_gl> "[gl33]")
add_test(NAME "measure: bad input to math-to-metal measure exits 2 with one line"
  COMMAND bash ${CMAKE_SOURCE_DIR}/tests/measure/cli_measure.sh $<TARGET_FILE:math-to-metal> errors)
add_test(NAME "app: measure: math-to-metal measure --json prints every path, under Xvfb and on GL 3.3"
  COMMAND ${M2M_MEASURE_XVFB} bash ${CMAKE_SOURCE_DIR}/tests/measure/cli_measure.sh $<TARGET_FILE:math-to-metal> json)
add_test(NAME "app: measure: xdotool clicks Measure in Lesson 1 and the window keeps drawing"
  COMMAND xvfb-run -a -s "-screen 0 1920x1600x24 -noreset" bash ${CMAKE_SOURCE_DIR}/tests/measure/drive_measure.sh $<TARGET_FILE:math-to-metal> ${CMAKE_BINARY_DIR}/screenshots)

# The soak test: a seeded monkey (src/app/monkey.*) drives the real app through its own input
# path. Its generator is tested alone (no window, no ImGui: GLFW's header supplies key codes only);
# scripts/soak runs the full 20,000 frames and checks resident memory.
add_executable(test_monkey app/test_monkey.cpp ${CMAKE_SOURCE_DIR}/src/app/monkey.cpp)
target_include_directories(test_monkey PRIVATE ${CMAKE_SOURCE_DIR}/src)
target_link_libraries(test_monkey PRIVATE Catch2::Catch2WithMain)
target_compile_options(test_monkey PRIVATE ${M2M_WARNINGS})
catch_discover_tests(test_monkey TEST_PREFIX "monkey: ")
add_test(NAME "app: a seeded monkey drives every lesson for 2,000 frames without a crash"
  COMMAND ${M2M_XVFB} bash ${CMAKE_SOURCE_DIR}/tests/app/monkey.sh $<TARGET_FILE:math-to-metal> ${M2M_SHOTS} 2000 1)

# Benchmark, run by scripts/bench: the host's floor under the app's time to first frame, opening
# its window with the app's own code.
add_executable(bench_first_frame bench/bench_first_frame.cpp ${CMAKE_SOURCE_DIR}/src/app/window.cpp)
target_include_directories(bench_first_frame PRIVATE ${CMAKE_SOURCE_DIR}/src)
target_link_libraries(bench_first_frame PRIVATE m2m_lessons m2m_glad glfw OpenGL::GL PkgConfig::STB)
target_compile_options(bench_first_frame PRIVATE ${M2M_WARNINGS})
