// Lesson 1's hardware controls (batch, precision, cache) and its roofline plot: each machine's
// roofs and ridge points, and every weight layer as a labelled point.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "m2m/core/layers/layer_run.hpp"
#include "ui/item_registry.hpp"
#include "ui/theme.hpp"
#include "ui/view.hpp"
#include "ui/widgets.hpp"

namespace m2m::lessons {

/// A machine's preset, chosen from `ids` (a combo as wide as the panel allows, its figures' sources
/// in its tooltip); on a pick, `spec` and `cores` become the preset's. True when the user picked one.
bool machine_combo(const char* label, const std::vector<std::string>& ids, std::size_t& index, core::ComputeSpec& spec,
                   std::uint32_t& cores);

/// Batch (1..4,096, a typed value clamped), precision and cache, with the story's notes on which
/// units run the precision and where the weights come from. True when the user changed any.
bool hardware_controls(ui::ItemRegistry& items, core::LayerRunSetup& setup,
                       const core::LayerRunStory& story);

/// What the roofline plot draws, all read from the core's result.
struct RooflinePicture {
    std::vector<ui::PlotSeries> roofs;   ///< CPU, then GPU: the memory slope up to the ridge, then flat
    std::vector<ui::PlotMarker> ridges;  ///< each machine's ridge point (FLOP/byte)
    std::vector<ui::PlotPoint> points;   ///< per machine, each run of equal layers: its intensity and FLOP/s
};
RooflinePicture roofline_picture(const ui::Theme& th, const core::LayerRunResult& r);

/// The roofline plot in a box of `size` (nothing to draw outside hardware mode).
void draw_roofline(const ui::View& view, const core::LayerRunResult& r, ImVec2 size);

}  // namespace m2m::lessons
