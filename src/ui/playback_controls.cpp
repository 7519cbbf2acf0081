// The playback rows every lesson shares (Run, Step, Reset and the speed) and the time bars that
// show a machine's clock; declared in widgets.hpp.
#include <imgui.h>
#include <imgui_internal.h>  // the window's scrollbar, which the pinned buttons lay out as if there

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "ui/playback.hpp"
#include "ui/theme.hpp"
#include "ui/view.hpp"
#include "ui/widgets.hpp"

namespace m2m::ui {

namespace {

bool playback_buttons(ItemRegistry& items, Playback& pb, bool pinned_alone) {
    bool changed = false;
    const bool again = pb.finished() && pb.end() > 0;
    const char* run_label = pb.playing() ? "Pause (Space)" : (again ? "Run again (Space)" : "Run (Space)");
    // Pinned alone at a short pane's foot, laid out as if the pane's scrollbar were there: buttons
    // that took another row without it made it come back (and go, a frame later, for ever).
    const float slack = pinned_alone && !ImGui::GetCurrentWindow()->ScrollbarY ? ImGui::GetStyle().ScrollbarSize : 0.0f;
    // Without the key where the words are wider than the column (1024x768 at 2.0); the key still works.
    const bool with_key = button_width("Run again (Space)") <= ImGui::GetContentRegionAvail().x - slack;
    if (!with_key) run_label = pb.playing() ? "Pause" : (again ? "Run again" : "Run");
    // As wide as its widest label, so Step and Reset stay put when Run turns into Pause.
    const float run_w = std::max({button_width(with_key ? "Run (Space)" : "Run"), button_width(with_key ? "Pause (Space)" : "Pause"),
                                  button_width(with_key ? "Run again (Space)" : "Run again")});
    if (ImGui::Button(run_label, ImVec2(std::min(run_w, ImGui::GetContentRegionAvail().x), 0))) {
        pb.toggle();
        changed = true;
    }
    items.note("run_button");
    // Step and Reset drop their keys with Run (they share a row there: the footer stays two rows);
    // the key shows when the mouse is on the button.
    auto beside = [&](const char* keyed, const char* bare) {
        const char* label = with_key ? keyed : bare;
        same_line_if_fits(button_width(label) + slack);
        const bool pressed = ImGui::Button(label);
        if (!with_key && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", keyed);
        return pressed;
    };
    if (beside("Step (.)", "Step")) pb.step(), changed = true;
    if (beside("Reset (R)", "Reset")) pb.reset(), changed = true;
    items.note("reset_button");
    return changed;
}

bool speed_slider(Playback& pb) {
    bool changed = false;
    float speed = static_cast<float>(pb.speed());
    const LabelFit speed_label = fit_label("Speed ([ ])", 0.55f);
    ImGui::SetNextItemWidth(speed_label.width);
    // ImGui centres the figure, where the grab sits at 1x: padding with spaces moves it to the half
    // the grab is not in (the spaces are trimmed when a value is typed).
    const double at = std::log(speed / Playback::min_speed) / std::log(Playback::max_speed / Playback::min_speed);
    char figure[16];
    std::snprintf(figure, sizeof figure, "%.3gx", static_cast<double>(speed));
    const float space_w = ImGui::CalcTextSize(" ").x;
    const float shift = std::max(0.0f, std::min(speed_label.width * 0.25f, (speed_label.width - ImGui::CalcTextSize(figure).x) * 0.5f -
                                                                             2 * ImGui::GetStyle().FramePadding.x));
    const std::string spaces(space_w > 0 ? static_cast<std::size_t>(2 * shift / space_w) : 0, ' ');
    const std::string format = at >= 0.5 ? "%.3gx" + spaces : spaces + "%.3gx";
    if (ImGui::SliderFloat(speed_label.label.c_str(), &speed, static_cast<float>(Playback::min_speed),
                           static_cast<float>(Playback::max_speed), format.c_str(),
                           ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp)) {
        pb.set_speed(speed);
        changed = true;
    }
    return changed;
}

}  // namespace

bool playback_controls(ItemRegistry& items, Playback& pb, PlaybackRows rows) {
    bool changed = false;
    if (rows != PlaybackRows::speed) changed |= playback_buttons(items, pb, rows == PlaybackRows::buttons);
    if (rows != PlaybackRows::buttons) changed |= speed_slider(pb);
    return changed;
}

void run_key_hint(const Playback& pb, bool guess_open) {
    const std::string space = pb.playing()                          ? "Space: pause"
                              : pb.finished() && pb.cursor() > 0 ? "Space: run again"
                                                                  : "Space: run";
    if (!guess_open || !hint_if_fits(("G: guess \xc2\xb7 " + space).c_str())) hint_if_fits(space.c_str());
}

void time_bar(const View& view, const char* label, double cursor, double finish, double axis_end, ImU32 colour,
              const std::string& right_text, float height) {
    const Theme& th = view.theme;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float label_w = ImGui::CalcTextSize("GPU ").x + ImGui::GetStyle().ItemSpacing.x;
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float text_w = ImGui::CalcTextSize("000.0 ms of 000.0 ms  ").x;
    const float w = std::max(40.0f, ImGui::GetContentRegionAvail().x - label_w - text_w);
    dl->AddText(ImVec2(p.x, p.y + (height - ImGui::GetFontSize()) * 0.5f), th.text, label);
    const ImVec2 a(p.x + label_w, p.y);
    const ImVec2 b(a.x + w, p.y + height);
    fill_opaque(view, dl, a, b, th.panel);
    auto x_of = [&](double t) {
        const double f = axis_end > 0 ? std::clamp(t / axis_end, 0.0, 1.0) : 0.0;
        return a.x + static_cast<float>(f) * w;
    };
    dl->AddRectFilled(a, ImVec2(x_of(finish), b.y), fade(colour, 0.25f));
    dl->AddRectFilled(a, ImVec2(x_of(std::min(cursor, finish)), b.y), colour);
    if (finish > axis_end) {  // the slower machine's bar runs off the edge
        const float cy = (a.y + b.y) * 0.5f, h = height * 0.45f;
        dl->AddTriangleFilled(ImVec2(b.x - h, cy - h), ImVec2(b.x - h, cy + h), ImVec2(b.x + h * 0.6f, cy), th.accent);
    } else {
        dl->AddLine(ImVec2(x_of(finish), a.y - 2), ImVec2(x_of(finish), b.y + 2), th.text_dim, 1.0f);
    }
    dl->AddText(ImVec2(b.x + ImGui::GetStyle().ItemSpacing.x, p.y + (height - ImGui::GetFontSize()) * 0.5f),
                th.text, right_text.c_str());
    ImGui::Dummy(ImVec2(label_w + w + text_w, height));
}

}  // namespace m2m::ui
