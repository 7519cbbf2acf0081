// The scheduler's rules, checked on small graphs where every start and end is known.
#include <catch2/catch.hpp>

#include "m2m/core/engine/scheduler.hpp"

using namespace m2m::core;

TEST_CASE("a task on an idle core starts at zero and ends after its duration") {
    WorkGraph g;
    const PoolId cores = g.add_pool("cores", ResourceKind::cpu_core, 1);
    const TaskId t = g.add_task(7, {cores});
    const Timeline tl = schedule(g);
    CHECK(tl.runs[t].start == 0);
    CHECK(tl.runs[t].end == 7);
    CHECK(tl.runs[t].resource == g.pool(cores).first);
    CHECK(tl.makespan == 7);
}

TEST_CASE("one core runs independent tasks one after another, in the order they were added") {
    WorkGraph g;
    const PoolId cores = g.add_pool("cores", ResourceKind::cpu_core, 1);
    const TaskId a = g.add_task(2, {cores});
    const TaskId b = g.add_task(3, {cores});
    const TaskId c = g.add_task(1, {cores});
    const Timeline tl = schedule(g);
    CHECK(tl.runs[a].start == 0);
    CHECK(tl.runs[b].start == 2);
    CHECK(tl.runs[c].start == 5);
    CHECK(tl.makespan == 6);
}

TEST_CASE("enough cores run independent tasks all at once, each on its own core") {
    WorkGraph g;
    const PoolId cores = g.add_pool("cores", ResourceKind::gpu_core, 4);
    for (int i = 0; i < 4; ++i) g.add_task(5, {cores});
    const Timeline tl = schedule(g);
    for (TaskId t = 0; t < 4; ++t) {
        CHECK(tl.runs[t].start == 0);
        CHECK(tl.runs[t].resource == t);
    }
    CHECK(tl.makespan == 5);
}

TEST_CASE("a task waits for every task it depends on") {
    WorkGraph g;
    const PoolId cores = g.add_pool("cores", ResourceKind::cpu_core, 3);
    const TaskId a = g.add_task(4, {cores});
    const TaskId b = g.add_task(9, {cores});
    const TaskId c = g.add_task(1, {cores});
    g.add_dependency(a, c);
    g.add_dependency(b, c);
    const Timeline tl = schedule(g);
    CHECK(tl.runs[c].start == 9);
    CHECK(tl.makespan == 10);
}

TEST_CASE("joins and delays take no resource and run as soon as they are ready") {
    WorkGraph g;
    const PoolId cores = g.add_pool("cores", ResourceKind::gpu_core, 1);
    const TaskId work = g.add_task(3, {cores});
    const TaskId join = g.add_join();
    const TaskId launch = g.add_task(10, {});
    const TaskId next = g.add_task(2, {cores});
    g.add_dependency(work, join);
    g.add_dependency(join, launch);
    g.add_dependency(launch, next);
    const Timeline tl = schedule(g);
    CHECK(tl.runs[join].start == 3);
    CHECK(tl.runs[join].end == 3);
    CHECK(tl.runs[join].resource == no_resource);
    CHECK(tl.runs[launch].end == 13);
    CHECK(tl.runs[next].start == 13);
    CHECK(tl.makespan == 15);
}

TEST_CASE("a task that needs two pools holds one member of each, and shares them first come, first served") {
    // Two transfers over the same link: the second waits for the first.
    WorkGraph g;
    const PoolId nic_a = g.add_pool("NIC a", ResourceKind::infiniband, 1);
    const PoolId leaf = g.add_pool("leaf", ResourceKind::infiniband, 1);
    const PoolId nic_b = g.add_pool("NIC b", ResourceKind::infiniband, 1);
    const TaskId first = g.add_task(100, {nic_a, leaf});
    const TaskId second = g.add_task(100, {nic_b, leaf});
    const TaskId other = g.add_task(50, {nic_a});
    const Timeline tl = schedule(g);
    CHECK(tl.runs[first].start == 0);
    CHECK(tl.runs[second].start == 100);
    CHECK(tl.runs[other].start == 100);  // queued behind `first` on NIC a
    CHECK(tl.held[0] == g.pool(nic_a).first);
    CHECK(tl.held[1] == g.pool(leaf).first);
    CHECK(tl.makespan == 200);
}

TEST_CASE("no core runs two tasks at once and no task starts before its inputs end") {
    WorkGraph g;
    const PoolId cores = g.add_pool("cores", ResourceKind::cpu_core, 3);
    std::vector<TaskId> prev;
    for (int layer = 0; layer < 5; ++layer) {
        std::vector<TaskId> cur;
        for (int i = 0; i < 7; ++i) {
            const TaskId t = g.add_task(1 + (i * 3 + layer) % 4, {cores});
            for (TaskId p : prev) g.add_dependency(p, t);
            cur.push_back(t);
        }
        prev = cur;
    }
    const Timeline tl = schedule(g);
    for (auto [before, after] : g.edges()) CHECK(tl.runs[after].start >= tl.runs[before].end);
    for (TaskId a = 0; a < g.task_count(); ++a)
        for (TaskId b = a + 1; b < g.task_count(); ++b)
            if (tl.runs[a].resource == tl.runs[b].resource)
                CHECK((tl.runs[a].end <= tl.runs[b].start || tl.runs[b].end <= tl.runs[a].start));
}

TEST_CASE("the same graph always gives the identical timeline") {
    auto build = [] {
        WorkGraph g;
        const PoolId a = g.add_pool("a", ResourceKind::cpu_core, 2);
        const PoolId b = g.add_pool("b", ResourceKind::nvlink, 1);
        for (int i = 0; i < 50; ++i) {
            const TaskId t = g.add_task(i % 5, i % 3 ? std::initializer_list<PoolId>{a} : std::initializer_list<PoolId>{a, b});
            if (i > 3) g.add_dependency(static_cast<TaskId>(i - 3), t);
        }
        return g;
    };
    const Timeline x = schedule(build());
    const Timeline y = schedule(build());
    REQUIRE(x.runs.size() == y.runs.size());
    for (std::size_t i = 0; i < x.runs.size(); ++i) {
        CHECK(x.runs[i].start == y.runs[i].start);
        CHECK(x.runs[i].end == y.runs[i].end);
        CHECK(x.runs[i].resource == y.runs[i].resource);
    }
    CHECK(x.held == y.held);
}

TEST_CASE("a dependency cycle is reported, not silently dropped") {
    WorkGraph g;
    const PoolId cores = g.add_pool("cores", ResourceKind::cpu_core, 1);
    const TaskId a = g.add_task(1, {cores});
    const TaskId b = g.add_task(1, {cores});
    g.add_dependency(a, b);
    g.add_dependency(b, a);
    CHECK_THROWS_AS(schedule(g), std::logic_error);
}

TEST_CASE("a malformed graph is refused as it is built") {
    WorkGraph g;
    CHECK_THROWS_AS(g.add_pool("none", ResourceKind::cpu_core, 0), std::invalid_argument);
    const PoolId p = g.add_pool("p", ResourceKind::cpu_core, 1);
    CHECK_THROWS_AS(g.add_task(-1, {p}), std::invalid_argument);
    CHECK_THROWS_AS(g.add_task(1, {p, p}), std::invalid_argument);
    CHECK_THROWS_AS(g.add_task(1, {PoolId{7}}), std::invalid_argument);
    const TaskId t = g.add_task(1, {p});
    CHECK_THROWS_AS(g.add_dependency(t, t), std::invalid_argument);
    CHECK_THROWS_AS(g.add_dependency(t, 99), std::invalid_argument);
}
