# Lesson 2 (the wires inside a rack): topology, links, transfers and collectives in the core,
# `sim transfer` and `sim collective` on the command line, and their tests.
target_sources(m2m_core PRIVATE
  src/core/topology.cpp
  src/core/collectives.cpp
)
target_sources(m2m_cli PRIVATE
  src/cli/sim_transfer.cpp
  src/cli/sim_collective.cpp
)
target_sources(test_core PRIVATE
  tests/core/test_topology.cpp
  tests/core/test_collectives.cpp
)
target_sources(test_cli PRIVATE
  tests/core/test_cli_rack.cpp
)
