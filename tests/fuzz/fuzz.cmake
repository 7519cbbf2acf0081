# Fuzzing: one libFuzzer target per input the app parses, tests/fuzz/fuzz_<target>.cpp.
# With M2M_FUZZ=ON (configure with CC=clang CXX=clang++; scripts/fuzz does; the top CMakeLists.txt
# sets the instrumentation flags) each is built with -fsanitize=fuzzer,address,undefined as
# fuzz_<target>. In every build, each target's corpus (tests/fuzz/corpus/<target>/: hand-written
# seeds and every crash input found) is replayed through the same LLVMFuzzerTestOneInput as a test,
# so a crash once found stays fixed.

# m2m_fuzz_target(NAME LIBS ... [SOURCES ...]): fuzz_NAME (M2M_FUZZ) or replay_NAME (otherwise),
# and the test that replays its corpus.
function(m2m_fuzz_target name)
  cmake_parse_arguments(F "" "" "LIBS;SOURCES" ${ARGN})
  if(M2M_FUZZ)
    set(exe fuzz_${name})
    add_executable(${exe} ${CMAKE_SOURCE_DIR}/tests/fuzz/fuzz_${name}.cpp ${F_SOURCES})
    target_link_options(${exe} PRIVATE -fsanitize=fuzzer)
    set(replay $<TARGET_FILE:${exe}> -runs=0)  # libFuzzer runs every corpus file once, then stops
  else()
    set(exe replay_${name})
    add_executable(${exe} ${CMAKE_SOURCE_DIR}/tests/fuzz/fuzz_${name}.cpp ${CMAKE_SOURCE_DIR}/tests/fuzz/replay_main.cpp ${F_SOURCES})
    set(replay $<TARGET_FILE:${exe}>)
  endif()
  target_include_directories(${exe} PRIVATE ${CMAKE_SOURCE_DIR}/tests/fuzz)
  target_link_libraries(${exe} PRIVATE ${F_LIBS})
  target_compile_options(${exe} PRIVATE ${M2M_WARNINGS})
  add_test(NAME "fuzz corpus: ${name} inputs replay without a crash"
           COMMAND ${replay} ${CMAKE_SOURCE_DIR}/tests/fuzz/corpus/${name})
  set_tests_properties("fuzz corpus: ${name} inputs replay without a crash" PROPERTIES TIMEOUT 300)
  set_property(GLOBAL APPEND PROPERTY M2M_FUZZ_TARGETS ${name})
endfunction()

foreach(sub IN ITEMS layers transfer collective split estimate)
  m2m_fuzz_target(sim_${sub} LIBS m2m_cli nlohmann_json::nlohmann_json)
endforeach()
m2m_fuzz_target(hardware_presets LIBS m2m_presets)
m2m_fuzz_target(model_presets LIBS m2m_presets)
if(M2M_BUILD_APP)
  m2m_fuzz_target(app_options SOURCES ${CMAKE_SOURCE_DIR}/src/app/options.cpp LIBS m2m_lessons m2m_cli CLI11::CLI11)
  m2m_fuzz_target(settings LIBS m2m_app_files)
  m2m_fuzz_target(scenario LIBS m2m_app_files)
endif()
if(TARGET m2m_measure_gl)  # the measure command line lives beside its GL path
  m2m_fuzz_target(measure_cli LIBS m2m_measure_gl)
endif()

# The targets this build has, one a line, for scripts/fuzz.
get_property(M2M_FUZZ_TARGETS GLOBAL PROPERTY M2M_FUZZ_TARGETS)
list(JOIN M2M_FUZZ_TARGETS "\n" M2M_FUZZ_TARGET_LINES)
file(WRITE ${CMAKE_BINARY_DIR}/fuzz-targets.txt "${M2M_FUZZ_TARGET_LINES}\n")
