// A pipeline's passes timed in stage order with a work list: each pass once, when its input has
// arrived, by the same rules the shared scheduler applies to the step graph; what is kept of a long
// steady state is summarised.
#include "m2m/core/scale/pipeline_timing.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>

namespace m2m::core {

namespace {

class PipelineTimer {
public:
    PipelineTimer(const PipelineTiming& p, bool keep, bool summarise = false)
        : m_p(p), m_keep(keep), m_summarise(summarise), m_stages(p.stages), m_nv(p.stages * p.chunks), m_m(p.micro_batches),
          m_passes(2 * p.micro_batches * p.chunks),
          m_keep_ends(static_cast<std::int64_t>(p.stages + 2) * p.chunks),
          m_fwd_in(static_cast<std::size_t>(m_nv) * static_cast<std::size_t>(m_m), -1.0), m_bwd_in(m_fwd_in.size(), -1.0),
          m_free(static_cast<std::size_t>(m_stages), 0.0), m_fwd_link(m_free.size(), 0.0), m_bwd_link(m_free.size(), 0.0),
          m_last_pass_end(m_free.size(), 0.0), m_next(m_free.size(), 0) {
        for (std::int64_t i = 0; i < m_m; ++i) m_fwd_in[at(0, i)] = 0;
        if (m_keep) {
            m_out.steady.resize(m_free.size());
            // Every pass is kept, or each stage's first and last (p + 2) x chunks: room for them
            // (and as many sends) at once, not by doubling.
            const std::int64_t per_stage = m_summarise ? std::min(m_passes, 2 * m_keep_ends) : m_passes;
            m_out.passes.reserve(static_cast<std::size_t>(per_stage * m_stages));
            m_out.sends.reserve(static_cast<std::size_t>(per_stage * m_stages));
        }
    }

    /// Also note, per stage, the time from the start of its pass a to the start of its pass b.
    void probe(std::int64_t a, std::int64_t b) {
        m_probe_a = a;
        m_probe_b = b;
        m_spacing.assign(m_free.size(), 0.0);
    }
    const std::vector<double>& spacings() const { return m_spacing; }

    PipelineTimes run() {
        m_work.reserve(static_cast<std::size_t>(4 * m_stages));
        for (int k = m_stages - 1; k >= 0; --k) m_work.push_back(k);
        while (!m_work.empty()) {
            const int k = m_work.back();
            m_work.pop_back();
            advance(k);
        }
        for (int k = 0; k < m_stages; ++k)
            if (m_next[static_cast<std::size_t>(k)] != m_passes)
                throw std::logic_error("pipeline schedule could not be timed: a stage waits forever");
        m_out.stage_end_s = m_last_pass_end;
        m_out.end_s = *std::max_element(m_out.stage_end_s.begin(), m_out.stage_end_s.end());
        return std::move(m_out);
    }

private:
    std::size_t at(int j, std::int64_t i) const { return static_cast<std::size_t>(j) * static_cast<std::size_t>(m_m) + static_cast<std::size_t>(i); }

    // Kept passes: each stage's first and last (p + 2) x chunks, which show the fill and the drain;
    // those between repeat the steady state and are summarised as one span per stage.
    bool kept(std::int64_t n) const { return !m_summarise || n < m_keep_ends || n >= m_passes - m_keep_ends; }

    void note(int k, std::int64_t n, PassTime t) {
        if (kept(n)) {
            t.late = n >= m_keep_ends;
            m_out.passes.push_back(t);
            return;
        }
        SteadySpan& s = m_out.steady[static_cast<std::size_t>(k)];
        if (s.passes == 0) s.start_s = t.start_s;
        s.stage = k;
        s.end_s = t.end_s;
        ++s.passes;
        s.blocks = m_p.schedule == PipelineSchedule::gpipe;  // every forward, then every backward
        if (t.forward) {
            ++s.forwards;
            s.forward_end_s = t.end_s;
        } else if (s.passes - s.forwards == 1) {
            s.backward_start_s = t.start_s;
        }
    }

    // Runs stage k's passes until one waits for an input that has not arrived.
    void advance(int k) {
        const std::size_t ks = static_cast<std::size_t>(k);
        std::int64_t& next = m_next[ks];
        double& free = m_free[ks];
        while (next < m_passes) {
            const PipelinePass pass = stage_pass(m_p.schedule, m_stages, k, m_m, m_p.chunks, next);
            const int j = pass.chunk * m_stages + k;
            const std::int64_t i = pass.micro_batch;
            const double ready = pass.forward ? m_fwd_in[at(j, i)] : m_bwd_in[at(j, i)];
            if (ready < 0) return;
            const double start = std::max(free, ready);
            const double end = start + (pass.forward ? m_p.forward_s : m_p.backward_s)[static_cast<std::size_t>(j)];
            free = end;
            m_last_pass_end[ks] = end;
            m_out.busy_s += end - start;
            if (next == m_probe_a) m_spacing[ks] -= start;
            if (next == m_probe_b) m_spacing[ks] += start;
            if (m_keep) note(k, next, {pass.forward, j, i, start, end});
            if (pass.forward) {
                if (j + 1 < m_nv) free = send(true, j, i, end, m_fwd_link[ks], m_fwd_in[at(j + 1, i)], kept(next));
                else m_bwd_in[at(j, i)] = end;  // the last virtual stage turns around
            } else if (j > 0) {
                free = send(false, j, i, end, m_bwd_link[static_cast<std::size_t>((j - 1) % m_stages)], m_bwd_in[at(j - 1, i)],
                            kept(next));
            }
            ++next;
        }
    }

    // A send from virtual stage j after `ready` on `link`; marks its arrival and wakes the receiver.
    // Returns when the sender is free again.
    double send(bool forward, int j, std::int64_t i, double ready, double& link, double& arrival, bool keep) {
        const double start = std::max(link, ready), end = start + m_p.send_s[static_cast<std::size_t>(forward ? j : j - 1)];
        link = end;
        arrival = end;
        if (m_keep && keep) m_out.sends.push_back({forward, j, i, start, end, m_next[static_cast<std::size_t>(j % m_stages)] >= m_keep_ends});
        m_work.push_back((forward ? j + 1 : j - 1) % m_stages);
        return m_p.sends_block ? end : ready;
    }

    const PipelineTiming& m_p;
    bool m_keep, m_summarise;
    int m_stages, m_nv;
    std::int64_t m_m, m_passes, m_keep_ends;
    std::vector<double> m_fwd_in, m_bwd_in;  ///< per virtual stage and micro-batch: when its input arrives (-1: not yet)
    std::vector<double> m_free, m_fwd_link, m_bwd_link, m_last_pass_end;
    std::vector<std::int64_t> m_next;
    std::vector<int> m_work;  ///< stages that may be able to run their next pass
    std::int64_t m_probe_a = -1, m_probe_b = -1;
    std::vector<double> m_spacing;  ///< per stage: start of pass b less start of pass a (probe)
    PipelineTimes m_out;
};

void check(const PipelineTiming& p) {
    if (p.stages < 1 || p.chunks < 1 || p.micro_batches < 1 ||
        p.forward_s.size() != static_cast<std::size_t>(p.stages * p.chunks) || p.backward_s.size() != p.forward_s.size() ||
        p.send_s.size() != p.forward_s.size())
        throw std::invalid_argument("time_pipeline: one forward, backward and send time per virtual stage");
}

// The long pipeline's times from a short one's: every event after the steady state moves by
// `shift`, and the drain's micro-batches are `more` further on. GPipe's spans also move where their
// forwards end and their backwards start: by as much per micro-batch as they moved from
// `one_less`, the same pipeline a micro-batch shorter (each stage's forwards keep their own pace
// or an earlier stage's; its backwards wait for the last stage's forwards).
void stretch(PipelineTimes& t, const PipelineTiming& p, std::int64_t more, double shift, const PipelineTimes* one_less) {
    for (double& e : t.stage_end_s) e += shift;
    t.end_s += shift;
    t.busy_s = 0;
    for (std::size_t j = 0; j < p.forward_s.size(); ++j)
        t.busy_s += static_cast<double>(p.micro_batches) * (p.forward_s[j] + p.backward_s[j]);
    for (std::vector<PassTime>* list : {&t.passes, &t.sends})
        for (PassTime& r : *list)
            if (r.late) {
                r.start_s += shift;
                r.end_s += shift;
                r.micro_batch += more;
            }
    for (SteadySpan& s : t.steady) {
        if (s.passes <= 0) continue;
        s.end_s += shift;
        s.passes += 2 * more * p.chunks;
        if (!s.blocks) continue;
        s.forwards += more * p.chunks;
        if (!one_less) continue;
        double last_forward = 0, first_backward = s.backward_start_s;
        for (const PassTime& r : one_less->passes)
            if (r.virtual_stage == s.stage) {
                if (r.forward) last_forward = std::max(last_forward, r.end_s);
                else first_backward = std::min(first_backward, r.start_s);
            }
        const double m = static_cast<double>(more);
        const double forward_end = s.forward_end_s, backward_start = s.backward_start_s;
        s.forward_end_s += m * (forward_end - last_forward);
        s.backward_start_s += m * (backward_start - first_backward);
    }
}

}  // namespace

PipelineTimes time_pipeline_fully(const PipelineTiming& p, bool keep) {
    check(p);
    return PipelineTimer(p, keep).run();
}

PipelineTimes time_pipeline(const PipelineTiming& p, bool keep) {
    check(p);
    // The period repeats per micro-batch, or per group of pp micro-batches with interleaving (its
    // micro-batch count is a multiple of pp).
    const std::int64_t group = p.chunks > 1 ? p.stages : 1;
    const std::int64_t longer = p.chunks > 1 ? 3 * static_cast<std::int64_t>(p.stages) : p.stages + 3;
    // Summarised only where it saves at least half the passes; a short pipeline keeps every pass.
    if (p.micro_batches <= 2 * longer) return PipelineTimer(p, keep).run();
    PipelineTiming shorter = p;
    shorter.micro_batches = longer;
    PipelineTimer timer(shorter, keep, true);
    // The period as each stage sees it: from its first summarised pass to the same pass one group
    // later. Where every stage agrees the pipeline is in its steady state there, and that is the
    // period; where they differ (GPipe's forwards give way to backwards, interleaving's chunks
    // are still filling), it is read from a pipeline one group shorter, as before.
    const std::int64_t ends = (static_cast<std::int64_t>(p.stages) + 2) * p.chunks;
    timer.probe(ends, ends + 2 * group * p.chunks);
    PipelineTimes t = timer.run();
    const auto [lo, hi] = std::minmax_element(timer.spacings().begin(), timer.spacings().end());
    double period = *lo;
    // GPipe's spans read where their forwards end and backwards start from that shorter pipeline's
    // passes, so it keeps them (its few passes are all kept).
    const bool blocks = keep && p.schedule == PipelineSchedule::gpipe;
    std::optional<PipelineTimes> one_less;
    if (blocks || *hi - *lo > 1e-12 * std::max(1.0, std::fabs(*hi))) {
        shorter.micro_batches = longer - group;
        one_less = PipelineTimer(shorter, blocks).run();
        if (*hi - *lo > 1e-12 * std::max(1.0, std::fabs(*hi))) period = t.end_s - one_less->end_s;
    }
    const std::int64_t more = p.micro_batches - longer;
    stretch(t, p, more, static_cast<double>(more / group) * period, blocks ? &*one_less : nullptr);
    return t;
}

}  // namespace m2m::core
