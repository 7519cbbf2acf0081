// One measurement of this machine: the three paths run on the same network, checked against a
// double-precision reference, timed, and set beside Lesson 1's model of this machine.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "m2m/core/engine/machine.hpp"
#include "m2m/core/layers/layer_run.hpp"
#include "m2m/presets/presets.hpp"
#include "measure/cpu_paths.hpp"
#include "measure/gpu_run.hpp"

namespace m2m::measure {

/// This machine as Lesson 1's roofline sees it, measured once per process because no preset
/// describes an unknown machine (this_machine.cpp):
/// - flops_per_core: one core's peak, from a 256x256x256 SGEMM in cache on one OpenBLAS thread
///   (the best of seven tries), the same meaning as a preset's cores x clock x FLOPs per cycle,
///   and already a matrix multiply's rate (efficiency 1);
/// - caches: each level's size from /sys/devices/system/cpu/cpu0/cache, its read rate measured;
/// - memory_bandwidth_Bps: every core summing its share of a buffer far larger than the caches;
/// - add_seconds: one floating-point add that waits for the one before (a plain loop's pace);
///   the spec counts time in these (clock_Hz = 1 / add_seconds, add_latency_cycles = 1);
/// - blas_call_seconds: one OpenBLAS call on a tiny layer, the library's fixed cost per layer;
/// - blas_copy_Bps: OpenBLAS's pace copying weights into its blocked order on one thread (a
///   batch-1 call on weights in L2, less its call cost and the kernel's read);
/// - activation_seconds: one output's bias and sigma on one core, which Lesson 1's roofline does
///   not count (it counts dot products) but every path here does after each layer.
/// cores = std::thread::hardware_concurrency().
struct ThisMachine {
    core::ComputeSpec cpu;
    double add_seconds = 0;
    double blas_call_seconds = 0;
    double blas_copy_Bps = 0;
    double activation_seconds = 0;
    double calibration_seconds = 0;
};
const ThisMachine& this_machine();
/// A cache level's capacity in effect, in eighths of what it reports: the largest working set (from
/// half of it up, `rate_at(k)` the read rate at k eighths) still read at least at the geometric
/// mean of the level's rate and the next level's; all eight when the level is not clearly (1.25x)
/// faster than the next, because then its capacity cannot be told from its pace.
int eighths_in_effect(double level_Bps, double next_Bps, const std::function<double(int)>& rate_at);
/// Data and unified cache levels under `dir` (e.g. /sys/devices/system/cpu/cpu0/cache), nearest
/// first, with their size and how many CPUs share each; bandwidth is left 0.
std::vector<core::CacheLevel> read_cache_levels(const std::string& dir);

/// The Lesson 1 run that predicts one path on `cores` cores of `spec`: its widths at this batch in
/// FP32, weights warm (every timed pass follows another). A plain loop runs one input at a time, so
/// its run is at batch 1 and its time is that times the batch.
core::LayerRunSetup path_setup(const std::vector<int>& widths, int batch, const core::ComputeSpec& spec,
                               std::uint32_t cores, core::CpuLoop loop);
/// Seconds of one pass of the batch on that run (predicted_makespan).
double predicted_seconds(const std::vector<int>& widths, int batch, const core::ComputeSpec& spec, std::uint32_t cores,
                         core::CpuLoop loop = core::CpuLoop::tuned);

/// OpenBLAS's pass on `threads` threads of `blas` (its layer_overhead_s the cost of a call), as
/// GotoBLAS's algorithm runs it: the weights read once from the level that holds them, copied
/// into its blocked order at `copy_Bps` a thread into a buffer that stays in L2, and multiplied
/// from there (the roofline with L2 as its memory; Goto and van de Geijn 2008, sec. 4).
double openblas_seconds(const std::vector<int>& widths, int batch, const core::ComputeSpec& blas, double copy_Bps,
                        std::uint32_t threads);

/// How long a measurement will take, said before it runs: each CPU path's predicted pass times
/// the passes its timing will run (a warm-up, then `repeats` repeats of at least
/// min_repeat_seconds each), and the double-precision reference. The GPU row comes on top.
struct TimePlan {
    double seconds = 0;      ///< the CPU paths and the reference
    double naive_pass_s = 0; ///< the plain loop's predicted pass, the slowest part at wide layers
    std::string sentence;    ///< "About 1 min 40 s for the CPU rows (one plain-loop pass: 13 s); the GPU row comes on top."
    std::string brief;       ///< "About 1 min 40 s."
};
TimePlan plan_time(const MeasureConfig& config, const ThisMachine& machine);

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
