// Lesson 1's "Measure this machine": the current network run for real on this CPU and GPU, the
// three times on one scale beside the model's, and the measured speedup against layer width.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lessons/context.hpp"
#include "m2m/core/layers/layer_run.hpp"
#include "measure/measurement.hpp"

namespace m2m::lessons {

class MeasureView {
public:
    MeasureView();
    ~MeasureView();
    MeasureView(MeasureView&&) noexcept;
    MeasureView& operator=(MeasureView&&) noexcept;

    /// Every frame, before drawing: picks up the worker's CPU results and runs one slice of
    /// the GPU path (this is the thread whose GL context is current).
    void tick();
    /// The controls: batch, Measure, Sweep, Cancel, and the memory it will need.
    void draw_controls(Context& ctx, const core::Network& net);
    /// True while the scene shows the measurement instead of the animation.
    bool showing() const { return m_showing; }
    void draw_scene(Context& ctx);
    /// " measure=<phase> progress=<0..1> points=<n>" for the app's state line.
    std::string status() const;

    /// Measures `widths` once (what the Measure button does).
    void start(const std::vector<int>& widths);
    /// Measures every hidden width from 16 up to the widest hidden layer of `widths`, doubling.
    void start_sweep(const std::vector<int>& widths);
    void cancel();
    bool busy() const { return m_job != nullptr; }
    void set_batch(int batch) { m_batch = batch; }

    /// One measured width of a sweep: seconds per pass (0: not shown) and the model's.
    struct SweepPoint {
        int width = 0;
        double naive_s = 0, blas_s = 0, gpu_s = 0;
        double naive_model_s = 0, blas_model_s = 0, gpu_model_s = 0;
    };
    const std::optional<measure::Report>& last() const { return m_last; }
    const std::vector<SweepPoint>& sweep() const { return m_points; }

private:
    struct Job;
    void begin(const std::vector<int>& widths);
    void finish(bool cancelled);
    void add_point(const measure::Report& r);
    void draw_progress(Context& ctx);
    void draw_results(Context& ctx, const measure::Report& r);
    void draw_bars(Context& ctx, const measure::Report& r);
    void draw_table(Context& ctx, const measure::Report& r);
    void draw_plot(Context& ctx, float height);

    std::unique_ptr<Job> m_job;
    std::optional<measure::Report> m_last;
    std::vector<SweepPoint> m_points;
    std::vector<int> m_points_shape;  ///< inputs, hidden layers, outputs, batch of m_points
    std::vector<std::vector<int>> m_queue;  ///< the sweep's networks still to measure
    int m_batch = measure::default_batch;
    bool m_showing = false;
    bool m_select_plot = false;  ///< a sweep just finished: open the plot's tab once
    std::string m_status = " measure=idle";
};

}  // namespace m2m::lessons
