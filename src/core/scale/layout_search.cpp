// Every valid layout for a GPU count, ranked: a closed form for all of them, the scheduler for the
// leaders.
#include "m2m/core/scale/layout_search.hpp"

#include <algorithm>
#include <optional>

#include "m2m/core/scale/layout_links.hpp"
#include "m2m/core/scale/step_estimate.hpp"

namespace m2m::core {

namespace {

std::vector<std::int64_t> divisors(std::int64_t n) {
    std::vector<std::int64_t> low, high;
    for (std::int64_t d = 1; d * d <= n; ++d)
        if (n % d == 0) {
            low.push_back(d);
            if (d != n / d) high.push_back(n / d);
        }
    low.insert(low.end(), high.rbegin(), high.rend());
    return low;
}

bool faster(const LayoutScore& a, const LayoutScore& b) {
    if (a.tokens_per_s != b.tokens_per_s) return a.tokens_per_s > b.tokens_per_s;
    if (a.memory_bytes != b.memory_bytes) return a.memory_bytes < b.memory_bytes;
    if (a.layout.tp != b.layout.tp) return a.layout.tp < b.layout.tp;
    if (a.layout.pp != b.layout.pp) return a.layout.pp < b.layout.pp;
    return a.layout.micro_batch > b.layout.micro_batch;
}

}  // namespace

SearchResult search_layouts(const EstimateSetup& setup, int top) {
    SearchResult out;
    const int n = setup.layout.gpus;
    const double tokens_per_step = static_cast<double>(setup.layout.global_batch) * static_cast<double>(setup.model.seq);
    const double peak_all = setup.gpu.peak_bf16_flops * n;
    const double model_flops = model_flops_per_token(setup.model) * tokens_per_step;
    std::vector<LayoutScore> fitting;
    for (int tp : {1, 2, 4, 8}) {
        if (tp > static_cast<int>(setup.gpus_per_node) || n % tp != 0 || setup.model.heads % tp != 0) continue;
        for (int pp = 1; pp <= std::min<std::int64_t>(setup.model.layers, n / tp); ++pp) {
            if ((n / tp) % pp != 0) continue;
            const int dp = n / tp / pp;
            if (setup.layout.global_batch % dp != 0) continue;
            const std::int64_t per_replica = setup.layout.global_batch / dp;
            std::optional<LayoutLinks> links;  // one per (tp, pp): the micro-batch size does not change the groups
            for (std::int64_t mb : divisors(per_replica)) {
                EstimateSetup s = setup;
                s.layout.tp = tp;
                s.layout.pp = pp;
                s.layout.dp = dp;
                s.layout.micro_batch = mb;
                if (check(s)) continue;
                ++out.candidates;
                LayoutScore sc;
                sc.layout = s.layout;
                const MemoryUse mem = memory_use(s);
                sc.memory_bytes = mem.total_bytes;
                sc.fits = mem.fits;
                if (!links) links.emplace(s, LayoutLinks::Mode::linear);
                sc.step_time_s = closed_form_step_time_s(s, stage_costs(s, *links));
                sc.tokens_per_s = tokens_per_step / sc.step_time_s;
                sc.mfu = model_flops / (sc.step_time_s * peak_all);
                if (sc.fits) {
                    fitting.push_back(sc);
                } else if (!out.smallest || sc.memory_bytes < out.smallest->memory_bytes) {
                    out.smallest = sc;
                }
            }
        }
    }
    out.fitting = static_cast<int>(fitting.size());
    std::sort(fitting.begin(), fitting.end(), faster);
    // Confirm the leaders on the scheduler (a few more than asked for, so that a closed-form
    // near-miss can still move up), then rank those by the scheduler's step time.
    const std::size_t confirm = std::min(fitting.size(), static_cast<std::size_t>(std::max(top, 0)) + 3);
    for (std::size_t i = 0; i < confirm; ++i) {
        EstimateSetup s = setup;
        s.layout = fitting[i].layout;
        const Estimate e = estimate(s, false);
        fitting[i].step_time_s = e.step_time_s;
        fitting[i].tokens_per_s = e.tokens_per_s;
        fitting[i].mfu = e.mfu;
        fitting[i].confirmed = true;
    }
    std::sort(fitting.begin(), fitting.begin() + static_cast<std::ptrdiff_t>(confirm), faster);
    fitting.resize(std::min(fitting.size(), static_cast<std::size_t>(std::max(top, 0))));
    out.best = std::move(fitting);
    return out;
}

}  // namespace m2m::core
