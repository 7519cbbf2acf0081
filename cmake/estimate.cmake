# Real scale: model presets, the training-step estimator, `sim estimate`, their tests and benchmark.
m2m_embed(M2M_MODELS_JSON assets/models.json models_json)

target_sources(m2m_core PRIVATE src/core/estimator.cpp)
target_sources(m2m_presets PRIVATE src/presets/models.cpp ${M2M_MODELS_JSON})
target_sources(m2m_cli PRIVATE src/cli/sim_estimate.cpp)
target_sources(test_core PRIVATE tests/core/test_estimator.cpp)
target_sources(test_cli PRIVATE tests/core/test_cli_estimate.cpp)

add_executable(bench_estimate tests/bench/bench_estimate.cpp)
target_link_libraries(bench_estimate PRIVATE m2m_core m2m_presets)
target_compile_options(bench_estimate PRIVATE ${M2M_WARNINGS})

# Lesson 1's "Real scale" tab and Lesson 3's "Frontier scale" tab, their headless tests and screenshots.
if(M2M_BUILD_APP)
  target_sources(m2m_ui PRIVATE
    src/lessons/space_wrap.cpp
    src/lessons/view_tabs.cpp
    src/lessons/real_scale_view.cpp
    src/lessons/frontier_view.cpp
  )
  target_sources(test_ui PRIVATE
    tests/ui/test_real_scale_view.cpp
    tests/ui/test_frontier_view.cpp
  )
  add_test(NAME "app: a screenshot of Lesson 1's real scale view, from a scenario"
    COMMAND ${M2M_XVFB} bash ${CMAKE_SOURCE_DIR}/tests/app/screenshot_view.sh $<TARGET_FILE:math-to-metal> ${M2M_SHOTS}
      real_scale_gpus --scenario ${CMAKE_SOURCE_DIR}/tests/app/real_scale_scenario.json)
  add_test(NAME "app: a screenshot of Lesson 3's frontier scale view, from a scenario"
    COMMAND ${M2M_XVFB} bash ${CMAKE_SOURCE_DIR}/tests/app/screenshot_view.sh $<TARGET_FILE:math-to-metal> ${M2M_SHOTS}
      frontier_search_tab --scenario ${CMAKE_SOURCE_DIR}/tests/app/frontier_scenario.json)
endif()
