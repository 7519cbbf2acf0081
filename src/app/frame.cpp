// The main window: the menu bar, a tab per lesson (and Home, and a pointer to the next lesson),
// the lesson's opening words, and the lesson itself.
#include "app/frame.hpp"

#include <imgui.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "app/menus.hpp"
#include "lessons/home_screen.hpp"

namespace m2m::app {

namespace {

// The tabs' labels, the longest that fit on one row: every title and "Next: <title>"; every
// title and a bare "Next"; the open lesson's title and the others' numbers (1024x768 at 2x);
// numbers only (3x). A cut title ("1 · Lay…") told a class nothing; a number is a lesson a click away.
struct TabLabels {
    std::vector<std::string> lessons;
    std::string next;
};

TabLabels tab_labels(const App& app) {
    const ImGuiStyle& st = ImGui::GetStyle();
    const auto tab_w = [&](const std::string& s) {
        return ImGui::CalcTextSize(s.c_str(), nullptr, true).x + st.FramePadding.x * 2 + st.ItemInnerSpacing.x;
    };
    const std::size_t next = app.at_home ? 0 : app.current + 1;
    const std::string arrow = "  \xe2\x86\x92";
    const std::string long_next = next < app.lessons.size() ? "Next: " + std::string(app.lessons[next]->title()) + arrow : "";
    const std::string short_next = next < app.lessons.size() ? "Next" + arrow : "";
    TabLabels best;
    for (int form = 0; form < 4; ++form) {
        TabLabels t;
        t.next = form == 0 ? long_next : short_next;
        float need = tab_w("Home") + (t.next.empty() ? 0.0f : tab_w(t.next)) + ImGui::GetFontSize();
        for (std::size_t i = 0; i < app.lessons.size(); ++i) {
            const std::string title(app.lessons[i]->title());
            const bool full = form < 2 || (form == 2 && !app.at_home && i == app.current);
            t.lessons.push_back((full ? title : title.substr(0, title.find(' '))) + "###lesson" + std::to_string(i));
            need += tab_w(t.lessons.back());
        }
        best = t;
        if (need <= ImGui::GetContentRegionAvail().x) break;
    }
    return best;
}

void draw_tabs(App& app) {
    const TabLabels labels = tab_labels(app);
    if (!ImGui::BeginTabBar("lessons")) return;
    if (ImGui::BeginTabItem("Home", nullptr, app.select_tab && app.at_home ? ImGuiTabItemFlags_SetSelected : 0)) {
        if (!app.select_tab) app.go_home();
        ImGui::EndTabItem();
    }
    app.shared.items.note("home_tab");
    for (std::size_t i = 0; i < app.lessons.size(); ++i) {
        const ImGuiTabItemFlags flags = app.select_tab && !app.at_home && i == app.current ? ImGuiTabItemFlags_SetSelected : 0;
        if (ImGui::BeginTabItem(labels.lessons[i].c_str(), nullptr, flags)) {
            if (!app.select_tab) app.go_to(i);
            ImGui::EndTabItem();
        }
        app.shared.items.note("tab_" + std::string(app.lessons[i]->id()));
    }
    app.select_tab = false;
    const std::size_t next = app.at_home ? 0 : app.current + 1;
    if (!labels.next.empty() && ImGui::TabItemButton(labels.next.c_str(), ImGuiTabItemFlags_Trailing)) app.go_to(next);
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
