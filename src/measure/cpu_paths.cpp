// The CPU paths of the measurement: the network's numbers, a plain loop, OpenBLAS, a double
// reference, timing and the memory plan.
//
// [SECTION] the network   [SECTION] forward passes   [SECTION] timing   [SECTION] memory
#include "measure/cpu_paths.hpp"

#include <cblas.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>
#include <thread>

#include "m2m/core/engine/text.hpp"
#include "m2m/core/layers/layer_run.hpp"

namespace m2m::measure {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

bool cancelled(const std::atomic<bool>* cancel) { return cancel && cancel->load(std::memory_order_relaxed); }

int max_width(const std::vector<int>& widths) { return *std::max_element(widths.begin(), widths.end()); }

/// Uniform in [lo, hi) from the top 24 bits of one draw: exact in float, same on every library.
float uniform(std::mt19937& gen, float lo, float hi) {
    const float u = static_cast<float>(gen() >> 8) * (1.0f / 16777216.0f);
    return lo + (hi - lo) * u;
}

float sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }
double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

/// After a GEMM wrote layer l's pre-activations for the whole batch into `c` (batch x n_out, row
/// major): add each neuron's bias and, on a sigmoid layer, squash; in float or double alike.
template <class T>
void add_bias_and_squash(T* c, const Problem& p, std::size_t l) {
    const int n_out = p.widths[l + 1];
    const bool squash = layer_has_sigmoid(p, l);
    for (int s = 0; s < p.batch; ++s)
        for (int j = 0; j < n_out; ++j) {
            T& v = c[static_cast<std::size_t>(s) * static_cast<std::size_t>(n_out) + static_cast<std::size_t>(j)];
            v += p.biases[l][static_cast<std::size_t>(j)];
            if (squash) v = sigmoid(v);
        }
}

}  // namespace

// [SECTION] the network ---------------------------------------------------------------------

std::string validate(const MeasureConfig& c) {
    if (auto why = core::validate(core::Network{c.widths}); !why.empty()) return why;
    if (c.batch < 1 || c.batch > max_batch) return "the batch must be between 1 and " + std::to_string(max_batch) + " inputs";
    if (c.repeats < 1 || c.repeats > max_repeats) return "repeats must be between 1 and " + std::to_string(max_repeats);
    return {};
}

std::int64_t weight_count(const std::vector<int>& widths) {
    std::int64_t n = 0;
    for (std::size_t l = 1; l < widths.size(); ++l) n += static_cast<std::int64_t>(widths[l - 1]) * widths[l];
    return n;
}

std::int64_t flops_per_pass(const std::vector<int>& widths, int batch) { return 2 * weight_count(widths) * batch; }

Problem make_problem(const MeasureConfig& c) {
    Problem p;
    p.widths = c.widths;
    p.batch = c.batch;
    std::mt19937 gen(weight_seed);
    for (std::size_t l = 0; l + 1 < c.widths.size(); ++l) {
        const int in = c.widths[l], out = c.widths[l + 1];
        const float bound = 1.0f / std::sqrt(static_cast<float>(in));
        std::vector<float> w(static_cast<std::size_t>(in) * static_cast<std::size_t>(out));
        for (float& x : w) x = uniform(gen, -bound, bound);
        std::vector<float> b(static_cast<std::size_t>(out));
        for (float& x : b) x = uniform(gen, -bound, bound);
        p.weights.push_back(std::move(w));
        p.biases.push_back(std::move(b));
    }
    p.inputs.resize(static_cast<std::size_t>(c.batch) * static_cast<std::size_t>(c.widths.front()));
    for (float& x : p.inputs) x = uniform(gen, 0.0f, 1.0f);
    return p;
}

// [SECTION] forward passes ------------------------------------------------------------------

bool forward_naive(const Problem& p, std::vector<float>& out, std::int64_t& flops, const std::atomic<bool>* cancel,
                   int first_input, int inputs, const std::function<void(int)>& on_input) {
    const int last = inputs < 0 ? p.batch : std::min(p.batch, first_input + inputs);
    out.resize(p.outputs());
    const auto widest = static_cast<std::size_t>(max_width(p.widths));
    std::vector<float> a(widest), z(widest);
    for (int s = first_input; s < last; ++s) {
        const float* x = &p.inputs[static_cast<std::size_t>(s) * static_cast<std::size_t>(p.widths[0])];
        std::copy(x, x + p.widths[0], a.begin());
        for (std::size_t l = 0; l < p.layers(); ++l) {
            if (cancelled(cancel)) return false;
            const int n_in = p.widths[l], n_out = p.widths[l + 1];
            const bool squash = layer_has_sigmoid(p, l);
            for (int j = 0; j < n_out; ++j) {
                // One neuron: one dot product over the layer before it, one product at a time.
                const float* w = &p.weights[l][static_cast<std::size_t>(j) * static_cast<std::size_t>(n_in)];
                float acc = 0.0f;
                for (int i = 0; i < n_in; ++i) acc += w[i] * a[static_cast<std::size_t>(i)];
                const float v = acc + p.biases[l][static_cast<std::size_t>(j)];
                z[static_cast<std::size_t>(j)] = squash ? sigmoid(v) : v;
                flops += 2 * static_cast<std::int64_t>(n_in);
            }
            std::swap(a, z);
        }
        std::copy(a.begin(), a.begin() + p.widths.back(),
                  out.begin() + static_cast<std::ptrdiff_t>(s) * p.widths.back());
        if (on_input) on_input(s + 1 - first_input);
    }
    return true;
}

bool forward_blas(const Problem& p, std::vector<float>& out, std::vector<float>& scratch, std::int64_t& flops,
                  const std::atomic<bool>* cancel) {
    const std::size_t stride = static_cast<std::size_t>(p.batch) * static_cast<std::size_t>(max_width(p.widths));
    scratch.resize(2 * stride);
    out.resize(p.outputs());
    const float* a = p.inputs.data();
    for (std::size_t l = 0; l < p.layers(); ++l) {
        if (cancelled(cancel)) return false;
        const int n_in = p.widths[l], n_out = p.widths[l + 1];
        float* c = l + 1 == p.layers() ? out.data() : scratch.data() + (l % 2) * stride;
        // C (batch x n_out) = A (batch x n_in) * W^T, W stored n_out x n_in row-major.
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, p.batch, n_out, n_in, 1.0f, a, n_in, p.weights[l].data(),
                    n_in, 0.0f, c, n_out);
        flops += 2 * static_cast<std::int64_t>(p.batch) * n_in * n_out;
        add_bias_and_squash(c, p, l);
        a = c;
    }
    return true;
}

bool forward_reference(const Problem& p, std::vector<double>& out, const std::atomic<bool>* cancel) {
    std::vector<double> a(p.inputs.begin(), p.inputs.end()), c, w;
    for (std::size_t l = 0; l < p.layers(); ++l) {
        if (cancelled(cancel)) return false;
        const int n_in = p.widths[l], n_out = p.widths[l + 1];
        w.assign(p.weights[l].begin(), p.weights[l].end());
        c.assign(static_cast<std::size_t>(p.batch) * static_cast<std::size_t>(n_out), 0.0);
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, p.batch, n_out, n_in, 1.0, a.data(), n_in, w.data(), n_in,
                    0.0, c.data(), n_out);
        add_bias_and_squash(c.data(), p, l);
        std::swap(a, c);
    }
    w = {};
    out = std::move(a);
    return true;
}

double max_abs_error(const std::vector<float>& result, const std::vector<double>& reference) {
    if (result.size() != reference.size()) return INFINITY;
    double worst = 0;
    for (std::size_t i = 0; i < result.size(); ++i) {
        const double d = std::fabs(static_cast<double>(result[i]) - reference[i]);
        if (!(d <= worst)) worst = d;  // a NaN makes the error NaN, and NaN never agrees
    }
    return worst;
}

double tolerance(const std::vector<double>& reference) {
    double scale = 1.0;
    for (double v : reference) scale = std::max(scale, std::fabs(v));
    return tolerance_relative * scale;
}

int blas_threads() { return std::max(1, openblas_get_num_threads()); }

int blas_threads_for(const std::vector<int>& widths, int batch) {
    constexpr double per_thread = 65536.0 * 4;  // SMP_THRESHOLD_MIN x GEMM_MULTITHREAD_THRESHOLD
    double mnk = 0;
    for (std::size_t l = 1; l < widths.size(); ++l)
        mnk = std::max(mnk, static_cast<double>(batch) * widths[l - 1] * widths[l]);
    const int offered = blas_threads();
    if (mnk <= per_thread) return 1;
    return mnk / offered < per_thread ? std::clamp(static_cast<int>(mnk / per_thread), 1, offered) : offered;
}

int hardware_cores() { return std::max(1, static_cast<int>(std::thread::hardware_concurrency())); }

// [SECTION] timing --------------------------------------------------------------------------

int passes_for(double pass_seconds) {
    if (!(pass_seconds > 0)) return 1000;
    return static_cast<int>(std::clamp(std::ceil(min_repeat_seconds / pass_seconds), 1.0, 1e6));
}

int repeats_for(double pass_seconds, int requested) { return pass_seconds > 2.0 ? std::min(requested, 3) : requested; }

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

bool time_passes(const std::function<bool(double, double)>& pass, const std::function<double()>& warm_up,
                 int repeats, Timing& timing) {
    const double estimate = warm_up();
    if (estimate < 0) return false;  // cancelled during the warm-up
    timing = {};
    timing.passes_per_repeat = passes_for(estimate);
    timing.repeats = repeats_for(estimate, repeats);
    const double total = static_cast<double>(timing.repeats) * timing.passes_per_repeat;
    for (int r = 0; r < timing.repeats; ++r) {
        const auto t0 = Clock::now();
        for (int k = 0; k < timing.passes_per_repeat; ++k) {
            if (!pass((r * timing.passes_per_repeat + k) / total, 1.0 / total)) return false;
        }
        timing.repeat_seconds.push_back(seconds_since(t0) / timing.passes_per_repeat);
    }
    timing.seconds = median(timing.repeat_seconds);
    return true;
}

// [SECTION] memory --------------------------------------------------------------------------

MemoryPlan plan_memory(const MeasureConfig& c, bool with_gpu, bool gpu_in_host_memory, std::int64_t cap_bytes) {
    MemoryPlan m;
    const auto& w = c.widths;
    const std::int64_t batch = c.batch;
    const std::int64_t widest = max_width(w);
    std::int64_t params = 0, largest_layer = 0;
    for (std::size_t l = 1; l < w.size(); ++l) {
        params += static_cast<std::int64_t>(w[l - 1]) * w[l] + w[l];
        largest_layer = std::max<std::int64_t>(largest_layer, static_cast<std::int64_t>(w[l - 1]) * w[l]);
    }
    const std::int64_t f = 4, d = 8;  // bytes of a float and a double
    m.host_bytes = params * f                            // weights and biases
                   + batch * w.front() * f               // inputs
                   + 2 * batch * widest * f              // OpenBLAS's activations, two layers at a time
                   + 3 * batch * w.back() * f            // the three paths' outputs
                   + largest_layer * d + 3 * batch * widest * d  // the double reference, one layer at a time
                   + (with_gpu ? largest_layer * f : 0);  // one layer's weights reordered for the GPU
    if (with_gpu) m.gpu_bytes = params * f + batch * w.front() * f + 2 * batch * widest * f;
    m.gpu_in_host_memory = with_gpu && gpu_in_host_memory;
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    const std::int64_t physical = pages > 0 && page > 0 ? static_cast<std::int64_t>(pages) * page : (std::int64_t{8} << 30);
    m.cap_bytes = cap_bytes > 0 ? cap_bytes : std::min<std::int64_t>(physical / 2, std::int64_t{8} << 30);
    const std::int64_t in_ram = m.host_bytes + (m.gpu_in_host_memory ? m.gpu_bytes : 0);
    m.fits = in_ram <= m.cap_bytes;
    const auto bytes = [](std::int64_t n) { return core::format_bytes(static_cast<double>(n)); };
    const std::string limit = bytes(m.cap_bytes);
    std::string needs = "needs " + bytes(m.host_bytes) + " of memory";
    if (with_gpu)
        needs += m.gpu_in_host_memory ? ", plus " + bytes(m.gpu_bytes) + " for software GL's buffers in the same memory"
                                      : " and " + bytes(m.gpu_bytes) + " on the GPU";
    const std::string total = bytes(in_ram + (m.gpu_in_host_memory ? 0 : m.gpu_bytes));
    m.brief = m.fits ? "Needs " + total + " of memory." : "Too big: needs " + total + ", limit " + limit + ".";
    if (m.fits)
        m.sentence = "This measurement " + needs + "; the limit is " + limit + ".";
    else
        m.sentence = "Not measured: it " + needs + ", more than the " + limit +
                     " this app allows itself (half this machine's memory, at most 8 GB). Narrow the layers, "
                     "remove some, or use a smaller batch.";
    return m;
}

}  // namespace m2m::measure
