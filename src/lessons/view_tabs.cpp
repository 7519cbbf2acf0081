// The own / real-scale tab pair and the layout beneath it.
#include "lessons/view_tabs.hpp"

#include <imgui.h>

#include <algorithm>


namespace m2m::lessons {

bool draw_view_tabs(ui::ItemRegistry& items, const ViewTabs& tabs, TabRequest& request) {
    bool scale_shown = false;
    if (!ImGui::BeginTabBar(tabs.bar_id)) return false;
    const auto flags = [&](TabRequest r) { return request == r ? ImGuiTabItemFlags_SetSelected : ImGuiTabItemFlags_None; };
    const bool own = ImGui::BeginTabItem(tabs.own_label, nullptr, flags(TabRequest::own));
    items.note(tabs.own_hook);
    if (own) {
        if (request == TabRequest::own) request = TabRequest::none;
        ImGui::EndTabItem();
    }
    const bool scale = ImGui::BeginTabItem(tabs.scale_label, nullptr, flags(TabRequest::scale));
    items.note(tabs.scale_hook);
    if (scale) {
        if (request == TabRequest::scale) request = TabRequest::none;
        scale_shown = true;
        ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
    return scale_shown;
}

bool ScaleTab::draw(Context& ctx) {
    if (ctx.view.presenter) {  // no tabs in presenter view: the view chosen (or asked for) stays
        if (m_select != TabRequest::none) m_open = m_select == TabRequest::scale;
        // ... and is asked of the tabs when they come back: a tab bar first drawn after presenter
        // view (a scenario opened with --presenter, then H) showed its first tab, not the scenario's.
        m_select = m_open ? TabRequest::scale : TabRequest::own;
        return m_open;
    }
    return m_open = draw_view_tabs(ctx.items, m_tabs, m_select);
}

namespace {

// The handle between the two panes: dragging it sets the control pane's share of its natural width.
void controls_splitter(ui::View& view, float natural_width, float height) {
    const float w = std::max(4.0f, ImGui::GetFontSize() * 0.35f);
    ImGui::InvisibleButton("##controls_splitter", ImVec2(w, height));
    const bool hot = ImGui::IsItemHovered() || ImGui::IsItemActive();
    if (hot) ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeEW);
    if (ImGui::IsItemActive() && natural_width > 0)
        view.controls_share = std::clamp(view.controls_share + ImGui::GetIO().MouseDelta.x / natural_width,
                                         ui::View::min_controls_share, ui::View::max_controls_share);
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    const float x = (a.x + b.x) * 0.5f;
    ImGui::GetWindowDrawList()->AddLine(ImVec2(x, a.y), ImVec2(x, b.y), hot ? view.theme.text_dim : view.theme.grid,
                                        hot ? 3.0f : 1.0f);
}

// The folded control pane: one thin button down the left edge that opens it again.
void collapsed_controls(Context& ctx, float height) {
    ImGui::PushStyleVar(ImGuiStyleVar_ButtonTextAlign, ImVec2(0.5f, 0.0f));
    if (ImGui::Button("\xc2\xbb##controls_expand", ImVec2(ImGui::GetFrameHeight(), height))) ctx.view.controls_collapsed = false;
    ImGui::PopStyleVar();
    ctx.items.note("controls_expand");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Show the controls (C)");
}

// The pane's controls, then `footer` (the playback rows) after them, or pinned under them when
// the two together overflow the pane: a projector at 1024x768 and 1.5x keeps Run in sight while
// the rest scrolls. The whole footer only in a pane at least ten rows high: it takes 5 to 7 rows,
// and in a shorter one (2.0 at 1024x768) the controls would scroll in a slit, so there only the
// buttons stay and the speed ends the controls. The rule counts rows, not the footer's height,
// which grows when a scrollbar narrows the buttons: measured, it would keep either state once in
// it. The heights are last frame's, kept in the pane's own ImGui storage; a change shows on the
// next frame (the app draws at least ten a second).
void controls_with_footer(Context& ctx, const std::function<void()>& controls,
                          const std::function<void(ui::PlaybackRows)>& footer) {
    ImGuiStorage* kept = ImGui::GetStateStorage();
    const ImGuiID content_id = ImGui::GetID("##content_h"), footer_id = ImGui::GetID("##footer_h"),
                  buttons_id = ImGui::GetID("##buttons_h");
    const float room = ImGui::GetContentRegionAvail().y, rows = room / ImGui::GetFrameHeight();
    const float footer_h = kept->GetFloat(footer_id, 0.0f);
    const bool overflows = footer_h > 0 && kept->GetFloat(content_id, 0.0f) + footer_h > room;
    const bool pinned = overflows && rows >= 10, buttons_pinned = overflows && !pinned && rows >= 5;
    if (pinned || buttons_pinned) {
        const float foot_h = pinned ? footer_h : kept->GetFloat(buttons_id, ImGui::GetFrameHeightWithSpacing());
        ImGui::BeginChild("##scrolls", ImVec2(0, std::max(ImGui::GetFrameHeight(), room - foot_h)), false);
        const ImVec2 at = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
        ctx.items.set("controls_scroll", ImVec4(at.x, at.y, at.x + size.x, at.y + size.y));  // what of the controls shows
    }
    const float top = ImGui::GetCursorPosY();
    controls();
    kept->SetFloat(content_id, ImGui::GetCursorPosY() - top);
    if (buttons_pinned) {
        ImGui::Separator();
        footer(ui::PlaybackRows::speed);
    }
    if (pinned || buttons_pinned) ImGui::EndChild();
    const float foot = ImGui::GetCursorPosY();
    ImGui::Separator();
    footer(buttons_pinned ? ui::PlaybackRows::buttons : ui::PlaybackRows::all);
    kept->SetFloat(buttons_pinned ? buttons_id : footer_id, ImGui::GetCursorPosY() - foot);
    ctx.items.measure("controls_footer_pinned", pinned ? 1.0 : 0.0);
    ctx.items.measure("controls_buttons_pinned", buttons_pinned ? 1.0 : 0.0);
}

}  // namespace

void controls_beside_scene(Context& ctx, const std::string& id, float controls_width,
                           const std::function<void()>& controls, const std::function<void()>& scene,
                           ImGuiWindowFlags scene_flags, const std::function<void()>& presenter_strip,
                           const std::function<void(ui::PlaybackRows)>& footer) {
    ui::View& view = ctx.view;
    const float height = ImGui::GetContentRegionAvail().y;
    if (!view.presenter && view.controls_collapsed) {
        collapsed_controls(ctx, height);
        ImGui::SameLine();
    } else if (!view.presenter) {
        // The panel's natural width is the lesson's; the student's share of it, up to 60% of the row.
        const float natural = controls_width;
        const float share = std::clamp(view.controls_share, ui::View::min_controls_share, ui::View::max_controls_share);
        const float width = std::min(natural * share, ImGui::GetContentRegionAvail().x * 0.6f);
        ImGui::BeginChild((id + "_controls").c_str(), ImVec2(width, 0), true);
        if (footer) controls_with_footer(ctx, controls, footer);
        else controls();
        ImGui::EndChild();
        ctx.items.note("controls");
        ImGui::SameLine(0, 0);
        controls_splitter(view, natural, height);
        ImGui::SameLine(0, 0);
    }
    // Presenter view's strip sits above the scene, pinned: a scene scrolled to its words below
    // once took the question's row (and the readouts' names) off the top with it.
    if (view.presenter && presenter_strip) {
        ImGui::BeginGroup();
        presenter_strip();
        ImGui::EndGroup();
        ImGui::Separator();
    }
    const ImVec2 at = ImGui::GetCursorScreenPos(), room = ImGui::GetContentRegionAvail();
    ctx.items.set("scene", ImVec4(at.x, at.y, at.x + room.x, at.y + room.y));
    ImGui::BeginChild((id + "_scene").c_str(), ImVec2(0, 0), false, scene_flags);
    scroll_by_keys(ctx);
    scene();
    ImGui::EndChild();
}

void scroll_by_keys(const Context& ctx) {
    if (ctx.scene_scroll != 0)
        ImGui::SetScrollY(std::clamp(ImGui::GetScrollY() + static_cast<float>(ctx.scene_scroll) * ImGui::GetWindowHeight() * 0.8f,
                                     0.0f, ImGui::GetScrollMaxY()));
}

float controls_width(float em, float share) {
    // Never under 9.5 font sizes (up to 45% of the row): at 2.0 on 1024x768 a share alone leaves
    // the controls' longest words no room, while at 1.5 the share gives the scene its half.
    const float fs = ImGui::GetFontSize(), avail = ImGui::GetContentRegionAvail().x;
    return std::max(std::min(fs * em, avail * share), std::min(fs * 9.5f, avail * 0.45f));
}

}  // namespace m2m::lessons
