# Measure this machine (issue 7): Lesson 1's network run for real on this CPU (a plain loop and
# OpenBLAS on every core) and on the GPU (an OpenGL 4.3 compute shader), `math-to-metal measure`,
# the Measure section of Lesson 1's panel, and their tests.

# OpenBLAS from Debian (libopenblas-dev): its pkg-config file, else the library and header by hand.
find_package(PkgConfig REQUIRED)
pkg_check_modules(OPENBLAS IMPORTED_TARGET openblas)
if(OPENBLAS_FOUND)
  set(M2M_OPENBLAS PkgConfig::OPENBLAS)
else()
  find_library(M2M_OPENBLAS_LIB NAMES openblas REQUIRED)
  find_path(M2M_OPENBLAS_INCLUDE cblas.h PATH_SUFFIXES openblas openblas-pthread REQUIRED)
  add_library(m2m_openblas INTERFACE)
  target_link_libraries(m2m_openblas INTERFACE ${M2M_OPENBLAS_LIB})
  target_include_directories(m2m_openblas INTERFACE ${M2M_OPENBLAS_INCLUDE})
  set(M2M_OPENBLAS m2m_openblas)
endif()

# The CPU paths and the measurement itself: no GL, so the UI and its headless tests can link it.
add_library(m2m_measure STATIC
  src/measure/cpu_paths.cpp
  src/measure/measurement.cpp
  src/measure/gpu_run.cpp
)
target_include_directories(m2m_measure PUBLIC src include)
target_link_libraries(m2m_measure PUBLIC m2m_core m2m_presets PRIVATE ${M2M_OPENBLAS} Threads::Threads)
target_compile_options(m2m_measure PRIVATE ${M2M_WARNINGS})

add_executable(test_measure
  tests/measure/test_cpu_paths.cpp
  tests/measure/test_measurement.cpp
)
target_link_libraries(test_measure PRIVATE m2m_measure Catch2::Catch2WithMain)
target_compile_options(test_measure PRIVATE ${M2M_WARNINGS})
catch_discover_tests(test_measure TEST_PREFIX "measure: ")

if(M2M_BUILD_APP)
  # The compute shader, embedded so the binary needs no file beside it.
  block()
    set(EMBED_SOURCE shaders/dense_layer.comp)
    set(EMBED_NAMESPACE m2m::measure)
    set(EMBED_SYMBOL dense_layer_comp)
    file(READ ${CMAKE_SOURCE_DIR}/${EMBED_SOURCE} EMBED_TEXT)
    configure_file(${CMAKE_SOURCE_DIR}/cmake/embed.cpp.in ${CMAKE_BINARY_DIR}/generated/dense_layer_comp.cpp @ONLY)
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/${EMBED_SOURCE})
  endblock()

  # The GL path, its hidden context and the command line: only the app and the GL test link it.
  add_library(m2m_measure_gl STATIC
    src/measure/gl_path.cpp
    src/measure/gl_context.cpp
    src/measure/measure_cli.cpp
    ${CMAKE_BINARY_DIR}/generated/dense_layer_comp.cpp
  )
  target_link_libraries(m2m_measure_gl PUBLIC m2m_measure PRIVATE m2m_cli m2m_glad glfw OpenGL::GL CLI11::CLI11
                        nlohmann_json::nlohmann_json ${CMAKE_DL_LIBS})
  target_compile_options(m2m_measure_gl PRIVATE ${M2M_WARNINGS})
  target_link_libraries(math-to-metal PRIVATE m2m_measure_gl)

  # The Measure section of Lesson 1's panel: it drives the GPU path through measure::GpuRun.
  target_sources(m2m_ui PRIVATE src/lessons/measure_view.cpp)
  target_link_libraries(m2m_ui PUBLIC m2m_measure)
  target_sources(test_ui PRIVATE tests/measure/test_measure_view.cpp)

  add_executable(test_measure_gl tests/measure/test_gl_path.cpp)
  target_link_libraries(test_measure_gl PRIVATE m2m_measure_gl m2m_glad Catch2::Catch2WithMain)
  target_compile_options(test_measure_gl PRIVATE ${M2M_WARNINGS})

  set(M2M_MEASURE_XVFB xvfb-run -a -s "-screen 0 640x480x24 -noreset")
  add_test(NAME "app: measure: the GL compute path runs under Xvfb and agrees with the CPU"
    COMMAND ${M2M_MEASURE_XVFB} $<TARGET_FILE:test_measure_gl> "[gl]")
  # Mesa offers only OpenGL 3.3 when told to (the environment is set in the command, since the
  # "app: " tests' ENVIRONMENT property is set for all of them in CMakeLists.txt).
  add_test(NAME "app: measure: a GL 3.3 context makes the GPU row say compute is unavailable"
    COMMAND env MESA_GL_VERSION_OVERRIDE=3.3 MESA_GLSL_VERSION_OVERRIDE=330
      ${M2M_MEASURE_XVFB} $<TARGET_FILE:test_measure_gl> "[gl33]")
  add_test(NAME "measure: bad input to math-to-metal measure exits 2 with one line"
    COMMAND bash ${CMAKE_SOURCE_DIR}/tests/measure/cli_measure.sh $<TARGET_FILE:math-to-metal> errors)
  add_test(NAME "app: measure: math-to-metal measure --json prints every path, under Xvfb and on GL 3.3"
    COMMAND ${M2M_MEASURE_XVFB} bash ${CMAKE_SOURCE_DIR}/tests/measure/cli_measure.sh $<TARGET_FILE:math-to-metal> json)
  add_test(NAME "app: measure: xdotool clicks Measure in Lesson 1 and the window keeps drawing"
    COMMAND xvfb-run -a -s "-screen 0 1920x1600x24 -noreset" bash ${CMAKE_SOURCE_DIR}/tests/measure/drive_measure.sh $<TARGET_FILE:math-to-metal> ${CMAKE_BINARY_DIR}/screenshots)
endif()
