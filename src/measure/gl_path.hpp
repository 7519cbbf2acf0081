// Path 3: the network on the GPU through an OpenGL 4.3 compute shader (shaders/dense_layer.comp),
// one invocation per neuron and input, a whole layer per dispatch, timed with GL timer queries.
#pragma once

#include <memory>

#include "measure/gpu_run.hpp"

namespace m2m::measure {

/// A GPU run on the current OpenGL context (glad must be loaded for it). Its info() says what
/// the context offers; without OpenGL 4.3 it is not available and says why.
std::unique_ptr<GpuRun> make_gl_run();

/// Installs make_gl_run() as the GPU path of every measurement (the app calls this at start-up).
void use_gl_path();

}  // namespace m2m::measure
