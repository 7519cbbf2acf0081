// The keyboard window (? or Help > Keyboard shortcuts).
#include "lessons/key_help.hpp"

#include <imgui.h>

#include <algorithm>

namespace m2m::lessons {

namespace {

struct KeyRow {
    const char* keys;
    const char* what;
};

// Short keys and short words, so the key column stays narrow and most rows keep to one line on
// a projector at 1.5x; what does not fit wraps, and the window scrolls.
constexpr KeyRow rows[] = {
    {"Space", "run or pause"},
    {".", "step to the next event"},
    {"R", "reset"},
    {"[   ]", "slower, faster"},
    {"Left / Right", "the previous or next lesson"},
    {"1 ... 4", "a lesson by its number"},
    {"Home, 0", "the home screen (Enter opens a lesson)"},
    {"Down, PgDn", "scroll down the scene and its words"},
    {"Up, PgUp", "scroll back up"},
    {"Ctrl +  Ctrl -", "larger, smaller"},
    {"Ctrl 0", "actual size"},
    {"H", "presenter view: the scene only"},
    {"C", "fold or unfold the controls"},
    {"F11", "fullscreen"},
    {"G", "guess: the next answer (Lesson 1: type it)"},
    {"N", "Lesson 2: type how many times as long"},
    {"V", "the other view: Real scale, Frontier, the plot"},
    {"T", "Lesson 2's receiver or group; the Frontier's next list"},
    {"M", "Lesson 2: Send or All-reduce"},
    {"Ctrl+E", "save a screenshot"},
    {"?   Esc", "this help, and close it"},
    {"Ctrl+Q", "quit"},
};

}  // namespace

void draw_key_help(bool* open, int scroll) {
    if (!*open) return;
    const ImGuiStyle& style = ImGui::GetStyle();
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    float keys_w = 0, what_w = 0;
    for (const KeyRow& r : rows) {
        keys_w = std::max(keys_w, ImGui::CalcTextSize(r.keys).x);
        what_w = std::max(what_w, ImGui::CalcTextSize(r.what).x);
    }
    const float gap = ImGui::GetFontSize() * 1.2f;
    // As wide as the longest row where the display allows, else the display's width less a margin,
    // the descriptions wrapping; as tall as the rows up to the display's height, then it scrolls.
    const float chrome = style.WindowPadding.x * 2 + style.ScrollbarSize;
    const float width = std::min(keys_w + gap + what_w + chrome, display.x * 0.96f);
    ImGui::SetNextWindowPos(ImVec2(display.x * 0.5f, display.y * 0.5f), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSizeConstraints(ImVec2(width, 0), ImVec2(width, display.y * 0.94f));
    if (ImGui::Begin("Keyboard shortcuts", open, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse |
                                                     ImGuiWindowFlags_NoSavedSettings)) {
        if (scroll != 0)
            ImGui::SetScrollY(std::clamp(ImGui::GetScrollY() + static_cast<float>(scroll) * ImGui::GetWindowHeight() * 0.8f, 0.0f,
                                         ImGui::GetScrollMaxY()));
        for (const KeyRow& r : rows) {
            const float x = ImGui::GetCursorPosX();
            ImGui::TextUnformatted(r.keys);
            ImGui::SameLine(x + keys_w + gap);
            ImGui::PushTextWrapPos(0.0f);  // the window's right edge
            ImGui::TextUnformatted(r.what);
            ImGui::PopTextWrapPos();
        }
    }
    ImGui::End();
}

}  // namespace m2m::lessons
