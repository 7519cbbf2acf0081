// Building a work graph: pools, tasks and dependencies, checked as they are added.
#include "m2m/core/engine/work_graph.hpp"

#include <stdexcept>

namespace m2m::core {

PoolId WorkGraph::add_pool(std::string name, ResourceKind kind, std::uint32_t count) {
    if (count == 0) throw std::invalid_argument("a resource pool needs at least one member");
    m_pools.push_back(Pool{std::move(name), kind, static_cast<ResourceId>(m_resource_count), count});
    m_resource_count += count;
    return static_cast<PoolId>(m_pools.size() - 1);
}

TaskId WorkGraph::add_task(SimTime duration, std::span<const PoolId> needs) {
    if (duration < 0) throw std::invalid_argument("a task cannot take negative time");
    for (std::size_t i = 0; i < needs.size(); ++i) {
        if (needs[i] >= m_pools.size()) throw std::invalid_argument("a task needs a pool that does not exist");
        for (std::size_t j = 0; j < i; ++j)
            if (needs[j] == needs[i]) throw std::invalid_argument("a task names the same pool twice");
    }
    m_duration.push_back(duration);
    m_needs.insert(m_needs.end(), needs.begin(), needs.end());
    m_needs_begin.push_back(static_cast<std::uint32_t>(m_needs.size()));
    return static_cast<TaskId>(m_duration.size() - 1);
}

void WorkGraph::add_dependency(TaskId before, TaskId after) {
    if (before >= task_count() || after >= task_count())
        throw std::invalid_argument("a dependency names a task that does not exist");
    if (before == after) throw std::invalid_argument("a task cannot wait for itself");
    m_edges.emplace_back(before, after);
}

void WorkGraph::reserve(std::size_t tasks, std::size_t edges) {
    m_duration.reserve(tasks);
    m_needs_begin.reserve(tasks + 1);
    m_needs.reserve(tasks);
    m_edges.reserve(edges);
}

}  // namespace m2m::core
