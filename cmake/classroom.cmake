# The classroom (issue 5): the home screen, predict-then-reveal in Lessons 2 and 3, their runs
# recorded for Explain it back, and the check that no text is clipped at a projector's size.
target_sources(m2m_core PRIVATE src/core/predict_reveal.cpp)
target_sources(test_core PRIVATE tests/core/test_predict_reveal.cpp)
if(M2M_BUILD_APP)
  target_sources(m2m_ui PRIVATE src/ui/home_screen.cpp)
  target_sources(test_ui PRIVATE
    tests/ui/test_home_screen.cpp
    tests/ui/test_classroom.cpp
    tests/ui/test_no_clipping.cpp
  )
  target_sources(test_app_files PRIVATE tests/app/test_home_settings.cpp)
  add_test(NAME "app: the home screen opens first, a click opens a lesson, and Home comes back"
    COMMAND ${M2M_XVFB} bash ${CMAKE_SOURCE_DIR}/tests/app/drive_home.sh $<TARGET_FILE:math-to-metal> ${M2M_SHOTS})
  add_test(NAME "app: a guess before a send in Lesson 2 and a step in Lesson 3 is revealed after the run"
    COMMAND ${M2M_XVFB} bash ${CMAKE_SOURCE_DIR}/tests/app/drive_predict.sh $<TARGET_FILE:math-to-metal> ${M2M_SHOTS})
  add_test(NAME "app: predict, then reveal works at 1024x768 and scale 1.5"
    COMMAND ${M2M_XVFB} bash ${CMAKE_SOURCE_DIR}/tests/app/drive_predict.sh $<TARGET_FILE:math-to-metal> ${M2M_SHOTS} 1024x768 1.5)
endif()
