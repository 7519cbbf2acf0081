// The controls both real-scale tabs share.
#include "lessons/scale_controls.hpp"

#include <imgui.h>

#include <algorithm>

#include "m2m/presets/models.hpp"
#include "m2m/presets/presets.hpp"
#include "ui/widgets.hpp"

namespace m2m::lessons {

PresetRow preset_row() {
    const bool beside = ImGui::GetContentRegionAvail().x >= ImGui::GetFontSize() * 14.0f;
    return {beside, ImGui::GetContentRegionAvail().x -
                        (beside ? ImGui::CalcTextSize("(sources)").x + ImGui::GetStyle().ItemSpacing.x : 0.0f)};
}

bool model_combo(const char* id, float width, std::string& model) {
    bool changed = false;
    ImGui::SetNextItemWidth(width);
    const std::string& name = presets::builtin_models().find(model)->shape.name;
    const bool open = ImGui::BeginCombo(id, ui::combo_preview(name, width).c_str());
    if (!open && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", name.c_str());
    if (open) {
        for (const auto& m : presets::builtin_models().models)
            if (ImGui::Selectable(m.shape.name.c_str(), m.shape.id == model) && m.shape.id != model) {
                model = m.shape.id;
                changed = true;
            }
        ImGui::EndCombo();
    }
    return changed;
}

bool preset_combo(const char* id, float width, const std::vector<std::string>& ids, std::string& value) {
    bool changed = false;
    ImGui::SetNextItemWidth(width);
    const std::string& name = presets::builtin().find(value)->spec.name;
    const bool open = ImGui::BeginCombo(id, ui::combo_preview(name, width).c_str());
    if (!open && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", name.c_str());
    if (open) {
        for (const std::string& x : ids)
            if (ImGui::Selectable(presets::builtin().find(x)->spec.name.c_str(), x == value) && x != value) {
                value = x;
                changed = true;
            }
        ImGui::EndCombo();
    }
    return changed;
}

bool tokens_box(const char* id, float width, double& edit_billions, double& tokens, double min_tokens, double max_tokens) {
    const double before = tokens;
    ImGui::SetNextItemWidth(width);
    ImGui::InputDouble(id, &edit_billions, 0, 0, "%.7g");  // 15000 for 15T tokens, not 1.5e+04
    if (ImGui::IsItemDeactivatedAfterEdit()) tokens = std::clamp(edit_billions * 1e9, min_tokens, max_tokens);
    if (!ImGui::IsItemActive()) edit_billions = tokens / 1e9;
    return tokens != before;
}

}  // namespace m2m::lessons
