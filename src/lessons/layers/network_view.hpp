// Draws a layered network with each neuron waiting, computing or done, with level of detail:
// a layer too wide to draw neuron by neuron becomes a strip with its count.
#pragma once

#include <imgui.h>

#include <cstdint>
#include <vector>

#include "ui/theme.hpp"

namespace m2m::ui {

enum class NeuronState : std::uint8_t { waiting, active, done };

/// Wider layers are drawn as strips, and edges between large layers as one band: under
/// software GL every vertex costs (STYLE.md: ~2,000 circles + lines cost ~45 ms a frame).
inline constexpr int max_drawn_neurons = 16;
inline constexpr int max_drawn_edges = 96;

struct NetworkFrame {
    std::vector<int> widths;  ///< from the inputs to the outputs
    std::vector<int> done;    ///< per layer (index 0 = inputs, always complete)
    std::vector<int> active;
    /// Per layer: one state per neuron when width <= max_drawn_neurons, else empty.
    std::vector<std::vector<NeuronState>> states;
};

/// The neurons' radius in [a, b]: as large as the tallest column drawn neuron by neuron allows.
float neuron_radius(const NetworkFrame& frame, ImVec2 a, ImVec2 b);
/// Draws into the rectangle [a, b] of the current window's draw list (hovering a neuron shows its
/// dot product); returns the neurons' radius in pixels.
float draw_network(const Theme& th, const NetworkFrame& frame, ImVec2 a, ImVec2 b, std::uint32_t colour);

}  // namespace m2m::ui
