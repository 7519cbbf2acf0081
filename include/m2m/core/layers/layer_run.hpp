// Lesson 1's model: a layered network of dot products run on a CPU and on a GPU.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "m2m/core/engine/machine.hpp"
#include "m2m/core/engine/scheduler.hpp"
#include "m2m/core/layers/roofline.hpp"

namespace m2m::core {

inline constexpr int max_layer_width = 4096;
inline constexpr int max_hidden_layers = 16;
inline constexpr std::uint32_t max_cores = 18944;  ///< a B200's FP32 cores, the largest preset

/// Layer widths from the inputs to the outputs, e.g. {4, 6, 6, 3}. Inputs are not neurons.
struct Network {
    std::vector<int> widths;
};

/// Empty when the network is valid, else a sentence saying what is wrong.
std::string validate(const Network& net);
std::int64_t neuron_count(const Network& net);
/// Weights (one per edge) plus biases (one per neuron).
std::int64_t parameter_count(const Network& net);

enum class TimingMode {
    lesson,   ///< every dot product costs one tick, whatever its length
    hardware  ///< a roofline per layer at a batch and precision, plus each machine's fixed per-layer cost
};

struct LayerRunSetup {
    Network network{{4, 6, 6, 3}};
    TimingMode mode = TimingMode::lesson;
    ComputeSpec cpu;  ///< only read in hardware mode (cores come from the fields below)
    ComputeSpec gpu;
    std::uint32_t cpu_cores = 1;
    std::uint32_t gpu_cores = 6;
    // Hardware mode only (lesson mode refuses anything but these defaults):
    int batch = 1;                          ///< inputs run through each layer together, 1..max_batch
    Precision precision = Precision::fp32;  ///< of the weights and the arithmetic
    CacheState cache = CacheState::cold;    ///< a first pass (weights from memory) or a pass again
    CpuLoop cpu_loop = CpuLoop::tuned;      ///< how the CPU sums (measure's plain loop: CpuLoop::plain)
};

/// Empty when the setup's batch, precision and loop suit its mode, else what is wrong.
std::string validate(const LayerRunSetup& setup);

/// One machine's run: its work graph's timeline, and which task computed which neuron.
struct MachineRun {
    Timeline timeline;
    /// layer_first_task[l] is the task of neuron 0 of hidden/output layer l (l = 0 is the
    /// first layer after the inputs); its neurons' tasks follow in order.
    std::vector<TaskId> layer_first_task;
    /// Hardware mode: each layer's fixed cost (the GPU's launch, the CPU's add chain) is a wait on
    /// no core just before the layer's first neuron, task layer_first_task[l] - 1.
    bool fixed_tasks = false;
    std::uint32_t cores = 0;
    SimTime finish = 0;
};

/// One weight layer in hardware mode: its counts and its time on each machine.
struct LayerPoint {
    int n_in = 0;
    int n_out = 0;
    LayerCounts counts;
    LayerTiming cpu;
    LayerTiming gpu;
};

struct LayerRunResult {
    TimeUnit unit = TimeUnit::ticks;
    std::int64_t neurons = 0;
    std::int64_t parameters = 0;
    MachineRun cpu;
    MachineRun gpu;
    double speedup = 0;  ///< CPU time / GPU time
    // Hardware mode only: each machine's roofs and every weight layer on them.
    Roof cpu_roof;
    Roof gpu_roof;
    std::vector<LayerPoint> layers;
    double cpu_seconds() const;
    double gpu_seconds() const;
};

/// Each machine's roofs for the setup's network, precision and cache state.
Roof cpu_roof(const LayerRunSetup& setup);
Roof gpu_roof(const LayerRunSetup& setup);
/// One layer (weights n_in x n_out) on one machine of the setup, in the mode's unit: lesson mode
/// one tick per neuron and no fixed cost.
LayerTiming layer_time(const LayerRunSetup& setup, const ComputeSpec& spec, std::uint32_t cores, const Roof& roof,
                       int n_in, int n_out);
/// Every weight layer's counts and times (hardware mode).
std::vector<LayerPoint> layer_points(const LayerRunSetup& setup);

/// Builds the work graph of one machine: one task per neuron on a pool of `cores`, a join
/// after every layer, and (hardware mode) the layer's fixed cost as a wait before it.
WorkGraph build_layer_graph(const LayerRunSetup& setup, const ComputeSpec& spec, std::uint32_t cores,
                            std::vector<TaskId>* layer_first_task = nullptr);

/// Schedules the network on both machines. Throws std::invalid_argument on a bad setup.
LayerRunResult run_layers(const LayerRunSetup& setup);
/// The same result without the schedules: every figure, the finishes from predicted_makespan (equal
/// to the scheduler's), the timelines empty. Cheap at any width, so a slider answers within a frame;
/// a panel schedules (run_layers) only when the run is played.
LayerRunResult summarize_layers(const LayerRunSetup& setup);

/// The makespan the scheduler will find, in closed form: each layer takes its fixed cost plus
/// ceil(width / cores) rounds of its neurons' task. Cheap enough to sweep.
SimTime predicted_makespan(const LayerRunSetup& setup, const ComputeSpec& spec, std::uint32_t cores);

struct SpeedupPoint {
    int width = 0;        ///< the hidden width (speedup_sweep) or the batch (batch_sweep)
    double cpu_time = 0;  ///< in the mode's unit (seconds in hardware mode)
    double gpu_time = 0;
    double speedup = 0;
};
/// Speedup against a uniform hidden width (same depth, inputs and outputs as `setup`).
std::vector<SpeedupPoint> speedup_sweep(const LayerRunSetup& setup, const std::vector<int>& widths);
/// Speedup against the batch (hardware mode), the network as it is.
std::vector<SpeedupPoint> batch_sweep(const LayerRunSetup& setup, const std::vector<int>& batches);
/// Smallest uniform hidden width at which the GPU finishes strictly sooner; nullopt if none
/// up to max_layer_width.
std::optional<int> gpu_crossover_width(const LayerRunSetup& setup);

/// How the lesson names one machine, from its actual counts: never "thousands of cores" for six.
struct MachineWords {
    std::string header;    ///< "CPU \u00b7 4 cores", "GPU \u00b7 16,896 cores"
    std::string subtitle;  ///< "one neuron at a time", "up to 4 neurons at once", "a whole layer at once"
    std::string waiting;   ///< a fixed-cost wait: "launching the next layer", "summing the last dot product"
    std::string bound;     ///< hardware mode: "memory-bound" ... for most of its time
    std::string units;     ///< hardware mode: "BF16 on tensor cores", "BF16 at its FP32 rate (no BF16 units)"
};

/// What the lesson says about a run, in words computed from the numbers; the panel and the
/// command line only show these.
struct LayerRunStory {
    std::string cpu_time;  ///< "15 ticks" or "12.3 µs"
    std::string gpu_time;
    std::string speedup;   ///< "5.0×"
    std::string verdict;   ///< why the faster machine wins, from the bound that holds
    std::string reuse;     ///< hardware mode: how many FLOPs each byte brings against the ridges (no result in it)
    std::string crossover; ///< hardware mode: the width at which the GPU pulls ahead
    std::string model_note;///< what the simple model leaves out
    MachineWords cpu;
    MachineWords gpu;
    std::string precision_note;  ///< hardware mode: which units run the precision on each machine
    std::string cache_note;      ///< hardware mode: where the weights come from, and why that default
};
/// The bound that holds for most of a machine's time (summed over its layers).
Bound dominant_bound(const std::vector<LayerPoint>& layers, bool gpu);
LayerRunStory tell(const LayerRunSetup& setup, const LayerRunResult& result);
/// Hardware mode's speedup against the batch (a batch_sweep) in words: the batch from which the GPU
/// pulls ahead, or that it leads (or trails) at every batch of the sweep, and by how much at its ends.
std::string batch_sweep_text(const std::vector<SpeedupPoint>& sweep);

}  // namespace m2m::core
