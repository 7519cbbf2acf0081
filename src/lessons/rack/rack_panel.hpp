// Lesson 2, "Inside a rack": send a tensor between two GPUs, or all-reduce across a group, and
// watch which wires it crosses: NVLink inside a node, InfiniBand between nodes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lessons/lesson.hpp"
#include "m2m/core/rack/collectives.hpp"
#include "m2m/core/rack/send_guess.hpp"
#include "m2m/core/rack/topology.hpp"
#include "lessons/rack/rack_view.hpp"
#include "ui/typed_slider.hpp"
#include "ui/widgets.hpp"

namespace m2m::lessons {

class RackPanel : public Lesson {
public:
    enum class Mode { send, all_reduce };
    enum class Pick { same_node, other_node, other_rack };

    static constexpr double min_bytes = 1e3;   ///< 1 KB: the send slider's left end
    static constexpr double max_bytes = 1e11;  ///< 100 GB: its right end
    static constexpr double min_collective_bytes = 8;                       ///< 8 B, as nccl-tests starts
    static constexpr double max_collective_bytes = 16.0 * (1ull << 30);   ///< 16 GiB
    static constexpr std::uint32_t group_sizes[4] = {8, 16, 64, 128};  ///< one node, two nodes, one rack, both racks

    explicit RackPanel(Context& ctx);
    static const LessonInfo info;  ///< id, title, summary and intro
    void draw(float dt_s) override;
    std::string status() const override;  ///< status_line() and the drawing's zoom and GPU number size
    void draw_home_picture(const ui::Theme& th, ImDrawList* dl, ImVec2 a, ImVec2 b) const override;  ///< home_picture.cpp
    nlohmann::json save_state() const override;
    void load_state(const nlohmann::json& state) override;
    std::string timeline_csv() const override;

    // Each setter asks the core again and rewinds the playback (paused), as the controls do.
    void set_hardware(std::string_view system_id);  ///< throws std::invalid_argument for an unknown preset
    void set_mode(Mode mode);
    void select(core::GpuId from, core::GpuId to);  ///< throws std::out_of_range / std::invalid_argument (from == to)
    void click_gpu(core::GpuId gpu);                ///< as in the drawing: the sender first, then the receiver
    void pick(Pick where);                          ///< a receiver for the current sender
    void set_bytes(double bytes);                   ///< the tensor, clamped to [min_bytes, max_bytes]
    void send();                                    ///< plays the current send from its start
    void set_group(std::uint32_t gpus);             ///< throws std::invalid_argument unless one of group_sizes
    void set_collective_bytes(double bytes);  ///< clamped to [min_collective_bytes, max_collective_bytes]
    void set_ring_per_nic(bool on);
    void set_op(core::CollectiveOp op);
    /// Empty: NCCL's choice ("auto"). Throws std::invalid_argument with the core's sentence when
    /// the group and collective cannot run it (NVLS on a DGX A100, a tree all-gather).
    void set_algorithm(std::optional<core::CollectiveAlgorithm> algorithm);
    /// The algorithms the controls offer now, besides auto (ring, tree, NVLS where they can run).
    std::vector<core::CollectiveAlgorithm> offered_algorithms() const;
    /// Why `gpus` GPUs of preset `system` cannot run `op` with `algorithm` (empty: they can).
    std::string algorithm_refusal(std::size_t system, std::uint32_t gpus, core::CollectiveOp op,
                                  core::CollectiveAlgorithm algorithm) const;
    void run_collective();  ///< plays the collective from its start
    /// What a size slider keeps of the value it returned: a whole number (typed, 1024) as it is,
    /// a dragged one to three significant figures; clamped to [lo, hi].
    static double slider_bytes(double value, double lo, double hi);
    static std::string slider_text(double bytes);  ///< the slider's words: "1,024 B", "1.37 MB"

    const core::Cluster& cluster() const { return *m_cluster; }
    const ui::RackLayout& layout() const { return m_layout; }  ///< the drawing as the last frame laid it out
    Mode mode() const { return m_mode; }
    core::GpuId from() const { return m_from; }
    core::GpuId to() const { return m_to; }
    std::uint32_t group() const { return m_group; }  ///< the collective's GPUs
    bool picking_receiver() const { return m_picking_to; }
    const core::TransferResult& transfer() const { return m_transfer; }
    const core::TransferStory& transfer_story() const { return m_transfer_story; }
    const core::CollectiveResult& collective() const { return m_collective; }
    const core::CollectiveStory& collective_story() const { return m_collective_story; }
    const core::CollectiveSweep& sweep() const { return m_sweep; }  ///< the bus-bandwidth plot's curves
    int plot_hover() const { return m_plot_hover; }  ///< the sweep size under the pointer last frame; -1 for none
    core::CollectiveOp op() const { return m_op; }
    std::optional<core::CollectiveAlgorithm> algorithm() const { return m_algorithm; }
    /// The all-reduce step under a cursor (0-based, clamped to the last step).
    std::size_t step_at(double cursor) const;
    /// What the drawing shows at a cursor, from the last result alone (geometry from the last frame).
    ui::RackPaint paint_at(double cursor) const;

    /// Predict, then reveal: the student's guess before a send (the "Predict first?" area).
    void set_guess(const core::SendGuess& guess) { m_guess = guess; }
    void guess_key(bool number) override;  ///< the next wire or algorithm; N: the times-as-long box
    void view_key() override { m_show_plot = !m_show_plot; }  ///< V: the rack or the plot, where they take turns
    void target_key() override;  ///< T: the next receiver (same node, next node, next rack) or group
    void mode_key() override { set_mode(m_mode == Mode::send ? Mode::all_reduce : Mode::send); }
    const core::SendGuess& guess() const { return m_guess; }
    /// True once a send has played to its end: the guess can be set against it.
    bool send_finished() const { return m_mode == Mode::send && m_playback.finished() && m_playback.cursor() > 0; }
    /// The guess against the current send (lines empty without a guess).
    core::SendReveal reveal() const;
    /// Predict, then reveal for a collective: which algorithm is faster at this size.
    void set_collective_guess(const core::CollectiveGuess& guess) { m_collective_guess = guess; }
    const core::CollectiveGuess& collective_guess() const { return m_collective_guess; }
    bool collective_finished() const {
        return m_mode == Mode::all_reduce && m_playback.finished() && m_playback.cursor() > 0;
    }
    core::CollectiveReveal collective_reveal() const;
    /// True while the run is ready (not started): the readouts that answer a guess show "?".
    bool answers_hidden() const { return m_playback.cursor() <= 0 && !m_playback.playing(); }
    /// The guess is in once its answer has shown (a send or a run started) and stays until the
    /// question changes: another pair of GPUs, size, group, operation or system.
    bool guess_locked() const { return !answers_hidden() || m_answered == question_key(); }
    /// A readout's value, or "?" while the answers are hidden.
    std::string shown(const std::string& value) const { return answers_hidden() ? "?" : value; }
    /// True once the run (a send or a collective) has played to its end: what it ends with shows,
    /// and on a replay of the same question it shows throughout (nothing is left to guess).
    bool run_done() const {
        return (m_playback.finished() && m_playback.cursor() > 0) || (m_playback.passes() > 0 && !answers_hidden());
    }
    /// A figure the run ends with (the time, the bus bandwidth, how many times as long): "?" until
    /// the run has played to its end, so the room watches the wires for it.
    std::string at_end(const std::string& value) const { return run_done() ? value : "?"; }
    /// The TIME readout: "?" before the run, the time so far while it plays, then `total`.
    std::string time_so_far(const std::string& total) const;
    /// The collective's step in words, at the cursor; before a run of NCCL's own pick, without its name.
    std::string step_head() const;

private:
    std::string status_line() const;
    void recompute();
    void recompute_collective();
    void set_send_timeline();
    void set_collective_timeline();
    bool paint_wave(ui::RackPaint& p, double cursor) const;  ///< lights the latency wave's hop; false outside it
    void draw_controls();
    void draw_send_controls();
    void draw_collective_controls();
    void draw_scene();
    void draw_readouts();
    void draw_drawing(float height);
    /// The nodes a zoomed drawing keeps large, most important first (a send's two ends; a group's first nodes).
    std::vector<std::uint32_t> focus_nodes() const;
    std::optional<core::GpuId> summary_gpu(std::uint32_t rack) const;  ///< what a click on a rack's summary picks
    void drawing_tooltip(std::optional<core::GpuId> gpu, std::optional<std::uint32_t> rack, std::optional<core::GpuId> summary);
    void draw_time_split();
    std::string time_split_text() const;          ///< "2.70 ms = 600 ns latency + 2.70 ms moving the bytes"
    float time_split_height(float wrap) const;    ///< its height with the bound beside it, wrapped at `wrap`
    void draw_step();
    void draw_legend();
    void draw_predict();  ///< the collapsed "Predict first?" area under Send
    void draw_collective_predict();
    void draw_collective_choices();
    void draw_presenter_strip();  ///< presenter view's row above the scene: the pending guess and Send
    void draw_link_guess();       ///< NVLink or InfiniBand?
    void draw_times_guess(const char* label);  ///< how many times as long?
    void draw_collective_guess_choices();      ///< which algorithm is faster?
    void draw_plot(float height);  ///< rack_plot.cpp: bus bandwidth against message size
    void draw_plot_hover(const ui::LogLogFrame& f);
    void set_hidden_rooms(const core::CollectiveGroup& group, double bytes);  ///< m_widest_*: the hidden readouts' rooms
    float step_block_h() const;    ///< the room the step's words keep: two lines
    float caption_block_h(float wrap) const;  ///< the room the bars' caption keeps: its longest form's
    void draw_scene_scrolling();  ///< the scene, and where it reaches below the window, the tag
    /// The strip at the scene's foot that the tag sits in while the scene scrolls: nothing else
    /// draws there, so the tag covers no words (it hid the end of "Press Run: ..." at 1024x768, 1.5x).
    static float more_below_strip();
    void draw_more_below() const;  ///< the tag that says the scene's words go on below (the wheel)
    std::vector<std::pair<std::string, bool>> collective_words(bool revealed, bool with_guess) const;  ///< each line, and whether it is marked
    void draw_collective_words();
    void draw_view_switch();  ///< a short scene: the rack or the plot
    float collective_words_height(float wrap) const;
    float reveal_height(float wrap) const;
    void draw_reveal();   ///< the guess against the send, under the time split, once it has finished
    /// A log slider over [lo, hi] showing the size in words; true when the user moved it.
    bool bytes_slider(const char* label, double& bytes, float width, double lo, double hi);
    void draw_size_note();

    std::string question_key() const;  ///< what the pending guess is about, in the current mode
    void locked_tooltip() const;       ///< why a locked guess takes no clicks, over the last item
    std::string m_answered;            ///< the question whose answer has shown (question_key())

    std::size_t m_system = 0;
    std::optional<core::Cluster> m_cluster;
    Mode m_mode = Mode::send;
    core::GpuId m_from = 0, m_to = 5;
    bool m_picking_to = false;
    double m_bytes = 1e9, m_collective_bytes = 1e9;
    std::uint32_t m_group = group_sizes[0];
    bool m_ring_per_nic = true;  ///< what NCCL does; one ring is the lesson's picture of an idle NIC
    core::CollectiveOp m_op = core::CollectiveOp::all_reduce;
    std::optional<core::CollectiveAlgorithm> m_algorithm;  ///< empty: auto
    core::CollectiveSweep m_sweep;
    core::CollectiveGuess m_collective_guess;

    core::TransferResult m_transfer;
    core::TransferStory m_transfer_story;
    core::CollectiveResult m_collective;
    core::CollectiveStory m_collective_story;
    std::vector<core::Route> m_send_routes;  ///< the route of each send in m_collective.sends
    ui::RackLayout m_layout;
    int m_hovered = -1;
    core::SendGuess m_guess;
    bool m_focus_times = false;   // N: the next times-as-long box drawn takes the keyboard
    bool m_open_predict = false;  // G or N: "Predict first?" opens, so the guess shows
    int m_plot_hover = -1;
    bool m_show_plot = false;  ///< a short scene shows the plot instead of the rack  ///< the size under the mouse in the plot, -1 for none
    std::string m_widest_pick;     ///< "NVLS tree · Simple": the room NCCL PICKS keeps while hidden
    /// The room TIME, BUSBW and STEP WAITS ON keep while hidden: the widest any algorithm that can
    /// run here could show, so the gaps between the "?" say nothing of which one NCCL picks.
    std::string m_widest_time, m_widest_busbw, m_widest_link;
    bool m_scene_scrolls = false;  ///< the scene's words reach below the window: the wheel scrolls it
    bool m_scroll_top = false;     ///< a mode switch: the scene goes back to its top on the next frame
    bool m_reveal_was_shown = false;  ///< the send's reveal showed last frame (the frame it comes, it is scrolled into sight)
    ui::TypedSlider m_size_box;    ///< Ctrl+click on a size slider: a box that takes "16 GB" or "64M"
};

}  // namespace m2m::lessons
