// What the app asks of every lesson panel: draw yourself, share the playback, report your state.
// What a lesson is called and says (LessonInfo) and its playback cursor live here, once.
#pragma once

#include <imgui.h>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <string_view>

#include "lessons/context.hpp"
#include "ui/playback.hpp"

namespace m2m::lessons {

/// What the tabs, the home screen and the intro line say about a lesson. Each panel defines its
/// own as a constant (`Panel::info`), so the catalog lists the ids without building a panel.
struct LessonInfo {
    std::string_view id;       ///< "layers", "rack", "split", "explain": --lesson, settings, scenarios
    std::string_view title;    ///< shown on the lesson tab, e.g. "1 · Layer by layer"
    std::string_view summary;  ///< one line for the home screen
    std::string_view intro;    ///< the lesson's opening words (the idea, what to try)
};

/// A panel owns its parameters, the result it last got from the core and a playback cursor.
/// When a parameter changes it asks the core again; every frame it only draws. What it shares
/// with the other lessons (the run log) it reaches through the app's Context, given when it
/// is built.
class Lesson {
public:
    Lesson(Context& ctx, const LessonInfo& info) : m_ctx(ctx), m_info(info) {}
    virtual ~Lesson() = default;
    Lesson(const Lesson&) = delete;
    Lesson& operator=(const Lesson&) = delete;

    std::string_view id() const { return m_info.id; }
    std::string_view title() const { return m_info.title; }
    std::string_view summary() const { return m_info.summary; }
    /// The intro line above the lesson: its opening words, or those of the tab shown.
    virtual std::string_view intro() const { return m_info.intro; }
    /// The cursor the shared keys (Space, ., R, [ ]) act on; a lesson with nothing to play
    /// leaves it on an empty timeline.
    /// A lesson whose other tab plays something of its own (Lesson 1's Real scale) gives that
    /// tab's cursor while it is shown.
    virtual ui::Playback& playback() { return m_playback; }
    virtual const ui::Playback& playback() const { return m_playback; }

    /// Draws the whole panel into the current ImGui window; `dt_s` moves the cursor.
    virtual void draw(float dt_s) = 0;
    /// One line of state for logs and tests, e.g. "lesson=layers widths=4,6,6,3 playing=1".
    virtual std::string status() const = 0;
    /// The lesson's small picture on the home screen, inside [a, b] (the home screen clips to
    /// it): a few dozen shapes, cheap under software GL. A lesson without one shows a plain card.
    virtual void draw_home_picture(const ui::Theme& th, ImDrawList* dl, ImVec2 a, ImVec2 b) const {
        dl->AddRect(a, b, th.grid, 4.0f, 0, 1.5f);
    }

    /// Everything a teacher sets up in this lesson, for a scenario file.
    virtual nlohmann::json save_state() const { return nlohmann::json::object(); }
    /// Restores a saved state. Throws std::invalid_argument naming the problem, and then
    /// leaves the lesson exactly as it was.
    virtual void load_state(const nlohmann::json& state) {
        if (!state.empty()) throw std::invalid_argument("this lesson keeps no state");
    }
    /// The current timeline as CSV (a header line, then one row per task); empty if none, or while
    /// it would answer a pending guess (until the run has played).
    virtual std::string timeline_csv() const { return {}; }
    /// G and N: the pending guess from the keyboard, for a lecturer without a mouse. G moves a
    /// choice to the next answer (after the last, back to none), or takes the keyboard into the
    /// lesson's number box where it has no choice; N takes it into the number box. Nothing once
    /// the guess is locked.
    virtual void guess_key(bool number) { (void)number; }
    /// V: the lesson's other view (Lesson 1's Real scale, Lesson 3's Frontier scale and back; Lesson
    /// 2's rack or plot where they take turns), so a lecturer without a mouse reaches every view.
    virtual void view_key() {}
    /// T and M, Lesson 2's set-up from the keyboard: T the send's receiver (another GPU in the node,
    /// in the next node, in the next rack) or the collective's group (8, 16, 64, 128 GPUs); M Send or
    /// All-reduce.
    virtual void target_key() {}
    virtual void mode_key() {}

protected:
    Context& m_ctx;  ///< the app's (or a test's): outlives every lesson built with it
    ui::Playback m_playback;

private:
    LessonInfo m_info;
};

}  // namespace m2m::lessons
