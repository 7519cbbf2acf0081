// Lesson 1's network run for real on this CPU: fixed random weights, a plain one-neuron-at-a-time
// loop, OpenBLAS matrix multiplies on every core, a double-precision reference, honest timing.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace m2m::measure {

/// Weights, biases and inputs come from std::mt19937 seeded with this, so every run and every
/// machine measures the same network.
inline constexpr std::uint32_t weight_seed = 20240607;
inline constexpr int default_batch = 32;
inline constexpr int max_batch = 1024;
inline constexpr int default_repeats = 5;
inline constexpr int max_repeats = 50;
/// Each timed repeat runs whole passes until it holds at least this much work.
inline constexpr double min_repeat_seconds = 0.1;
/// A result agrees when max |result - reference| <= tolerance_relative * max(1, max |reference|).
/// Float sums of n products in a different order differ by about sqrt(n) * 6e-8 of the sum of
/// |products|; for n = 4096 and these weights that is ~1e-5 of the outputs' size, so 1e-4
/// leaves room for any summation order and for GLSL's exp() (3 ULP), but catches a wrong sum.
inline constexpr double tolerance_relative = 1e-4;

struct MeasureConfig {
    std::vector<int> widths{1024, 1024, 1024, 1024};  ///< inputs to outputs, as in Lesson 1
    int batch = default_batch;                        ///< inputs run through the network at once
    int repeats = default_repeats;                    ///< timed repeats; the median is reported
};

/// Empty when the configuration can be measured, else one sentence saying what is wrong.
std::string validate(const MeasureConfig& config);

/// Edges of the network (one weight each); biases are not counted.
std::int64_t weight_count(const std::vector<int>& widths);
/// FLOPs of one forward pass of the batch: 2 x weights x batch (a multiply and an add per
/// weight and input). The bias adds and the activations are not counted.
std::int64_t flops_per_pass(const std::vector<int>& widths, int batch);

/// The network with its numbers. Layer l maps widths[l] inputs to widths[l+1] neurons.
struct Problem {
    std::vector<int> widths;
    int batch = 0;
    std::vector<std::vector<float>> weights;  ///< per layer: widths[l+1] rows of widths[l], row-major
    std::vector<std::vector<float>> biases;   ///< per layer: widths[l+1]
    std::vector<float> inputs;                ///< batch rows of widths[0]
    std::size_t layers() const { return weights.size(); }
    std::size_t outputs() const { return static_cast<std::size_t>(batch) * static_cast<std::size_t>(widths.back()); }
};

/// Weights and biases uniform in [-1/sqrt(fan-in), 1/sqrt(fan-in)) (PyTorch's nn.Linear default),
/// inputs uniform in [0, 1); each value is the top 24 bits of one std::mt19937 draw, so the
/// numbers are the same with every standard library.
Problem make_problem(const MeasureConfig& config);

/// Activation: the lesson's sigma(x) = 1 / (1 + e^-x) on hidden layers, identity on the output
/// layer (so the check sees the outputs' errors unsquashed).
inline bool layer_has_sigmoid(const Problem& p, std::size_t layer) { return layer + 1 < p.layers(); }

/// Path 1: one input at a time, one neuron at a time, one dot product after the other on one
/// core, in a plain loop. Adds 2 per multiply-add it did to `flops`. Returns false if cancelled.
/// `on_input(done)` is called after each input of the batch.
bool forward_naive(const Problem& p, std::vector<float>& out, std::int64_t& flops, const std::atomic<bool>* cancel,
                   int first_input = 0, int inputs = -1, const std::function<void(int)>& on_input = {});

/// Path 2: each layer as one SGEMM (batch x inputs) * (inputs x neurons) through OpenBLAS on all
/// cores, then bias and activation. `scratch` holds the hidden activations between calls.
bool forward_blas(const Problem& p, std::vector<float>& out, std::vector<float>& scratch, std::int64_t& flops,
                  const std::atomic<bool>* cancel);

/// The reference: the same network in double precision (one DGEMM per layer), converting one
/// layer's weights at a time so it needs little extra memory.
bool forward_reference(const Problem& p, std::vector<double>& out, const std::atomic<bool>* cancel);

double max_abs_error(const std::vector<float>& result, const std::vector<double>& reference);
/// tolerance_relative * max(1, max |reference|)
double tolerance(const std::vector<double>& reference);

/// OpenBLAS's thread count for path 2 (every core unless OPENBLAS_NUM_THREADS says less).
int blas_threads();
/// The threads OpenBLAS gives one layer's call, batch x n_in x n_out multiply-adds: one up to
/// 65,536 x GEMM_MULTITHREAD_THRESHOLD (4 by default), then one per that many, up to
/// blas_threads() (OpenBLAS, interface/gemm.c). For the network, its largest layer's, which
/// takes most of the time: a 256-wide layer at batch 1 runs on one thread whatever it is offered.
int blas_threads_for(const std::vector<int>& widths, int batch);
/// std::thread::hardware_concurrency(), at least 1.
int hardware_cores();

/// How a path was timed: after a warm-up, `repeats` repeats of `passes_per_repeat` passes each
/// (enough for min_repeat_seconds), each repeat's time divided by its passes; the median of those.
struct Timing {
    double seconds = 0;  ///< median seconds per forward pass of the batch
    int repeats = 0;
    int passes_per_repeat = 0;
    std::vector<double> repeat_seconds;  ///< per pass, one per repeat
};
/// Passes per repeat for a pass of about `pass_seconds` (at least 1).
int passes_for(double pass_seconds);
/// Repeats for a pass of about `pass_seconds`: `requested`, but at most 3 when one pass takes
/// over 2 s (the slow path at the widest settings would otherwise take minutes).
int repeats_for(double pass_seconds, int requested);
double median(std::vector<double> v);

/// Times `pass(base, span)` (false when cancelled): `base` is the fraction of the timed passes
/// done before it and `span` one pass's share, for a progress bar. `warm_up` runs first and
/// returns its estimate of one pass's seconds (negative when cancelled). False when cancelled.
bool time_passes(const std::function<bool(double base, double span)>& pass, const std::function<double()>& warm_up,
                 int repeats, Timing& timing);

/// Bytes the measurement needs in this process's memory and on the GPU, said before it runs.
struct MemoryPlan {
    std::int64_t host_bytes = 0;  ///< weights, inputs, activations, outputs, reference, scratch
    std::int64_t gpu_bytes = 0;   ///< weights, biases, inputs and activations in GPU buffers
    std::int64_t cap_bytes = 0;   ///< half this machine's memory, at most 8 GiB
    bool gpu_in_host_memory = false;  ///< software GL keeps its buffers in the same memory
    bool fits = true;
    std::string sentence;  ///< what it needs and the limit, or why it is refused
    std::string brief;     ///< "Needs 2.48 GB of memory." or "Too big: needs 9.1 GB, limit 8.59 GB."
};
/// `cap_bytes` 0: half this machine's memory, at most 8 GiB.
MemoryPlan plan_memory(const MeasureConfig& config, bool with_gpu, bool gpu_in_host_memory, std::int64_t cap_bytes = 0);

}  // namespace m2m::measure
