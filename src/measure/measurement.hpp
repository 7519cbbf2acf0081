// One measurement of this machine: the three paths run on the same network, checked against a
// double-precision reference, timed, and set beside Lesson 1's model of this machine.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "m2m/core/engine/machine.hpp"
#include "m2m/presets/presets.hpp"
#include "measure/cpu_paths.hpp"
#include "measure/gpu_run.hpp"

namespace m2m::measure {

/// This machine as Lesson 1's hardware model sees it. Both rates are measured here, once per
/// process, because no preset describes an unknown machine:
/// - flops_per_core: one core's peak, from a 256x256x256 SGEMM in cache on one OpenBLAS thread
///   (the best of seven tries), the same meaning as a preset's cores x clock x FLOPs per cycle;
/// - memory_bandwidth_Bps: every core summing its share of a 128 MiB buffer (the best of five).
/// cores = std::thread::hardware_concurrency().
struct ThisMachine {
    core::ComputeSpec cpu;
    double calibration_seconds = 0;
};
const ThisMachine& this_machine();

/// Lesson 1's hardware model for a batch: the model runs one input at a time, so a batch of B
/// takes B times its forward pass (predicted_makespan on `cores` cores of `spec`).
double predicted_seconds(const std::vector<int>& widths, int batch, const core::ComputeSpec& spec, std::uint32_t cores);

/// The renderer names Mesa gives its software rasterisers.
bool is_software_renderer(const std::string& renderer);
/// The GPU preset a renderer string names as a whole word, ignoring case ("NVIDIA H100 80GB
/// HBM3" -> h100; "a100" is not in "RTX A1000"), or nullptr.
const presets::ComputePreset* preset_for_renderer(const std::string& renderer);

struct PathResult {
    std::string id;     ///< "naive", "blas", "gpu"
    std::string label;  ///< the row's name on screen
    bool ran = false;
    bool agrees = false;
    std::string why_not;  ///< skipped, or the result disagreed: then no time is shown
    double seconds = 0;   ///< median seconds per forward pass of the batch
    double gflops = 0;
    double max_abs_err = 0;
    std::int64_t flops = 0;  ///< FLOPs the path counted in one pass
    Timing timing;
    double predicted_seconds = 0;  ///< 0: the model has no prediction for this row
    std::string prediction_basis;  ///< which machine the model was given
    std::string note;              ///< what the comparison with the model shows
    bool shown() const { return ran && agrees; }
};

struct Report {
    MeasureConfig config;
    std::int64_t weights = 0;
    std::int64_t flops_per_pass = 0;
    MemoryPlan memory;
    double tolerance = 0;
    std::string activation;  ///< "sigma on hidden layers, identity on the output"
    ThisMachine machine;
    GpuInfo gpu;
    std::string honesty;  ///< the renderer line: what the GPU row really ran on
    PathResult naive, blas, gpu_path;
    bool cancelled = false;
    bool refused = false;  ///< over the memory cap: nothing ran
};

/// Progress fractions of the phases, so one bar covers the whole measurement.
enum class Phase { waiting, calibrating, reference, naive, blas, gpu, done, cancelled, refused };
const char* phase_name(Phase p);
/// What the measurement is doing, in words for a progress bar.
const char* phase_words(Phase p);

/// Runs in three steps so a window stays responsive: run_cpu() on a worker thread, then
/// step_gpu() once per frame on the thread that owns the GL context, then report().
class Measurement {
public:
    /// `gpu` may be null; then `gpu_skip` says why the GPU row is empty.
    Measurement(const MeasureConfig& config, std::unique_ptr<GpuRun> gpu, std::string gpu_skip);
    ~Measurement();
    Measurement(const Measurement&) = delete;
    Measurement& operator=(const Measurement&) = delete;

    bool refused() const { return !m_report.memory.fits; }
    const MemoryPlan& memory() const { return m_report.memory; }

    /// The calibration, the reference and both CPU paths. Any thread. False when cancelled.
    bool run_cpu(const std::atomic<bool>& cancel);
    /// One slice of the GPU path (GL thread); true once the GPU row is finished or skipped.
    bool step_gpu(double budget_s);
    /// Drops the GPU run now (GL thread), e.g. on Cancel.
    void stop_gpu();
    /// The finished report (after step_gpu returned true, or after a cancel).
    Report report(bool cancelled);

    double progress() const { return m_progress.load(); }
    Phase phase() const { return m_phase.load(); }

private:
    void set_progress(Phase phase, double within);
    bool time_naive(const std::atomic<bool>& cancel);  ///< path 1, on the worker thread
    bool time_blas(const std::atomic<bool>& cancel);   ///< path 2
    void finish_row(PathResult& row, const std::vector<float>& out, const Timing& t, std::int64_t flops) const;

    Report m_report;
    std::unique_ptr<GpuRun> m_gpu;
    Problem m_problem;
    std::vector<double> m_reference;
    bool m_has_gpu = false;  ///< fixed at construction: read by the worker while the GL thread may drop m_gpu
    bool m_gpu_started = false;
    std::atomic<double> m_progress{0};
    std::atomic<Phase> m_phase{Phase::waiting};
};

}  // namespace m2m::measure
