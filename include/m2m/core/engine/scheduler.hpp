// The discrete-event scheduler shared by every lesson: work graph in, timeline out.
#pragma once

#include <vector>

#include "m2m/core/engine/work_graph.hpp"

namespace m2m::core {

/// Where and when one task ran. `resource` is the member of its first pool it held
/// (no_resource for joins and delays); the members of further pools are in Timeline::held.
struct TaskRun {
    SimTime start = 0;
    SimTime end = 0;
    ResourceId resource = no_resource;
};

struct Timeline {
    std::vector<TaskRun> runs;  ///< indexed by TaskId
    /// For each entry of the graph's flattened needs (task by task, pool by pool), the
    /// resource taken from that pool; lets a transfer's every link be lit.
    std::vector<ResourceId> held;
    SimTime makespan = 0;
};

/// Rules, so that a teacher can predict every schedule:
/// - A task is ready when every task it depends on has ended.
/// - Ready tasks queue at each pool they need in the order they became ready (ties in the
///   order their last dependency ended, then by task id), first come, first served.
/// - A task starts when it is at the head of the queue of every pool it needs and each of
///   those pools has a free member; it holds them all until it ends. A link therefore
///   carries one transfer at a time, and two tensors on one link take twice as long.
/// - Free members are handed out in the order they were freed (initially by index).
/// - Events at equal times run in the order they were created (time, sequence number).
/// Same graph in, identical timeline out. Throws std::logic_error on a dependency cycle.
Timeline schedule(const WorkGraph& graph);

}  // namespace m2m::core
