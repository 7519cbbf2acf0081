// The GPU path as the measurement sees it, with no GL types: the app and the command line plug
// in the OpenGL implementation (gl_path.hpp); UI tests run without one.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "measure/cpu_paths.hpp"

namespace m2m::measure {

/// What the current OpenGL context offers, read from it before anything runs.
struct GpuInfo {
    bool available = false;  ///< an OpenGL 4.3 context with compute shaders
    std::string why_not;     ///< when not available, a sentence saying why
    std::string vendor, renderer, version;
    bool software = false;   ///< Mesa llvmpipe, softpipe or swrast: the CPU pretending to be a GPU
};

/// What the GPU path produced: its outputs and timing, or why it has none.
struct GpuOutcome {
    bool ok = false;
    std::string why_not;
    std::vector<float> output;  ///< batch rows of widths.back(), read back after the timed passes
    Timing timing;
    std::int64_t flops = 0;     ///< FLOPs of one pass, counted from the dispatches
};

/// One run of the network on the GPU, done in slices so a window can keep drawing between them.
/// Every call must come from the thread whose GL context is current.
class GpuRun {
public:
    virtual ~GpuRun() = default;
    virtual const GpuInfo& info() const = 0;
    /// Begins a run; `problem` must outlive it.
    virtual void start(const Problem& problem, int repeats) = 0;
    /// Does about `budget_s` of GPU work (at least one dispatch); true once the run is over.
    virtual bool step(double budget_s) = 0;
    virtual double progress() const = 0;  ///< 0..1
    virtual const GpuOutcome& outcome() const = 0;
};

using GpuFactory = std::unique_ptr<GpuRun> (*)();
/// The app installs the OpenGL path here at start-up (see measure::use_gl_path()).
void set_gpu_factory(GpuFactory factory);
/// A GPU run on the current context, or null when no GPU path is installed.
std::unique_ptr<GpuRun> make_gpu_run();

}  // namespace m2m::measure
