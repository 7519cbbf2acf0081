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
