// The app's key latch and input queues around ImGui's GLFW backend, and the keyboard shortcuts.
#include "app/keyboard.hpp"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>

#include <algorithm>
#include <utility>

#include "app/file_actions.hpp"

namespace m2m::app {

namespace {

Input& input_of(GLFWwindow* window) { return *static_cast<Input*>(glfwGetWindowUserPointer(window)); }

void on_key(GLFWwindow* window, int key, int, int action, int mods) {
    if (action == GLFW_PRESS) input_of(window).presses.push_back({key, mods});
}

void queue_key(GLFWwindow* window, int key, int scancode, int action, int mods) {
    input_of(window).trickle.push({InputEvent::Kind::key, key, scancode, action, mods});
}
void queue_char(GLFWwindow* window, unsigned int c) {
    input_of(window).trickle.push({InputEvent::Kind::text, static_cast<int>(c), 0, 0, 0});
}
void queue_mouse_button(GLFWwindow* window, int button, int action, int mods) {
    input_of(window).trickle.push({InputEvent::Kind::mouse_button, button, 0, action, mods});
}

// The home screen: Up/Down pick a row, Enter opens it; Right opens Lesson 1.
template <class Plain>
void home_keys(App& app, const Plain& plain) {
    const int n = static_cast<int>(app.lessons.size());
    if (plain(GLFW_KEY_DOWN)) app.home_pick = (app.home_pick + 1) % n;
    if (plain(GLFW_KEY_UP)) app.home_pick = (app.home_pick + n - 1) % n;
    if (plain(GLFW_KEY_ENTER) || plain(GLFW_KEY_KP_ENTER)) app.go_to(static_cast<std::size_t>(app.home_pick));
    else if (plain(GLFW_KEY_RIGHT)) app.go_to(0);
}

// A lesson: the playback keys, and Left/Right/Home to move between lessons.
template <class Plain>
void lesson_keys(App& app, const Plain& plain) {
    ui::Playback& pb = app.lesson().playback();
    if (plain(GLFW_KEY_SPACE)) pb.toggle();
    if (plain(GLFW_KEY_PERIOD)) pb.step();
    if (plain(GLFW_KEY_R)) pb.reset();
    if (plain(GLFW_KEY_LEFT_BRACKET)) pb.slower();
    if (plain(GLFW_KEY_RIGHT_BRACKET)) pb.faster();
    if (plain(GLFW_KEY_RIGHT)) app.go_to(app.current + 1);
    if (plain(GLFW_KEY_LEFT)) app.current > 0 ? app.go_to(app.current - 1) : app.go_home();
    if (plain(GLFW_KEY_HOME) || plain(GLFW_KEY_0) || plain(GLFW_KEY_KP_0)) app.go_home();
    if (plain(GLFW_KEY_DOWN) || plain(GLFW_KEY_PAGE_DOWN)) app.shared.scene_scroll = 1;
    if (plain(GLFW_KEY_UP) || plain(GLFW_KEY_PAGE_UP)) app.shared.scene_scroll = -1;
    if (plain(GLFW_KEY_G)) app.lesson().guess_key(false);
    if (plain(GLFW_KEY_V)) app.lesson().view_key();
    if (plain(GLFW_KEY_T)) app.lesson().target_key();
    if (plain(GLFW_KEY_M)) app.lesson().mode_key();
    if (plain(GLFW_KEY_N)) app.lesson().guess_key(true);
}

}  // namespace

void connect_input(App& app) {
    glfwSetWindowUserPointer(app.window, &app.input);  // how the callbacks find the app's input
    glfwSetKeyCallback(app.window, on_key);  // before ImGui's, which then chains to it
    ImGui_ImplGlfw_InitForOpenGL(app.window, true);
    glfwSetKeyCallback(app.window, queue_key);  // ImGui's callbacks now run from deliver_input
    glfwSetCharCallback(app.window, queue_char);
    glfwSetMouseButtonCallback(app.window, queue_mouse_button);
}

void deliver_input(App& app) {
    GLFWwindow* window = app.window;
    for (const InputEvent& e : app.input.trickle.take_frame(ImGui::GetIO().WantTextInput)) {
        switch (e.kind) {
        case InputEvent::Kind::key: ImGui_ImplGlfw_KeyCallback(window, e.code, e.scancode, e.action, e.mods); break;
        case InputEvent::Kind::text: ImGui_ImplGlfw_CharCallback(window, static_cast<unsigned>(e.code)); break;
        case InputEvent::Kind::mouse_button: ImGui_ImplGlfw_MouseButtonCallback(window, e.code, e.action, e.mods); break;
        }
    }
}

void handle_keys(App& app) {
    const std::vector<KeyPress> presses = std::move(app.input.presses);
    app.input.presses.clear();
    app.shared.scene_scroll = 0;  // a scroll key lasts the frame it was pressed in
    auto with = [&](int key, int mods) {
        return std::any_of(presses.begin(), presses.end(), [&](const KeyPress& p) {
            return p.key == key && (p.mods & (GLFW_MOD_CONTROL | GLFW_MOD_SHIFT | GLFW_MOD_ALT)) == mods;
        });
    };
    auto ctrl = [&](int key) { return with(key, GLFW_MOD_CONTROL) || with(key, GLFW_MOD_CONTROL | GLFW_MOD_SHIFT); };
    if (with(GLFW_KEY_F11, 0)) set_fullscreen(app, !app.fullscreen);
    if (ctrl(GLFW_KEY_EQUAL) || ctrl(GLFW_KEY_KP_ADD)) zoom(app, app.shared.view.scale + 0.25f);
    if (ctrl(GLFW_KEY_MINUS) || ctrl(GLFW_KEY_KP_SUBTRACT)) zoom(app, app.shared.view.scale - 0.25f);
    if (ctrl(GLFW_KEY_0) || ctrl(GLFW_KEY_KP_0)) zoom(app, 1.0f);
    if (ctrl(GLFW_KEY_E)) save_screenshot(app, "math-to-metal-" + timestamp() + ".png");
    if (ctrl(GLFW_KEY_Q)) glfwSetWindowShouldClose(app.window, GLFW_TRUE);
    if (ImGui::GetIO().WantTextInput) return;
    auto plain = [&](int key) { return with(key, 0); };
    if (app.at_home) home_keys(app, plain);
    else lesson_keys(app, plain);
    if (plain(GLFW_KEY_H)) app.shared.view.presenter = !app.shared.view.presenter;
    if (plain(GLFW_KEY_C)) app.shared.view.controls_collapsed = !app.shared.view.controls_collapsed;
    for (int k = 0; k < 9; ++k)
        if (plain(GLFW_KEY_1 + k)) app.go_to(static_cast<std::size_t>(k));
    if (with(GLFW_KEY_SLASH, GLFW_MOD_SHIFT)) app.show_shortcuts = !app.show_shortcuts;
    if (plain(GLFW_KEY_ESCAPE)) app.show_shortcuts = false;
    // While the keyboard window is open the scroll keys scroll it, not the scene behind it.
    app.help_scroll = app.show_shortcuts ? std::exchange(app.shared.scene_scroll, 0) : 0;
}

}  // namespace m2m::app
