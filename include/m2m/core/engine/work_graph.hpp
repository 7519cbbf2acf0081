// The work graph every lesson builds: pools of identical resources, tasks with durations,
// and the dependencies between them. The scheduler turns it into a timeline.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <vector>

#include "m2m/core/engine/units.hpp"

namespace m2m::core {

using PoolId = std::uint32_t;
using TaskId = std::uint32_t;
using ResourceId = std::uint32_t;
inline constexpr ResourceId no_resource = 0xFFFFFFFFu;

enum class ResourceKind { cpu_core, gpu_core, nvlink, infiniband, pcie, other };

/// A pool of `count` identical resources (the cores of one machine, or one link direction).
/// A task that needs the pool takes any one free member of it.
struct Pool {
    std::string name;
    ResourceKind kind = ResourceKind::other;
    ResourceId first = 0;  ///< global id of the pool's first resource
    std::uint32_t count = 0;
};

/// Tasks are numbered in the order they are added. A task that needs no pool (a join or a
/// pure delay, such as a kernel launch) runs as soon as it is ready, on no resource.
/// A task that needs several pools (a transfer over several links) holds one member of
/// each for its whole duration.
class WorkGraph {
public:
    PoolId add_pool(std::string name, ResourceKind kind, std::uint32_t count);
    TaskId add_task(SimTime duration, std::span<const PoolId> needs);
    TaskId add_task(SimTime duration, std::initializer_list<PoolId> needs) {
        return add_task(duration, std::span<const PoolId>(needs.begin(), needs.size()));
    }
    /// A zero-length task on no resource that ends when all its dependencies have ended:
    /// lets a whole layer wait on the layer before it with O(width) edges, not O(width^2).
    TaskId add_join() { return add_task(0, {}); }
    void add_dependency(TaskId before, TaskId after);
    void reserve(std::size_t tasks, std::size_t edges);

    std::size_t task_count() const { return m_duration.size(); }
    std::size_t pool_count() const { return m_pools.size(); }
    std::size_t resource_count() const { return m_resource_count; }
    const Pool& pool(PoolId id) const { return m_pools.at(id); }
    const std::vector<Pool>& pools() const { return m_pools; }
    SimTime duration(TaskId t) const { return m_duration[t]; }
    std::span<const PoolId> needs(TaskId t) const {
        return {m_needs.data() + m_needs_begin[t], m_needs.data() + m_needs_begin[t + 1]};
    }
    /// Dependencies as (before, after) pairs in the order they were added.
    const std::vector<std::pair<TaskId, TaskId>>& edges() const { return m_edges; }

private:
    std::vector<Pool> m_pools;
    std::size_t m_resource_count = 0;
    std::vector<SimTime> m_duration;
    std::vector<std::uint32_t> m_needs_begin{0};
    std::vector<PoolId> m_needs;
    std::vector<std::pair<TaskId, TaskId>> m_edges;
};

}  // namespace m2m::core
