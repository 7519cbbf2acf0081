// Start-up and shutdown. Building the lessons takes ~0.13 s (Lesson 3 trains its network), about
// as long as opening the window, so the two overlap; a scenario is read first, so a bad one fails
// before any window opens.
#include "app/startup.hpp"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <future>
#include <iostream>

#include "app/file_actions.hpp"
#include "app/files.hpp"
#include "app/keyboard.hpp"
#include "app/window.hpp"
#include "lessons/catalog.hpp"
#include "lessons/layers/layer_run_panel.hpp"
#include "measure/measurement.hpp"
#include "ui/fonts.hpp"

namespace m2m::app {

namespace {

// --screenshot, --frames and --bench-frames: tests and benchmarks, which leave the settings alone.
bool scripted(const Options& o) { return o.bench_frames > 0 || o.frames > 0 || !o.screenshot.empty(); }

// Lesson 1's command-line flags (--widths, --mode, --cpu-cores, --gpu-cores) on its setup.
void apply_lesson1_flags(const Options& o, lessons::LayerRunPanel& layers) {
    if (o.widths.empty() && o.mode.empty() && !o.cpu_cores && !o.gpu_cores) return;
    core::LayerRunSetup s = layers.setup();
    if (!o.widths.empty()) s.network.widths = o.widths;
    if (!o.mode.empty()) {
        s.mode = o.mode == "hardware" ? core::TimingMode::hardware : core::TimingMode::lesson;
        s.cpu_cores = s.mode == core::TimingMode::hardware ? s.cpu.cores : 1;
        s.gpu_cores = s.mode == core::TimingMode::hardware ? s.gpu.cores : 6;
    }
    if (o.cpu_cores) s.cpu_cores = o.cpu_cores;
    if (o.gpu_cores) s.gpu_cores = o.gpu_cores;
    layers.apply(s);
}

// The panels touch no ImGui or GL: safe on a second thread beside open_window.
void configure_lessons(App& app) {
    app.lessons = lessons::make_lessons(app.shared);
    app.intro_hidden.assign(app.lessons.size(), false);
    const Options& o = app.options;
    for (auto& lesson : app.lessons) {
        lesson->playback().set_speed(app.settings.speed);
        if (auto* layers = dynamic_cast<lessons::LayerRunPanel*>(lesson.get())) apply_lesson1_flags(o, *layers);
    }
    // The home screen unless a lesson is named, a lesson's flag is given, or the settings remember one.
    const bool lesson_flags = !o.widths.empty() || !o.mode.empty() || o.cpu_cores || o.gpu_cores || o.play;
    const std::string saved = lesson_flags && app.settings.lesson == "home" ? "layers" : app.settings.lesson;
    const std::string& wanted = o.lesson.empty() ? saved : o.lesson;
    for (std::size_t i = 0; i < app.lessons.size(); ++i)
        if (app.lessons[i]->id() == wanted) app.current = i;
    app.at_home = wanted == "home";
}

void read_settings(App& app) {
    app.settings_dir = config_dir();
    const Options& o = app.options;
    app.keep_settings = !scripted(o);
    const LoadedSettings loaded = load_settings(app.settings_dir);
    app.settings = loaded.settings;
    if (!loaded.message.empty()) {
        std::cerr << "math-to-metal: " << loaded.message << "\n";
        app.notice = loaded.message;
    }
}

// ImGui, its GLFW backend inside the app's input queues, its OpenGL backend, the theme and fonts.
void start_imgui(App& app, const OpenedWindow& win) {
    const Options& o = app.options;
    glfwSwapInterval(scripted(o) ? 0 : 1);
    app.shared.view.opaque_filler = clear_rect;  // panels' big backgrounds as scissored clears (see ui::fill_opaque)
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;  // the app keeps its own settings; no imgui.ini in the user's folder
    connect_input(app);
    ImGui_ImplOpenGL3_Init(win.glsl_version.c_str());
    const std::string theme = o.theme.empty() ? app.settings.theme : o.theme;
    app.theme = theme == "projector" ? ui::ThemeKind::projector : ui::ThemeKind::dark;
    apply_scale_and_theme(app, o.scale > 0 ? o.scale : app.settings.scale);
    app.shared.view.presenter = o.presenter;
    if (o.fullscreen) set_fullscreen(app, true);
}

}  // namespace

std::optional<int> start(App& app, const Options& options) {
    app.options = options;
    read_settings(app);
    // The lessons (Lesson 3 trains its toy network) and a scenario's state are built on a second
    // thread while the window opens; a scenario that cannot be read is still the first thing
    // reported, and closes the window it opened.
    std::future<std::string> lessons_built = std::async(std::launch::async, [&app] {
        configure_lessons(app);
        return app.options.scenario.empty() ? std::string() : load_scenario(app, app.options.scenario);
    });
    app.opened_width = options.size_given ? options.width : app.settings.window_width;
    app.opened_height = options.size_given ? options.height : app.settings.window_height;
    const OpenedWindow win = open_window(app.opened_width, app.opened_height, "Math to Metal", true);
    if (const std::string error = lessons_built.get(); !error.empty()) {
        if (win.window) close_window(win.window);
        std::cerr << "math-to-metal: --scenario: " << error << "\n";
        return 2;
    }
    if (!win.window) {
        std::cerr << "math-to-metal: " << win.error << "\n";
        return 2;
    }
    app.window = win.window;
    app.renderer = win.renderer;
    start_imgui(app, win);
    app.damage.probe(app.window, measure::is_software_renderer(app.renderer), ImGui::GetStyle().Colors[ImGuiCol_WindowBg]);
    return std::nullopt;
}

void apply_scale_and_theme(App& app, float scale) {
    ui::apply_theme(app.shared.view, app.theme, scale);
    app.redraw_whole = true;  // a new atlas and new colours: nothing on screen can be kept
    ImGuiIO& io = ImGui::GetIO();
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    const ui::FontStatus fonts = ui::load_fonts(io, scale);  // a new atlas at the new pixel size
    ImGui_ImplOpenGL3_CreateFontsTexture();
    if (fonts.fallback) {
        std::cerr << "math-to-metal: " << fonts.message << "\n";
        app.notice = fonts.message;
    }
}

void finish(App& app) {
    if (app.keep_settings) {
        Settings& s = app.settings;
        s.theme = app.theme == ui::ThemeKind::dark ? "dark" : "projector";
        s.scale = app.shared.view.scale;
        s.lesson = app.at();
        s.speed = app.lesson().playback().speed();
        if (!app.fullscreen) glfwGetWindowSize(app.window, &s.window_width, &s.window_height);
        const std::string error = save_settings(app.settings_dir, s);
        if (!error.empty()) std::cerr << "math-to-metal: settings not saved: " << error << "\n";
    }
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    close_window(app.window);
}

}  // namespace m2m::app
