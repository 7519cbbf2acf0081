# Lesson 3: the next-word network, its split across GPUs (data, tensor, pipeline, 3D), and `sim split`.
target_sources(m2m_core PRIVATE
  src/core/next_word.cpp
  src/core/split.cpp
)
target_sources(m2m_cli PRIVATE
  src/cli/sim_split.cpp
)
target_sources(test_core PRIVATE
  tests/core/test_next_word.cpp
  tests/core/test_split.cpp
)
target_sources(test_cli PRIVATE
  tests/core/test_cli_split.cpp
)
