// Where the app plugs in its GPU path; without one (UI tests) the GPU row says so.
#include "measure/gpu_run.hpp"

#include <atomic>

namespace m2m::measure {

namespace {
std::atomic<GpuFactory> g_factory{nullptr};
}

void set_gpu_factory(GpuFactory factory) { g_factory = factory; }

std::unique_ptr<GpuRun> make_gpu_run() {
    const GpuFactory f = g_factory.load();
    return f ? f() : nullptr;
}

}  // namespace m2m::measure
