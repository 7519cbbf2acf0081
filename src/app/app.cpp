// The frame loop: poll input, move the playback, draw the current lesson, render, repeat.
// Also what an instructor needs around the lessons: keyboard, themes, scale, presenter view,
// fullscreen, settings kept between runs, scenarios and exports.
//
// [SECTION] state   [SECTION] files   [SECTION] keyboard   [SECTION] menus, tabs, popups
// [SECTION] start-up   [SECTION] loop
#include "app/app.hpp"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <imgui_stdlib.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <future>
#include <iostream>
#include <memory>
#include <thread>
#include <vector>

#include "app/files.hpp"
#include "app/input_trickle.hpp"
#include "app/monkey_driver.hpp"
#include "app/scenario.hpp"
#include "app/settings.hpp"
#include "app/window.hpp"
#include "lessons/catalog.hpp"
#include "lessons/layers/layer_run_panel.hpp"
#include "ui/fonts.hpp"
#include "lessons/home_screen.hpp"
#include "ui/theme.hpp"
#include "ui/view.hpp"
#include "ui/widgets.hpp"

namespace m2m::app {

namespace {

using Clock = std::chrono::steady_clock;
const Clock::time_point g_process_start = Clock::now();  // static init: before main's first line

// [SECTION] state ---------------------------------------------------------------------------

// ImGui 1.86 reads keys as "down this frame", so a key pressed and released between two frames
// (a quick tap, or a remote clicker) would be lost. GLFW's callback latches every press until the
// next frame reads it; ImGui's own callback is chained after ours.
struct KeyPress {
    int key;
    int mods;  // as they were at the press: a quick Ctrl+= may be fully released by the frame
};

/// What the window's callbacks collect between frames. The app owns it; GLFW hands the callbacks
/// the window, whose user pointer leads back here.
struct Input {
    std::vector<KeyPress> presses;  // every press since the last frame read them
    // The window's keys, text and clicks wait here and reach ImGui's backend (and, through it,
    // on_key) at most one change per key or button per frame: see input_trickle.hpp.
    InputTrickle trickle;
};

struct App {
    Options options;
    Settings settings;
    std::string settings_dir;
    bool keep_settings = false;  // interactive runs only: tests and screenshots leave them alone
    GLFWwindow* window = nullptr;
    Input input;              // the window's user pointer: its callbacks fill this
    lessons::Context shared;  // what every lesson shares (view, item registry, run log); outlives them
    std::vector<std::unique_ptr<lessons::Lesson>> lessons;
    std::vector<bool> intro_hidden;
    std::size_t current = 0;
    bool at_home = false;    // the home screen is showing (`current` is the lesson it came from)
    int home_pick = 0;       // the home screen's highlighted row: Enter opens it
    bool select_tab = true;  // tell the tab bar to follow `current` on the next frame
    bool show_shortcuts = false;
    float pending_scale = 0;  // a new UI scale, applied between frames
    ui::ThemeKind theme = ui::ThemeKind::dark;
    bool fullscreen = false;
    int windowed[4] = {100, 100, 1280, 720};  // position and size to return to from fullscreen
    std::string notice;  // one message shown in the menu bar (a saved file, a problem)
    std::string renderer;
    std::string last_status;
    std::string open_popup;  // "save", "open", "csv" when a path popup should open
    std::string path_buffer;

    lessons::Lesson& lesson() { return *lessons[current]; }
    void go_to(std::size_t i) {
        if (i < lessons.size() && (i != current || at_home)) {
            current = i;
            at_home = false;
            select_tab = true;
        }
    }
    void go_home() {
        if (at_home) return;
        at_home = true;
        home_pick = static_cast<int>(current);
        select_tab = true;
    }
    /// "home", or the lesson's id: where --log-state says the app is.
    std::string at() const { return at_home ? std::string("home") : std::string(lessons[current]->id()); }
    void tell(const std::string& message) {
        notice = message;
        std::cout << "notice: " << message << std::endl;
    }
};

std::string timestamp() {
    char buf[32];
    const std::time_t now = std::time(nullptr);
    std::strftime(buf, sizeof buf, "%Y%m%d-%H%M%S", std::localtime(&now));
    return buf;
}

// [SECTION] files ---------------------------------------------------------------------------

void save_screenshot(App& app, const std::string& path) {
    int w = 0, h = 0;
    glfwGetFramebufferSize(app.window, &w, &h);
    std::string error;
    app.tell(save_png(w, h, path, error) ? "saved " + path : error);
}

std::string scenario_dir() { return config_dir() + "/scenarios"; }

void save_scenario(App& app, const std::string& path) {
    const Scenario s{std::string(app.lesson().id()), app.lesson().save_state()};
    const std::string error = write_file_atomically(path, scenario_json(s));
    app.tell(error.empty() ? "saved scenario " + path : error);
}

/// Loads a scenario into its lesson; on any problem the lesson stays as it was.
std::string load_scenario(App& app, const std::string& path) {
    std::string error;
    const auto text = read_file(path, error);
    if (!text) return error;
    try {
        const Scenario s = parse_scenario(*text);
        for (std::size_t i = 0; i < app.lessons.size(); ++i)
            if (app.lessons[i]->id() == s.lesson) {
                app.lessons[i]->load_state(s.state);
                app.go_to(i);
            }
    } catch (const std::exception& e) {
        return path + ": " + e.what();
    }
    return {};
}

void export_csv(App& app, const std::string& path) {
    const std::string csv = app.lesson().timeline_csv();
    if (csv.empty()) {
        app.tell("this lesson has no timeline to export yet");
        return;
    }
    const std::string error = write_file_atomically(path, csv);
    app.tell(error.empty() ? "saved timeline " + path : error);
}

// [SECTION] keyboard ------------------------------------------------------------------------

void set_fullscreen(App& app, bool on) {
    if (on == app.fullscreen) return;
    GLFWmonitor* monitor = glfwGetPrimaryMonitor();
    if (on && monitor) {
        glfwGetWindowPos(app.window, &app.windowed[0], &app.windowed[1]);
        glfwGetWindowSize(app.window, &app.windowed[2], &app.windowed[3]);
        const GLFWvidmode* mode = glfwGetVideoMode(monitor);
        glfwSetWindowMonitor(app.window, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
        app.fullscreen = true;
    } else if (!on) {
        glfwSetWindowMonitor(app.window, nullptr, app.windowed[0], app.windowed[1], app.windowed[2], app.windowed[3], 0);
        app.fullscreen = false;
    }
}

void zoom(App& app, float scale) {
    app.pending_scale = std::clamp(std::round(scale * 4.0f) / 4.0f, ui::View::min_scale, ui::View::max_scale);
}

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
void deliver_input(GLFWwindow* window) {
    for (const InputEvent& e : input_of(window).trickle.take_frame(ImGui::GetIO().WantTextInput)) {
        switch (e.kind) {
        case InputEvent::Kind::key: ImGui_ImplGlfw_KeyCallback(window, e.code, e.scancode, e.action, e.mods); break;
        case InputEvent::Kind::text: ImGui_ImplGlfw_CharCallback(window, static_cast<unsigned>(e.code)); break;
        case InputEvent::Kind::mouse_button: ImGui_ImplGlfw_MouseButtonCallback(window, e.code, e.action, e.mods); break;
        }
    }
}

// Shortcuts act only when no text field has the keyboard (typing "r" in a box must not reset).
void handle_keys(App& app) {
    const ImGuiIO& io = ImGui::GetIO();
    const std::vector<KeyPress> presses = std::move(app.input.presses);
    app.input.presses.clear();
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
    if (io.WantTextInput) return;
    auto plain = [&](int key) { return with(key, 0); };
    if (app.at_home) {  // the home screen: pick a row, Enter opens it; Right opens Lesson 1
        const int n = static_cast<int>(app.lessons.size());
        if (plain(GLFW_KEY_DOWN)) app.home_pick = (app.home_pick + 1) % n;
        if (plain(GLFW_KEY_UP)) app.home_pick = (app.home_pick + n - 1) % n;
        if (plain(GLFW_KEY_ENTER) || plain(GLFW_KEY_KP_ENTER)) app.go_to(static_cast<std::size_t>(app.home_pick));
        else if (plain(GLFW_KEY_RIGHT)) app.go_to(0);
    } else {
        ui::Playback& pb = app.lesson().playback();
        if (plain(GLFW_KEY_SPACE)) pb.toggle();
        if (plain(GLFW_KEY_PERIOD)) pb.step();
        if (plain(GLFW_KEY_R)) pb.reset();
        if (plain(GLFW_KEY_LEFT_BRACKET)) pb.slower();
        if (plain(GLFW_KEY_RIGHT_BRACKET)) pb.faster();
        if (plain(GLFW_KEY_RIGHT)) app.go_to(app.current + 1);
        if (plain(GLFW_KEY_LEFT)) app.current > 0 ? app.go_to(app.current - 1) : app.go_home();
        if (plain(GLFW_KEY_HOME) || plain(GLFW_KEY_0) || plain(GLFW_KEY_KP_0)) app.go_home();
    }
    if (plain(GLFW_KEY_H)) app.shared.view.presenter = !app.shared.view.presenter;
    for (int k = 0; k < 9; ++k)
        if (plain(GLFW_KEY_1 + k)) app.go_to(static_cast<std::size_t>(k));
    if (with(GLFW_KEY_SLASH, GLFW_MOD_SHIFT)) app.show_shortcuts = !app.show_shortcuts;
    if (plain(GLFW_KEY_ESCAPE)) app.show_shortcuts = false;
}

// [SECTION] menus, tabs, popups -------------------------------------------------------------

void draw_menu(App& app) {
    if (!ImGui::BeginMenuBar()) return;
    if (ImGui::BeginMenu("File")) {
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
    if (ImGui::BeginMenu("View")) {
        if (ImGui::MenuItem("Dark theme", nullptr, app.theme == ui::ThemeKind::dark)) app.theme = ui::ThemeKind::dark, zoom(app, app.shared.view.scale);
        if (ImGui::MenuItem("Projector theme", nullptr, app.theme == ui::ThemeKind::projector))
            app.theme = ui::ThemeKind::projector, zoom(app, app.shared.view.scale);
        ImGui::Separator();
        if (ImGui::MenuItem("Larger", "Ctrl +")) zoom(app, app.shared.view.scale + 0.25f);
        if (ImGui::MenuItem("Smaller", "Ctrl -")) zoom(app, app.shared.view.scale - 0.25f);
        if (ImGui::MenuItem("Actual size", "Ctrl 0")) zoom(app, 1.0f);
        ImGui::Separator();
        if (ImGui::MenuItem("Presenter view", "H", app.shared.view.presenter)) app.shared.view.presenter = !app.shared.view.presenter;
        if (ImGui::MenuItem("Fullscreen", "F11", app.fullscreen)) set_fullscreen(app, !app.fullscreen);
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Lessons")) {
        if (ImGui::MenuItem("Home: every lesson", "Home, 0", app.at_home)) app.go_home();
        for (std::size_t i = 0; i < app.lessons.size(); ++i) {
            const std::string title(app.lessons[i]->title());
            const std::string key = std::to_string(i + 1);
            if (ImGui::MenuItem(title.c_str(), key.c_str(), i == app.current && !app.at_home)) app.go_to(i);
        }
        ImGui::EndMenu();
    }
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
        if (k == "open") {  // the scenarios already saved, one click each
            std::error_code ec;
            std::vector<std::string> files;
            for (const auto& e : std::filesystem::directory_iterator(scenario_dir(), ec))
                if (e.path().extension() == ".json") files.push_back(e.path().string());
            std::sort(files.begin(), files.end());
            for (const auto& f : files)
                if (ImGui::Selectable(std::filesystem::path(f).filename().string().c_str())) app.path_buffer = f;
            if (files.empty()) ImGui::TextDisabled("No scenarios in %s yet.", scenario_dir().c_str());
        }
        ImGui::SetNextItemWidth(-1);
        const bool enter = ImGui::InputText("##path", &app.path_buffer, ImGuiInputTextFlags_EnterReturnsTrue);
        if (ImGui::Button(k == "open" ? "Open" : "Save") || enter) {
            if (k == "save") save_scenario(app, app.path_buffer);
            if (k == "csv") export_csv(app, app.path_buffer);
            if (k == "open") {
                const std::string error = load_scenario(app, app.path_buffer);
                app.tell(error.empty() ? "opened " + app.path_buffer : error + "; nothing was changed");
            }
            ImGui::CloseCurrentPopup();
        }
        ImGui::SameLine();
        if (ImGui::Button("Cancel")) ImGui::CloseCurrentPopup();
        ImGui::EndPopup();
    }
}

void draw_shortcuts(App& app) {
    if (!app.show_shortcuts) return;
    const ImVec2 centre(ImGui::GetIO().DisplaySize.x * 0.5f, ImGui::GetIO().DisplaySize.y * 0.5f);
    ImGui::SetNextWindowPos(centre, ImGuiCond_Always, ImVec2(0.5f, 0.5f));
    ImGui::Begin("Keyboard shortcuts", &app.show_shortcuts,
                 ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings);
    static constexpr const char* rows[][2] = {
        {"Space", "run / pause"},           {".", "step to the next event"},       {"R", "reset"},
        {"[  ]", "slower / faster"},        {"Left / Right", "previous / next lesson"},
        {"1 ... 4", "jump to a lesson"},    {"Home  or  0", "the home screen: every lesson"},
        {"Up / Down, Enter", "pick and open a lesson (home screen)"},
        {"Ctrl +  Ctrl -  Ctrl 0", "larger / smaller / actual size"},
        {"H", "presenter view (hide the controls)"}, {"F11", "fullscreen"},
        {"Ctrl+E", "save a screenshot"},    {"?", "this help (Esc closes)"},       {"Ctrl+Q", "quit"},
    };
    if (ImGui::BeginTable("keys", 2)) {
        for (const auto& r : rows) {
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(r[0]);
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(r[1]);
        }
        ImGui::EndTable();
    }
    ImGui::End();
}

void draw_intro(App& app) {
    if (app.at_home || app.shared.view.presenter || app.intro_hidden[app.current] || app.lesson().intro().empty()) return;
    ImGui::PushStyleColor(ImGuiCol_Text, app.shared.view.theme.text);
    ImGui::PushTextWrapPos(ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize("Got it").x - ImGui::GetFontSize() * 2);
    ImGui::TextUnformatted(std::string(app.lesson().intro()).c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
    ImGui::SameLine();
    if (ImGui::SmallButton("Got it")) app.intro_hidden[app.current] = true;
    app.shared.items.note("intro_close");
}

void draw_frame(App& app, float dt_s) {
    const ImGuiIO& io = ImGui::GetIO();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(io.DisplaySize);
    ImGui::Begin("Math to Metal", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                     ImGuiWindowFlags_MenuBar | ImGuiWindowFlags_NoBringToFrontOnFocus |
                     ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBackground);
    draw_menu(app);
    if (ImGui::BeginTabBar("lessons")) {
        if (ImGui::BeginTabItem("Home", nullptr, app.select_tab && app.at_home ? ImGuiTabItemFlags_SetSelected : 0)) {
            if (!app.select_tab) app.go_home();
            ImGui::EndTabItem();
        }
        app.shared.items.note("home_tab");
        for (std::size_t i = 0; i < app.lessons.size(); ++i) {
            const std::string title(app.lessons[i]->title());
            const ImGuiTabItemFlags flags = app.select_tab && !app.at_home && i == app.current ? ImGuiTabItemFlags_SetSelected : 0;
            if (ImGui::BeginTabItem(title.c_str(), nullptr, flags)) {
                if (!app.select_tab) app.go_to(i);
                ImGui::EndTabItem();
            }
        }
        app.select_tab = false;
        const std::size_t next = app.at_home ? 0 : app.current + 1;
        if (next < app.lessons.size()) {  // every lesson ends with a pointer to the next
            std::string label = "Next: " + std::string(app.lessons[next]->title()) + "  \xe2\x86\x92";
            if (ImGui::CalcTextSize(label.c_str()).x > ImGui::GetContentRegionAvail().x * 0.3f) label = "Next  \xe2\x86\x92";
            if (ImGui::TabItemButton(label.c_str(), ImGuiTabItemFlags_Trailing)) app.go_to(next);
        }
        ImGui::EndTabBar();
    }
    if (app.at_home) {
        const int pick = lessons::draw_home(app.shared, app.lessons, app.home_pick);
        if (pick >= 0) app.go_to(static_cast<std::size_t>(pick));
    } else {
        draw_intro(app);
        ImGui::PushID(std::string(app.lesson().id()).c_str());  // each lesson's children keep their own scroll state
        app.lesson().draw(dt_s);
        ImGui::PopID();
    }
    ImGui::End();
    draw_shortcuts(app);
    draw_path_popup(app);
}

// [SECTION] start-up ------------------------------------------------------------------------

struct FrameStats {
    std::vector<double> ms;
    double percentile(double p) const {
        if (ms.empty()) return 0;
        std::vector<double> v = ms;
        std::sort(v.begin(), v.end());
        const std::size_t i = std::min(v.size() - 1, static_cast<std::size_t>(std::ceil(p * static_cast<double>(v.size())) - 1));
        return v[i];
    }
};

double peak_rss_mb() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_maxrss) / 1024.0;
}

void configure_lessons(App& app) {
    app.lessons = lessons::make_lessons(app.shared);
    app.intro_hidden.assign(app.lessons.size(), false);
    const Options& o = app.options;
    for (auto& lesson : app.lessons) {
        lesson->playback().set_speed(app.settings.speed);
        auto* layers = dynamic_cast<lessons::LayerRunPanel*>(lesson.get());
        if (!layers || (o.widths.empty() && o.mode.empty() && !o.cpu_cores && !o.gpu_cores)) continue;
        core::LayerRunSetup s = layers->setup();
        if (!o.widths.empty()) s.network.widths = o.widths;
        if (!o.mode.empty()) {
            s.mode = o.mode == "hardware" ? core::TimingMode::hardware : core::TimingMode::lesson;
            s.cpu_cores = s.mode == core::TimingMode::hardware ? s.cpu.cores : 1;
            s.gpu_cores = s.mode == core::TimingMode::hardware ? s.gpu.cores : 6;
        }
        if (o.cpu_cores) s.cpu_cores = o.cpu_cores;
        if (o.gpu_cores) s.gpu_cores = o.gpu_cores;
        layers->apply(s);
    }
    // The home screen unless a lesson is named, a lesson's flag is given, or the settings remember one.
    const bool lesson_flags = !o.widths.empty() || !o.mode.empty() || o.cpu_cores || o.gpu_cores || o.play;
    const std::string saved = lesson_flags && app.settings.lesson == "home" ? "layers" : app.settings.lesson;
    const std::string& wanted = o.lesson.empty() ? saved : o.lesson;
    for (std::size_t i = 0; i < app.lessons.size(); ++i)
        if (app.lessons[i]->id() == wanted) app.current = i;
    app.at_home = wanted == "home";
}

void apply_scale_and_theme(App& app, float scale) {
    ui::apply_theme(app.shared.view, app.theme, scale);
    ImGuiIO& io = ImGui::GetIO();
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    const ui::FontStatus fonts = ui::load_fonts(io, scale);  // a new atlas at the new pixel size
    ImGui_ImplOpenGL3_CreateFontsTexture();
    if (fonts.fallback) {
        std::cerr << "math-to-metal: " << fonts.message << "\n";
        app.notice = fonts.message;
    }
}

void remember_settings(App& app) {
    if (!app.keep_settings) return;
    Settings& s = app.settings;
    s.theme = app.theme == ui::ThemeKind::dark ? "dark" : "projector";
    s.scale = app.shared.view.scale;
    s.lesson = app.at();
    s.speed = app.lesson().playback().speed();
    if (!app.fullscreen) glfwGetWindowSize(app.window, &s.window_width, &s.window_height);
    const std::string error = save_settings(app.settings_dir, s);
    if (!error.empty()) std::cerr << "math-to-metal: settings not saved: " << error << "\n";
}

}  // namespace

// [SECTION] loop ----------------------------------------------------------------------------

int run(const Options& options) {
    App app;
    app.options = options;
    app.settings_dir = config_dir();
    const bool scripted = options.bench_frames > 0 || options.frames > 0 || !options.screenshot.empty();
    app.keep_settings = !scripted;
    const LoadedSettings loaded = load_settings(app.settings_dir);
    app.settings = loaded.settings;
    if (!loaded.message.empty()) {
        std::cerr << "math-to-metal: " << loaded.message << "\n";
        app.notice = loaded.message;
    }
    // Building the lessons takes ~0.13 s (Lesson 3 trains its network), about as long as opening
    // the window, so the two overlap. A scenario is read first, so a bad one fails before any window.
    std::future<void> lessons_built;
    if (options.scenario.empty()) {
        lessons_built = std::async(std::launch::async, [&app] { configure_lessons(app); });
    } else {
        configure_lessons(app);
        const std::string error = load_scenario(app, options.scenario);
        if (!error.empty()) {
            std::cerr << "math-to-metal: --scenario: " << error << "\n";
            return 2;
        }
    }
    const int width = options.size_given ? options.width : app.settings.window_width;
    const int height = options.size_given ? options.height : app.settings.window_height;
    OpenedWindow win = open_window(width, height, "Math to Metal", true);
    if (lessons_built.valid()) lessons_built.get();  // the panels touch no ImGui or GL: safe beside open_window
    if (!win.window) {
        std::cerr << "math-to-metal: " << win.error << "\n";
        return 2;
    }
    app.window = win.window;
    app.renderer = win.renderer;
    glfwSwapInterval(scripted ? 0 : 1);
    app.shared.view.opaque_filler = clear_rect;  // panels' big backgrounds as scissored clears (see ui::fill_opaque)

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // the app keeps its own settings; no imgui.ini in the user's folder
    glfwSetWindowUserPointer(app.window, &app.input);  // how the callbacks below find the app's input
    glfwSetKeyCallback(app.window, on_key);  // before ImGui's, which then chains to it
    ImGui_ImplGlfw_InitForOpenGL(app.window, true);
    glfwSetKeyCallback(app.window, queue_key);  // ImGui's callbacks now run from deliver_input
    glfwSetCharCallback(app.window, queue_char);
    glfwSetMouseButtonCallback(app.window, queue_mouse_button);
    ImGui_ImplOpenGL3_Init(win.glsl_version.c_str());
    const std::string theme = options.theme.empty() ? app.settings.theme : options.theme;
    app.theme = theme == "projector" ? ui::ThemeKind::projector : ui::ThemeKind::dark;
    apply_scale_and_theme(app, options.scale > 0 ? options.scale : app.settings.scale);
    app.shared.view.presenter = options.presenter;
    if (options.fullscreen) set_fullscreen(app, true);

    const bool bench = options.bench_frames > 0;
    if (options.play || bench) app.lesson().playback().play();
    app.lesson().playback().set_loop(bench);

    FrameStats stats;
    double first_frame_ms = -1;
    int frame = 0;
    auto last = Clock::now();
    double busy_until = 0;  // keep drawing at full rate for a moment after any input
    const int stop_after = bench ? options.bench_frames : options.frames > 0 ? options.frames
                                                         : !options.screenshot.empty() ? 3 : 0;
    int exit_code = 0;
    std::string noted_seen, noted_printed;  // --log-state: the noted controls last frame, and as last printed
    std::unique_ptr<MonkeyDriver> monkey;  // the soak test's random input (--monkey SEED)
    if (options.monkey)
        monkey = std::make_unique<MonkeyDriver>(options.monkey_seed, stop_after, static_cast<int>(app.lessons.size()), app.window);
    while (!glfwWindowShouldClose(app.window)) {
        int fb_w = 0, fb_h = 0;
        glfwGetFramebufferSize(app.window, &fb_w, &fb_h);
        if (glfwGetWindowAttrib(app.window, GLFW_ICONIFIED) || fb_w <= 0 || fb_h <= 0) {
            glfwWaitEventsTimeout(0.25);  // minimised: sleep instead of spinning
            if (monkey) monkey->while_minimised();
            last = Clock::now();
            continue;
        }
        const double now_s = std::chrono::duration<double>(Clock::now() - g_process_start).count();
        const bool animating = app.lesson().playback().playing() || bench || stop_after > 0;
        if (!animating && now_s > busy_until && app.input.trickle.empty()) glfwWaitEventsTimeout(0.1);
        else glfwPollEvents();
        if (app.pending_scale > 0) {  // fonts are rebuilt between frames, never inside one
            apply_scale_and_theme(app, app.pending_scale);
            app.pending_scale = 0;
        }
        const auto frame_start = Clock::now();
        const float dt = std::min(std::chrono::duration<float>(frame_start - last).count(), 0.25f);
        last = frame_start;

        ImGui_ImplOpenGL3_NewFrame();
        deliver_input(app.window);
        ImGui_ImplGlfw_NewFrame();
        if (monkey) monkey->inject(app.shared.items);  // aims at what the last frame drew
        ImGui::NewFrame();
        if (io.InputQueueCharacters.Size > 0 || io.MouseDown[0] || ImGui::IsAnyItemActive())
            busy_until = now_s + 0.5;
        handle_keys(app);
        app.shared.items.clear();  // the registry holds what this frame draws, nothing older
        draw_frame(app, dt);
        ImGui::Render();
        // The main window draws no background (a full-screen blended quad costs a whole
        // pass under software GL); the clear paints the same colour for free.
        const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
        clear_frame(fb_w, fb_h, bg.x, bg.y, bg.z);
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
        ++frame;
        if (!options.screenshot.empty() && frame == stop_after) {
            std::string error;
            if (!save_png(fb_w, fb_h, options.screenshot, error)) {
                std::cerr << "math-to-metal: --screenshot: " << error << "\n";
                exit_code = 2;
            }
        }
        glfwSwapBuffers(app.window);
        if (options.slow_frames_ms > 0)  // a slow machine, for tests: input then piles up between frames
            std::this_thread::sleep_until(frame_start + std::chrono::milliseconds(options.slow_frames_ms));
        const double frame_ms = std::chrono::duration<double, std::milli>(Clock::now() - frame_start).count();
        if (first_frame_ms < 0)
            first_frame_ms = std::chrono::duration<double, std::milli>(Clock::now() - g_process_start).count();
        if (bench && frame > 10) stats.ms.push_back(frame_ms);  // skip warm-up frames
        if (options.log_state) {
            // The noted controls whenever they have moved or new ones show, once they have held
            // still for a frame (so a test clicks where they are, and a moving one never floods the log).
            std::string noted = app.shared.items.lines();
            if (frame >= 2 && noted == noted_seen && noted != noted_printed) {
                std::cout << noted << std::flush;
                noted_printed = noted;
                app.last_status.clear();  // the state line again, so the log still ends with one
            }
            noted_seen = std::move(noted);
            char view[96];
            std::snprintf(view, sizeof view, " view: scale=%.2f presenter=%d theme=%s", app.shared.view.scale,
                          app.shared.view.presenter ? 1 : 0, app.theme == ui::ThemeKind::dark ? "dark" : "projector");
            const std::string where = app.at_home ? "lessons=" + std::to_string(app.lessons.size()) + " selected=" +
                                                        std::string(app.lessons[static_cast<std::size_t>(app.home_pick)]->id())
                                                  : app.lesson().status();
            const std::string s = "at=" + app.at() + " " + where + view;
            if (s != app.last_status) {
                std::cout << "state: " << s << std::endl;
                app.last_status = s;
            }
        }
        if (stop_after > 0 && frame >= stop_after) break;
    }
    if (bench) {
        std::printf("bench-frames: lesson=%s size=%dx%d frames=%zu p50_ms=%.2f p95_ms=%.2f p99_ms=%.2f max_ms=%.2f "
                    "first_frame_ms=%.1f peak_rss_MB=%.1f renderer=\"%s\"\n",
                    app.at().c_str(), width, height, stats.ms.size(), stats.percentile(0.5),
                    stats.percentile(0.95), stats.percentile(0.99), stats.percentile(1.0), first_frame_ms, peak_rss_mb(),
                    app.renderer.c_str());
        std::fflush(stdout);
    }
    if (monkey) monkey->report(std::cout);
    remember_settings(app);
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    close_window(app.window);
    return exit_code;
}

}  // namespace m2m::app
