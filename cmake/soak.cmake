# The soak test (issue 8): a seeded monkey (src/app/monkey.*) drives the real app through its own
# input path under Xvfb. Its frames are tested for determinism without a window; scripts/soak runs
# the full 20,000 frames and checks resident memory.
if(M2M_BUILD_APP)
  target_sources(math-to-metal PRIVATE src/app/monkey.cpp src/app/monkey_driver.cpp)

  # The generator alone: no window, no ImGui (GLFW's header supplies key codes only).
  add_executable(test_monkey tests/app/test_monkey.cpp src/app/monkey.cpp)
  target_include_directories(test_monkey PRIVATE src)
  target_link_libraries(test_monkey PRIVATE Catch2::Catch2WithMain)
  target_compile_options(test_monkey PRIVATE ${M2M_WARNINGS})
  catch_discover_tests(test_monkey TEST_PREFIX "monkey: ")

  add_test(NAME "app: a seeded monkey drives every lesson for 2,000 frames without a crash"
    COMMAND ${M2M_XVFB} bash ${CMAKE_SOURCE_DIR}/tests/app/monkey.sh $<TARGET_FILE:math-to-metal> ${M2M_SHOTS} 2000 1)
endif()
