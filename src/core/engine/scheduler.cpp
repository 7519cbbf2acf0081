// A deterministic discrete-event list scheduler: FIFO queues per pool, a (time, seq) event heap.
#include "m2m/core/engine/scheduler.hpp"

#include <algorithm>
#include <stdexcept>

namespace m2m::core {
namespace {

struct Event {
    SimTime time;
    std::uint64_t seq;
    TaskId task;
};

// A binary min-heap on (time, seq), written out so the hot loop stays inlined.
class EventHeap {
public:
    bool empty() const { return m_items.empty(); }
    const Event& top() const { return m_items.front(); }
    void push(Event e) {
        m_items.push_back(e);
        std::size_t i = m_items.size() - 1;
        while (i > 0) {
            std::size_t parent = (i - 1) / 2;
            if (!less(m_items[i], m_items[parent])) break;
            std::swap(m_items[i], m_items[parent]);
            i = parent;
        }
    }
    Event pop() {
        Event out = m_items.front();
        Event last = m_items.back();
        m_items.pop_back();
        const std::size_t n = m_items.size();
        if (n == 0) return out;
        std::size_t i = 0;
        for (;;) {
            std::size_t child = 2 * i + 1;
            if (child >= n) break;
            if (child + 1 < n && less(m_items[child + 1], m_items[child])) ++child;
            if (!less(m_items[child], last)) break;
            m_items[i] = m_items[child];
            i = child;
        }
        m_items[i] = last;
        return out;
    }

private:
    static bool less(const Event& a, const Event& b) {
        return a.time != b.time ? a.time < b.time : a.seq < b.seq;
    }
    std::vector<Event> m_items;
};

// A queue that only grows at the back and shrinks at the front: each task enters a
// pool's queue once, so a flat vector (reserved up front) with a head index is enough.
struct Fifo {
    std::vector<std::uint32_t> items;
    std::size_t head = 0;
    bool empty() const { return head == items.size(); }
    std::uint32_t front() const { return items[head]; }
    void pop() { ++head; }
};

// The free members of a pool: a ring as large as the pool, so freeing never allocates.
struct Ring {
    std::vector<ResourceId> slots;
    std::size_t head = 0, size = 0;
    bool empty() const { return size == 0; }
    ResourceId front() const { return slots[head]; }
    void pop() {
        head = head + 1 == slots.size() ? 0 : head + 1;
        --size;
    }
    void push(ResourceId r) {
        std::size_t tail = head + size;
        if (tail >= slots.size()) tail -= slots.size();
        slots[tail] = r;
        ++size;
    }
};

class Run {
public:
    explicit Run(const WorkGraph& g) : m_g(g) {
        const std::size_t n = g.task_count();
        m_out.runs.assign(n, TaskRun{});
        m_needs_begin.resize(n + 1);
        std::size_t total_needs = 0;
        for (TaskId t = 0; t < n; ++t) {
            m_needs_begin[t] = static_cast<std::uint32_t>(total_needs);
            total_needs += g.needs(t).size();
        }
        m_needs_begin[n] = static_cast<std::uint32_t>(total_needs);
        m_out.held.assign(total_needs, no_resource);

        // Successors in compressed rows, in the order the edges were added.
        m_succ_begin.assign(n + 1, 0);
        m_pending.assign(n, 0);
        for (auto [before, after] : g.edges()) {
            ++m_succ_begin[before + 1];
            ++m_pending[after];
        }
        for (std::size_t i = 0; i < n; ++i) m_succ_begin[i + 1] += m_succ_begin[i];
        m_succ.resize(g.edges().size());
        std::vector<std::uint32_t> fill(m_succ_begin.begin(), m_succ_begin.end() - 1);
        for (auto [before, after] : g.edges()) m_succ[fill[before]++] = after;

        m_free.resize(g.pool_count());
        m_queue.resize(g.pool_count());
        m_dirty_flag.assign(g.pool_count(), 0);
        std::vector<std::size_t> queued(g.pool_count(), 0);
        for (TaskId t = 0; t < n; ++t)
            for (PoolId p : g.needs(t)) ++queued[p];
        for (PoolId p = 0; p < g.pool_count(); ++p) {
            const Pool& pool = g.pool(p);
            m_queue[p].items.reserve(queued[p]);
            m_free[p].slots.resize(pool.count);
            for (std::uint32_t i = 0; i < pool.count; ++i) m_free[p].push(pool.first + i);
        }
    }

    Timeline go() {
        for (TaskId t = 0; t < m_g.task_count(); ++t)
            if (m_pending[t] == 0) make_ready(t);
        drain();
        std::size_t done = 0;
        while (!m_events.empty()) {
            const Event e = m_events.pop();
            m_now = e.time;
            complete(e.task);
            ++done;
            if (m_events.empty() || m_events.top().time != m_now) drain();
        }
        if (done != m_g.task_count())
            throw std::logic_error("the work graph has a dependency cycle: some tasks never became ready");
        return std::move(m_out);
    }

private:
    void make_ready(TaskId t) {
        const auto needs = m_g.needs(t);
        if (needs.empty()) {
            start(t);
            return;
        }
        for (PoolId p : needs) {
            m_queue[p].items.push_back(t);
            mark(p);
        }
    }

    void start(TaskId t) {
        TaskRun& r = m_out.runs[t];
        r.start = m_now;
        r.end = m_now + m_g.duration(t);
        m_events.push(Event{r.end, m_seq++, t});
    }

    void complete(TaskId t) {
        const auto needs = m_g.needs(t);
        for (std::size_t i = 0; i < needs.size(); ++i) {
            m_free[needs[i]].push(m_out.held[m_needs_begin[t] + i]);
            mark(needs[i]);
        }
        for (std::uint32_t s = m_succ_begin[t]; s < m_succ_begin[t + 1]; ++s) {
            const TaskId next = m_succ[s];
            if (--m_pending[next] == 0) make_ready(next);
        }
    }

    void mark(PoolId p) {
        if (!m_dirty_flag[p]) {
            m_dirty_flag[p] = 1;
            m_dirty.push_back(p);
        }
    }

    // Start every task that can start now; starting a multi-pool task changes the heads
    // of its other pools, which are marked and tried again.
    void drain() {
        while (!m_dirty.empty()) {
            const PoolId p = m_dirty.back();
            m_dirty.pop_back();
            m_dirty_flag[p] = 0;
            try_start(p);
        }
    }

    void try_start(PoolId p) {
        Fifo& q = m_queue[p];
        while (!q.empty()) {
            const TaskId h = q.front();
            const auto needs = m_g.needs(h);
            for (PoolId need : needs)
                if (m_queue[need].empty() || m_queue[need].front() != h || m_free[need].empty()) return;
            for (std::size_t i = 0; i < needs.size(); ++i) {
                Ring& free = m_free[needs[i]];
                m_out.held[m_needs_begin[h] + i] = free.front();
                free.pop();
                m_queue[needs[i]].pop();
                if (needs[i] != p) mark(needs[i]);
            }
            m_out.runs[h].resource = m_out.held[m_needs_begin[h]];
            start(h);
        }
    }

    const WorkGraph& m_g;
    Timeline m_out;
    std::vector<std::uint32_t> m_needs_begin;
    std::vector<std::uint32_t> m_succ_begin;
    std::vector<TaskId> m_succ;
    std::vector<std::uint32_t> m_pending;
    std::vector<Ring> m_free;
    std::vector<Fifo> m_queue;
    std::vector<PoolId> m_dirty;
    std::vector<char> m_dirty_flag;
    EventHeap m_events;
    SimTime m_now = 0;
    std::uint64_t m_seq = 0;
};

}  // namespace

Timeline schedule(const WorkGraph& graph) {
    Timeline out = Run(graph).go();
    for (const TaskRun& r : out.runs) out.makespan = std::max(out.makespan, r.end);
    return out;
}

}  // namespace m2m::core
