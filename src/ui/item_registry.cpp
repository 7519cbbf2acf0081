// The registry of what the current frame drew.
#include "ui/item_registry.hpp"

#include <cstdio>

namespace m2m::ui {

void ItemRegistry::note(std::string_view name) {
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    const ImVec4 r(a.x, a.y, b.x, b.y);
    const auto it = m_items.find(name);
    if (it != m_items.end()) it->second = r;
    else m_items.emplace(std::string(name), r);
}

std::optional<ImVec4> ItemRegistry::rect(std::string_view name) const {
    const auto it = m_items.find(name);
    if (it == m_items.end()) return std::nullopt;
    return it->second;
}

std::string ItemRegistry::lines() const {
    std::string out;
    char buf[160];
    for (const auto& [name, r] : m_items) {
        std::snprintf(buf, sizeof buf, "%s %.0f %.0f %.0f %.0f\n", name.c_str(), r.x, r.y, r.z, r.w);
        out += buf;
    }
    return out;
}

}  // namespace m2m::ui
