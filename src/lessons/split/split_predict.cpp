// Lesson 3's predict, then reveal: the guess of which split puts the most bytes on the wires, every
// strategy's bytes from the core once the step has run, and presenter view's strip above the scene.
#include <imgui.h>

#include <algorithm>
#include <utility>

#include "lessons/split/split_panel.hpp"
#include "lessons/split/split_panel_parts.hpp"
#include "m2m/core/split/split_guess.hpp"
#include "ui/widgets.hpp"

namespace m2m::lessons {

using namespace split_ui;

const std::vector<core::StrategyBytes>& SplitPanel::strategy_bytes() {
    const std::pair<int, int> key{m_setup.gpus, m_setup.micro_batches};
    if (key != m_strategy_bytes_for) {
        m_strategy_bytes = core::exchanged_by_strategy(core::trained_next_word_model(), m_setup);
        m_strategy_bytes_for = key;
    }
    return m_strategy_bytes;
}

const std::vector<std::string>& SplitPanel::reveal_lines() {
    const auto& bytes = strategy_bytes();
    const bool compared = m_guess && std::any_of(bytes.begin(), bytes.end(), [&](const core::StrategyBytes& b) {
        return b.strategy == *m_guess;
    });
    const std::string key = compared ? std::string(core::strategy_name(*m_guess)) + "/" + std::to_string(m_setup.gpus) + "/" +
                                           std::to_string(m_setup.micro_batches)
                                     : std::string();
    if (key != m_reveal_for) {
        m_reveal_lines.clear();
        if (compared) {
            const core::SplitReveal r = core::reveal_split(*m_guess, bytes, m_setup.gpus);
            m_reveal_lines = r.lines;
            m_reveal_right = r.right;
        }
        m_reveal_for = key;
    }
    return m_reveal_lines;
}

void SplitPanel::draw_predict() {
    // Optional and out of the way: closed until the student opens it (or opens it in presenter view).
    ImGui::SetNextItemOpen(m_predict_open);
    // The short words where the long ones are wider than the column (1024x768 at 2.0); one id for both.
    const bool fits = ImGui::GetTreeNodeToLabelSpacing() + ImGui::CalcTextSize("Predict first?").x <= ImGui::GetContentRegionAvail().x;
    m_predict_open = ImGui::TreeNode(fits ? "Predict first?###predict" : "Predict?###predict");
    // Opened by G: in sight, down to its last choice (at 1024x768 and 1.5 the heading came into
    // sight and the choices, the guess G had just made among them, stayed below the fold).
    const bool scroll = std::exchange(m_scroll_predict, false);
    if (scroll && !m_predict_open) ui::scroll_to_last_item();
    m_ctx.items.note("split_predict_open");
    if (!m_predict_open) return;
    if (strategy_bytes().size() < 2) {
        ui::text_wrapped_coloured(m_ctx.view.theme.text_dim,
                                  m_setup.gpus == 1 ? std::string("On one GPU no byte crosses a wire: pick 2, 4 or 8 GPUs.")
                                                    : "On " + std::to_string(m_setup.gpus) +
                                                          " GPUs there is nothing to compare: pick 2, 4 or 8 GPUs.");
    } else {
        ui::text_wrapped_coloured(m_ctx.view.theme.text, "On " + std::to_string(m_setup.gpus) +
                                                        " GPUs, which split puts the most bytes on the wires in one training step?");
        draw_guess_choices();
        ImGui::BeginDisabled(guess_locked());
        if (ImGui::SmallButton("no guess")) m_guess.reset();
        ImGui::EndDisabled();
        if (scroll) ui::scroll_last_item_to_foot();  // the choices above "no guess" in sight with it
        if (m_guess && !step_finished() && !guess_locked()) ImGui::TextDisabled("Now press Run (Space).");
    }
    ImGui::TreePop();
}

void SplitPanel::guess_key(bool number) {
    // No number to guess here; and the Frontier tab has no guess (its toy one is out of sight).
    if (number || guess_locked() || strategy_bytes().size() < 2 || m_frontier.is_open()) return;
    m_predict_open = m_scroll_predict = true;
    const auto& bytes = strategy_bytes();
    std::size_t at = bytes.size();
    for (std::size_t i = 0; i < bytes.size(); ++i)
        if (m_guess == bytes[i].strategy) at = i;
    m_guess = !m_guess ? std::optional(bytes.front().strategy)
              : at + 1 < bytes.size() ? std::optional(bytes[at + 1].strategy) : std::nullopt;
}

void SplitPanel::draw_guess_choices() {
    const auto& bytes = strategy_bytes();
    int choice = -1;
    for (std::size_t i = 0; i < bytes.size(); ++i)
        if (m_guess == bytes[i].strategy) choice = static_cast<int>(i);
    const bool locked = guess_locked();
    ImGui::BeginDisabled(locked);
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        const std::string label = std::string(strategy_button(bytes[i].strategy)) + "##guess";
        if (i > 0) ui::same_line_if_fits(ui::radio_width(label.c_str()));
        if (ImGui::RadioButton(label.c_str(), &choice, static_cast<int>(i))) m_guess = bytes[i].strategy;
        if (locked && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
            ui::tooltip_wrapped("The guess is in once a step starts: pick another number of GPUs to guess again.",
                                24);
        const std::string hook = "guess_" + std::string(core::strategy_name(bytes[i].strategy));
        m_ctx.items.note(hook);
    }
    ImGui::EndDisabled();
}

// Presenter view keeps the choice and the question in the room: the strategy, then (once the
// teacher opens it with the Predict box) the guess, on rows above the scene; Space runs.
void SplitPanel::draw_presenter_strip() {
    // One row where the words allow: the short forms ("3D", no "Split:") on a narrow window.
    const float sp = ImGui::GetStyle().ItemSpacing.x;
    float full = ImGui::CalcTextSize("Split:").x + ImGui::GetFontSize() * 6.0f;
    for (core::Strategy st : all_strategies) full += ui::radio_width(strategy_button(st)) + sp;
    const bool narrow = full > ImGui::GetContentRegionAvail().x;
    ImGui::AlignTextToFramePadding();
    if (!narrow) {
        ImGui::TextUnformatted("Split:");
        ImGui::SameLine();
    }
    for (core::Strategy st : all_strategies) {
        const std::string id = "###strip_" + std::string(core::strategy_name(st));
        const std::string label = (narrow && st == core::Strategy::three_d ? std::string("3D") : strategy_button(st)) + id;
        if (st != all_strategies[0]) ui::same_line_if_fits(ui::radio_width(label.c_str()));
        if (ImGui::RadioButton(label.c_str(), m_setup.strategy == st) && st != m_setup.strategy) choose_strategy(st);
        m_ctx.items.note("strategy_" + std::string(core::strategy_name(st)));
    }
    ui::same_line_if_fits(ImGui::GetFontSize() * 5.0f);
    ImGui::Checkbox("Predict", &m_predict_open);
    m_ctx.items.note("split_predict_open");
    if (m_predict_open && strategy_bytes().size() >= 2) {
        ImGui::TextUnformatted(narrow ? "Most bytes?" : "Which puts most bytes on the wires?");
        ImGui::SameLine();
        draw_guess_choices();
    }
    // The keys for the question, where the row has room for them (G: the guess, while it is open).
    ui::run_key_hint(playback(), !guess_locked());
}

void SplitPanel::draw_reveal() {
    if (!step_finished() || reveal_lines().empty()) return;
    const auto& th = m_ctx.view.theme;
    for (std::size_t i = 0; i < m_reveal_lines.size(); ++i) {
        text(i == 0 ? (m_reveal_right ? th.nvlink : th.accent) : th.text, m_reveal_lines[i]);
        if (i == 0) m_ctx.items.note("split_reveal");
    }
    ImGui::Separator();
}

}  // namespace m2m::lessons
