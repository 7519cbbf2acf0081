// Every valid layout for a GPU count: memory for each, a closed-form step time for those that fit,
// estimate() for the leaders.
//
// [SECTION] the choices   [SECTION] one layout   [SECTION] the search
#include "m2m/core/scale/layout_search.hpp"

#include <algorithm>
#include <memory>

#include "m2m/core/scale/layout_links.hpp"
#include "m2m/core/scale/step_estimate.hpp"
#include "scale_parts.hpp"

namespace m2m::core {

namespace {

// [SECTION] the choices ---------------------------------------------------------------------

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

// The GPU-count splits: tp x cp x pp x dp = N, and ep within dp.
struct Split {
    int tp, cp, pp, dp, ep;
};

std::vector<Split> splits(const EstimateSetup& setup) {
    const TransformerShape& m = setup.model;
    const int n = setup.layout.gpus;
    std::vector<Split> out;
    for (int tp : {1, 2, 4, 8}) {
        if (tp > static_cast<int>(setup.gpus_per_node) || n % tp != 0 || m.heads % tp != 0) continue;
        for (std::int64_t cp : divisors(n / tp)) {
            if (cp > 64 || m.seq % cp != 0) continue;
            for (std::int64_t pp : divisors(n / tp / cp)) {
                if (pp > m.layers) break;
                const auto dp = static_cast<int>(n / tp / cp / pp);
                if (setup.layout.global_batch % dp != 0) continue;
                for (std::int64_t ep : m.moe() ? divisors(dp) : std::vector<std::int64_t>{1})
                    if (m.experts == 0 || m.experts % ep == 0)
                        out.push_back({tp, static_cast<int>(cp), static_cast<int>(pp), dp, static_cast<int>(ep)});
            }
        }
    }
    return out;
}

// [SECTION] one layout ----------------------------------------------------------------------

class Search {
public:
    explicit Search(const EstimateSetup& setup)
        : m_setup(setup), m_tokens(static_cast<double>(setup.layout.global_batch) * static_cast<double>(setup.model.seq)),
          m_model_flops(model_flops_per_token(setup.model) * m_tokens),
          m_peak(setup.gpu.peak_bf16_flops * setup.layout.gpus),
          m_timer(std::make_shared<ExchangeTimer>(Cluster(LayoutLinks::cluster_shape(setup), setup.system))) {}

    // Every schedule, ZeRO stage, micro-batch and recompute of one split.
    void split(const Split& sp) {
        EstimateSetup s = m_setup;
        Layout& l = s.layout;
        l.tp = sp.tp;
        l.cp = sp.cp;
        l.pp = sp.pp;
        l.dp = sp.dp;
        l.ep = sp.ep;
        std::optional<LayoutLinks> links;
        const std::vector<std::int64_t> micro = divisors(l.global_batch / l.dp);
        for (int chunks : {1, 2, 4, 8}) {
            if (chunks > 1 && (l.pp < 2 || static_cast<std::int64_t>(l.pp) * chunks > s.model.layers + 2)) continue;
            l.schedule = chunks > 1 ? PipelineSchedule::interleaved : PipelineSchedule::one_f_one_b;
            l.chunks = chunks > 1 ? chunks : 2;
            for (int zero = 0; zero <= (l.pp > 1 ? 2 : 3); ++zero) {
                if (l.hybrid_shard && zero == 0) continue;
                l.zero_stage = zero;
                micro_batches(s, micro, links);
            }
        }
    }

    SearchResult finish(int top);

private:
    // Micro-batches from the smallest: more recompute only where less does not fit, and none
    // larger once even full recompute does not fit (activations grow with the micro-batch).
    void micro_batches(EstimateSetup& s, const std::vector<std::int64_t>& micro, std::optional<LayoutLinks>& links) {
        Layout& l = s.layout;
        for (std::int64_t mb : micro) {
            l.micro_batch = mb;
            bool fitted = false;
            for (Recompute r : {Recompute::none, Recompute::selective, Recompute::full}) {
                l.recompute = r;
                if (check(s)) continue;
                if (score(s, links)) {
                    fitted = true;
                    break;
                }
            }
            if (!fitted) return;
        }
    }

    // Memory, and (if it fits) the closed-form step time; true when it fits.
    bool score(const EstimateSetup& s, std::optional<LayoutLinks>& links) {
        ++m_result.candidates;
        LayoutScore sc;
        sc.layout = s.layout;
        const MemoryUse mem = memory_use(s);
        sc.memory_bytes = mem.total_bytes;
        sc.fits = mem.fits;
        if (!m_result.smallest || sc.memory_bytes < m_result.smallest->memory_bytes) m_result.smallest = sc;
        if (!sc.fits) return false;
        if (!links) links.emplace(s, m_timer);  // one split's groups, whatever its ZeRO stage or micro-batch
        sc.step_time_s = closed_form_step_time_s(s, stage_costs(s, *links));
        sc.tokens_per_s = m_tokens / sc.step_time_s;
        sc.mfu = m_model_flops / (sc.step_time_s * m_peak);
        if (m_result.smallest->layout.micro_batch == sc.layout.micro_batch && m_result.smallest->memory_bytes == sc.memory_bytes)
            m_result.smallest = sc;  // the same layout, now with its time
        m_fitting.push_back(sc);
        return true;
    }

    const EstimateSetup& m_setup;
    double m_tokens, m_model_flops, m_peak;
    std::shared_ptr<ExchangeTimer> m_timer;
    std::vector<LayoutScore> m_fitting;
    SearchResult m_result;
};

// [SECTION] the search ----------------------------------------------------------------------

SearchResult Search::finish(int top) {
    SearchResult out = std::move(m_result);
    out.fitting = static_cast<int>(m_fitting.size());
    std::sort(m_fitting.begin(), m_fitting.end(), faster);
    const std::size_t confirm = std::min(m_fitting.size(), static_cast<std::size_t>(std::max(top, 0)) + 3);
    for (std::size_t i = 0; i < confirm; ++i) {
        EstimateSetup s = m_setup;
        s.layout = m_fitting[i].layout;
        const Estimate e = estimate(s, false);
        m_fitting[i].step_time_s = e.step_time_s;
        m_fitting[i].tokens_per_s = e.tokens_per_s;
        m_fitting[i].mfu = e.mfu;
        m_fitting[i].confirmed = true;
    }
    std::sort(m_fitting.begin(), m_fitting.begin() + static_cast<std::ptrdiff_t>(confirm), faster);
    m_fitting.resize(std::min(m_fitting.size(), static_cast<std::size_t>(std::max(top, 0))));
    out.best = std::move(m_fitting);
    return out;
}

}  // namespace

SearchResult search_layouts(const EstimateSetup& setup, int top) {
    Search search(setup);
    if (!validate(setup.model).empty()) return {};
    for (const Split& sp : splits(setup)) search.split(sp);
    return search.finish(top);
}

}  // namespace m2m::core
