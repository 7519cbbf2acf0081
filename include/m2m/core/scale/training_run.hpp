// Real scale in one table: how long a training run takes on one CPU, one GPU and a cluster.
#pragma once

#include <string>
#include <vector>

#include "m2m/core/scale/layout.hpp"

namespace m2m::core {

/// Training compute ~ 6 x parameters x tokens (forward 2, backward 4) [Kaplan et al. 2020;
/// GPT-3 paper Table D.1: 175B on 300B tokens = 3.14e23 FLOPs].
double training_flops(double parameters, double tokens);

struct TrainingRunRow {
    std::string label;        ///< "One CPU (AMD EPYC 9654)"
    double seconds = 0;
    std::string duration;     ///< "2,350 years", "14 days"
    std::string assumption;   ///< the rate used and where it is from
};
struct TrainingRunComparison {
    double flops = 0;
    std::vector<TrainingRunRow> rows;
    std::vector<std::string> assumptions;
};

/// A machine reduced to its sustained rate for the comparison.
struct SustainedRate {
    std::string name;
    double peak_flops = 0;
    double fraction = 0;
    std::string basis;  ///< e.g. "FP32 peak 7.4 TFLOP/s x 0.57 (MKL SGEMM on a desktop CPU)"
};

/// How long `flops` of training take on one CPU, one GPU and a cluster of `cluster_gpus` GPUs
/// at `cluster_mfu` (from an estimate of a real layout). Durations come with their assumptions.
TrainingRunComparison compare_training_run(const std::string& model_name, double parameters, double tokens,
                                           const SustainedRate& cpu, const GpuSpec& gpu, int cluster_gpus,
                                           double cluster_mfu);

}  // namespace m2m::core
