// Real scale in one table: a training run's FLOPs on one CPU, one GPU and a cluster, with the
// assumptions behind each row.
#include "m2m/core/scale/training_run.hpp"

#include "m2m/core/engine/text.hpp"
#include "m2m/core/engine/training_bytes.hpp"

namespace m2m::core {

double training_flops(double parameters, double tokens) { return 6.0 * parameters * tokens; }

TrainingRunComparison compare_training_run(const std::string& model_name, double parameters, double tokens,
                                           const SustainedRate& cpu, const GpuSpec& gpu, int cluster_gpus,
                                           double cluster_mfu) {
    TrainingRunComparison out;
    out.flops = training_flops(parameters, tokens);
    const auto row = [&](std::string label, double rate, std::string assumption) {
        const double seconds = out.flops / rate;
        out.rows.push_back({std::move(label), seconds, format_seconds(seconds), std::move(assumption)});
    };
    const double cpu_rate = cpu.peak_flops * cpu.fraction;
    row("One CPU: " + cpu.name, cpu_rate,
        "FP32 vector units at " + format_significant(cpu.peak_flops / 1e12, 2) + " TFLOP/s peak x " +
            format_fixed(cpu.fraction, 2) + " sustained = " + format_significant(cpu_rate / 1e12, 2) + " TFLOP/s (" +
            cpu.basis + ")");
    const double gpu_rate = gpu.peak_bf16_flops * gpu.achievable_fraction;
    row("One GPU: " + gpu.name, gpu_rate,
        "BF16 tensor cores at " + format_fixed(gpu.peak_bf16_flops / 1e12, 0) + " TFLOP/s peak x " +
            format_fixed(gpu.achievable_fraction, 2) + " = " + format_fixed(gpu_rate / 1e12, 0) +
            " TFLOP/s, as if every FLOP were a large matrix multiply and the model fitted in memory");
    const double cluster_rate = gpu.peak_bf16_flops * cluster_gpus * cluster_mfu;
    row(format_count(cluster_gpus) + " GPUs: " + gpu.name, cluster_rate,
        format_percent(cluster_mfu, 0) +
            " model FLOPs utilization, from the estimator's timeline of a real layout (communication, pipeline "
            "bubble and memory-bound work included)");
    const double state_bytes = static_cast<double>(state_bytes_per_parameter) * parameters;
    out.assumptions = {
        "Training " + model_name + " on " + format_words(tokens) + " tokens takes about 6 x " + format_words(parameters) +
            " parameters x tokens = " + format_scientific(out.flops) +
            " FLOPs (2 per weight per token forward, 4 backward).",
        "Its weights, gradients and Adam state alone need " + std::to_string(state_bytes_per_parameter) +
            " bytes per parameter: " + format_bytes(state_bytes) + ", against " + format_bytes(gpu.memory_bytes) +
            " on one GPU, so the one-CPU and one-GPU rows are thought experiments: neither could hold the model.",
        "Every row runs around the clock with no failures, restarts or evaluation pauses.",
    };
    return out;
}

}  // namespace m2m::core
