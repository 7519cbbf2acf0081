// The main window: the menu bar, a tab per lesson (and Home, and a pointer to the next lesson),
// the lesson's opening words, and the lesson itself.
#include "app/frame.hpp"

#include <imgui.h>

#include <algorithm>
#include <string>
#include <string_view>

#include "app/menus.hpp"
#include "lessons/home_screen.hpp"

namespace m2m::app {

namespace {

// Where every lesson's title does not fit on one row (1024x768 at 2x), the lesson open keeps its
// title and the others show their number: "1 · Lay…" told nothing, "1" is a lesson a click away.
bool tabs_fit(const App& app) {
    const ImGuiStyle& st = ImGui::GetStyle();
    const auto tab_w = [&](std::string_view s) {
        return ImGui::CalcTextSize(s.data(), s.data() + s.size()).x + st.FramePadding.x * 2 + st.ItemInnerSpacing.x;
    };
    float need = tab_w("Home") + tab_w("Next  \xe2\x86\x92");
    for (const auto& l : app.lessons) need += tab_w(l->title());
    return need <= ImGui::GetContentRegionAvail().x;
}

std::string tab_label(const App& app, std::size_t i, bool full) {
    const std::string title(app.lessons[i]->title());
    const std::string shown = full || (!app.at_home && i == app.current) ? title : title.substr(0, title.find(' '));
    return shown + "###lesson" + std::to_string(i);  // the same tab, whichever label it shows
}

void draw_tabs(App& app) {
    const bool full = tabs_fit(app);
    if (!ImGui::BeginTabBar("lessons")) return;
    if (ImGui::BeginTabItem("Home", nullptr, app.select_tab && app.at_home ? ImGuiTabItemFlags_SetSelected : 0)) {
        if (!app.select_tab) app.go_home();
        ImGui::EndTabItem();
    }
    app.shared.items.note("home_tab");
    for (std::size_t i = 0; i < app.lessons.size(); ++i) {
        const std::string label = tab_label(app, i, full);
        const ImGuiTabItemFlags flags = app.select_tab && !app.at_home && i == app.current ? ImGuiTabItemFlags_SetSelected : 0;
        if (ImGui::BeginTabItem(label.c_str(), nullptr, flags)) {
            if (!app.select_tab) app.go_to(i);
            ImGui::EndTabItem();
        }
        app.shared.items.note("tab_" + std::string(app.lessons[i]->id()));
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

// Presenter view's one line: how to leave it (and find the keys), dim and right-aligned.
void draw_presenter_hint(App& app) {
    const char* hint = "H: leave presenter view  \xc2\xb7  ?: keys";
    const float w = ImGui::CalcTextSize(hint).x;
    ImGui::SetCursorPosX(std::max(ImGui::GetCursorPosX(), ImGui::GetWindowContentRegionMax().x - w));
    ImGui::PushStyleColor(ImGuiCol_Text, app.shared.view.theme.text_dim);
    ImGui::TextUnformatted(hint);
    ImGui::PopStyleColor();
    app.shared.items.note("presenter_hint");
}

// The lesson's opening words, until "Got it". Where they would take more than two lines (a
// projector at 1.5x), the first sentence shows and "More" opens the rest: the scene keeps the room.
void draw_intro(App& app) {
    if (app.at_home || app.shared.view.presenter || app.intro_hidden[app.current] || app.lesson().intro().empty()) return;
    const std::string intro(app.lesson().intro());
    const float wrap = ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize("Got it  More").x - ImGui::GetFontSize() * 3;
    const bool long_intro = ImGui::CalcTextSize(intro.c_str(), nullptr, false, wrap).y > ImGui::GetTextLineHeight() * 2.5f;
    bool& more = *ImGui::GetStateStorage()->GetBoolRef(ImGui::GetID("intro_more"), false);
    const std::size_t stop = intro.find(". ");
    const std::string shown = long_intro && !more && stop != std::string::npos ? intro.substr(0, stop + 1) + " \xe2\x80\xa6" : intro;
    ImGui::PushStyleColor(ImGuiCol_Text, app.shared.view.theme.text);
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + wrap);
    ImGui::TextUnformatted(shown.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
    if (long_intro) {
        ImGui::SameLine();
        if (ImGui::SmallButton(more ? "Less" : "More")) more = !more;
        app.shared.items.note("intro_more");
    }
    ImGui::SameLine();
    if (ImGui::SmallButton("Got it")) app.intro_hidden[app.current] = true;
    app.shared.items.note("intro_close");
}

}  // namespace

void draw_frame(App& app, float dt_s) {
    const ImGuiIO& io = ImGui::GetIO();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(io.DisplaySize);
    // Presenter view: no menu bar, no lesson tabs, only the hint; the keyboard drives the rest.
    const bool presenter = app.shared.view.presenter;
    ImGui::Begin("Math to Metal", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                     (presenter ? 0 : ImGuiWindowFlags_MenuBar) | ImGuiWindowFlags_NoBringToFrontOnFocus |
                     ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBackground);
    if (presenter) {
        draw_presenter_hint(app);
        app.select_tab = true;  // the tabs follow the lesson when they come back
    } else {
        draw_menu(app);
        draw_tabs(app);
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
    draw_popups(app);
}

}  // namespace m2m::app
