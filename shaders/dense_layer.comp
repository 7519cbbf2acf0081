// One dense layer of Lesson 1's network: one invocation per neuron and input, a whole layer per
// dispatch. Invocation (j, s) computes neuron j's dot product over input s's previous layer.
#version 430 core

layout(local_size_x = 64) in;

// Weights are stored input-major (w[i * n_out + j]): the 64 neurons of a work group read 64
// neighbouring floats at every step of their sums, which the memory system fetches together.
layout(std430, binding = 0) readonly buffer Weights { float w[]; };
layout(std430, binding = 1) readonly buffer Biases { float b[]; };
layout(std430, binding = 2) readonly buffer Inputs { float a[]; };    // batch rows of n_in
layout(std430, binding = 3) writeonly buffer Outputs { float z[]; };  // batch rows of n_out

uniform int n_in;
uniform int n_out;
uniform int squash;  // 1: sigma(x) = 1 / (1 + e^-x) (hidden layers); 0: identity (output layer)

void main() {
    uint j = gl_GlobalInvocationID.x;
    uint s = gl_GlobalInvocationID.y;
    if (j >= uint(n_out)) return;
    uint row = s * uint(n_in);
    float acc = 0.0;
    for (uint i = 0u; i < uint(n_in); ++i) acc += w[i * uint(n_out) + j] * a[row + i];
    float v = acc + b[j];
    z[s * uint(n_out) + j] = squash != 0 ? 1.0 / (1.0 + exp(-v)) : v;
}
