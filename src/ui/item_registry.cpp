// The registry of what the current frame drew.
#include "ui/item_registry.hpp"

#include <cstdio>

namespace m2m::ui {

void ItemRegistry::note(std::string_view name) {
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    set(name, ImVec4(a.x, a.y, b.x, b.y));
}

void ItemRegistry::set(std::string_view name, ImVec4 r) {
    const auto it = m_items.find(name);
    if (it != m_items.end()) it->second = r;
    else m_items.emplace(std::string(name), r);
}

void ItemRegistry::measure(std::string_view name, float value) {
    const auto it = m_measures.find(name);
    if (it != m_measures.end()) it->second = value;
    else m_measures.emplace(std::string(name), value);
}

std::string ItemRegistry::measure_lines() const {
    std::string out;
    char buf[160];
    for (const auto& [name, v] : m_measures) {
        std::snprintf(buf, sizeof buf, "%s %.1f\n", name.c_str(), static_cast<double>(v));
        out += buf;
    }
    return out;
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
