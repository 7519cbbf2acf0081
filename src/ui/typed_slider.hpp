// A slider that takes its value typed as it shows it, for sliders whose inner value is not the
// shown one: a log scale, a power of two, an index into the accepted values.
#pragma once

#include <imgui.h>

#include <optional>
#include <string>
#include <vector>

#include "ui/item_registry.hpp"
#include "ui/view.hpp"

namespace m2m::ui {

/// ImGui's own Ctrl+click box would take such a slider's inner value (an exponent: "1024" GPUs
/// became 2^1024, clamped), so those sliders had none, and a Ctrl+click dragged. Here a Ctrl+click
/// opens a box holding the value as shown; Enter (or leaving the box) hands back what was typed,
/// for the caller to read, clamp and say what it came to with note(). One per pane: one box open
/// at a time.
class TypedSlider {
public:
    struct Result {
        bool moved = false;                ///< the slider moved (dragged or clicked)
        bool box = false;                  ///< the box was drawn in the slider's place (the last item)
        std::optional<std::string> typed;  ///< the box's text, on the frame it is entered
    };
    /// Draws the slider (`slider()` draws it and says whether it moved) `width` wide, or, after a
    /// Ctrl+click on it, the box in its place with `shown` in it. `label` is the slider's; `hint`
    /// the tooltip that says what the box takes.
    template <class Slider>
    Result draw(const char* label, float width, const std::string& shown, const char* hint, Slider&& slider) {
        if (std::optional<Result> typing = box(label, width)) return *typing;
        const bool ctrl_click = ctrl_click_on(width);
        return after_slider(label, ctrl_click, slider(), shown, hint);
    }

    /// What the last entry came to: words that are no value (the value kept: `refuses`), or a
    /// value moved to the nearest one the slider takes. Empty: nothing to say.
    void note(std::string text, bool refuses);
    void clear_note() { m_note.clear(); }
    /// A count typed into the box, as the nearest of `accepted` (ascending), with the note: past
    /// an end, that end; between two, the nearest, `between` saying why (" GPUs: the counts
    /// double, so the nearest, "); words that are no count keep `was`, `example` saying what is.
    int take_count(const std::string& typed, const std::vector<int>& accepted, int was, const std::string& between,
                   const std::string& example);
    const std::string& note_text() const { return m_note; }
    /// The note, wrapped, where the caller wants it (under the row); registered as `refused_hook`
    /// or `moved_hook`, and scrolled into sight on its first frame.
    void draw_note(const Theme& th, ItemRegistry& items, const char* refused_hook, const char* moved_hook);

private:
    std::optional<Result> box(const char* label, float width);  ///< the box in the slider's place, if open
    static bool ctrl_click_on(float width);                      ///< a Ctrl+click on the slider about to be drawn
    Result after_slider(const char* label, bool ctrl_click, bool moved, const std::string& shown, const char* hint);

    ImGuiID m_open = 0;     ///< the slider whose box is open, 0: none
    bool m_focus = false;   ///< the box takes the keyboard on its first frame
    char m_text[48] = {};   ///< what is typed into it
    std::string m_note;
    bool m_refuses = false;
    bool m_fresh = false;   ///< just set: scrolled into sight on its first frame
};

}  // namespace m2m::ui
