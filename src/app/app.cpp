// The frame loop: poll input, move the playback, draw the current lesson, render, repeat; and what
// a scripted run reports (--log-state, --bench-frames, --screenshot, the monkey's memory).
//
// [SECTION] a loop's state   [SECTION] one frame   [SECTION] reports   [SECTION] run
#include "app/app.hpp"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cfloat>
#include <cmath>
#include <iterator>
#include <cstdio>
#include <iostream>
#include <memory>
#include <thread>
#include <vector>

#include "app/app_state.hpp"
#include "app/frame.hpp"
#include "app/keyboard.hpp"
#include "app/monkey_driver.hpp"
#include "app/startup.hpp"
#include "app/window.hpp"
#include "ui/text_measure.hpp"

namespace m2m::app {

namespace {

const Clock::time_point process_start = Clock::now();  // static init: before main's first line

// [SECTION] a loop's state ------------------------------------------------------------------

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

/// What the loop keeps from one frame to the next.
struct Loop {
    bool bench = false;  // --bench-frames: the run animates (looping) and frame times are kept
    int stop_after = 0;  // frames to draw before stopping; 0: until the window closes
    int frame = 0;
    Clock::time_point last = Clock::now();
    double now_s = 0;       // when this frame's wait for input ended, in seconds since the process began
    double busy_until = 0;  // keep drawing at full rate for a moment after any input
    FrameStats stats;
    double first_frame_ms = -1;
    int exit_code = 0;
    std::string noted_seen, noted_printed;  // --log-state: the noted controls last frame, and as last printed
    std::string measured_printed;           // --log-state: text_min_px and the lessons' measures, as last printed
    std::unique_ptr<MonkeyDriver> monkey;   // the soak test's random input (--monkey SEED)
    bool pointer_seen = false, pointer_moved = false;
    ImVec2 first_pointer{0, 0};  // where the pointer was at the first frame, until it moves
};

// Until the pointer first moves or clicks, ImGui is told it is nowhere: a pointer that merely
// rests where the window opened (the screen's centre under Xvfb, or a projector's) must not
// open a tooltip over the scene by itself. Once it moves, hovering works as always.
void gate_resting_pointer(Loop& loop) {
    ImGuiIO& io = ImGui::GetIO();
    if (loop.pointer_moved) return;
    const bool pressed = std::any_of(std::begin(io.MouseDown), std::end(io.MouseDown), [](bool d) { return d; });
    if (!loop.pointer_seen) loop.first_pointer = io.MousePos, loop.pointer_seen = true;
    if (pressed || io.MousePos.x != loop.first_pointer.x || io.MousePos.y != loop.first_pointer.y) {
        loop.pointer_moved = true;
        return;
    }
    io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
}

Loop make_loop(App& app) {
    const Options& o = app.options;
    Loop loop;
    loop.bench = o.bench_frames > 0;
    loop.stop_after = loop.bench ? o.bench_frames : o.frames > 0 ? o.frames : !o.screenshot.empty() ? 3 : 0;
    if (loop.bench) {
        // The benchmark times a run played again after its reveal, the fullest frame a lesson
        // draws (every figure and plot): the first pass is stepped through before it starts.
        ui::Playback& pb = app.lesson().playback();
        for (int i = 0; i < 1000000 && pb.passes() == 0 && pb.end() > 0; ++i) pb.step();
    }
    if (o.play || loop.bench) app.lesson().playback().play();
    app.lesson().playback().set_loop(loop.bench);
    if (o.monkey)
        loop.monkey = std::make_unique<MonkeyDriver>(o.monkey_seed, loop.stop_after, static_cast<int>(app.lessons.size()),
                                                     app.window);
    return loop;
}

double peak_rss_mb() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_maxrss) / 1024.0;
}

// [SECTION] one frame -----------------------------------------------------------------------

// Waits for input when nothing moves (a still lesson costs no CPU), else polls; applies a new
// scale between frames, never inside one. False while the window is minimised: draw nothing.
bool wait_for_frame(App& app, Loop& loop, int& fb_w, int& fb_h) {
    glfwGetFramebufferSize(app.window, &fb_w, &fb_h);
    if (glfwGetWindowAttrib(app.window, GLFW_ICONIFIED) || fb_w <= 0 || fb_h <= 0) {
        glfwWaitEventsTimeout(0.25);  // minimised: sleep instead of spinning
        if (loop.monkey) loop.monkey->while_minimised();
        loop.last = Clock::now();
        return false;
    }
    loop.now_s = std::chrono::duration<double>(Clock::now() - process_start).count();
    const bool animating = app.lesson().playback().playing() || loop.bench || loop.stop_after > 0;
    if (!animating && loop.now_s > loop.busy_until && app.input.trickle.empty()) glfwWaitEventsTimeout(0.1);
    else glfwPollEvents();
    if (app.pending_scale > 0) {
        apply_scale_and_theme(app, app.pending_scale);
        app.pending_scale = 0;
    }
    return true;
}

// Builds and draws one frame; the screenshot, when this is the frame it is taken on.
void draw_and_render(App& app, Loop& loop, int fb_w, int fb_h, float dt) {
    const ImGuiIO& io = ImGui::GetIO();
    ImGui_ImplOpenGL3_NewFrame();
    deliver_input(app);
    ImGui_ImplGlfw_NewFrame();
    gate_resting_pointer(loop);
    if (loop.monkey) loop.monkey->inject(app.shared.items);  // aims at what the last frame drew
    ImGui::NewFrame();
    if (io.InputQueueCharacters.Size > 0 || io.MouseDown[0] || ImGui::IsAnyItemActive()) loop.busy_until = loop.now_s + 0.5;
    handle_keys(app);
    app.shared.items.clear();  // the registry holds what this frame draws, nothing older
    if (app.options.bench_empty) {  // the baseline: one full-window ImGui window with nothing in it
        ImGui::SetNextWindowPos(ImVec2(0, 0));
        ImGui::SetNextWindowSize(io.DisplaySize);
        ImGui::Begin("empty", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoBackground);
        ImGui::End();
    } else {
        draw_frame(app, dt);
    }
    ImGui::Render();
    // The main window draws no background (a full-screen blended quad costs a whole
    // pass under software GL); the clear paints the same colour for free. Under software GL only
    // the part that changed since the last frame is cleared and drawn (damage.hpp).
    const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    // The benchmark's baseline clears and draws the whole (empty) window every frame: what the
    // host pays for a frame that changes everywhere, the unit its rows are given in; its rows
    // with --bench-whole draw every frame whole too (the first frame after a change, or a GPU's).
    const Options& o = app.options;
    app.damage.render(ImGui::GetDrawData(), fb_w, fb_h, bg, app.redraw_whole || o.bench_empty || o.bench_whole);
    app.redraw_whole = false;
    ++loop.frame;
    if (!app.options.screenshot.empty() && loop.frame == loop.stop_after) {
        std::string error;
        if (!save_png(fb_w, fb_h, app.options.screenshot, error)) {
            std::cerr << "math-to-metal: --screenshot: " << error << "\n";
            loop.exit_code = 2;
        }
    }
    glfwSwapBuffers(app.window);
}

// [SECTION] reports -------------------------------------------------------------------------

// --log-state's measured lines whenever they change: text_min_px (the smallest text this frame
// drew, from its draw data) and what the lesson measured (e.g. neuron_radius_px).
void log_measures(App& app, Loop& loop) {
    char line[64];
    std::snprintf(line, sizeof line, "text_min_px %.1f\n",
                  static_cast<double>(ui::smallest_text_px(ImGui::GetDrawData(), ImGui::GetIO().Fonts)));
    const std::string measured = line + app.shared.items.measure_lines();
    if (measured == loop.measured_printed) return;
    std::cout << measured << std::flush;
    loop.measured_printed = measured;
}

// --log-state: the noted controls whenever they have moved or new ones show, once they have held
// still for a frame (so a test clicks where they are, and a moving one never floods the log; the
// lesson's picture is among them as "scene X0 Y0 X1 Y1"), the measures, and the state line
// whenever it changes.
void log_state(App& app, Loop& loop) {
    log_measures(app, loop);
    std::string noted = app.shared.items.lines();
    if (loop.frame >= 2 && noted == loop.noted_seen && noted != loop.noted_printed) {
        std::cout << noted << std::flush;
        loop.noted_printed = noted;
        app.last_status.clear();  // the state line again, so the log still ends with one
    }
    loop.noted_seen = std::move(noted);
    char view[128];
    std::snprintf(view, sizeof view, " view: scale=%.2f presenter=%d theme=%s controls=%s", app.shared.view.scale,
                  app.shared.view.presenter ? 1 : 0, app.theme == ui::ThemeKind::dark ? "dark" : "projector",
                  app.shared.view.controls_collapsed ? "folded" : "open");
    const std::string where = app.at_home ? "lessons=" + std::to_string(app.lessons.size()) + " selected=" +
                                                std::string(app.lessons[static_cast<std::size_t>(app.home_pick)]->id())
                                          : app.lesson().status();
    const std::string s = "at=" + app.at() + " " + where + view;
    if (s != app.last_status) {
        std::cout << "state: " << s << std::endl;
        app.last_status = s;
    }
}

// The frame's time (a slow machine, --slow-frames, first makes it take longer), the time to the
// first frame, and the state line.
void after_frame(App& app, Loop& loop, Clock::time_point frame_start) {
    if (app.options.slow_frames_ms > 0)  // a slow machine, for tests: input then piles up between frames
        std::this_thread::sleep_until(frame_start + std::chrono::milliseconds(app.options.slow_frames_ms));
    const double frame_ms = std::chrono::duration<double, std::milli>(Clock::now() - frame_start).count();
    if (loop.first_frame_ms < 0)
        loop.first_frame_ms = std::chrono::duration<double, std::milli>(Clock::now() - process_start).count();
    if (loop.bench && loop.frame > 10) loop.stats.ms.push_back(frame_ms);  // skip warm-up frames
    if (app.options.log_state) log_state(app, loop);
}

void report(const App& app, const Loop& loop) {
    if (loop.bench) {
        const FrameStats& st = loop.stats;
        std::printf("bench-frames: lesson=%s size=%dx%d frames=%zu p50_ms=%.2f p95_ms=%.2f p99_ms=%.2f max_ms=%.2f "
                    "first_frame_ms=%.1f peak_rss_MB=%.1f renderer=\"%s\"\n",
                    app.at().c_str(), app.opened_width, app.opened_height, st.ms.size(), st.percentile(0.5),
                    st.percentile(0.95), st.percentile(0.99), st.percentile(1.0), loop.first_frame_ms, peak_rss_mb(),
                    app.renderer.c_str());
        std::fflush(stdout);
    }
    if (loop.monkey) loop.monkey->report(std::cout);
}

}  // namespace

// [SECTION] run -----------------------------------------------------------------------------

int run(const Options& options) {
    App app;
    if (auto code = start(app, options)) return *code;
    Loop loop = make_loop(app);
    while (!glfwWindowShouldClose(app.window)) {
        int fb_w = 0, fb_h = 0;
        if (!wait_for_frame(app, loop, fb_w, fb_h)) continue;
        const auto frame_start = Clock::now();
        const float dt = std::min(std::chrono::duration<float>(frame_start - loop.last).count(), 0.25f);
        loop.last = frame_start;
        draw_and_render(app, loop, fb_w, fb_h, dt);
        after_frame(app, loop, frame_start);
        if (loop.stop_after > 0 && loop.frame >= loop.stop_after) break;
    }
    report(app, loop);
    finish(app);
    return loop.exit_code;
}

}  // namespace m2m::app
