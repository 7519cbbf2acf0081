// One measurement: calibrate this machine, run the reference and the three paths, check them,
// time them, and predict each with Lesson 1's model.
//
// [SECTION] the model   [SECTION] running   (this machine: this_machine.cpp; the report: measurement_report.cpp)
#include "measure/measurement.hpp"

#include <cblas.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <fstream>
#include <thread>

#include "m2m/core/engine/text.hpp"
#include "m2m/core/layers/layer_run.hpp"
#include "m2m/presets/presets.hpp"

namespace m2m::measure {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

std::string lower(std::string s) {
    for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return s;
}

/// `word` in `text` as a whole word: "h100" in "nvidia h100 80gb hbm3", but "a100" not in "rtx a1000".
bool has_word(const std::string& text, const std::string& word) {
    auto alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
    for (auto at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
        const bool left = at == 0 || !alnum(text[at - 1]);
        const bool right = at + word.size() == text.size() || !alnum(text[at + word.size()]);
        if (left && right) return true;
    }
    return false;
}

}  // namespace

// [SECTION] the model -----------------------------------------------------------------------

core::LayerRunSetup path_setup(const std::vector<int>& widths, int batch, const core::ComputeSpec& spec,
                               std::uint32_t cores, core::CpuLoop loop) {
    core::LayerRunSetup s;
    s.network.widths = widths;
    s.mode = core::TimingMode::hardware;
    s.cpu = s.gpu = spec;
    s.cpu_cores = s.gpu_cores = cores;
    s.batch = loop == core::CpuLoop::plain ? 1 : batch;
    s.precision = core::Precision::fp32;
    s.cache = core::CacheState::warm;
    s.cpu_loop = loop;
    return s;
}

double predicted_seconds(const std::vector<int>& widths, int batch, const core::ComputeSpec& spec, std::uint32_t cores,
                         core::CpuLoop loop) {
    const core::LayerRunSetup s = path_setup(widths, batch, spec, cores, loop);
    const core::SimTime pass = core::predicted_makespan(s, spec, cores);
    const double inputs_one_by_one = loop == core::CpuLoop::plain ? batch : 1;
    return static_cast<double>(pass) * core::seconds_per_step(core::TimeUnit::picoseconds) * inputs_one_by_one;
}

double openblas_seconds(const std::vector<int>& widths, int batch, const core::ComputeSpec& blas, double copy_Bps,
                        std::uint32_t threads) {
    const core::LayerRunSetup s = path_setup(widths, batch, blas, threads, core::CpuLoop::tuned);
    const core::Roof source = core::cpu_roof(s);
    const int widest = *std::max_element(widths.begin() + 1, widths.end());
    const double in_play = core::cores_in_play(threads, widest);
    core::Roof buffer = source;
    const auto l2 = std::find_if(blas.caches.begin(), blas.caches.end(), [](const auto& l) { return l.name == "L2"; });
    if (l2 != blas.caches.end() && l2->bandwidth_Bps > 0) {
        buffer.bandwidth_Bps = l2->bandwidth_Bps * in_play;
        buffer.level = "L2";
    }
    double weights = 0, kernel = 0;
    for (std::size_t l = 1; l < widths.size(); ++l) {
        weights += 4.0 * widths[l - 1] * widths[l];
        const core::LayerTiming t = core::layer_timing(blas, threads, buffer, widths[l - 1], widths[l], batch, core::Precision::fp32);
        kernel += static_cast<double>(t.total()) * core::seconds_per_step(core::TimeUnit::picoseconds);
    }
    const double copy = copy_Bps > 0 ? weights / (copy_Bps * in_play) : 0.0;
    return weights / source.bandwidth_Bps + copy + kernel;
}

const presets::ComputePreset* preset_for_renderer(const std::string& renderer) {
    const std::string text = lower(renderer);
    const presets::ComputePreset* found = nullptr;
    for (const auto& id : presets::builtin().ids(core::ResourceKind::gpu_core))
        if (has_word(text, id)) found = presets::builtin().find(id);
    return found;
}

bool is_software_renderer(const std::string& renderer) {
    const std::string r = lower(renderer);
    return r.find("llvmpipe") != std::string::npos || r.find("softpipe") != std::string::npos ||
           r.find("swrast") != std::string::npos;
}

const char* phase_name(Phase p) {
    switch (p) {
    case Phase::waiting: return "waiting";
    case Phase::calibrating: return "calibrating";
    case Phase::reference: return "reference";
    case Phase::naive: return "naive";
    case Phase::blas: return "blas";
    case Phase::gpu: return "gpu";
    case Phase::done: return "done";
    case Phase::cancelled: return "cancelled";
    case Phase::refused: return "refused";
    }
    return "?";
}

const char* phase_words(Phase p) {
    switch (p) {
    case Phase::waiting: return "Starting";
    case Phase::calibrating: return "Measuring one core's peak and the memory's speed";
    case Phase::reference: return "Computing the reference answer in double precision";
    case Phase::naive: return "Timing one neuron at a time on one core";
    case Phase::blas: return "Timing OpenBLAS on every core";
    case Phase::gpu: return "Timing the compute shader";
    case Phase::done: return "Done";
    case Phase::cancelled: return "Cancelled";
    case Phase::refused: return "Too big for this machine's memory";
    }
    return "";
}

// [SECTION] running -------------------------------------------------------------------------

Measurement::Measurement(const MeasureConfig& config, std::unique_ptr<GpuRun> gpu, std::string gpu_skip)
    : m_gpu(std::move(gpu)) {
    Report& r = m_report;
    r.config = config;
    r.weights = weight_count(config.widths);
    r.flops_per_pass = flops_per_pass(config.widths, config.batch);
    r.activation = "\xcf\x83 (sigmoid) on the hidden layers, identity on the output layer";
    r.naive.id = "naive";
    r.naive.label = "One neuron at a time, one core";
    r.blas.id = "blas";
    r.blas.label = "OpenBLAS, all " + std::to_string(blas_threads()) + " cores";
    r.gpu_path.id = "gpu";
    r.gpu_path.label = "GPU (OpenGL compute shader)";
    if (m_gpu) {
        r.gpu = m_gpu->info();
        if (r.gpu.software) r.gpu_path.label = "software GL (no GPU found)";
        if (!r.gpu.available) {
            r.gpu_path.why_not = r.gpu.why_not;
            m_gpu.reset();
        }
    } else {
        r.gpu_path.why_not = gpu_skip.empty() ? "no GPU path in this build" : gpu_skip;
    }
    if (!r.gpu.renderer.empty() && !r.gpu.available)
        r.honesty = "No GPU row: " + r.gpu.why_not + "." +
                    (r.gpu.software ? " That renderer is Mesa's software GL, so no GPU was found either." : "");
    else if (r.gpu.software)
        r.honesty = "No GPU found: the OpenGL renderer is \xe2\x80\x9c" + r.gpu.renderer +
                    "\xe2\x80\x9d, Mesa's software GL. It runs the compute shader on the same " +
                    std::to_string(hardware_cores()) + " CPU cores as the rows above, so that row is not a GPU result.";
    else if (!r.gpu.renderer.empty())
        r.honesty = "The GPU row runs on \xe2\x80\x9c" + r.gpu.renderer + "\xe2\x80\x9d (" + r.gpu.vendor + ", OpenGL " +
                    r.gpu.version + ").";
    else
        r.honesty = "No GPU row: " + r.gpu_path.why_not;
    r.memory = plan_memory(config, m_gpu != nullptr, r.gpu.software);
    if (!r.memory.fits) {
        m_gpu.reset();
        m_phase = Phase::refused;
    }
    m_has_gpu = m_gpu != nullptr;
}

Measurement::~Measurement() = default;

void Measurement::set_progress(Phase phase, double within) {
    // Where each phase sits on the one progress bar; the CPU part fills it when there is no GPU row.
    static constexpr double start[] = {0, 0, 0.04, 0.08, 0.55, 0.70, 1, 1, 1};
    static constexpr double end[] = {0, 0.04, 0.08, 0.55, 0.70, 1.0, 1, 1, 1};
    const auto i = static_cast<std::size_t>(phase);
    double f = start[i] + (end[i] - start[i]) * std::clamp(within, 0.0, 1.0);
    if (!m_has_gpu) f = std::min(1.0, f / 0.70);
    m_phase = phase;
    m_progress = f;
}

bool Measurement::run_cpu(const std::atomic<bool>& cancel) {
    if (refused()) return false;
    set_progress(Phase::calibrating, 0);
    m_report.machine = this_machine();
    if (cancel) return false;

    set_progress(Phase::reference, 0);
    m_problem = make_problem(m_report.config);
    if (!forward_reference(m_problem, m_reference, &cancel)) return false;
    m_report.tolerance = tolerance(m_reference);

    if (!time_naive(cancel) || !time_blas(cancel)) return false;
    set_progress(Phase::gpu, 0);
    return true;
}

// Path 1. Its warm-up is one input: that touches every weight once, as a whole pass does.
bool Measurement::time_naive(const std::atomic<bool>& cancel) {
    const MeasureConfig& c = m_report.config;
    set_progress(Phase::naive, 0);
    std::vector<float> out;
    std::int64_t flops = 0;
    Timing timing;
    auto pass = [&](double base, double span) {
        flops = 0;
        return forward_naive(m_problem, out, flops, &cancel, 0, -1, [&](int done) {
            set_progress(Phase::naive, base + span * done / c.batch);
        });
    };
    auto warm_up = [&]() -> double {
        std::int64_t ignored = 0;
        const auto t0 = Clock::now();
        if (!forward_naive(m_problem, out, ignored, &cancel, 0, 1)) return -1;
        double estimate = seconds_since(t0) * c.batch;
        for (double spent = 0; estimate < 0.02 && spent < 0.02; spent += estimate) {  // tiny networks: whole passes
            const auto t1 = Clock::now();
            if (!forward_naive(m_problem, out, ignored, &cancel)) return -1;
            estimate = seconds_since(t1);
        }
        return estimate;
    };
    if (!time_passes(pass, warm_up, c.repeats, timing)) return false;
    finish_row(m_report.naive, out, timing, flops);
    return true;
}

// Path 2. Its warm-up is whole passes until 20 ms have gone by; the last one estimates a pass.
bool Measurement::time_blas(const std::atomic<bool>& cancel) {
    set_progress(Phase::blas, 0);
    std::vector<float> out, scratch;
    std::int64_t flops = 0;
    Timing timing;
    auto pass = [&](double base, double span) {
        flops = 0;
        const bool ok = forward_blas(m_problem, out, scratch, flops, &cancel);
        set_progress(Phase::blas, base + span);
        return ok;
    };
    auto warm_up = [&]() -> double {
        std::int64_t ignored = 0;
        double last = 0, spent = 0;
        do {
            const auto t0 = Clock::now();
            if (!forward_blas(m_problem, out, scratch, ignored, &cancel)) return -1;
            last = seconds_since(t0);
            spent += last;
        } while (spent < 0.02);
        return last;
    };
    if (!time_passes(pass, warm_up, m_report.config.repeats, timing)) return false;
    finish_row(m_report.blas, out, timing, flops);
    return true;
}

bool Measurement::step_gpu(double budget_s) {
    if (!m_gpu) return true;
    if (!m_gpu_started) {
        m_gpu->start(m_problem, m_report.config.repeats);
        m_gpu_started = true;
    }
    const bool done = m_gpu->step(budget_s);
    set_progress(Phase::gpu, m_gpu->progress());
    return done;
}

void Measurement::stop_gpu() { m_gpu.reset(); }

void Measurement::finish_row(PathResult& row, const std::vector<float>& out, const Timing& t, std::int64_t flops) const {
    row.ran = true;
    row.flops = flops;
    row.timing = t;
    row.max_abs_err = max_abs_error(out, m_reference);
    row.agrees = row.max_abs_err <= m_report.tolerance;  // false for NaN
    if (row.agrees) {
        row.seconds = t.seconds;
        row.gflops = t.seconds > 0 ? static_cast<double>(m_report.flops_per_pass) / t.seconds / 1e9 : 0;
        return;
    }
    row.why_not = "its outputs differ from the double-precision reference by up to " +
                  core::format_significant(row.max_abs_err) + ", more than the tolerance " +
                  core::format_significant(m_report.tolerance) + ", so no time is shown for it";
}

}  // namespace m2m::measure
