// This machine as Lesson 1's roofline sees it, measured once per process: one core's SGEMM peak,
// the dependent-add latency, OpenBLAS's cost per call, and the bandwidth of DRAM and of each cache
// level whose size Linux reports.
//
// [SECTION] probes   [SECTION] caches   [SECTION] this machine
#include "measure/measurement.hpp"

#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <functional>
#include <sstream>
#include <thread>

#include "m2m/core/engine/text.hpp"

namespace m2m::measure {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// [SECTION] probes --------------------------------------------------------------------------

std::string cpu_model_name() {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("model name", 0) == 0) {
            const auto colon = line.find(':');
            if (colon != std::string::npos && colon + 2 <= line.size()) return line.substr(colon + 2);
        }
    return "this CPU";
}

/// The best of `tries` runs of `f`, each repeated until it has run `min_s`; f returns its work done.
template <class F>
double best_rate(int tries, double min_s, F f) {
    double best = 0;
    for (int t = 0; t < tries; ++t) {  // the best of several: on a busy machine some tries lose the core
        double work = 0, dt = 0;
        const auto t0 = Clock::now();
        do {
            work += f();
            dt = seconds_since(t0);
        } while (dt < min_s);
        best = std::max(best, work / dt);
    }
    return best;
}

/// One core's peak FP32 rate: a small SGEMM that stays in cache, on one OpenBLAS thread.
double one_core_peak_flops() {
    constexpr int n = 256;
    std::vector<float> a(n * n, 0.5f), b(n * n, 0.25f), c(n * n, 0.0f);
    const int threads = openblas_get_num_threads();
    openblas_set_num_threads(1);
    const double best = best_rate(7, 0.02, [&] {
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a.data(), n, b.data(), n, 0.0f, c.data(), n);
        return 2.0 * n * n * n;
    });
    openblas_set_num_threads(threads);
    return best;
}

/// Seconds per floating-point add when each add needs the one before: a plain loop's pace.
double dependent_add_seconds() {
    volatile float step = 1e-7f;
    const float x = step;
    const double adds_per_second = best_rate(5, 0.02, [&] {
        constexpr int n = 1 << 20;
        float s = 0.0f;
        for (int i = 0; i < n; ++i) s += x;  // FP adds cannot be reordered: each waits for the last
        volatile float sink = s;
        (void)sink;
        return static_cast<double>(n);
    });
    return 1.0 / adds_per_second;
}

/// OpenBLAS's cost of one call on every thread, measured on a layer too small to take time: its
/// fixed cost per layer, as a kernel launch is the GPU's.
double blas_call_seconds() {
    std::vector<float> a(64, 0.5f), w(64 * 8, 0.25f), c(8, 0.0f);
    const double calls_per_second = best_rate(5, 0.02, [&] {
        for (int k = 0; k < 64; ++k)
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, 1, 8, 64, 1.0f, a.data(), 64, w.data(), 64, 0.0f, c.data(), 8);
        return 64.0;
    });
    return 1.0 / calls_per_second;
}

/// One sweep over `words`, summed in 32-bit lanes so the compiler keeps it in vector registers;
/// built for AVX2 too (picked at run time), as OpenBLAS's own kernels read with 256-bit loads.
__attribute__((target_clones("avx2", "default"))) std::uint32_t sum_words(const std::uint32_t* words, std::size_t n) {
    std::uint32_t s = 0;
    for (std::size_t i = 0; i < n; ++i) s += words[i];
    return s;
}

/// OpenBLAS's pace copying weights into its blocked order, bytes a second on one thread: one
/// batch-1 call on a 256 x 256 layer whose weights already sit in L2 (256 KB), less the call's
/// fixed cost and the kernel's own read of the copy at `l2_Bps`. At batch 1 the copy, not the
/// arithmetic, is what such a call spends its time on.
double blas_copy_Bps(double call_s, double l2_Bps) {
    constexpr int n = 256;
    std::vector<float> a(n, 0.5f), w(n * n, 0.25f), c(n, 0.0f);
    const int threads = openblas_get_num_threads();
    openblas_set_num_threads(1);
    const double calls_per_second = best_rate(5, 0.02, [&] {
        for (int k = 0; k < 16; ++k)
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, 1, n, n, 1.0f, a.data(), n, w.data(), n, 0.0f, c.data(), n);
        return 16.0;
    });
    openblas_set_num_threads(threads);
    const double bytes = 4.0 * n * n;
    const double copy_s = 1.0 / calls_per_second - call_s - (l2_Bps > 0 ? bytes / l2_Bps : 0.0);
    return copy_s > 0 ? bytes / copy_s : 0.0;
}

/// Seconds to add a bias and squash one output with sigma(x) = 1 / (1 + e^-x) on one core, as
/// every path does after each layer's dot products (cpu_paths.cpp, add_bias_and_squash).
double activation_seconds() {
    std::vector<float> v(4096, 0.25f), bias(4096, 0.125f);
    const double per_second = best_rate(5, 0.02, [&] {
        for (std::size_t i = 0; i < v.size(); ++i) v[i] = 1.0f / (1.0f + std::exp(-(v[i] + bias[i])));
        volatile float sink = v[17];
        (void)sink;
        return static_cast<double>(v.size());
    });
    return 1.0 / per_second;
}

/// Every core summing its own `bytes_per_core` of a buffer, again and again: the aggregate read
/// rate over the cores, per core. Buffers a few times a cache's size measure main memory.
double read_Bps_per_core(std::size_t bytes_per_core, int tries) {
    const auto cores = static_cast<std::size_t>(hardware_cores());
    const std::size_t words = std::max<std::size_t>(bytes_per_core / sizeof(std::uint32_t), 1024);
    std::vector<std::vector<std::uint32_t>> bufs(cores, std::vector<std::uint32_t>(words));
    for (auto& b : bufs)
        for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<std::uint32_t>(i);  // touch every page first
    const std::size_t sweeps = std::max<std::size_t>(1, (std::size_t{64} << 20) / (words * sizeof(std::uint32_t)));
    std::vector<std::uint64_t> sums(cores);
    double best = 0;
    for (int t = 0; t < tries; ++t) {
        std::vector<std::thread> threads;
        const auto t0 = Clock::now();
        for (std::size_t k = 0; k < cores; ++k)
            threads.emplace_back([&, k] {
                std::uint64_t s = 0;
                for (std::size_t r = 0; r < sweeps; ++r) s += sum_words(bufs[k].data(), bufs[k].size());
                sums[k] = s;
            });
        for (auto& th : threads) th.join();
        best = std::max(best, static_cast<double>(sweeps * words * sizeof(std::uint32_t)) / seconds_since(t0));
    }
    volatile std::uint64_t sink = 0;
    for (auto s : sums) sink = sink + s;
    return best;
}

// [SECTION] caches --------------------------------------------------------------------------

std::string read_line(const std::string& path) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return line;
}

/// "0-1,4" -> 3 CPUs.
std::uint32_t cpus_in_list(const std::string& list) {
    std::uint32_t n = 0;
    std::stringstream ss(list);
    std::string part;
    while (std::getline(ss, part, ',')) {
        const auto dash = part.find('-');
        try {
            n += dash == std::string::npos ? 1u
                                           : static_cast<std::uint32_t>(std::stoul(part.substr(dash + 1)) -
                                                                         std::stoul(part.substr(0, dash)) + 1);
        } catch (const std::exception&) {
        }
    }
    return std::max<std::uint32_t>(n, 1);
}

}  // namespace

std::vector<core::CacheLevel> read_cache_levels(const std::string& dir) {
    std::vector<core::CacheLevel> out;
    for (int i = 0; i < 16; ++i) {
        const std::string base = dir + "/index" + std::to_string(i) + "/";
        const std::string type = read_line(base + "type"), size = read_line(base + "size"), level = read_line(base + "level");
        if (type.empty() || size.empty() || level.empty()) continue;
        if (type != "Data" && type != "Unified") continue;
        double bytes = 0;
        try {
            bytes = std::stod(size);
        } catch (const std::exception&) {
            continue;
        }
        const char unit = size.back();
        bytes *= unit == 'K' ? 1024.0 : unit == 'M' ? 1024.0 * 1024 : unit == 'G' ? 1024.0 * 1024 * 1024 : 1.0;
        core::CacheLevel c;
        c.name = "L" + level;
        c.bytes = bytes;
        c.cores_sharing = cpus_in_list(read_line(base + "shared_cpu_list"));
        c.per_core = true;
        out.push_back(std::move(c));
    }
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
    return out;
}

int eighths_in_effect(double level_Bps, double next_Bps, const std::function<double(int)>& rate_at) {
    // A level no faster than the next (within run-to-run noise) loses nothing when the weights
    // spill, so its capacity cannot be told from its pace: the reported one stands.
    if (!(level_Bps >= 1.25 * next_Bps)) return 8;
    const double threshold = std::sqrt(level_Bps * next_Bps);
    int eighths = 4;  // half the share: where the level's own rate was measured
    while (eighths < 8 && rate_at(eighths + 1) >= threshold) ++eighths;
    return eighths;
}

// [SECTION] this machine --------------------------------------------------------------------

namespace {

/// Each level's read rate per core, each core reading half its share of the level; then the level's
/// effective capacity: the largest working set, in eighths of what the level reports, that every
/// core together still reads at least at the geometric mean of this level's rate and the next
/// one's (`memory_Bps_per_core` after the last). A level shared with cores the machine does not
/// show (a VM's L3, shared with other guests) holds less than it reports; the weights that do not
/// fit are read at the next level's pace.
void measure_caches(core::ComputeSpec& cpu, double memory_Bps_per_core) {
    const auto cores = static_cast<std::uint32_t>(hardware_cores());
    for (core::CacheLevel& c : cpu.caches) {
        const double instances = std::ceil(static_cast<double>(cores) / c.cores_sharing);
        const double share = c.bytes * instances / cores;
        c.bandwidth_Bps = read_Bps_per_core(static_cast<std::size_t>(share / 2), 5);
    }
    for (std::size_t i = 0; i < cpu.caches.size(); ++i) {
        core::CacheLevel& c = cpu.caches[i];
        const double instances = std::ceil(static_cast<double>(cores) / c.cores_sharing);
        const double share = c.bytes * instances / cores;
        const double next = i + 1 < cpu.caches.size() ? cpu.caches[i + 1].bandwidth_Bps : memory_Bps_per_core;
        const int eighths = eighths_in_effect(c.bandwidth_Bps, next, [&](int k) {
            return read_Bps_per_core(static_cast<std::size_t>(share * k / 8), 3);
        });
        const double reported = c.bytes;
        c.bytes = reported * eighths / 8;
        c.source = "capacity: " + core::format_bytes(reported) + " reported by /sys/devices/system/cpu/cpu0/cache (shared by " +
                   core::format_count(c.cores_sharing) + (c.cores_sharing == 1 ? " core" : " cores") + "), " +
                   (eighths == 8 ? "all of it" : core::format_bytes(c.bytes)) +
                   " holding its pace when measured; bandwidth: measured, every core summing half its share (best of 5)";
    }
}

}  // namespace

const ThisMachine& this_machine() {
    static const ThisMachine machine = [] {
        ThisMachine m;
        const auto t0 = Clock::now();
        core::ComputeSpec& cpu = m.cpu;
        cpu.id = "this-machine";
        cpu.name = "This machine (" + cpu_model_name() + ")";
        cpu.kind = core::ResourceKind::cpu_core;
        cpu.cores = static_cast<std::uint32_t>(hardware_cores());
        cpu.flops_per_core = one_core_peak_flops();
        cpu.rates[static_cast<std::size_t>(core::Precision::fp32)] = {cpu.flops_per_core * cpu.cores, "OpenBLAS SGEMM",
                                                                      "measured"};
        cpu.efficiency = {1.0, "the peak itself is a measured matrix multiply"};
        // Time is counted in add latencies: the clock's place is taken by one add's measured time.
        m.add_seconds = dependent_add_seconds();
        cpu.clock_Hz = 1.0 / m.add_seconds;
        cpu.add_latency_cycles = 1;
        m.blas_call_seconds = blas_call_seconds();
        m.activation_seconds = activation_seconds();
        cpu.caches = read_cache_levels("/sys/devices/system/cpu/cpu0/cache");
        const double biggest = cpu.caches.empty() ? 0 : cpu.caches.back().bytes * cpu.cores;
        cpu.memory_bandwidth_Bps = read_Bps_per_core(static_cast<std::size_t>(std::max(biggest * 4, 64e6)) / cpu.cores, 3) * cpu.cores;
        measure_caches(cpu, cpu.memory_bandwidth_Bps / cpu.cores);
        const auto l2 = std::find_if(cpu.caches.begin(), cpu.caches.end(), [](const auto& c) { return c.name == "L2"; });
        m.blas_copy_Bps = blas_copy_Bps(m.blas_call_seconds, l2 == cpu.caches.end() ? 0.0 : l2->bandwidth_Bps);
        std::string caches;
        const auto reported = read_cache_levels("/sys/devices/system/cpu/cpu0/cache");
        for (std::size_t i = 0; i < cpu.caches.size(); ++i) {
            const auto& c = cpu.caches[i];
            const bool less = i < reported.size() && c.bytes < reported[i].bytes;
            caches += ", " + c.name + " " + core::format_bytes(c.bytes) +
                      (less ? " in effect (" + core::format_bytes(reported[i].bytes) + " reported)" : "") + " at " +
                      core::format_significant(c.bandwidth_Bps / 1e9, 3) + " GB/s a core";
        }
        cpu.source = "Measured on this machine, not taken from a preset: cores " + std::to_string(cpu.cores) +
                     " (std::thread::hardware_concurrency); one core's peak " + core::format_fixed(cpu.flops_per_core / 1e9, 1) +
                     " GFLOP/s (a 256x256x256 SGEMM in cache on one OpenBLAS thread, best of 7); one dependent add " +
                     core::format_seconds(m.add_seconds) + "; an OpenBLAS call " + core::format_seconds(m.blas_call_seconds) +
                     "; its copy of weights into its order " + core::format_significant(m.blas_copy_Bps / 1e9, 3) +
                     " GB/s a thread (a batch-1 call on 256 x 256 weights in L2)" +
                     "; a bias and sigma " + core::format_seconds(m.activation_seconds) + " an output" +
                     "; memory " + core::format_fixed(cpu.memory_bandwidth_Bps / 1e9, 1) +
                     " GB/s (every core summing a buffer far larger than the caches)" + caches + ".";
        m.calibration_seconds = seconds_since(t0);
        return m;
    }();
    return machine;
}

}  // namespace m2m::measure
