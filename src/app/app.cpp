// The frame loop: poll input, move the playback, draw the current lesson, render, repeat.
//
// [SECTION] state   [SECTION] keyboard   [SECTION] menus and tabs   [SECTION] loop
#include "app/app.hpp"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <memory>
#include <vector>

#include "app/window.hpp"
#include "lessons/catalog.hpp"
#include "lessons/layer_run_panel.hpp"
#include "m2m/presets/presets.hpp"
#include "ui/fonts.hpp"
#include "ui/theme.hpp"
#include "ui/widgets.hpp"

namespace m2m::app {

namespace {

using Clock = std::chrono::steady_clock;
const Clock::time_point g_process_start = Clock::now();  // static init: before main's first line

// [SECTION] state ---------------------------------------------------------------------------

struct App {
    Options options;
    GLFWwindow* window = nullptr;
    std::vector<std::unique_ptr<lessons::Lesson>> lessons;
    std::size_t current = 0;
    bool select_tab = true;  // tell the tab bar to follow `current` on the next frame
    bool show_shortcuts = false;
    std::string notice;      // one message shown in the menu bar (a saved screenshot, a font fallback)
    std::string renderer;
    std::string last_status;

    lessons::Lesson& lesson() { return *lessons[current]; }
    void go_to(std::size_t i) {
        if (i < lessons.size() && i != current) {
            current = i;
            select_tab = true;
        }
    }
};

std::string timestamped_png() {
    char buf[64];
    const std::time_t now = std::time(nullptr);
    std::strftime(buf, sizeof buf, "math-to-metal-%Y%m%d-%H%M%S.png", std::localtime(&now));
    return buf;
}

void save_screenshot(App& app, const std::string& path) {
    int w = 0, h = 0;
    glfwGetFramebufferSize(app.window, &w, &h);
    std::string error;
    app.notice = save_png(w, h, path, error) ? "saved " + path : error;
    std::cout << "screenshot: " << app.notice << std::endl;
}

// [SECTION] keyboard ------------------------------------------------------------------------

// Shortcuts act only when no text field has the keyboard (typing "r" in a box must not reset).
void handle_keys(App& app) {
    const ImGuiIO& io = ImGui::GetIO();
    if (io.WantTextInput) return;
    auto pressed = [](int key) { return ImGui::IsKeyPressed(key, false); };
    ui::Playback& pb = app.lesson().playback();
    if (pressed(GLFW_KEY_SPACE)) pb.toggle();
    if (pressed(GLFW_KEY_PERIOD)) pb.step();
    if (pressed(GLFW_KEY_R) && !io.KeyCtrl) pb.reset();
    if (pressed(GLFW_KEY_LEFT_BRACKET)) pb.slower();
    if (pressed(GLFW_KEY_RIGHT_BRACKET)) pb.faster();
    if (pressed(GLFW_KEY_RIGHT)) app.go_to(app.current + 1);
    if (pressed(GLFW_KEY_LEFT) && app.current > 0) app.go_to(app.current - 1);
    for (int k = 0; k < 9; ++k)
        if (pressed(GLFW_KEY_1 + k)) app.go_to(static_cast<std::size_t>(k));
    if (io.KeyCtrl && pressed(GLFW_KEY_E)) save_screenshot(app, timestamped_png());
    if (io.KeyCtrl && pressed(GLFW_KEY_Q)) glfwSetWindowShouldClose(app.window, GLFW_TRUE);
    if (pressed(GLFW_KEY_SLASH) && io.KeyShift) app.show_shortcuts = !app.show_shortcuts;
    if (pressed(GLFW_KEY_ESCAPE)) app.show_shortcuts = false;
}

// [SECTION] menus and tabs ------------------------------------------------------------------

void draw_menu(App& app) {
    if (!ImGui::BeginMenuBar()) return;
    if (ImGui::BeginMenu("File")) {
        if (ImGui::MenuItem("Save screenshot", "Ctrl+E")) save_screenshot(app, timestamped_png());
        if (ImGui::MenuItem("Quit", "Ctrl+Q")) glfwSetWindowShouldClose(app.window, GLFW_TRUE);
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Lessons")) {
        for (std::size_t i = 0; i < app.lessons.size(); ++i) {
            const std::string title(app.lessons[i]->title());
            const std::string key = std::to_string(i + 1);
            if (ImGui::MenuItem(title.c_str(), key.c_str(), i == app.current)) app.go_to(i);
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
    ImGui::SameLine(std::max(ImGui::GetWindowWidth() - ImGui::CalcTextSize(gl.c_str()).x - ImGui::GetFontSize(), 0.0f));
    ImGui::TextDisabled("%s", gl.c_str());
    ImGui::EndMenuBar();
}

void draw_shortcuts(App& app) {
    if (!app.show_shortcuts) return;
    ImGui::SetNextWindowPos(ImVec2(ImGui::GetIO().DisplaySize.x * 0.5f, ImGui::GetIO().DisplaySize.y * 0.5f), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
    ImGui::Begin("Keyboard shortcuts", &app.show_shortcuts,
                 ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings);
    static const char* rows[][2] = {
        {"Space", "run / pause"},        {".", "step to the next event"}, {"R", "reset"},
        {"[  ]", "slower / faster"},     {"Left / Right", "previous / next lesson"},
        {"1 ... 4", "jump to a lesson"}, {"Ctrl+E", "save a screenshot"}, {"?", "this help"},
        {"Ctrl+Q", "quit"},
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
        for (std::size_t i = 0; i < app.lessons.size(); ++i) {
            const std::string title(app.lessons[i]->title());
            const ImGuiTabItemFlags flags = app.select_tab && i == app.current ? ImGuiTabItemFlags_SetSelected : 0;
            if (ImGui::BeginTabItem(title.c_str(), nullptr, flags)) {
                if (!app.select_tab) app.current = i;
                ImGui::EndTabItem();
            }
        }
        app.select_tab = false;
        ImGui::EndTabBar();
    }
    app.lesson().draw(dt_s);
    ImGui::End();
    draw_shortcuts(app);
}

// [SECTION] loop ----------------------------------------------------------------------------

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
    app.lessons = lessons::make_lessons();
    const Options& o = app.options;
    for (auto& lesson : app.lessons) {
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
    for (std::size_t i = 0; i < app.lessons.size(); ++i)
        if (app.lessons[i]->id() == o.lesson) app.current = i;
}

}  // namespace

int run(const Options& options) {
    App app;
    app.options = options;
    OpenedWindow win = open_window(options.width, options.height, "Math to Metal", true);
    if (!win.window) {
        std::cerr << "math-to-metal: " << win.error << "\n";
        return 2;
    }
    app.window = win.window;
    app.renderer = win.renderer;
    glfwSwapInterval(options.bench_frames > 0 || !options.screenshot.empty() ? 0 : 1);

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // the app keeps its own settings; no imgui.ini in the user's folder
    ui::apply_theme(ui::ThemeKind::dark, 1.0f);
    const ui::FontStatus fonts = ui::load_fonts(io, 1.0f);
    if (fonts.fallback) {
        std::cerr << "math-to-metal: " << fonts.message << "\n";
        app.notice = fonts.message;
    }
    ImGui_ImplGlfw_InitForOpenGL(app.window, true);
    ImGui_ImplOpenGL3_Init(win.glsl_version.c_str());

    configure_lessons(app);
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
    while (!glfwWindowShouldClose(app.window)) {
        int fb_w = 0, fb_h = 0;
        glfwGetFramebufferSize(app.window, &fb_w, &fb_h);
        if (glfwGetWindowAttrib(app.window, GLFW_ICONIFIED) || fb_w <= 0 || fb_h <= 0) {
            glfwWaitEventsTimeout(0.25);  // minimised: sleep instead of spinning
            last = Clock::now();
            continue;
        }
        const double now_s = std::chrono::duration<double>(Clock::now() - g_process_start).count();
        const bool animating = app.lesson().playback().playing() || bench || stop_after > 0;
        if (!animating && now_s > busy_until) glfwWaitEventsTimeout(0.1);
        else glfwPollEvents();
        const auto frame_start = Clock::now();
        const float dt = std::min(std::chrono::duration<float>(frame_start - last).count(), 0.25f);
        last = frame_start;

        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplGlfw_NewFrame();
        ImGui::NewFrame();
        if (io.InputQueueCharacters.Size > 0 || io.MouseDown[0] || ImGui::IsAnyItemActive())
            busy_until = now_s + 0.5;
        handle_keys(app);
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
        const double frame_ms = std::chrono::duration<double, std::milli>(Clock::now() - frame_start).count();
        if (first_frame_ms < 0)
            first_frame_ms = std::chrono::duration<double, std::milli>(Clock::now() - g_process_start).count();
        if (bench && frame > 10) stats.ms.push_back(frame_ms);  // skip warm-up frames
        if (options.log_state) {
            if (frame == 2) std::cout << ui::noted_items() << std::flush;  // after layout has settled
            const std::string s = app.lesson().status();
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
                    std::string(app.lesson().id()).c_str(), options.width, options.height, stats.ms.size(),
                    stats.percentile(0.5), stats.percentile(0.95), stats.percentile(0.99), stats.percentile(1.0),
                    first_frame_ms, peak_rss_mb(), app.renderer.c_str());
        std::fflush(stdout);
    }
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    close_window(app.window);
    return exit_code;
}

}  // namespace m2m::app
