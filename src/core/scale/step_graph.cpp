// One real-scale training step as a work graph on the shared scheduler: every stage's forward and
// backward passes in its schedule's order, the sends between stages on link pools, the exposed part
// of the gradient sync, and Adam. estimate() times the same rules without the graph; this is the
// reference its tests compare against.
#include <optional>
#include <string>
#include <vector>

#include "m2m/core/scale/step_estimate.hpp"
#include "scale_parts.hpp"

namespace m2m::core {

std::string_view training_task_name(TrainingTaskKind k) {
    switch (k) {
        case TrainingTaskKind::forward: return "forward";
        case TrainingTaskKind::backward: return "backward";
        case TrainingTaskKind::send_forward: return "send_forward";
        case TrainingTaskKind::send_backward: return "send_backward";
        case TrainingTaskKind::dp_reduce: return "dp_reduce";
        case TrainingTaskKind::optimizer: return "optimizer";
        case TrainingTaskKind::param_gather: return "param_gather";
        case TrainingTaskKind::join: return "join";
        case TrainingTaskKind::zero_traffic: return "zero_traffic";
        case TrainingTaskKind::steady: return "steady";
        case TrainingTaskKind::steady_forwards: return "steady_forwards";
        case TrainingTaskKind::steady_backwards: return "steady_backwards";
    }
    return "?";
}

namespace {

using scale_detail::chunks_of;

class StepGraphBuilder {
public:
    StepGraphBuilder(const EstimateSetup& setup, const std::vector<StageCost>& stages, std::vector<TrainingTask>* tasks)
        : m_setup(setup), m_l(setup.layout), m_stages(stages), m_tasks(tasks), m_p(m_l.pp), m_v(chunks_of(m_l)),
          m_nv(m_p * m_v), m_m(m_l.micro_batches()), m_mbs(static_cast<std::size_t>(m_m)) {}

    WorkGraph build() {
        reserve();
        add_pools();
        add_passes();
        add_sends();
        for (std::int64_t i = 0; i < m_m; ++i) m_g.add_dependency(F(m_nv - 1, i), B(m_nv - 1, i));  // turn around
        m_stage_done.assign(u(m_p), 0);
        for (int k = 0; k < m_p; ++k) order_stage(k);
        add_update();
        if (m_tasks) m_tasks->resize(m_g.task_count());
        return std::move(m_g);
    }

private:
    std::size_t at(int j, std::int64_t i) const { return static_cast<std::size_t>(j) * m_mbs + static_cast<std::size_t>(i); }
    TaskId F(int j, std::int64_t i) const { return m_F[at(j, i)]; }
    TaskId B(int j, std::int64_t i) const { return m_B[at(j, i)]; }
    const StageCost& cost(int j) const { return m_stages[static_cast<std::size_t>(j)]; }
    static std::size_t u(int k) { return static_cast<std::size_t>(k); }

    void note(TaskId id, TrainingTaskKind kind, int stage, std::int64_t mb, int chunk) {
        if (!m_tasks) return;
        if (m_tasks->size() <= id) m_tasks->resize(id + 1);
        (*m_tasks)[id] = TrainingTask{kind, stage, static_cast<int>(mb), chunk, 0, 0, 0, 1};
    }

    void reserve() {
        const std::size_t tasks = static_cast<std::size_t>(4 * m_nv) * m_mbs + 8 * u(m_p);
        m_g.reserve(tasks, static_cast<std::size_t>(8 * m_nv) * m_mbs + 8 * u(m_p));
        if (!m_tasks) return;
        m_tasks->clear();
        m_tasks->reserve(tasks);
    }

    void add_pools() {
        m_stage_pool.resize(u(m_p));
        m_fwd_link.resize(u(m_p));
        m_bwd_link.resize(u(m_p));
        m_dp_pool.resize(u(m_p));
        for (int k = 0; k < m_p; ++k) m_stage_pool[u(k)] = m_g.add_pool("stage " + std::to_string(k), ResourceKind::gpu_core, 1);
        // One link pool per boundary and direction: a link carries one send at a time.
        for (int k = 0; k < m_p && m_p > 1; ++k) {
            if (k == m_p - 1 && m_v == 1) break;  // only the interleaved schedule wraps from the last stage to the first
            const ResourceKind kind = cost(k).send_link == LinkType::infiniband ? ResourceKind::infiniband : ResourceKind::nvlink;
            const std::string a = std::to_string(k), b = std::to_string((k + 1) % m_p);
            m_fwd_link[u(k)] = m_g.add_pool("link " + a + "->" + b, kind, 1);
            m_bwd_link[u(k)] = m_g.add_pool("link " + b + "->" + a, kind, 1);
        }
        if (m_l.dp * m_l.cp <= 1) return;
        const bool dp_ib = static_cast<std::int64_t>(m_l.tp) * m_l.cp * m_l.dp > static_cast<std::int64_t>(m_setup.gpus_per_node);
        for (int k = 0; k < m_p; ++k)
            m_dp_pool[u(k)] = m_g.add_pool("data-parallel " + std::to_string(k),
                                          dp_ib ? ResourceKind::infiniband : ResourceKind::nvlink, 1);
    }

    // Forward and backward passes of every virtual stage j for every micro-batch i: F[j m + i],
    // B[j m + i]. They are the graph's first tasks (estimate() relies on it).
    void add_passes() {
        m_F.resize(u(m_nv) * m_mbs);
        m_B.resize(m_F.size());
        m_SB.resize(m_F.size());
        m_SF.resize(m_F.size());
        for (int j = 0; j < m_nv; ++j) {
            const PoolId pool = m_stage_pool[u(j % m_p)];
            const SimTime fd = picoseconds_from_seconds(cost(j).forward_s), bd = picoseconds_from_seconds(cost(j).backward_s);
            for (std::int64_t i = 0; i < m_m; ++i) {
                m_F[at(j, i)] = m_g.add_task(fd, {pool});
                note(F(j, i), TrainingTaskKind::forward, j % m_p, i, j / m_p);
                m_B[at(j, i)] = m_g.add_task(bd, {pool});
                note(B(j, i), TrainingTaskKind::backward, j % m_p, i, j / m_p);
            }
        }
    }

    // Sends between consecutive virtual stages, forward (activations) and backward (their gradients).
    void add_sends() {
        for (int j = 0; j + 1 < m_nv; ++j) {
            const std::size_t k = u(j % m_p);
            const SimTime sd = picoseconds_from_seconds(cost(j).send_s);
            for (std::int64_t i = 0; i < m_m; ++i) {
                const TaskId sf = m_g.add_task(sd, {m_fwd_link[k]});
                note(sf, TrainingTaskKind::send_forward, j % m_p, i, j / m_p);
                m_SF[at(j, i)] = sf;
                m_g.add_dependency(F(j, i), sf);
                m_g.add_dependency(sf, F(j + 1, i));
                const TaskId sb = m_g.add_task(sd, {m_bwd_link[k]});
                note(sb, TrainingTaskKind::send_backward, (j + 1) % m_p, i, (j + 1) / m_p);
                m_g.add_dependency(B(j + 1, i), sb);
                m_g.add_dependency(sb, B(j, i));
                m_SB[at(j, i)] = sb;
            }
        }
    }

    // Stage k runs its passes in its schedule's order. Without overlap a stage waits for its own
    // send before its next pass. After its last pass, the exposed part of its gradient sync.
    void order_stage(int k) {
        const std::vector<PipelinePass> ops = stage_order(m_l.schedule, m_p, k, m_m, m_v);
        std::optional<TaskId> prev;
        for (const PipelinePass& op : ops) {
            const int j = op.chunk * m_p + k;
            const TaskId id = op.forward ? F(j, op.micro_batch) : B(j, op.micro_batch);
            if (prev) m_g.add_dependency(*prev, id);
            prev = id;
            if (!m_l.overlap && op.forward && j + 1 < m_nv) prev = m_SF[at(j, op.micro_batch)];
            if (!m_l.overlap && !op.forward && j > 0) prev = m_SB[at(j - 1, op.micro_batch)];
            m_stage_done[u(k)] = id;
        }
        if (cost(k).dp_exposed_s <= 0 || m_l.dp * m_l.cp <= 1) return;
        const TaskId sync = m_g.add_task(picoseconds_from_seconds(cost(k).dp_exposed_s), {m_dp_pool[u(k)]});
        note(sync, TrainingTaskKind::dp_reduce, k, -1, 0);
        m_g.add_dependency(m_stage_done[u(k)], sync);
        m_stage_done[u(k)] = sync;
    }

    // Gradient clipping needs the global gradient norm, so every stage's optimizer waits for all;
    // then the part of the weights' gather that the next step's first forward cannot hide.
    void add_update() {
        const TaskId all_done = m_g.add_join();
        note(all_done, TrainingTaskKind::join, -1, -1, 0);
        for (TaskId d : m_stage_done) m_g.add_dependency(d, all_done);
        for (int k = 0; k < m_p; ++k) {
            const TaskId opt = m_g.add_task(picoseconds_from_seconds(cost(k).optimizer_s), {m_stage_pool[u(k)]});
            note(opt, TrainingTaskKind::optimizer, k, -1, 0);
            m_g.add_dependency(all_done, opt);
            if (cost(k).param_exposed_s <= 0 || m_l.dp * m_l.cp <= 1) continue;
            const TaskId gather = m_g.add_task(picoseconds_from_seconds(cost(k).param_exposed_s), {m_dp_pool[u(k)]});
            note(gather, TrainingTaskKind::param_gather, k, -1, 0);
            m_g.add_dependency(opt, gather);
        }
    }

    const EstimateSetup& m_setup;
    const Layout& m_l;
    const std::vector<StageCost>& m_stages;
    std::vector<TrainingTask>* m_tasks;
    int m_p, m_v, m_nv;
    std::int64_t m_m;
    std::size_t m_mbs;
    WorkGraph m_g;
    std::vector<PoolId> m_stage_pool, m_fwd_link, m_bwd_link, m_dp_pool;
    std::vector<TaskId> m_F, m_B, m_SB, m_SF;  ///< per virtual stage and micro-batch; SB: the send feeding B, SF: F's send
    std::vector<TaskId> m_stage_done;  ///< per GPU stage: its last pass (or the join of it and the sync)
};

}  // namespace

WorkGraph build_step_graph(const EstimateSetup& setup, const std::vector<StageCost>& stages,
                           std::vector<TrainingTask>* tasks) {
    return StepGraphBuilder(setup, stages, tasks).build();
}

double scheduled_step_time_s(const EstimateSetup& setup, const std::vector<StageCost>& stages) {
    return static_cast<double>(schedule(build_step_graph(setup, stages)).makespan) / picoseconds_per_second;
}

}  // namespace m2m::core
