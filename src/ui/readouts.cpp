// The big readouts ("TIME 20.8 ms"): one, or a row of them that wraps, and on a short scene a
// form that keeps the first row large and puts the rest on one line each.
#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "ui/theme.hpp"
#include "ui/widgets.hpp"

namespace m2m::ui {

namespace {
ImFont* big_font() { return ImGui::GetIO().Fonts->Fonts.Size > 1 ? ImGui::GetIO().Fonts->Fonts[1] : nullptr; }

float readout_width(const Readout& r) {
    ImFont* big = big_font() ? big_font() : ImGui::GetFont();
    // Rounded up as ImGui rounds an item's text, so a figure as wide as its room fills it exactly.
    const auto big_w = [&](const std::string& t) { return std::ceil(big->CalcTextSizeA(big->FontSize, 1e9f, 0.0f, t.c_str()).x); };
    return std::max({ImGui::CalcTextSize(r.label.c_str()).x, big_w(r.value), big_w(r.reserve)});
}
}  // namespace

void readout(const Theme& th, const char* label, const std::string& value, ImU32 colour, float min_width) {
    const float room = ImGui::GetContentRegionAvail().x;
    ImGui::BeginGroup();
    ImGui::PushTextWrapPos(0.0f);  // wrap at the window's right edge
    ImGui::PushStyleColor(ImGuiCol_Text, th.text_dim);
    ImGui::TextUnformatted(label);
    ImGui::PopStyleColor();
    // Room kept beside the label, on its line, so the group is as wide as asked.
    const float label_w = ImGui::CalcTextSize(label).x;
    if (min_width > label_w && min_width <= room) {
        ImGui::SameLine(0, 0);
        ImGui::Dummy(ImVec2(min_width - label_w, ImGui::GetTextLineHeight()));
    }
    ImFont* big = big_font();
    if (big && big->CalcTextSizeA(big->FontSize, 1e9f, 0.0f, value.c_str()).x > room) big = nullptr;
    if (big) ImGui::PushFont(big);
    ImGui::PushStyleColor(ImGuiCol_Text, colour);
    ImGui::TextUnformatted(value.c_str());
    ImGui::PopStyleColor();
    if (big) ImGui::PopFont();
    ImGui::PopTextWrapPos();
    ImGui::EndGroup();
}

namespace {

// The one-line form keeps room for a hidden value too: without it two "?" share a row that their
// figures do not, and the reveal pushes the picture down a row on the shortest screens.
float inline_value_width(const Readout& r) {
    return std::max(ImGui::CalcTextSize(r.value.c_str()).x, ImGui::CalcTextSize(r.reserve.c_str()).x);
}
float inline_width(const Readout& r) {
    return ImGui::CalcTextSize(r.label.c_str()).x + ImGui::CalcTextSize(" ").x + inline_value_width(r);
}

// The height of the readouts with the first `lead` in the headline form, side by side where they
// fit, and the rest one line each from a new row.
float layout_height(const std::vector<Readout>& items, float gap, std::size_t lead) {
    const float avail = ImGui::GetContentRegionAvail().x;
    ImFont* big = big_font() ? big_font() : ImGui::GetFont();
    const float big_h = ImGui::GetTextLineHeight() + big->FontSize + ImGui::GetStyle().ItemSpacing.y;
    const float line_h = ImGui::GetTextLineHeightWithSpacing();
    float h = 0, x = 0, row = 0;
    for (std::size_t i = 0; i < items.size(); ++i) {
        const bool headline = i < lead;
        const float w = headline ? readout_width(items[i]) : inline_width(items[i]);
        if (i > 0 && i != lead && x + gap + w <= avail) {
            x += gap + w;
        } else {
            h += row;
            x = w;
            row = 0;
        }
        row = std::max(row, headline ? big_h : line_h);
    }
    return h + row;
}

// How many lead in the headline form: all where they fit `max_height`; else as many as share the
// first row (the lesson's key numbers stay large); else none.
std::size_t headline_count(const std::vector<Readout>& items, float gap, float max_height) {
    if (layout_height(items, gap, items.size()) <= max_height) return items.size();
    const float avail = ImGui::GetContentRegionAvail().x;
    std::size_t first_row = 0;
    for (float x = 0; first_row < items.size(); ++first_row) {
        const float w = readout_width(items[first_row]);
        if (first_row > 0 && x + gap + w > avail) break;
        x += (first_row > 0 ? gap : 0.0f) + w;
    }
    return layout_height(items, gap, first_row) <= max_height ? first_row : 0;
}

}  // namespace

float readouts_height(const std::vector<Readout>& items, float gap) { return layout_height(items, gap, items.size()); }

void readouts(const Theme& th, const std::vector<Readout>& items, float gap, float max_height,
              const std::function<void(std::size_t)>& drawn) {
    const std::size_t lead = headline_count(items, gap, max_height);
    const float space = ImGui::CalcTextSize(" ").x;
    for (std::size_t i = 0; i < items.size(); ++i) {
        const Readout& r = items[i];
        if (i >= lead) {  // one line: "LABEL value", from a new row after the headline ones
            if (i > lead) same_line_if_fits(inline_width(r), gap);
            ImGui::BeginGroup();
            ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(th.text_dim), "%s", r.label.c_str());
            ImGui::SameLine(0, space);
            ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(r.colour), "%s", r.value.c_str());
            if (const float pad = inline_value_width(r) - ImGui::CalcTextSize(r.value.c_str()).x; pad > 0) {
                ImGui::SameLine(0, 0);
                ImGui::Dummy(ImVec2(pad, ImGui::GetTextLineHeight()));
            }
            ImGui::EndGroup();
        } else {
            if (i > 0) same_line_if_fits(readout_width(r), gap);
            readout(th, r.label.c_str(), r.value, r.colour, r.reserve.empty() ? 0.0f : readout_width(r));
        }
        if (drawn) drawn(i);
    }
}

}  // namespace m2m::ui
