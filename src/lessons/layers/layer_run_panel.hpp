// Lesson 1, "Layer by layer: CPU vs GPU": the same network run on both machines at once.
#pragma once

#include <cstdint>
#include <vector>

#include "lessons/lesson.hpp"
#include "lessons/layers/measure_view.hpp"
#include "lessons/layers/real_scale_view.hpp"
#include "m2m/core/layers/layer_run.hpp"
#include "lessons/layers/network_view.hpp"
#include "lessons/view_tabs.hpp"

namespace m2m::lessons {

/// The chips Lesson 1 opens with: the first CPU preset and the H100 (the first GPU preset where
/// there is no H100). Hardware timing given on the command line runs these.
const core::ComputeSpec& opening_cpu();
const core::ComputeSpec& opening_gpu();

/// The time bars' axis (in the result's time unit) for machines that finish at `cpu` and `gpu`, at
/// the playback's `cursor`. Once `revealed`: the slower one's finish, at most 40x the faster one's.
/// Before: the time so far, never the slower one's finish, which is the answer: the faster one's
/// finish or the cursor, whichever is later, plus a quarter, up to 40x the faster one's time.
double clock_axis(double cpu, double gpu, double cursor, bool revealed);
/// Where a machine's bar ends on that axis: its finish once it has finished or the run has
/// revealed it; before, the axis's end (its total hidden), or, once the clock has run past a
/// capped axis, just past it, so the bar is drawn running off the edge, not finished at it.
double clock_bar_end(double finish, double cursor, double axis, bool revealed);

class LayerRunPanel : public Lesson {
public:
    explicit LayerRunPanel(Context& ctx);
    static const LessonInfo info;  ///< id, title, summary and intro
    void draw(float dt_s) override;
    std::string status() const override;
    void draw_home_picture(const ui::Theme& th, ImDrawList* dl, ImVec2 a, ImVec2 b) const override;  ///< home_picture.cpp
    nlohmann::json save_state() const override;
    void load_state(const nlohmann::json& state) override;
    std::string timeline_csv() const override;
    /// Predict, then reveal: the student's guess of the speedup (0: no guess).
    void set_guess(double speedup) { m_guess = static_cast<float>(speedup); }
    const RealScaleView& real_scale() const { return m_real_scale; }
    /// G: the box takes the keyboard; on the Real scale tab, its guess moves to the next answer.
    void guess_key(bool number) override;
    void view_key() override { m_real_scale.open(!m_real_scale.is_open()); }
    /// The keys' cursor: the Real scale tab's while it is shown, else the lesson's run.
    ui::Playback& playback() override { return m_real_scale.is_open() ? m_real_scale.playback() : m_playback; }
    const ui::Playback& playback() const override { return m_real_scale.is_open() ? m_real_scale.playback() : m_playback; }
    /// The run has played to its end since the set-up last changed, so its answer shows.
    bool revealed() const { return m_revealed; }
    /// The guess is in once the run starts, and stays until a setting changes (a new question): no
    /// guess is changed with the answer in sight.
    bool guess_locked() const { return m_revealed || m_playback.cursor() > 0 || m_playback.playing(); }

    /// Replaces the whole setup (command line, scenarios, tests); throws on an invalid one.
    void apply(const core::LayerRunSetup& setup);
    const core::LayerRunSetup& setup() const { return m_setup; }
    const core::LayerRunResult& result() const { return m_result; }
    const core::LayerRunStory& story() const { return m_story; }

    /// What one machine looks like at the cursor: the network's lit neurons and its busy cores.
    struct MachineFrame {
        ui::NetworkFrame network;
        std::vector<float> cell_busy;  ///< 0..1 per drawn core cell
        std::uint32_t cores_per_cell = 1;
        int active_layer = -1;         ///< hidden/output layer being computed, -1 when none
        std::int64_t done = 0;
    };
    MachineFrame frame_of(const core::MachineRun& m, double cursor, bool gpu) const;

private:
    void recompute();      ///< asks the core again after a parameter changed
    void refresh_views();  ///< the story, sweep, spans and playback of the current result
    void draw_controls();          ///< the formula, the timing and (hardware) the machines, batch and precision
    void draw_network_controls();  ///< playback, the guess, the shape sliders, the model's notes, Measure
    bool draw_shape_sliders();     ///< the network's widths and the machines' cores; true when one moved
    void draw_presenter_strip();   ///< presenter view's row above the scene: the guess and the width
    void draw_guess_box(const char* label);  ///< the speedup guess, kept in 0..1e9
    bool width_slider(const char* label);    ///< every hidden layer's width at once; true when it moved
    void restart();        ///< a setting changed: the run back to "ready", the answer hidden again
    // layer_run_scene.cpp
    void draw_scene(float height);
    void draw_machine(const core::MachineWords& words, const core::MachineRun& m, bool gpu, ImVec2 size);
    void draw_cores(const MachineFrame& f, bool gpu, ImVec2 size);
    void draw_progress(const MachineFrame& f, const core::MachineWords& words, bool gpu, float w);
    void draw_clocks();
    void draw_readouts();
    void draw_plot(ImVec2 size);
    std::vector<int> hidden_widths() const;

    core::LayerRunSetup m_setup;
    core::LayerRunResult m_result;
    core::LayerRunStory m_story;
    std::vector<core::SpeedupPoint> m_sweep;        ///< speedup against the hidden width
    std::vector<core::SpeedupPoint> m_batch_sweep;  ///< hardware mode: against the batch
    bool m_plot_vs_batch = false;
    float m_neuron_radius = 0;  ///< as last drawn, the smaller of the two cards' (--log-state)
    bool m_revealed = false;  ///< the run has played to its end since the last change: the speedup shows
    std::optional<int> m_crossover;
    // per machine and layer: first start and last end, so a frame scans only the running layer
    std::vector<std::pair<core::SimTime, core::SimTime>> m_cpu_spans, m_gpu_spans;
    int m_uniform_width = 6;
    float m_guess = 0;
    bool m_focus_guess = false;  // G or N: the next guess box drawn takes the keyboard
    std::size_t m_cpu_preset = 0, m_gpu_preset = 0;
    MeasureView m_measure;  ///< "Measure this machine": the same network run for real
    RealScaleView m_real_scale;  ///< the "Real scale" tab: a frontier model on one CPU, one GPU, a cluster
};

}  // namespace m2m::lessons
