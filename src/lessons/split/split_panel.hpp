// Lesson 3, "Split the model": one next-word network split across GPUs by data, tensor and
// pipeline parallelism, what each GPU holds and exchanges, and one training step played out.
// Its parts: split_panel.cpp (set-up, state), split_controls, split_scene, split_cards, split_predict.
#pragma once

#include <array>
#include <optional>
#include <utility>
#include <string>
#include <string_view>
#include <vector>

#include "lessons/split/frontier_view.hpp"
#include "lessons/lesson.hpp"
#include "ui/space_wrap.hpp"
#include "m2m/core/split/split_card.hpp"
#include "m2m/core/split/split_guess.hpp"
#include "m2m/core/split/split.hpp"
#include "ui/theme.hpp"
#include "ui/timeline_view.hpp"
#include "ui/typed_slider.hpp"

namespace m2m::lessons {

class SplitPanel : public Lesson {
public:
    explicit SplitPanel(Context& ctx);
    static const LessonInfo info;  ///< id, title, summary and intro
    void draw(float dt_s) override;
    /// "lesson=split strategy=tensor gpus=2 micro_batches=4 schedule=1f1b placement=node
    ///  hardware=h100 playing=1 finished=0 cursor=... step_time=... word=mat"
    std::string status() const override;
    /// The Frontier tab has its own words: the lesson's speak of a strategy and a Run it has not.
    std::string_view intro() const override;
    void draw_home_picture(const ui::Theme& th, ImDrawList* dl, ImVec2 a, ImVec2 b) const override;  ///< home_picture.cpp
    /// strategy, gpus, micro_batches, schedule, placement, hardware, prompt, speed.
    nlohmann::json save_state() const override;
    void load_state(const nlohmann::json& state) override;
    /// gpu,kind,layer,micro_batch,exchange,start_s,end_s: one row per task of the step.
    std::string timeline_csv() const override;

    /// Replaces the setup (hardware included); throws std::invalid_argument on an invalid one
    /// and then keeps the current state.
    void apply(const core::SplitSetup& setup);
    /// Picks a strategy as the radio buttons do: keeps the GPU count and micro-batches when the
    /// strategy accepts them, else takes the nearest accepted ones.
    void choose_strategy(core::Strategy s);
    /// A node generation from the presets ("a100", "h100", ...); false when unknown.
    bool choose_hardware(std::string_view system_id);
    void set_prompt(std::string_view prompt);

    const core::SplitSetup& setup() const { return m_setup; }
    const core::SplitResult& result() const { return m_result; }
    const core::Prediction& prediction() const { return m_prediction; }
    const std::vector<ui::TimelineRow>& timeline_rows() const { return m_rows; }

    /// What one GPU is doing at `t_s` seconds into the step: the kernel and the exchange that
    /// run then (indices into its row of result().step.gpus, -1 when none).
    using Activity = core::StepActivity;
    Activity activity_at(int gpu, double t_s) const { return m_cards.activity(m_result, gpu, t_s); }

    /// Predict, then reveal: the strategy the student thinks puts the most on the wires per step
    /// (the "Predict first?" area); nullopt: no guess.
    void set_guess(std::optional<core::Strategy> s) { m_guess = s; }
    void guess_key(bool number) override;  ///< G: "Predict" opens and the guess moves to the next split
    void view_key() override { m_frontier.open(!m_frontier.is_open()); }  ///< V: the Frontier tab and back
    /// T: on the Frontier tab, its next tab of lists (Memory, Step timeline, Best layouts, What the
    /// estimate assumes); the toy network has no tabs of lists, so T does nothing there.
    void target_key() override {
        if (m_frontier.is_open()) m_frontier.next_list();
    }
    std::optional<core::Strategy> guess() const { return m_guess; }
    /// Every strategy that splits the current GPU count, with its bytes per step (from the core).
    const std::vector<core::StrategyBytes>& strategy_bytes();
    /// True once the step has played to its end.
    bool step_finished() const { return m_playback.finished() && m_playback.cursor() > 0; }
    /// The guess against strategy_bytes(); empty lines without a guess among them.
    const std::vector<std::string>& reveal_lines();
    /// The student is guessing which split puts the most bytes on the wires ("Predict first?" open or a
    /// guess made) and this step has not yet played to its end: its bytes and exchanging time
    /// stay hidden, or flipping through the strategies would answer the question.
    bool guess_pending() const { return (m_predict_open || m_guess) && !step_finished(); }
    /// The guess is in once a step starts, and stays until the question changes (another GPU count;
    /// no split's bytes depend on the micro-batches): every split's bytes show at the end of any step.
    bool guess_locked() const { return m_answered == m_setup.gpus; }

private:
    void recompute();
    void refresh_colours();  ///< link colours of the bars and readouts, from the current theme
    void draw_controls();
    void draw_strategy();   ///< strategy and GPU count
    void draw_pipeline();   ///< micro-batches and schedule
    void draw_placement();  ///< one node or two, and the timing
    void draw_hardware();   ///< the node generation and its sources
    void draw_scene();
    void draw_gpus(float height);
    void draw_gpu_card(int gpu, ImVec2 a, ImVec2 b);  ///< split_cards.cpp, with the three below
    /// The card's first line (or two): "GPU g", its place in the split, what it is doing; returns
    /// where the drawing of the network starts.
    float draw_card_header(int gpu, const core::GpuCardMoment& m, ImVec2 a, ImVec2 b);
    void draw_card_network(const core::GpuCardMoment& m, ImVec2 a, ImVec2 b, float top);
    void draw_card_footer(int gpu, ImVec2 a, ImVec2 b);
    void draw_step(float row_height);
    void draw_readouts();
    void draw_words();
    void draw_exchange_table();  ///< "Every exchange": one row per exchange of the step
    void draw_exchange_list();   ///< the same, two lines an exchange, where the table's columns do not fit
    void build_exchange_words(); ///< the list's lines, once per result
    void draw_prompt();
    void draw_prompt_bars();  ///< the prediction's top words as bars
    void draw_predict();  ///< the collapsed "Predict first?" area under the playback
    void draw_guess_choices();    ///< one radio button per strategy that splits this GPU count
    void draw_presenter_strip();  ///< presenter view's row above the scene: the strategy and the guess
    void draw_reveal();   ///< the guess against every strategy's bytes, once the step has finished
    /// Wrapped text that breaks only at spaces (ImGui's wrapping also breaks after commas,
    /// which splits "7,280" in two); the line breaks are kept until the text or width changes.
    void text(ImU32 colour, const std::string& s) { m_wrap.text(colour, s); }

    core::SplitSetup m_setup;
    core::SplitResult m_result;
    core::Prediction m_prediction;
    std::string m_system_id = "h100";
    std::string m_sources;  // every hardware figure and where it is from

    // Built on recompute, read every frame.
    std::vector<ui::TimelineRow> m_rows;
    std::vector<ui::TimelineRow> m_rows_unseen;  // the same with every exchange grey: for a pending guess
    core::SplitCards m_cards;  // each GPU's card in words, and what runs at the cursor
    std::vector<std::string> m_exchange_words;          // "Every exchange" as a list: two lines an exchange, then the sums
    std::string m_split_text[3];                        // "computing 12.3 µs (40%)", exchanging, idle
    std::string m_step_time_text;
    ImU32 m_exchange_colour = 0;
    bool m_exchange_on_ib = false;  // most of the exchange time is on InfiniBand
    ui::ThemeKind m_theme_kind = ui::ThemeKind::dark;
    std::array<char, 160> m_prompt{};
    SpaceWrap m_wrap;  ///< the words pane's paragraphs, broken only at spaces
    ui::TypedSlider m_micro_batches_box;  ///< Ctrl+click on the micro-batch slider: a box that takes a count
    FrontierView m_frontier;  ///< the "Frontier scale" tab: a real model split across a real cluster
    // Predict, then reveal: the guess, the strategies' bytes for (gpus, micro-batches), the words.
    std::optional<core::Strategy> m_guess;
    int m_answered = -1;  ///< the GPU count of the last step started
    bool m_predict_open = false;
    bool m_scroll_predict = false;  // G opened "Predict first?": scroll it into sight when drawn  // "Predict first?" is open (in presenter view: its strip shows the guess)
    std::vector<core::StrategyBytes> m_strategy_bytes;
    std::pair<int, int> m_strategy_bytes_for{-1, -1};
    std::vector<std::string> m_reveal_lines;
    bool m_reveal_right = false;
    std::string m_reveal_for;
};

}  // namespace m2m::lessons
