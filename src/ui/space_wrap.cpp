// Greedy line breaking at spaces for the Real scale and Frontier scale tabs.
#include "ui/space_wrap.hpp"

#include <algorithm>
#include <functional>

namespace m2m::lessons {

namespace {

// A word wider than the line stays whole on its own line.
void wrap_at_spaces(const std::string& s, float width, std::vector<std::pair<std::size_t, std::size_t>>& lines) {
    lines.clear();
    std::size_t start = 0;
    while (start < s.size()) {
        std::size_t end = start, pos = start;
        for (;;) {
            std::size_t next = s.find(' ', pos);
            if (next == std::string::npos) next = s.size();
            const float w = ImGui::CalcTextSize(s.data() + start, s.data() + next).x;
            if (w > width && end > start) break;
            end = next;
            if (next >= s.size() || w > width) break;
            pos = next + 1;
        }
        lines.emplace_back(start, end);
        start = end;
        while (start < s.size() && s[start] == ' ') ++start;
    }
}

}  // namespace

void SpaceWrap::text(ImU32 colour, const std::string& s) {
    const float width = std::max(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize() * 4.0f);
    if (m_lines.size() > 512) m_lines.clear();  // strings of views long gone
    Lines& l = m_lines[&s];
    const std::size_t hash = std::hash<std::string>{}(s);
    if (l.width != width || l.hash != hash) {
        wrap_at_spaces(s, width, l.spans);
        l.width = width;
        l.hash = hash;
    }
    ImGui::PushStyleColor(ImGuiCol_Text, colour);
    ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(ImGui::GetStyle().ItemSpacing.x, 0));
    for (std::size_t i = 0; i < l.spans.size(); ++i) {
        if (i + 1 == l.spans.size()) ImGui::PopStyleVar();
        ImGui::TextUnformatted(s.data() + l.spans[i].first, s.data() + l.spans[i].second);
    }
    if (l.spans.empty()) ImGui::PopStyleVar();
    ImGui::PopStyleColor();
}

void SpaceWrap::bullet(ImU32 colour, const std::string& s) {
    ImGui::Bullet();
    ImGui::BeginGroup();
    text(colour, s);
    ImGui::EndGroup();
}

}  // namespace m2m::lessons
