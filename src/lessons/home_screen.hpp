// The home screen: every lesson on one page, one line each and a small picture of what happens
// inside it, drawn with ImGui's draw lists (no image files).
#pragma once

#include <imgui.h>

#include <string>
#include <string_view>
#include <vector>

#include "ui/item_registry.hpp"
#include "ui/view.hpp"

namespace m2m::ui {

struct HomeEntry {
    std::string id;       ///< the lesson's id: picks its picture ("layers", "rack", "split", "explain")
    std::string title;    ///< "1 · Layer by layer"
    std::string summary;  ///< one line on what the lesson shows
};

/// Draws the home screen into the current window: a heading, one row per entry (its picture,
/// title and summary) and a line of keys. `selected` is the row Enter opens; it is drawn
/// outlined. Returns the row clicked this frame, or -1. Each row is noted as "home_<id>".
int draw_home(const View& view, ItemRegistry& items, const std::vector<HomeEntry>& entries, int selected);

/// The small picture for lesson `id` inside [a, b]: a CPU taking one neuron at a time beside
/// a GPU taking a whole layer (layers); a node of 8 GPUs on NVLink and an InfiniBand wire to
/// another node (rack); a network cut across 2 GPUs (split); a question and a checklist
/// (explain). Any other id gets a plain card.
void draw_lesson_picture(const Theme& th, std::string_view id, ImVec2 a, ImVec2 b);

}  // namespace m2m::ui
