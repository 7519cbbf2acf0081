// What the files of Lesson 3's panel share: the strategies it offers, the prompt picks, button
// words and small drawing helpers (split_panel, split_controls, split_scene, split_cards, split_predict).
#pragma once

#include <imgui.h>

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <string>
#include <vector>

#include "m2m/core/split/split.hpp"
#include "ui/theme.hpp"
#include "ui/timeline_view.hpp"

namespace m2m::lessons::split_ui {

using core::all_strategies;

// Prompts a student can pick instead of typing; each ends where the corpus has a clear next word.
inline constexpr const char* prompt_picks[] = {"the cat sat on the", "the bird flew in the", "a fish swam", "the dog ran to",
                                               "the cat and the"};

// An exchange while a guess about bytes is pending: drawn grey, not in its link's colour.
inline ImU32 unseen_colour(const ui::Theme& th) { return ui::fade(th.text_dim, 0.35f); }

inline const char* strategy_button(core::Strategy s) {
    switch (s) {
        case core::Strategy::data: return "Data";
        case core::Strategy::tensor: return "Tensor";
        case core::Strategy::pipeline: return "Pipeline";
        case core::Strategy::three_d: return "3D (2\xc3\x97" "2\xc3\x97" "2)";
        case core::Strategy::fsdp: return "FSDP";
    }
    return "?";
}

inline ui::BarKind bar_kind(core::StepTaskKind k) {
    switch (k) {
        case core::StepTaskKind::forward: return ui::BarKind::forward;
        case core::StepTaskKind::backward: return ui::BarKind::backward;
        case core::StepTaskKind::update: return ui::BarKind::update;
        case core::StepTaskKind::communication: return ui::BarKind::communication;
        case core::StepTaskKind::idle: return ui::BarKind::idle;
    }
    return ui::BarKind::idle;
}

// The accepted value nearest to `want` (the first of two as near).
inline int nearest(const std::vector<int>& accepted, int want) {
    int best = accepted.front();
    for (int v : accepted)
        if (std::abs(v - want) < std::abs(best - want)) best = v;
    return best;
}

inline bool contains(const std::vector<int>& v, int x) { return std::find(v.begin(), v.end(), x) != v.end(); }

// The first of `options` that fits in `width` pixels, or nullptr when none does.
inline const std::string* first_fitting(const std::vector<std::string>& options, float width) {
    for (const std::string& s : options)
        if (ImGui::CalcTextSize(s.c_str()).x <= width) return &s;
    return nullptr;
}

}  // namespace m2m::lessons::split_ui
