// One measurement's report: each path predicted by Lesson 1's model on this machine's measured
// cores, and how far the measurement landed from the prediction, and why.
#include "measure/measurement.hpp"

#include "m2m/core/engine/text.hpp"

#include <algorithm>
#include <cctype>
#include "m2m/presets/presets.hpp"

namespace m2m::measure {

namespace {

std::string ratio_words(double measured, double predicted) {
    const double r = measured / predicted;
    return r >= 1 ? core::format_ratio(r) + " slower than the model" : core::format_ratio(1 / r) + " faster than the model";
}

// What every path here does that Lesson 1's roofline (dot products only) does not count: after each
// layer, one core adds each output's bias and squashes it with sigma.
double activation_seconds(const MeasureConfig& c, const ThisMachine& m) {
    double outputs = 0;
    for (std::size_t l = 1; l < c.widths.size(); ++l) outputs += static_cast<double>(c.widths[l]) * c.batch;
    return outputs * m.activation_seconds;
}

// Each path as Lesson 1's roofline predicts it on this machine's measured figures, plus the bias and
// sigma of every output; OpenBLAS as GotoBLAS's algorithm runs it (openblas_seconds); the GPU path
// on the preset its renderer names, or on this CPU's cores when it is software GL.
void predict_paths(Report& r) {
    const auto& c = r.config;
    const ThisMachine& m = r.machine;
    const core::ComputeSpec& cpu = m.cpu;
    const std::string peak = core::format_fixed(cpu.flops_per_core / 1e9, 1) + " GFLOP/s per core";
    const double activations = activation_seconds(c, m);
    r.naive.predicted_seconds = predicted_seconds(c.widths, c.batch, cpu, 1, core::CpuLoop::plain) + activations;
    r.naive.prediction_basis = "1 core, one input at a time, each dot product a chain of dependent adds at " +
                               core::format_seconds(m.add_seconds) + " each (or its bytes from wherever they fit), " +
                               "plus each output's bias and sigma";
    const auto threads = static_cast<std::uint32_t>(blas_threads_for(c.widths, c.batch));
    core::ComputeSpec blas = cpu;
    blas.layer_overhead_s = m.blas_call_seconds;  // one call per layer, as a GPU launches one kernel
    r.blas.predicted_seconds = openblas_seconds(c.widths, c.batch, blas, m.blas_copy_Bps, threads) + activations;
    const std::string of = threads < static_cast<std::uint32_t>(blas_threads())
                               ? " of " + std::to_string(blas_threads()) + " (OpenBLAS keeps a call this small on one thread per 262,144 multiply-adds)"
                               : "";
    r.blas.prediction_basis = std::to_string(threads) + of + " cores at " + peak + ", the weights read once from the level that holds " +
                              "them, copied into OpenBLAS's order in an L2-sized buffer at its measured copy pace (" +
                              core::format_significant(m.blas_copy_Bps / 1e9, 3) + " GB/s a thread) and multiplied from there, one call (" +
                              core::format_seconds(m.blas_call_seconds) + ") per layer, plus each output's bias and sigma";
    if (r.gpu.software) {
        r.gpu_path.predicted_seconds = predicted_seconds(c.widths, c.batch, cpu, cpu.cores) + activations;
        r.gpu_path.prediction_basis = "this CPU's " + std::to_string(cpu.cores) + " cores at " + peak;
    } else if (const presets::ComputePreset* p = r.gpu.renderer.empty() ? nullptr : preset_for_renderer(r.gpu.renderer)) {
        r.gpu_path.predicted_seconds = predicted_seconds(c.widths, c.batch, p->spec, p->spec.cores);
        r.gpu_path.prediction_basis = "the preset " + p->spec.name + " (" + p->spec.source + ")";
    }
}

// What the model says limits a path, in words.
std::string bound_words(const core::LayerRunSetup& s) {
    const core::Roof roof = core::cpu_roof(s);
    switch (core::dominant_bound(core::layer_points(s), false)) {
    case core::Bound::memory: return "memory-bound (its weights read from " + roof.level + ")";
    case core::Bound::compute: return "compute-bound (every core at its measured SGEMM rate)";
    case core::Bound::launch: return "bound by OpenBLAS's cost per call";
    case core::Bound::latency: return "bound by the latency of each add, one after the other";
    }
    return "";
}

std::string landed(const PathResult& p) {
    const double r = p.seconds / p.predicted_seconds;
    const std::string words = r > 1.05 ? ", slower than the model" : r < 0.95 ? ", faster than the model" : ", as the model says";
    return "Measured / model: " + core::format_fixed(r, 2) + words + ".";
}

// How far each measured path landed from its prediction, and what the model says limits it.
void explain_paths(Report& r) {
    const auto& c = r.config;
    if (r.naive.shown() && r.naive.predicted_seconds > 0)
        r.naive.note = "The model has this loop " +
                       bound_words(path_setup(c.widths, c.batch, r.machine.cpu, 1, core::CpuLoop::plain)) + ". " +
                       landed(r.naive);
    if (r.blas.shown() && r.blas.predicted_seconds > 0) {
        core::ComputeSpec blas = r.machine.cpu;
        blas.layer_overhead_s = r.machine.blas_call_seconds;
        const auto threads = static_cast<std::uint32_t>(blas_threads_for(c.widths, c.batch));
        r.blas.note = "The model has this pass " +
                      bound_words(path_setup(c.widths, c.batch, blas, threads, core::CpuLoop::tuned)) + ". " + landed(r.blas);
    }
    if (!r.gpu_path.shown()) return;
    if (r.gpu.software && r.gpu_path.predicted_seconds > 0)
        r.gpu_path.note = "Modelled as this CPU's cores, because that is where llvmpipe runs the shader; measured " +
                          ratio_words(r.gpu_path.seconds, r.gpu_path.predicted_seconds) + ".";
    else if (r.gpu_path.predicted_seconds > 0)
        r.gpu_path.note = "Measured " + ratio_words(r.gpu_path.seconds, r.gpu_path.predicted_seconds) +
                          " of this GPU, which also counts a launch per layer.";
    else
        r.gpu_path.note = "No preset matches this renderer, so the model has no prediction for this GPU.";
}

}  // namespace

namespace {

// Seconds a path's timing takes for a pass of `pass_s`: its warm-up (`warm_up_s`), then the repeats
// time_passes() will run, each at least min_repeat_seconds.
double timing_seconds(double pass_s, double warm_up_s, int requested) {
    const int repeats = repeats_for(pass_s, requested);
    return warm_up_s + repeats * std::max(min_repeat_seconds, pass_s);
}

std::string duration_words(double s) {
    if (s < 1) return "under a second";
    if (s < 90) return "about " + core::format_fixed(s, 0) + " s";
    const auto minutes = static_cast<long>(s / 60), rest = static_cast<long>(s) % 60;
    return "about " + std::to_string(minutes) + " min" + (rest >= 5 ? " " + std::to_string(rest) + " s" : "");
}

}  // namespace

TimePlan plan_time(const MeasureConfig& c, const ThisMachine& m) {
    TimePlan t;
    const double naive_pass = predicted_seconds(c.widths, c.batch, m.cpu, 1, core::CpuLoop::plain);
    core::ComputeSpec blas = m.cpu;
    blas.layer_overhead_s = m.blas_call_seconds;
    const auto threads = static_cast<std::uint32_t>(blas_threads_for(c.widths, c.batch));
    const double blas_pass = predicted_seconds(c.widths, c.batch, blas, threads);
    // The reference: one DGEMM per layer at half the FP32 rate (twice the bytes per lane).
    const double reference = static_cast<double>(flops_per_pass(c.widths, c.batch)) / (m.cpu.flops_per_core * m.cpu.cores / 2);
    t.naive_pass_s = naive_pass;
    t.seconds = m.calibration_seconds + reference + timing_seconds(naive_pass, naive_pass / c.batch, c.repeats) +
                timing_seconds(blas_pass, std::max(0.02, blas_pass), c.repeats);
    std::string words = duration_words(t.seconds);
    words[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(words[0])));
    t.brief = words + ".";
    t.sentence = words + " for the CPU rows (one pass of the plain loop: " + core::format_seconds(naive_pass) +
                 "); the GPU row comes on top.";
    return t;
}

Report Measurement::report(bool cancelled) {
    Report& r = m_report;
    r.cancelled = cancelled;
    r.refused = !r.memory.fits;
    if (m_gpu && m_gpu_started && !cancelled) {
        const GpuOutcome& o = m_gpu->outcome();
        if (o.ok) finish_row(r.gpu_path, o.output, o.timing, o.flops);
        else r.gpu_path.why_not = o.why_not;
    }
    m_gpu.reset();  // releases the GL buffers while the context is current
    if (cancelled || r.refused) return r;
    predict_paths(r);
    explain_paths(r);
    m_phase = Phase::done;
    m_progress = 1.0;
    return r;
}

}  // namespace m2m::measure
