#include "ui/typed_slider.hpp"

#include <imgui_internal.h>  // ClearActiveID: a Ctrl+click opens the box, not a drag

#include <cmath>
#include <cstdio>
#include <utility>

#include "m2m/core/engine/text.hpp"
#include "ui/widgets.hpp"

namespace m2m::ui {

std::optional<TypedSlider::Result> TypedSlider::box(const char* label, float width) {
    ImGui::SetNextItemWidth(width);
    if (m_open != ImGui::GetID(label)) return std::nullopt;
    const bool first = std::exchange(m_focus, false);
    if (first) ImGui::SetKeyboardFocusHere();
    const bool entered = ImGui::InputText(label, m_text, sizeof m_text,
                                          ImGuiInputTextFlags_EnterReturnsTrue | ImGuiInputTextFlags_AutoSelectAll);
    if (!entered && (first || !ImGui::IsItemDeactivated())) return Result{false, true, std::nullopt};
    m_open = 0;  // Enter, or a click elsewhere: what is in the box counts
    return Result{false, true, std::string(m_text)};
}

bool TypedSlider::ctrl_click_on(float width) {
    const ImVec2 at = ImGui::GetCursorScreenPos();
    return ImGui::GetIO().KeyCtrl && ImGui::IsMouseClicked(ImGuiMouseButton_Left) &&
           ImGui::IsMouseHoveringRect(at, ImVec2(at.x + width, at.y + ImGui::GetFrameHeight()));
}

TypedSlider::Result TypedSlider::after_slider(const char* label, bool ctrl_click, bool moved, const std::string& shown,
                                              const char* hint) {
    // Not over a note just given: the mouse that typed it still rests on the slider, and the
    // tooltip covered the note under it.
    if (ImGui::IsItemHovered() && m_note.empty()) tooltip_wrapped(hint, 24);
    if (ctrl_click && ImGui::IsItemActive()) {  // the click that opens the box neither moves the slider nor holds it
        ImGui::ClearActiveID();
        m_open = ImGui::GetID(label);
        m_focus = true;
        std::snprintf(m_text, sizeof m_text, "%s", shown.c_str());
        return {};
    }
    return {moved, false, std::nullopt};
}

int TypedSlider::take_count(const std::string& typed, const std::vector<int>& accepted, int was, const std::string& between,
                            const std::string& example) {
    const std::optional<double> n = core::parse_count_text(typed);
    if (!n || accepted.empty()) {
        note("\"" + typed + "\" is not a count: type " + example + ".", true);
        return was;
    }
    int nearest = accepted.front();
    for (int a : accepted)
        if (std::abs(*n - a) < std::abs(*n - nearest)) nearest = a;
    if (*n < accepted.front() || *n > accepted.back())
        note(typed + " is past the slider's " + (*n < accepted.front() ? "smallest" : "largest") + " count: " +
                 core::format_count(nearest) + ".",
             false);
    else if (*n != nearest)
        note(typed + between + core::format_count(nearest) + ".", false);
    else
        clear_note();
    return nearest;
}

void TypedSlider::note(std::string text, bool refuses) {
    m_note = std::move(text);
    m_refuses = refuses;
    m_fresh = !m_note.empty();
}

void TypedSlider::draw_note(const Theme& th, ItemRegistry& items, const char* refused_hook, const char* moved_hook) {
    if (m_note.empty()) return;
    text_wrapped_coloured(m_refuses ? th.warning : th.text_dim, m_note);
    items.note(m_refuses ? refused_hook : moved_hook);
    // In sight when it comes: below a pane's fold (1024x768 at 1.5) it went unseen.
    if (std::exchange(m_fresh, false)) scroll_to_last_item();
}

}  // namespace m2m::ui
