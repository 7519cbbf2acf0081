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
/// Until the run is `revealed` there are no points: the FLOP/s each layer reaches on each machine
/// would answer the pending guess (their ratio is the speedup), so only the roofs and ridges, which
/// are the set-up, are drawn, and the plot's range does not depend on the points either.
RooflinePicture roofline_picture(const ui::Theme& th, const core::LayerRunResult& r, bool revealed);

/// The roofline plot in a box of `size` (nothing to draw outside hardware mode); before the reveal,
/// a line under it says where the points went.
void draw_roofline(const ui::View& view, const core::LayerRunResult& r, ImVec2 size, bool revealed);

/// The speedup curve of a sweep (width or batch on x, CPU time / GPU time on y). Until the run is
/// `revealed` it is not drawn (clear) and spans a fixed range, 0.001x to 10,000x, whatever the
/// sweep says, so neither the curve nor the axes fitted to it answer the guess.
ui::PlotSeries speedup_curve(const std::vector<core::SpeedupPoint>& sweep, bool revealed, ImU32 colour);

}  // namespace m2m::lessons
