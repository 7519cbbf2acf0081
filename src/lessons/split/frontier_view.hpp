// Lesson 3's "Frontier scale" tab: a real model on a real GPU cluster. Whether the model fits in
// one GPU, a tensor x pipeline x data layout's memory per GPU, one training step on the shared
// timeline, its throughput, and the best layouts the core's search finds.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "ui/space_wrap.hpp"
#include "lessons/context.hpp"
#include "lessons/scale_controls.hpp"
#include "lessons/view_tabs.hpp"
#include "m2m/core/scale/estimator.hpp"
#include "m2m/core/scale/frontier_story.hpp"
#include "ui/theme.hpp"
#include "ui/timeline_view.hpp"

namespace m2m::lessons {

class FrontierView {
public:
    /// What the student picks. The layout may be one the core refuses: it is kept, and the view
    /// shows check()'s message instead of an estimate.
    struct Settings {
        std::string model = "gpt3-175b";  ///< a model preset (assets/models.json)
        std::string gpu = "a100";         ///< a GPU the estimator has an efficiency constant for
        double tokens = 300e9;            ///< training tokens, for the days to train
        core::Layout layout = default_layout();
    };
    /// GPT-3 175B's layout on 1,024 A100s in the estimator's tests: TP 8 x PP 8 x DP 16, 1,536 sequences a step.
    static core::Layout default_layout();
    static constexpr double min_tokens = 1e6;
    static constexpr double max_tokens = 1e15;

    FrontierView();

    /// The tab bar at the top of Lesson 3 ("Toy network", "Frontier scale"). When the frontier
    /// tab is selected it draws the whole lesson area and returns true; else the caller draws.
    bool draw(Context& ctx);
    void open(bool on = true) { m_tab.open(on); }
    bool is_open() const { return m_tab.is_open(); }
    /// T: the tab of lists under the readouts after the one shown (Memory, Step timeline, Best
    /// layouts, What the estimate assumes; after the last, the first), on the next frame drawn.
    void next_list() { m_next_list = true; }
    /// The id of the tab of lists shown in the last frame ("memory", "timeline", "search",
    /// "assumptions"; empty before one is drawn).
    const std::string& list_shown() const { return m_list_shown; }

    /// Asks the core for everything about `s`. Throws std::invalid_argument for an unknown model
    /// or GPU or tokens out of range (then nothing changes); a layout the core refuses is kept
    /// and explained by problem().
    void apply(const Settings& s);
    const Settings& settings() const { return m_settings; }
    const core::EstimateSetup& setup() const { return m_story.setup; }

    /// Everything the core said about the current settings: the estimate, the whole model against
    /// one GPU, the step's rows and every sentence the tab shows.
    const core::FrontierStory& story() const { return m_story; }
    /// check()'s objection to the layout, if any (then estimate() is empty).
    const std::optional<core::SetupProblem>& problem() const { return m_story.problem; }
    const core::Estimate& estimate() const { return m_story.estimate; }
    /// The whole model on one GPU (memory_use() of a one-GPU layout): weights, gradients, Adam.
    const core::MemoryUse& whole_model() const { return m_story.whole; }
    double state_bytes() const { return m_story.state_bytes; }
    /// At least this many GPUs' memory for the weights, gradients and Adam state alone.
    int min_gpus_for_state() const { return m_story.min_gpus; }

    /// Runs the core's search_frontier() for the current model, GPU, GPU count, batch and schedule
    /// settings (up to a few tenths of a second); kept until one of those changes.
    void run_search();
    /// The search's result, or null when it has not run for the current settings.
    const core::SearchResult* search() const { return m_search ? &m_search->result : nullptr; }
    /// Takes the layout of row `i` of the search (what clicking the row does); false if no such row.
    bool apply_search_row(std::size_t i);

    /// The story's rows as the shared timeline draws them (transfers coloured by their link).
    const std::vector<ui::TimelineRow>& timeline_rows() const { return m_rows; }
    /// Times the core was asked for an estimate; drawing never asks it.
    int computations() const { return m_computations; }

    /// "frontier open=1 model=gpt3-175b gpu=a100 gpus=1024 tp=8 pp=8 dp=16 micro_batch=1
    ///  global_batch=1536 ... fits_one_gpu=0 min_gpus=35 problem=none step_s=... mfu=... fits=1 search=5"
    std::string status() const;
    nlohmann::json save_state() const;
    /// Throws std::invalid_argument starting with `where` on a bad state, changing nothing.
    void load_state(const nlohmann::json& j, const std::string& where);

    /// Any typed whole number (TP, PP, DP, micro-batch, sequences a step ...) is clamped to 1..this.
    static constexpr int max_whole = 1 << 24;

private:
    void draw_controls(Context& ctx);
    bool draw_sizes(Context& ctx, Settings& s);  ///< GPUs, sequences a step, tokens; true when changed
    void draw_sharding_controls(Context& ctx, core::Layout& l, bool& changed);
    void draw_layout_controls(Context& ctx, Settings& s, bool& changed);
    void draw_scene(Context& ctx);
    void draw_lists(Context& ctx, bool tall);  ///< the tabs under the readouts
    void draw_readouts(Context& ctx);
    void draw_whole_model(Context& ctx);
    void draw_per_gpu(Context& ctx);
    void draw_timeline(Context& ctx, float height);
    void draw_search(Context& ctx);
    void draw_search_table(Context& ctx);
    void draw_search_list(Context& ctx);  ///< the table as two lines a row, where its columns do not fit
    void draw_assumptions(Context& ctx);
    bool same_search_inputs(const Settings& a, const Settings& b) const;
    void recolour(const ui::Theme& th);

    Settings m_settings;
    // What the typed boxes hold while the student types; applied when the box is left.
    int m_edit_gpus = 0, m_edit_batch = 0;
    double m_edit_billions = 0;
    ScaleTab m_tab{{"lesson3_views", "Toy network", "tab_toy_network", "Frontier scale: a real model", "tab_frontier"}};
    int m_computations = 0;

    // Built by apply() and run_search(), read every frame.
    core::FrontierStory m_story;
    std::optional<core::FrontierSearch> m_search;
    Settings m_search_settings;  ///< what m_search was run for
    std::vector<ui::TimelineRow> m_rows;  ///< m_story.rows for the timeline widget
    std::string m_gpu_sources, m_model_sources;  ///< the presets' figures and where they are from
    SpaceWrap m_wrap;
    std::string m_list_shown;   ///< the tab of lists drawn last
    bool m_next_list = false;   ///< T was pressed: select the tab after m_list_shown
    std::optional<ui::ThemeKind> m_coloured_for;  ///< the theme the transfer bars were coloured for (none: not yet)
};

}  // namespace m2m::lessons
