// What Lesson 1's real-scale tab and Lesson 3's frontier tab share: the model and hardware
// combos, the training tokens typed in billions, and the end of loading their saved state.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "lessons/saved_state.hpp"
#include "lessons/view_tabs.hpp"

namespace m2m::lessons {

/// How a column of preset combos is laid out: "(sources)" beside each combo when the column has
/// room, else under it (a projector at a large UI scale), and the combos' width either way.
struct PresetRow {
    bool sources_beside;
    float combo_width;
};
PresetRow preset_row();

/// The model presets (assets/models.json) by name; true when the student picked another.
bool model_combo(const char* id, float width, std::string& model);
/// The hardware presets `ids` (assets/hardware.json) by name; true when the student picked another.
bool preset_combo(const char* id, float width, const std::vector<std::string>& ids, std::string& value);

/// Training tokens typed in billions. A typed number takes effect when the box is left, so a
/// half-typed "15" never runs; it is clamped to [min_tokens, max_tokens]. `edit_billions` holds
/// what is being typed. True when `tokens` changed.
bool tokens_box(const char* id, float width, double& edit_billions, double& tokens, double min_tokens, double max_tokens);

/// How both tabs end load_state: "open" is read, `apply` runs (a std::invalid_argument it throws
/// becomes `in`'s message, which names the tab), and only then is the tab opened or closed.
template <class Apply>
void apply_then_open(const SavedState& in, ScaleTab& tab, Apply&& apply) {
    bool open = tab.is_open();
    in.flag("open", open);
    try {
        apply();
    } catch (const std::invalid_argument& e) {
        in.fail(e.what());
    }
    if (in.has("open")) tab.open(open);
}

}  // namespace m2m::lessons
