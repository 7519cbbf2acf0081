// Lesson 1's model: a layered network of dot products run on a CPU and on a GPU.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "m2m/core/engine/machine.hpp"
#include "m2m/core/engine/scheduler.hpp"

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
    hardware  ///< roofline per dot product, plus the GPU's per-layer overhead
};

struct LayerRunSetup {
    Network network{{4, 6, 6, 3}};
    TimingMode mode = TimingMode::lesson;
    ComputeSpec cpu;  ///< only read in hardware mode (cores come from the fields below)
    ComputeSpec gpu;
    std::uint32_t cpu_cores = 1;
    std::uint32_t gpu_cores = 6;
};

/// One machine's run: its work graph's timeline, and which task computed which neuron.
struct MachineRun {
    Timeline timeline;
    /// layer_first_task[l] is the task of neuron 0 of hidden/output layer l (l = 0 is the
    /// first layer after the inputs); its neurons' tasks follow in order.
    std::vector<TaskId> layer_first_task;
    std::uint32_t cores = 0;
    SimTime finish = 0;
};

struct LayerRunResult {
    TimeUnit unit = TimeUnit::ticks;
    std::int64_t neurons = 0;
    std::int64_t parameters = 0;
    MachineRun cpu;
    MachineRun gpu;
    double speedup = 0;  ///< CPU time / GPU time
    double cpu_seconds() const;
    double gpu_seconds() const;
};

/// Duration of one neuron's dot product over `inputs` values on a machine where
/// `busy_cores` cores share the memory, in the mode's unit. Hardware mode is a roofline:
/// max(2n FLOPs / per-core rate, 4n bytes of FP32 weights / (bandwidth / busy cores)).
SimTime dot_product_time(TimingMode mode, const ComputeSpec& spec, int inputs, std::uint32_t busy_cores);
/// The GPU's per-layer launch and synchronisation overhead in the mode's unit (0 in lesson mode).
SimTime layer_overhead(TimingMode mode, const ComputeSpec& spec);

/// Builds the work graph of one machine: one task per neuron on a pool of `cores`, a join
/// after every layer, and (hardware mode) a launch delay before each layer.
WorkGraph build_layer_graph(const LayerRunSetup& setup, const ComputeSpec& spec, std::uint32_t cores,
                            std::vector<TaskId>* layer_first_task = nullptr);

/// Schedules the network on both machines. Throws std::invalid_argument on a bad setup.
LayerRunResult run_layers(const LayerRunSetup& setup);

/// The makespan the scheduler will find, in closed form: each layer takes
/// ceil(width / cores) rounds of its dot product, plus the overhead. Cheap enough to sweep.
SimTime predicted_makespan(const LayerRunSetup& setup, const ComputeSpec& spec, std::uint32_t cores);

struct SpeedupPoint {
    int width = 0;
    double cpu_time = 0;  ///< in the mode's unit (seconds in hardware mode)
    double gpu_time = 0;
    double speedup = 0;
};
/// Speedup against a uniform hidden width (same depth, inputs and outputs as `setup`).
std::vector<SpeedupPoint> speedup_sweep(const LayerRunSetup& setup, const std::vector<int>& widths);
/// Smallest uniform hidden width at which the GPU finishes strictly sooner; nullopt if none
/// up to max_layer_width.
std::optional<int> gpu_crossover_width(const LayerRunSetup& setup);

/// What the lesson says about a run, in words computed from the numbers; the panel and the
/// command line only show these.
struct LayerRunStory {
    std::string cpu_time;  ///< "15 ticks" or "12.3 µs"
    std::string gpu_time;
    std::string speedup;   ///< "5.0×"
    std::string verdict;   ///< why the faster machine wins, one or two sentences
    std::string crossover; ///< hardware mode: the width at which the GPU pulls ahead
    std::string model_note;///< what the simple model leaves out
};
LayerRunStory tell(const LayerRunSetup& setup, const LayerRunResult& result);

}  // namespace m2m::core
