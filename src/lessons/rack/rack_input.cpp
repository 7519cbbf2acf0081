// The invisible buttons over the rack drawing: a click or hover on a GPU drawn, or on a rack's
// summary box (the GPUs it stands for).
#include <imgui.h>

#include <cstdio>

#include "lessons/rack/rack_view.hpp"

namespace m2m::ui {

RackInput rack_buttons(ItemRegistry& items, const RackLayout& l, ImVec2 a, ImVec2 b) {
    RackInput in;
    char id[24];
    for (core::GpuId g = 0; g < l.gpus.size(); ++g) {
        if (!l.gpu_shown(g)) continue;
        const Box& box = l.gpus[g];
        ImGui::SetCursorScreenPos(to_im(box.min));
        std::snprintf(id, sizeof id, "gpu_%u", g);
        if (ImGui::InvisibleButton(id, to_im(glm::max(box.size(), glm::vec2(1.0f))))) in.clicked = g;
        items.note(id);
        if (ImGui::IsItemHovered()) in.hovered = g;
    }
    for (std::uint32_t r = 0; r < l.shape.racks; ++r) {
        if (l.hidden_in(r) == 0) continue;
        ImGui::SetCursorScreenPos(to_im(l.summaries[r].min));
        std::snprintf(id, sizeof id, "rack_summary_%u", r);
        if (ImGui::InvisibleButton(id, to_im(glm::max(l.summaries[r].size(), glm::vec2(1.0f))))) in.summary_clicked = r;
        items.note(id);
        if (ImGui::IsItemHovered()) in.summary_hovered = r;
    }
    ImGui::SetCursorScreenPos(a);
    ImGui::Dummy(ImVec2(b.x - a.x, b.y - a.y));
    return in;
}

}  // namespace m2m::ui
