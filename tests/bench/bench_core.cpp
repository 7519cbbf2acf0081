// Core benchmarks (not tests): scheduler throughput on a 1,000,000-task layered graph, and 1,024-GPU all-reduces.
// Prints one line per case: name, tasks, seconds (median of repeats), tasks per second.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "m2m/core/rack/collectives.hpp"
#include "m2m/core/layers/layer_run.hpp"
#include "m2m/presets/presets.hpp"

using namespace m2m::core;
using Clock = std::chrono::steady_clock;

namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// 1,000 layers of 1,000 dot products each (1,000,000 tasks plus a join per layer), each
// layer waiting for the one before it: Lesson 1's work graph at a scale no screen shows.
void bench_schedule(std::uint32_t cores, int repeats) {
    LayerRunSetup s;
    s.network.widths.assign(1001, 1000);
    const ComputeSpec spec{};
    const WorkGraph g = build_layer_graph(s, spec, cores);
    std::vector<double> times;
    SimTime makespan = 0;
    for (int i = 0; i < repeats; ++i) {
        const auto t0 = Clock::now();
        const Timeline tl = schedule(g);
        times.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
        makespan = tl.makespan;
    }
    const double sec = median(times);
    const double tasks = static_cast<double>(g.task_count());
    std::printf("schedule_1M_tasks_on_%u_cores  tasks=%.0f  makespan=%lld  median_s=%.4f  tasks_per_s=%.3g\n", cores,
                tasks, static_cast<long long>(makespan), sec, tasks / sec);
}

// Lesson 2's targets: a 1,024-GPU all-reduce (H100 nodes of 8, 16 racks of 8 nodes) in <= 50 ms,
// cluster built and collective scheduled, as NCCL would run it (the tree at 8 B, the NVLS tree at
// 1 GiB) and as one ring or NCCL's 8 rings; and NCCL's cost of 32 sizes x every algorithm in <= 1 s.
void bench_allreduce(const char* name, std::uint32_t gpus, Bytes bytes, std::optional<CollectiveAlgorithm> algorithm,
                     std::uint32_t rings, int repeats) {
    const SystemSpec sys = m2m::presets::builtin().find_system("h100")->spec;
    CollectiveSetup setup;
    setup.group = first_gpus(gpus);
    setup.bytes = bytes;
    setup.rings = rings;
    setup.choice.algorithm = algorithm;
    std::vector<double> times;
    CollectiveResult r;
    for (int i = 0; i < repeats; ++i) {
        const auto t0 = Clock::now();
        const Cluster cluster(ClusterShape{8, 8, (gpus + 63) / 64, 0}, sys);
        r = run_collective(cluster, setup);
        times.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
    }
    std::printf("allreduce_%u_gpus_%s  algorithm=%s  steps=%zu  sends_per_step=%zu  simulated_s=%.4g  busbw_GBps=%.1f  "
                "median_s=%.4f\n",
                gpus, name, std::string(collective_algorithm_name(r.algorithm)).c_str(), r.steps, r.sends.size(), r.time_s,
                r.busbw_GBps, median(times));
}

void bench_sweep(std::uint32_t gpus, int repeats) {
    const SystemSpec sys = m2m::presets::builtin().find_system("h100")->spec;
    std::vector<double> times;
    CollectiveSweep s;
    for (int i = 0; i < repeats; ++i) {
        const auto t0 = Clock::now();
        s = sweep_collective(sys, first_gpus_group(gpus, 8), CollectiveOp::all_reduce);
        times.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
    }
    std::printf("sweep_%u_gpus  sizes=%zu  algorithms=%zu  median_s=%.6f\n", gpus, s.sizes.size(), s.algorithms.size(),
                median(times));
}

}  // namespace

int main(int argc, char** argv) {
    const int repeats = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
    bench_schedule(1, repeats);
    bench_schedule(16384, repeats);
    bench_allreduce("8B_auto", 1024, 8, std::nullopt, 0, repeats);
    bench_allreduce("1GiB_auto", 1024, Bytes{1} << 30, std::nullopt, 0, repeats);
    bench_allreduce("1GiB_ring_1_ring", 1024, Bytes{1} << 30, CollectiveAlgorithm::ring, 1, repeats);
    bench_allreduce("1GiB_ring_8_rings", 1024, Bytes{1} << 30, CollectiveAlgorithm::ring, 8, repeats);
    bench_sweep(1024, repeats);
    return 0;
}
