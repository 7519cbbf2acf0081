# The UI library (ImGui panels; no GL calls) and the windowed app (GLFW, glad, OpenGL).
find_package(PkgConfig REQUIRED)
pkg_check_modules(IMGUI REQUIRED IMPORTED_TARGET imgui)
pkg_check_modules(FREETYPE REQUIRED IMPORTED_TARGET freetype2)
pkg_check_modules(STB REQUIRED IMPORTED_TARGET stb)
find_package(glfw3 3.3 REQUIRED)
find_package(glm REQUIRED)
find_package(OpenGL REQUIRED)

# glad2 loader for OpenGL 4.3 core, generated at build time by Debian's glad (no download).
set(GLAD_DIR ${CMAKE_BINARY_DIR}/glad)
add_custom_command(
  OUTPUT ${GLAD_DIR}/src/gl.c ${GLAD_DIR}/include/glad/gl.h
  COMMAND /usr/bin/glad --reproducible --quiet --api gl:core=4.3 --extensions "" --out-path ${GLAD_DIR} c
  COMMENT "Generating the OpenGL 4.3 core loader with glad"
  VERBATIM)
add_library(m2m_glad STATIC ${GLAD_DIR}/src/gl.c)
target_include_directories(m2m_glad PUBLIC ${GLAD_DIR}/include)

add_library(m2m_ui STATIC
  src/ui/imgui_assert.cpp
  src/ui/theme.cpp
  src/ui/fonts.cpp
  src/ui/widgets.cpp
  src/ui/playback.cpp
  src/ui/view.cpp
  src/ui/network_view.cpp
  src/ui/timeline_view.cpp
  src/lessons/catalog.cpp
  src/lessons/saved_state.cpp
  src/lessons/layer_run_panel.cpp
  src/lessons/rack_panel.cpp
  src/ui/rack_view.cpp
  src/lessons/split_panel.cpp
)
target_include_directories(m2m_ui PUBLIC src include /usr/include/imgui/backends)
# IM_ASSERT stays on in Release for our code too, and a failure aborts (src/ui/imgui_config.hpp).
target_compile_definitions(m2m_ui PUBLIC [[IMGUI_USER_CONFIG="ui/imgui_config.hpp"]])
target_link_libraries(m2m_ui PUBLIC m2m_core m2m_presets nlohmann_json::nlohmann_json PkgConfig::IMGUI PkgConfig::FREETYPE PkgConfig::STB glm::glm)
target_compile_options(m2m_ui PRIVATE ${M2M_WARNINGS})

# What the app keeps on disk (settings, scenarios): no window needed, so tests link it alone.
add_library(m2m_app_files STATIC
  src/app/files.cpp
  src/app/settings.cpp
  src/app/scenario.cpp
)
target_link_libraries(m2m_app_files PUBLIC m2m_ui nlohmann_json::nlohmann_json)
target_compile_options(m2m_app_files PRIVATE ${M2M_WARNINGS})

add_executable(math-to-metal
  src/app/main.cpp
  src/app/options.cpp
  src/app/app.cpp
  src/app/window.cpp
  src/app/input_trickle.cpp
)
target_link_libraries(math-to-metal PRIVATE m2m_app_files m2m_ui m2m_cli m2m_glad glfw OpenGL::GL CLI11::CLI11 ${CMAKE_DL_LIBS} Threads::Threads)
target_compile_definitions(math-to-metal PRIVATE M2M_VERSION="${PROJECT_VERSION}")
target_compile_options(math-to-metal PRIVATE ${M2M_WARNINGS})
