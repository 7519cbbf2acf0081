// "Explain it back": the student answers the lesson's question in their own words and gets a checklist.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lessons/lesson.hpp"
#include "m2m/core/explain/explain_back.hpp"

namespace m2m::lessons {

class ExplainPanel : public Lesson {
public:
    /// The facts of the student's runs come from the context's run log.
    explicit ExplainPanel(Context& ctx);
    static const LessonInfo info;  ///< id, title, summary and intro
    void draw(float dt_s) override;
    /// "lesson=explain chars=212 submitted=1 changed=0 ideas=4/6 found=dot_products,... misconceptions=none
    ///  model=0 facts=1"
    std::string status() const override;
    void draw_home_picture(const ui::Theme& th, ImDrawList* dl, ImVec2 a, ImVec2 b) const override;  ///< home_picture.cpp
    /// {"answer": "...", "submitted": true, "model_answer_shown": false}: a teacher can prepare an
    /// answer to discuss, with its checklist already showing.
    nlohmann::json save_state() const override;
    void load_state(const nlohmann::json& state) override;

    /// Replaces the answer as if the student had typed it (tests, scenarios).
    void set_answer(std::string_view text);
    const std::string& answer() const { return m_answer; }
    /// What the Submit button does: checks the answer as it is now.
    void submit();
    bool submitted() const { return m_feedback.has_value(); }
    /// The answer was edited after the last Submit.
    bool changed_since_submit() const { return m_changed; }
    /// The last Submit's feedback; check submitted() first.
    const core::ExplainFeedback& feedback() const { return *m_feedback; }
    void show_model_answer(bool show) { m_show_model = show; }
    bool model_answer_shown() const { return m_show_model; }
    /// The student's runs as sentences, refreshed whenever the run log changes.
    const std::vector<std::string>& run_sentences();
    /// What the feedback box says before the first Submit. Presenter view has no answer box and no
    /// Submit, so there it says how to bring them back instead of asking to press Submit.
    const char* prompt() const;

private:
    void answer_edited();
    void draw_controls(float box_height, bool roomy);
    void draw_submit();
    void draw_question_large();
    void draw_feedback();
    void draw_idea(const core::IdeaCheck& check);
    void draw_readouts();
    void draw_footer(bool with_submit);

    std::uint64_t m_log_revision = UINT64_MAX;
    std::vector<std::string> m_run_sentences;
    std::string m_answer;
    std::size_t m_answer_chars = 0;
    std::optional<core::ExplainFeedback> m_feedback;
    bool m_changed = false;
    bool m_show_model = false;
    bool m_scroll_to_model = false;
    float m_wrap_width = 0;  // the answer box's text width, for the soft wrap while typing
    bool m_rewrap = false;   // an answer set from outside is wrapped at the next draw
};

}  // namespace m2m::lessons
