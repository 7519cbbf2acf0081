// The menus and the windows they open. File items that need a path open a popup for it (its
// actions are file_actions.cpp's); the View menu changes the theme, scale, presenter view and
// fullscreen exactly as the keys do.
#include "app/menus.hpp"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "app/file_actions.hpp"
#include "lessons/key_help.hpp"

namespace m2m::app {

namespace {

void file_menu(App& app) {
    if (!ImGui::BeginMenu("File")) return;
    if (ImGui::MenuItem("Save scenario...", nullptr, false, !app.at_home)) {
        app.open_popup = "save";
        app.path_buffer = scenario_dir() + "/" + std::string(app.lesson().id()) + "-" + timestamp() + ".json";
    }
    if (ImGui::MenuItem("Open scenario...")) {
        app.open_popup = "open";
        app.path_buffer = scenario_dir() + "/";
    }
    if (ImGui::MenuItem("Export timeline as CSV...", nullptr, false, !app.at_home)) {
        app.open_popup = "csv";
        app.path_buffer = "math-to-metal-" + std::string(app.lesson().id()) + "-" + timestamp() + ".csv";
    }
    if (ImGui::MenuItem("Save screenshot", "Ctrl+E")) save_screenshot(app, "math-to-metal-" + timestamp() + ".png");
    ImGui::Separator();
    if (ImGui::MenuItem("Quit", "Ctrl+Q")) glfwSetWindowShouldClose(app.window, GLFW_TRUE);
    ImGui::EndMenu();
}

// A theme change takes effect between frames, with the fonts (zoom at the same scale).
void view_menu(App& app) {
    if (!ImGui::BeginMenu("View")) return;
    ui::View& view = app.shared.view;
    if (ImGui::MenuItem("Dark theme", nullptr, app.theme == ui::ThemeKind::dark)) app.theme = ui::ThemeKind::dark, zoom(app, view.scale);
    if (ImGui::MenuItem("Projector theme", nullptr, app.theme == ui::ThemeKind::projector))
        app.theme = ui::ThemeKind::projector, zoom(app, view.scale);
    ImGui::Separator();
    if (ImGui::MenuItem("Larger", "Ctrl +")) zoom(app, view.scale + 0.25f);
    if (ImGui::MenuItem("Smaller", "Ctrl -")) zoom(app, view.scale - 0.25f);
    if (ImGui::MenuItem("Actual size", "Ctrl 0")) zoom(app, 1.0f);
    ImGui::Separator();
    if (ImGui::MenuItem("Presenter view", "H", view.presenter)) view.presenter = !view.presenter;
    if (ImGui::MenuItem("Control panel", "C", !view.controls_collapsed)) view.controls_collapsed = !view.controls_collapsed;
    if (ImGui::MenuItem("Control panel: natural width", nullptr, false, view.controls_share != 1.0f)) view.controls_share = 1.0f;
    if (ImGui::MenuItem("Fullscreen", "F11", app.fullscreen)) set_fullscreen(app, !app.fullscreen);
    ImGui::EndMenu();
}

void lessons_menu(App& app) {
    if (!ImGui::BeginMenu("Lessons")) return;
    if (ImGui::MenuItem("Home: every lesson", "Home, 0", app.at_home)) app.go_home();
    for (std::size_t i = 0; i < app.lessons.size(); ++i) {
        const std::string title(app.lessons[i]->title());
        const std::string key = std::to_string(i + 1);
        if (ImGui::MenuItem(title.c_str(), key.c_str(), i == app.current && !app.at_home)) app.go_to(i);
    }
    ImGui::EndMenu();
}

// The scenarios already saved, one click each.
void saved_scenarios(App& app) {
    std::error_code ec;
    std::vector<std::string> files;
    for (const auto& e : std::filesystem::directory_iterator(scenario_dir(), ec))
        if (e.path().extension() == ".json") files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    for (const auto& f : files)
        if (ImGui::Selectable(std::filesystem::path(f).filename().string().c_str())) app.path_buffer = f;
    if (files.empty()) ImGui::TextDisabled("No scenarios in %s yet.", scenario_dir().c_str());
}

// What the popup's button does with the path typed in it.
void act_on_path(App& app, const std::string& kind) {
    if (kind == "save") save_scenario(app, app.path_buffer);
    if (kind == "csv") export_csv(app, app.path_buffer);
    if (kind == "open") {
        const std::string error = load_scenario(app, app.path_buffer);
        app.tell(error.empty() ? "opened " + app.path_buffer : error + "; nothing was changed");
    }
}

void draw_path_popup(App& app) {
    static constexpr const char* titles[][2] = {{"save", "Save scenario"}, {"open", "Open scenario"}, {"csv", "Export timeline"}};
    for (const auto& [kind, title] : titles) {
        if (app.open_popup == kind) {
            ImGui::OpenPopup(title);
            app.open_popup.clear();
        }
        ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 36, 0));
        if (!ImGui::BeginPopupModal(title, nullptr, ImGuiWindowFlags_NoSavedSettings)) continue;
        const std::string k = kind;
        if (k == "open") saved_scenarios(app);
        ImGui::SetNextItemWidth(-1);
        const bool enter = ImGui::InputText("##path", &app.path_buffer, ImGuiInputTextFlags_EnterReturnsTrue);
        if (ImGui::Button(k == "open" ? "Open" : "Save") || enter) {
            act_on_path(app, k);
            ImGui::CloseCurrentPopup();
        }
        ImGui::SameLine();
        if (ImGui::Button("Cancel")) ImGui::CloseCurrentPopup();
        ImGui::EndPopup();
    }
}

}  // namespace

void draw_menu(App& app) {
    if (!ImGui::BeginMenuBar()) return;
    file_menu(app);
    view_menu(app);
    lessons_menu(app);
    if (ImGui::BeginMenu("Help")) {
        if (ImGui::MenuItem("Keyboard shortcuts", "?")) app.show_shortcuts = true;
        ImGui::EndMenu();
    }
    if (!app.notice.empty()) {
        ImGui::SameLine(0, ImGui::GetFontSize() * 2);
        ImGui::TextDisabled("%s", app.notice.c_str());
    }
    const std::string gl = "GL: " + app.renderer;
    const float gl_x = ImGui::GetWindowWidth() - ImGui::CalcTextSize(gl.c_str()).x - ImGui::GetFontSize();
    if (gl_x > ImGui::GetCursorPosX() + ImGui::GetFontSize()) {
        ImGui::SameLine(gl_x);
        ImGui::TextDisabled("%s", gl.c_str());
    }
    ImGui::EndMenuBar();
}

void draw_popups(App& app) {
    lessons::draw_key_help(&app.show_shortcuts, app.help_scroll);
    draw_path_popup(app);
}

}  // namespace m2m::app
