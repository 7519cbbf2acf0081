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

void controls_beside_scene(const ui::View& view, const std::string& id, float controls_width,
                           const std::function<void()>& controls, const std::function<void()>& scene,
                           ImGuiWindowFlags scene_flags) {
    if (!view.presenter) {  // presenter mode: only the scene and the readouts
        ImGui::BeginChild((id + "_controls").c_str(), ImVec2(controls_width, 0), true);
        controls();
        ImGui::EndChild();
        ImGui::SameLine();
    }
    ImGui::BeginChild((id + "_scene").c_str(), ImVec2(0, 0), false, scene_flags);
    scene();
    ImGui::EndChild();
}

float controls_width(float em, float share) {
    return std::min(ImGui::GetFontSize() * em, ImGui::GetContentRegionAvail().x * share);
}

}  // namespace m2m::lessons
