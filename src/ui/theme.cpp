// The dark and projector themes: ImGui style plus the lesson colours.
#include "ui/theme.hpp"

namespace m2m::ui {

namespace {

// Okabe-Ito: orange E69F00, sky blue 56B4E9, bluish green 009E73, vermillion D55E00,
// blue 0072B2, reddish purple CC79A7, yellow F0E442.
Theme dark_theme() {
    Theme t;
    t.kind = ThemeKind::dark;
    t.cpu = IM_COL32(230, 159, 0, 255);
    t.gpu = IM_COL32(86, 180, 233, 255);
    t.nvlink = IM_COL32(0, 158, 115, 255);
    t.infiniband = IM_COL32(213, 94, 0, 255);
    t.idle = IM_COL32(70, 74, 84, 255);
    t.done_dim = IM_COL32(120, 124, 134, 255);
    t.text = IM_COL32(235, 235, 240, 255);
    t.text_dim = IM_COL32(165, 168, 178, 255);
    t.panel = IM_COL32(32, 34, 40, 255);
    t.grid = IM_COL32(80, 84, 96, 255);
    t.accent = IM_COL32(240, 228, 66, 255);
    t.warning = IM_COL32(204, 121, 167, 255);
    t.line_thickness = 1.5f;
    return t;
}

Theme projector_theme() {
    Theme t;
    t.kind = ThemeKind::projector;
    // Darker variants on white keep text contrast above 4.5:1 and survive washed-out projectors.
    t.cpu = IM_COL32(176, 102, 0, 255);
    t.gpu = IM_COL32(0, 95, 160, 255);
    t.nvlink = IM_COL32(0, 120, 86, 255);
    t.infiniband = IM_COL32(180, 64, 0, 255);
    t.idle = IM_COL32(200, 202, 208, 255);
    t.done_dim = IM_COL32(120, 124, 134, 255);
    t.text = IM_COL32(15, 15, 20, 255);
    t.text_dim = IM_COL32(70, 72, 80, 255);
    t.panel = IM_COL32(244, 244, 246, 255);
    t.grid = IM_COL32(150, 152, 160, 255);
    t.accent = IM_COL32(150, 40, 120, 255);
    t.warning = IM_COL32(160, 50, 110, 255);
    t.line_thickness = 3.0f;
    return t;
}

}  // namespace

ImU32 Theme::link(core::LinkType type) const {
    switch (type) {
        case core::LinkType::nvlink: return nvlink;
        case core::LinkType::pcie:
        case core::LinkType::infiniband: return infiniband;
        case core::LinkType::local: break;
    }
    return text;
}

Theme make_theme(ThemeKind kind) { return kind == ThemeKind::dark ? dark_theme() : projector_theme(); }

void apply_imgui_style(const Theme& theme, float scale) {
    ImGuiStyle style;
    if (theme.kind == ThemeKind::dark) {
        ImGui::StyleColorsDark(&style);
    } else {
        ImGui::StyleColorsLight(&style);
        style.Colors[ImGuiCol_Text] = ImGui::ColorConvertU32ToFloat4(theme.text);
        style.Colors[ImGuiCol_TextDisabled] = ImGui::ColorConvertU32ToFloat4(theme.text_dim);
        style.Colors[ImGuiCol_WindowBg] = ImVec4(1, 1, 1, 1);
        style.FrameBorderSize = 1.0f;
    }
    // Tooltips and menus opaque: a projected tooltip over a paragraph must not show the words beneath.
    style.Colors[ImGuiCol_PopupBg].w = 1.0f;
    // Square corners throughout, like the panels (ui::fill_opaque): under software GL a rounded,
    // anti-aliased frame costs ~20 times the triangles of a square one, on every button and slider.
    style.WindowRounding = 0;
    style.FrameRounding = 0;
    style.GrabRounding = 0;
    style.TabRounding = 0;
    style.FramePadding = ImVec2(8, 5);
    style.ItemSpacing = ImVec2(10, 8);
    style.ScaleAllSizes(scale);
    ImGui::GetStyle() = style;
}

ImU32 fade(ImU32 c, float a) {
    ImVec4 v = ImGui::ColorConvertU32ToFloat4(c);
    v.w *= a;
    return ImGui::ColorConvertFloat4ToU32(v);
}

ImU32 blend_over(ImVec4 top, ImVec4 bottom) {
    const float a = top.w;
    return ImGui::ColorConvertFloat4ToU32(ImVec4(top.x * a + bottom.x * (1 - a), top.y * a + bottom.y * (1 - a),
                                                 top.z * a + bottom.z * (1 - a), 1.0f));
}

}  // namespace m2m::ui
