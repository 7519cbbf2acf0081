// Lesson 1's "Real scale" tab: how long training a frontier model takes on one CPU, one GPU and a
// cluster (the core's RealScaleStory), the three times as bars on one logarithmic axis, with the
// story's notes and the presets' sources.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ui/playback.hpp"
#include "ui/space_wrap.hpp"
#include "ui/typed_slider.hpp"
#include "lessons/context.hpp"
#include "lessons/scale_controls.hpp"
#include "lessons/view_tabs.hpp"
#include "m2m/core/layers/real_scale_story.hpp"

namespace m2m::lessons {

class RealScaleView {
public:
    /// What the student picks. Only apply() changes it, so a refused setting changes nothing.
    struct Settings {
        std::string model = "gpt3-175b";  ///< a model preset (assets/models.json)
        std::string cpu = "epyc-9654";    ///< a CPU preset (assets/hardware.json)
        std::string gpu = "h100";         ///< a GPU the estimator has an efficiency constant for
        double tokens = 300e9;            ///< training tokens
        int cluster_gpus = 1024;          ///< a power of two from min_cluster_gpus to max_cluster_gpus
    };
    static constexpr int min_cluster_gpus = 8;
    static constexpr int max_cluster_gpus = 16384;
    static constexpr double min_tokens = 1e6;
    static constexpr double max_tokens = 1e15;
    /// Tokens per optimizer step the cluster's layout search uses: 2^22, about 4.2 million (GPT-3
    /// used 3.2 million, Brown et al. 2020 Table 2.1; Llama 3 began at 4 million, its paper sec. 3.4.1).
    static constexpr std::int64_t tokens_per_step = std::int64_t{1} << 22;

    /// Computes nothing yet: the core is first asked when the tab is shown or apply() is called.
    RealScaleView();

    /// The tab bar at the top of Lesson 1 ("Layer by layer", "Real scale"). When the real-scale
    /// tab is selected it draws the whole lesson area and returns true; else the caller draws.
    bool draw(Context& ctx);
    /// Selects the real-scale tab (true) or the lesson's own (false) from the next frame on.
    void open(bool on = true) { m_tab.open(on); }
    bool is_open() const { return m_tab.is_open(); }

    /// Computes everything for `s`; throws std::invalid_argument naming the bad field, and then
    /// keeps the current state.
    void apply(const Settings& s);
    const Settings& settings() const { return m_settings; }

    /// What the core's tell_real_scale() said for the current settings: the three rows, the
    /// Lesson 1 run behind the one-chip rows and its factor, the cluster's layout, every note
    /// (empty before the first apply() or the first frame with the tab shown).
    const core::RealScaleStory& story() const { return m_story; }
    /// The setup the cluster's layout search ran on (model, GPU, GPU count, global batch).
    const core::EstimateSetup& cluster_setup() const { return m_story.cluster_setup; }
    /// The fastest layout that fits on the cluster, whose estimate the cluster row is; empty when
    /// no layout of that many GPUs holds the model (the cluster row is then not shown).
    const std::optional<core::LayoutScore>& cluster_layout() const { return m_story.cluster_layout; }
    std::int64_t parameters() const { return m_story.parameters; }
    /// Times the core was asked (settings changed); drawing never asks it.
    int computations() const { return m_computations; }

    /// Predict, then reveal: Run (Space) grows the bars along the time axis, the shortest stopping
    /// first; their times, Lesson 1's factor and the guess's answer come at the end. The cursor
    /// runs from 0 to 1 across the axis. Any change of a setting is a new question: back to zero.
    ui::Playback& playback() { return m_playback; }
    const ui::Playback& playback() const { return m_playback; }
    /// How long the asked row takes (core::asked_row: the cluster's, or one GPU's), as a person says it.
    void set_guess(std::optional<core::DurationGuess> guess) {
        if (!guess_locked()) m_guess = guess;
    }
    std::optional<core::DurationGuess> guess() const { return m_guess; }
    void guess_key();  ///< G: the next answer (after the last, none); nothing once locked
    /// Nothing answered yet: no run started since the question was set.
    bool answers_hidden() const { return m_playback.cursor() <= 0 && !m_playback.playing(); }
    /// The bars have grown to their ends: the times and the guess's answer show.
    bool revealed() const { return m_playback.finished() && m_playback.cursor() > 0; }
    /// The guess is in from the first Run or Step until a setting changes (Reset keeps it in).
    bool guess_locked() const { return m_started || !answers_hidden(); }
    /// How far along the axis (0 to 1) row `i`'s bar ends.
    double row_fraction(std::size_t i) const;
    /// The time axis's ends, in seconds: one second to 1,000 years, or to the CPU's mark past it (no
    /// end follows the asked row, so the axis says nothing of the answer before Run).
    std::pair<double, double> axis_span() const { return {m_axis_lo, m_axis_hi}; }

    /// "real_scale open=1 model=gpt3-175b tokens=3e+11 cluster_gpus=1024 cpu_s=... gpu_s=...
    ///  cluster_s=... mfu=... factor=..." (cluster_s=none when no layout fits; factor: the one-chip
    ///  rows' ratio, Lesson 1's speedup for the same chips).
    std::string status() const;
    /// model, cpu, gpu, tokens, cluster_gpus, open.
    nlohmann::json save_state() const;
    /// Throws std::invalid_argument starting with `where` on a bad state, changing nothing.
    void load_state(const nlohmann::json& j, const std::string& where);

private:
    void draw_controls(Context& ctx);
    bool draw_tokens(Context& ctx, Settings& s);         ///< true when the student changed them
    bool draw_cluster_size(Context& ctx, Settings& s);  ///< true when the student changed it
    /// A count typed into the cluster slider's box: the nearest the slider takes, said under it.
    int typed_cluster_gpus(const std::string& typed, int was);
    void draw_scene(Context& ctx);
    void draw_bars(Context& ctx);
    void draw_axis(Context& ctx, float x0, float bar_w, float row_w);  ///< the marks' words under the bars
    void set_axis();  ///< the calendar marks around the shown rows
    void draw_notes(Context& ctx);
    void draw_predict(Context& ctx);
    void draw_guess_choices(Context& ctx);
    void draw_presenter_strip(Context& ctx);
    void locked_tooltip() const;
    void reset_question();
    std::string guess_token() const;  ///< the guess as one word for status(): "a_week_to_a_month", "none"  ///< a new question: the run back to zero, no guess

    Settings m_settings;
    double m_edit_billions = 0;  ///< the tokens box while the student types; applied when it is left
    int m_drag_exponent = -1;    ///< the cluster slider's log2 while it is dragged (-1: not dragged)
    bool m_answer_was_shown = false;  ///< the answer showed last frame: the scene scrolled to it once
    ui::TypedSlider m_gpus_box;  ///< Ctrl+click on the cluster slider: a box that takes "2048" or "1,000"
    ScaleTab m_tab{{"lesson1_views", "Layer by layer", "tab_layer_by_layer", "Real scale: a frontier model", "tab_real_scale"}};
    int m_computations = 0;
    ui::Playback m_playback;
    std::optional<core::DurationGuess> m_guess;
    bool m_started = false;  ///< a run or step has started since the question was set
    bool m_open_predict = false;  ///< G's request to open "Predict first?" on the next frame

    // Built by apply(), read every frame.
    core::RealScaleStory m_story;
    std::string m_cpu_sources, m_gpu_sources, m_model_sources, m_parameters_text;
    struct Tick {
        double seconds;
        std::string label;
    };
    std::vector<Tick> m_ticks;
    double m_axis_lo = 1, m_axis_hi = 10;  ///< seconds at the bars' left and right ends
    SpaceWrap m_wrap;
};

}  // namespace m2m::lessons
