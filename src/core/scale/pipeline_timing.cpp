// A pipeline's passes timed in stage order with a work list: each pass once, when its input has
// arrived, by the same rules the shared scheduler applies to the step graph.
#include "m2m/core/scale/pipeline_timing.hpp"

#include <algorithm>
#include <stdexcept>

namespace m2m::core {

namespace {

class PipelineTimer {
public:
    PipelineTimer(const PipelineTiming& p, bool keep)
        : m_p(p), m_keep(keep), m_stages(p.stages), m_nv(p.stages * p.chunks), m_m(p.micro_batches),
          m_fwd_in(static_cast<std::size_t>(m_nv) * static_cast<std::size_t>(m_m), -1.0), m_bwd_in(m_fwd_in.size(), -1.0),
          m_free(static_cast<std::size_t>(m_stages), 0.0), m_fwd_link(m_free.size(), 0.0), m_bwd_link(m_free.size(), 0.0),
          m_last_pass_end(m_free.size(), 0.0), m_next(m_free.size(), 0) {
        for (int k = 0; k < m_stages; ++k) m_orders.push_back(stage_order(p.schedule, m_stages, k, m_m, p.chunks));
        for (std::int64_t i = 0; i < m_m; ++i) m_fwd_in[at(0, i)] = 0;
    }

    PipelineTimes run() {
        for (int k = m_stages - 1; k >= 0; --k) m_work.push_back(k);
        while (!m_work.empty()) {
            const int k = m_work.back();
            m_work.pop_back();
            advance(k);
        }
        for (int k = 0; k < m_stages; ++k)
            if (m_next[static_cast<std::size_t>(k)] != m_orders[static_cast<std::size_t>(k)].size())
                throw std::logic_error("pipeline schedule could not be timed: a stage waits forever");
        m_out.stage_end_s = m_last_pass_end;
        m_out.end_s = *std::max_element(m_out.stage_end_s.begin(), m_out.stage_end_s.end());
        return std::move(m_out);
    }

private:
    std::size_t at(int j, std::int64_t i) const { return static_cast<std::size_t>(j) * static_cast<std::size_t>(m_m) + static_cast<std::size_t>(i); }

    // Runs stage k's passes until one waits for an input that has not arrived.
    void advance(int k) {
        const auto& order = m_orders[static_cast<std::size_t>(k)];
        std::size_t& next = m_next[static_cast<std::size_t>(k)];
        double& free = m_free[static_cast<std::size_t>(k)];
        while (next < order.size()) {
            const PipelinePass& pass = order[next];
            const int j = pass.chunk * m_stages + k;
            const std::int64_t i = pass.micro_batch;
            const double ready = pass.forward ? m_fwd_in[at(j, i)] : m_bwd_in[at(j, i)];
            if (ready < 0) return;
            const double start = std::max(free, ready);
            const double end = start + (pass.forward ? m_p.forward_s : m_p.backward_s)[static_cast<std::size_t>(j)];
            free = end;
            m_last_pass_end[static_cast<std::size_t>(k)] = end;
            m_out.busy_s += end - start;
            if (m_keep) m_out.passes.push_back({pass.forward, j, i, start, end});
            if (pass.forward) {
                if (j + 1 < m_nv) free = send(true, j, i, end, m_fwd_link[static_cast<std::size_t>(k)], m_fwd_in[at(j + 1, i)]);
                else m_bwd_in[at(j, i)] = end;  // the last virtual stage turns around
            } else if (j > 0) {
                free = send(false, j, i, end, m_bwd_link[static_cast<std::size_t>((j - 1) % m_stages)], m_bwd_in[at(j - 1, i)]);
            }
            ++next;
        }
    }

    // A send from virtual stage j after `ready` on `link`; marks its arrival and wakes the receiver.
    // Returns when the sender is free again.
    double send(bool forward, int j, std::int64_t i, double ready, double& link, double& arrival) {
        const double start = std::max(link, ready), end = start + m_p.send_s[static_cast<std::size_t>(forward ? j : j - 1)];
        link = end;
        arrival = end;
        if (m_keep) m_out.sends.push_back({forward, j, i, start, end});
        m_work.push_back((forward ? j + 1 : j - 1) % m_stages);
        return m_p.sends_block ? end : ready;
    }

    const PipelineTiming& m_p;
    bool m_keep;
    int m_stages, m_nv;
    std::int64_t m_m;
    std::vector<std::vector<PipelinePass>> m_orders;
    std::vector<double> m_fwd_in, m_bwd_in;  ///< per virtual stage and micro-batch: when its input arrives (-1: not yet)
    std::vector<double> m_free, m_fwd_link, m_bwd_link, m_last_pass_end;
    std::vector<std::size_t> m_next;
    std::vector<int> m_work;  ///< stages that may be able to run their next pass
    PipelineTimes m_out;
};

}  // namespace

PipelineTimes time_pipeline(const PipelineTiming& p, bool keep) {
    if (p.stages < 1 || p.chunks < 1 || p.micro_batches < 1 ||
        p.forward_s.size() != static_cast<std::size_t>(p.stages * p.chunks) || p.backward_s.size() != p.forward_s.size() ||
        p.send_s.size() != p.forward_s.size())
        throw std::invalid_argument("time_pipeline: one forward, backward and send time per virtual stage");
    return PipelineTimer(p, keep).run();
}

}  // namespace m2m::core
