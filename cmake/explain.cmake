# Explain it back (issue 5): the answer checker in the core, the record of the student's runs,
# the panel, and their tests.
target_sources(m2m_core PRIVATE src/core/explain_back.cpp)
target_sources(test_core PRIVATE tests/core/test_explain_back.cpp)
if(M2M_BUILD_APP)
  target_sources(m2m_ui PRIVATE
    src/lessons/run_log.cpp
    src/lessons/explain_panel.cpp
  )
  target_sources(test_ui PRIVATE tests/ui/test_explain_panel.cpp)
endif()
