// One measurement's report: each path predicted by Lesson 1's model on this machine's measured
// cores, and how far the measurement landed from the prediction, and why.
#include "measure/measurement.hpp"

#include "m2m/core/engine/text.hpp"
#include "m2m/presets/presets.hpp"

namespace m2m::measure {

namespace {

std::string ratio_words(double measured, double predicted) {
    const double r = measured / predicted;
    return r >= 1 ? core::format_ratio(r) + " slower than the model" : core::format_ratio(1 / r) + " faster than the model";
}

// Each path as Lesson 1's model predicts it on this machine's measured cores (the GPU path: on the
// preset its renderer names, or on this CPU's cores when it is software GL).
void predict_paths(Report& r) {
    const auto& c = r.config;
    const core::ComputeSpec& cpu = r.machine.cpu;
    const std::string peak = core::format_fixed(cpu.flops_per_core / 1e9, 1) + " GFLOP/s per core";
    r.naive.predicted_seconds = predicted_seconds(c.widths, c.batch, cpu, 1);
    r.naive.prediction_basis = "1 core at " + peak + ", " + core::format_fixed(cpu.memory_bandwidth_Bps / 1e9, 1) + " GB/s";
    const auto threads = static_cast<std::uint32_t>(blas_threads());
    r.blas.predicted_seconds = predicted_seconds(c.widths, c.batch, cpu, threads);
    r.blas.prediction_basis = std::to_string(threads) + " cores at " + peak;
    if (r.gpu.software) {
        r.gpu_path.predicted_seconds = predicted_seconds(c.widths, c.batch, cpu, cpu.cores);
        r.gpu_path.prediction_basis = "this CPU's " + std::to_string(cpu.cores) + " cores at " + peak;
    } else if (const presets::ComputePreset* p = r.gpu.renderer.empty() ? nullptr : preset_for_renderer(r.gpu.renderer)) {
        r.gpu_path.predicted_seconds = predicted_seconds(c.widths, c.batch, p->spec, p->spec.cores);
        r.gpu_path.prediction_basis = "the preset " + p->spec.name + " (" + p->spec.source + ")";
    }
}

// Why OpenBLAS lands where it does against the model.
std::string blas_note(const Report& r) {
    const int batch = r.config.batch;
    const double ratio = r.blas.seconds / r.blas.predicted_seconds;
    return "Measured " + ratio_words(r.blas.seconds, r.blas.predicted_seconds) +
           (ratio < 0.8 ? ": OpenBLAS uses each weight for all " + std::to_string(batch) +
                              " inputs while it is in cache, but the model fetches every weight again for each input."
            : ratio > 1.25 && batch < 8
                ? ": with " + std::to_string(batch) + (batch == 1 ? " input" : " inputs") +
                      " each weight is used so few times that the pass is mostly reading weights, and OpenBLAS "
                      "first copies each block of them into its own order, which the plain loop never does."
            : ratio > 1.25 ? ": the model assumes every core at its peak for the whole pass; small layers leave "
                             "OpenBLAS little to share out, and other programs share the cores."
                           : ".");
}

// How far each measured path landed from its prediction, and why.
void explain_paths(Report& r) {
    const core::ComputeSpec& cpu = r.machine.cpu;
    if (r.naive.shown())
        r.naive.note = "A plain loop waits for each add before starting the next: it reached " +
                       core::format_fixed(100.0 * r.naive.gflops * 1e9 / cpu.flops_per_core, 1) +
                       "% of one core's measured peak, which the model assumes every core reaches.";
    if (r.blas.shown() && r.blas.predicted_seconds > 0) r.blas.note = blas_note(r);
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
