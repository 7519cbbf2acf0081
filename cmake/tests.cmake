# Tests (Catch2 v2 through CTest) and benchmarks. Each suite links only what it needs.
include(Catch)

add_executable(test_core
  tests/core/test_scheduler.cpp
  tests/core/test_layer_run.cpp
  tests/core/test_presets.cpp
)
target_link_libraries(test_core PRIVATE m2m_core m2m_presets Catch2::Catch2WithMain)
target_compile_options(test_core PRIVATE ${M2M_WARNINGS})
catch_discover_tests(test_core TEST_PREFIX "core: ")

add_executable(test_cli
  tests/core/test_cli.cpp
)
target_link_libraries(test_cli PRIVATE m2m_cli nlohmann_json::nlohmann_json Catch2::Catch2WithMain)
target_compile_options(test_cli PRIVATE ${M2M_WARNINGS})
catch_discover_tests(test_cli TEST_PREFIX "cli: ")

add_executable(bench_core tests/bench/bench_core.cpp)
target_link_libraries(bench_core PRIVATE m2m_core m2m_presets)
target_compile_options(bench_core PRIVATE ${M2M_WARNINGS})

if(M2M_BUILD_APP)
  include(cmake/app_tests.cmake)
endif()
