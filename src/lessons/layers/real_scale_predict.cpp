// Lesson 1's Real scale tab, predict then reveal: how long the cluster (or one GPU) takes, guessed
// before Run grows the bars; G from the keyboard, presenter view's strip, the guess locked once the
// run starts. What the answer is and how it is said: core (reveal_real_scale).
#include "lessons/layers/real_scale_view.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "ui/widgets.hpp"

namespace m2m::lessons {

// A new question: the bars back to zero, the guess open and empty. The cursor crosses the axis
// (0 to 1) in 3 s at 1x; Step stops where each bar ends.
void RealScaleView::reset_question() {
    std::vector<double> stops{0.0, 1.0};
    for (std::size_t i = 0; i < m_story.rows.size(); ++i)
        if (m_story.rows[i].shown) stops.push_back(row_fraction(i));
    std::sort(stops.begin(), stops.end());
    m_playback.set_timeline(1.0, std::move(stops), 1.0 / 3.0);
    m_playback.reset();
    m_guess.reset();
    m_started = false;
}

double RealScaleView::row_fraction(std::size_t i) const {
    const double e0 = std::log10(m_axis_lo), e1 = std::log10(m_axis_hi);
    return std::clamp((std::log10(std::max(m_story.rows[i].seconds, m_axis_lo)) - e0) / (e1 - e0), 0.0, 1.0);
}

void RealScaleView::guess_key() {
    if (guess_locked()) return;
    m_open_predict = true;
    const auto& all = core::duration_guesses;
    const auto at = m_guess ? std::find(all.begin(), all.end(), *m_guess) : all.end();
    m_guess = !m_guess ? std::optional(all.front()) : at + 1 == all.end() ? std::nullopt : std::optional(*(at + 1));
}

// "Predict first?": closed until the student opens it (or presses G), as in the other lessons.
void RealScaleView::draw_predict(Context& ctx) {
    if (m_open_predict) ImGui::SetNextItemOpen(true);
    const bool open = ImGui::TreeNode("Predict first?");
    if (m_open_predict) ui::scroll_to_last_item();
    ctx.items.note("real_scale_predict_open");
    if (!open) return;
    m_wrap.text(ctx.view.theme.text, "Before you press Run: " + core::real_scale_question(m_story));
    draw_guess_choices(ctx);
    ImGui::TreePop();
}

void RealScaleView::draw_guess_choices(Context& ctx) {
    ImGui::BeginDisabled(guess_locked());
    for (std::size_t i = 0; i < core::duration_guesses.size(); ++i) {
        const core::DurationGuess g = core::duration_guesses[i];
        const std::string label(core::duration_guess_label(g));
        if (i > 0) ui::same_line_if_fits(ui::radio_width(label.c_str()));
        // A click on the chosen answer takes the guess back.
        if (ImGui::RadioButton(label.c_str(), m_guess == g)) m_guess = m_guess == g ? std::nullopt : std::optional(g);
        locked_tooltip();
        ctx.items.note("real_scale_guess_" + std::to_string(i));
    }
    ImGui::EndDisabled();
}

void RealScaleView::locked_tooltip() const {
    if (guess_locked() && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ui::tooltip_wrapped("The guess is in once the run starts: change the model, the tokens, a chip or the GPUs to guess "
                            "again.",
                            24);
}

// Presenter view keeps the question in the room, on one row above the scene.
void RealScaleView::draw_presenter_strip(Context& ctx) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(core::real_scale_question(m_story).c_str());
    ImGui::SameLine();
    draw_guess_choices(ctx);
    ui::run_key_hint(playback(), !guess_locked());
}

}  // namespace m2m::lessons
