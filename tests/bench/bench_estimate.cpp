// Estimator benchmarks (not tests): one training-step estimate, and the layout search for 4,096 GPUs.
// Prints one line per case: name, what was estimated, median seconds over the repeats.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "m2m/core/scale/estimator.hpp"
#include "m2m/presets/models.hpp"

using namespace m2m;
using Clock = std::chrono::steady_clock;

namespace {

double median_seconds(int repeats, const std::function<void()>& f) {
    std::vector<double> t;
    for (int i = 0; i < repeats; ++i) {
        const auto t0 = Clock::now();
        f();
        t.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

core::EstimateSetup setup(const char* model, const char* gpu, int tp, int pp, int dp, std::int64_t batch) {
    core::EstimateSetup s = *presets::estimator_setup(presets::builtin_models().find(model)->shape, gpu);
    s.layout.gpus = tp * pp * dp;
    s.layout.tp = tp;
    s.layout.pp = pp;
    s.layout.dp = dp;
    s.layout.global_batch = batch;
    return s;
}

// Two ways to call it: as a panel does (its previous result is still held while the next is
// computed, timeline kept), and cold (nothing held, so glibc returns the freed heap to the system
// after every call and the next call page-faults it back in: on a VM that can double the time).
void bench_estimate(const char* name, const core::EstimateSetup& s, int repeats) {
    core::Estimate held;
    const double panel = median_seconds(repeats, [&] { held = core::estimate(s, true); });
    double step = 0;
    const double cold = median_seconds(repeats, [&] { step = core::estimate(s, false).step_time_s; });
    std::printf("estimate_%s  gpus=%d tp=%d pp=%d dp=%d micro_batches=%lld tasks=%zu  step_s=%.3f mfu=%.3f  "
                "median_s=%.6f (cold, result dropped: %.6f)\n",
                name, s.layout.gpus, s.layout.tp, s.layout.pp, s.layout.dp,
                static_cast<long long>(held.micro_batches), held.tasks.size(), step, held.mfu, panel, cold);
    // The full schedule on the shared scheduler, for comparison (what one estimate used to cost).
    const double graph = median_seconds(std::max(1, repeats / 5), [&] { step = core::scheduled_step_time_s(s, held.stages); });
    std::printf("schedule_%s  the same step as a work graph on the shared scheduler  step_s=%.3f  median_s=%.6f\n", name,
                step, graph);
}

void bench_search(const char* name, core::EstimateSetup s, int gpus, int repeats) {
    s.layout.gpus = gpus;
    s.layout.tp = s.layout.pp = 1;
    s.layout.dp = gpus;
    core::SearchResult r;
    const double sec = median_seconds(repeats, [&] { r = core::search_layouts(s, 5); });
    std::printf("search_%s  gpus=%d global_batch=%lld candidates=%d fitting=%d", name, gpus,
                static_cast<long long>(s.layout.global_batch), r.candidates, r.fitting);
    if (!r.best.empty()) {
        const core::Layout& b = r.best[0].layout;
        std::printf(" best=tp%d,cp%d,pp%d,dp%d,ep%d,mb%lld,zero%d,%s,%s%d step_s=%.3f mfu=%.3f", b.tp, b.cp, b.pp, b.dp,
                    b.ep, static_cast<long long>(b.micro_batch), b.zero_stage, std::string(core::recompute_name(b.recompute)).c_str(),
                    std::string(core::schedule_name(b.schedule)).c_str(),
                    b.schedule == core::PipelineSchedule::interleaved ? b.chunks : 0, r.best[0].step_time_s, r.best[0].mfu);
    }
    std::printf("  median_s=%.4f\n", sec);
}

}  // namespace

int main(int argc, char** argv) {
    const int repeats = argc > 1 ? std::max(1, std::atoi(argv[1])) : 21;
    // The example: GPT-3 175B on 1,536 A100s, TP 8 x PP 8 x DP 24, 2,304 sequences per step.
    bench_estimate("gpt3_175b_1536_a100", setup("gpt3-175b", "a100", 8, 8, 24, 2304), repeats);
    // Korthikanti Table 5's largest row: 64 stages x 512 micro-batches, the biggest graph calibration builds.
    auto big = setup("gpt-1t", "a100", 8, 64, 1, 512);
    bench_estimate("gpt_1t_512_a100", big, repeats);  // about a millisecond each: a median of 4 was mostly noise
    bench_search("gpt3_175b_a100", setup("gpt3-175b", "a100", 1, 1, 1, 1536), 4096, std::max(1, repeats / 5));
    auto llama = setup("llama3-405b", "h100", 1, 1, 1, 2048);
    llama.layout.attention = core::AttentionKernel::flash;
    llama.layout.zero_stage = 1;
    bench_search("llama3_405b_h100", llama, 4096, std::max(1, repeats / 5));
    // The whole space at Llama 3's largest scale, and a mixture of experts.
    bench_search("llama3_405b_h100", llama, 16384, std::max(1, repeats / 5));
    auto moe = setup("deepseek-v3", "h100", 1, 1, 1, 4096);
    moe.layout.attention = core::AttentionKernel::flash;
    bench_search("deepseek_v3_h100", moe, 2048, std::max(1, repeats / 5));
    return 0;
}
