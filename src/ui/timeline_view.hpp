// The shared timeline (Gantt) widget: one row per resource (a GPU, a link), bars coloured by kind,
// a cursor line, computed from one context per frame (visible range, pixels per unit) as Tracy does.
#pragma once

#include <imgui.h>

#include <cstdint>
#include <string>
#include <vector>

#include "ui/view.hpp"

namespace m2m::ui {

/// What a bar stands for; it picks the bar's colour and lane. Compute kinds fill the top lane
/// of a row, communication the bottom lane (it may overlap compute), idle the whole height.
enum class BarKind : std::uint8_t { forward, backward, update, communication, idle };

/// The theme colour of a kind (communication: NVLink's colour unless a bar names its link's).
ImU32 bar_kind_colour(const Theme& th, BarKind kind);

/// An axis tick's label at `t` units, ticks `step` apart on an axis to `end` (units of
/// `seconds_per_unit` seconds; 0: plain numbers). One unit and precision for every tick.
std::string axis_tick_text(double t, double step, double end, double seconds_per_unit);
/// "forward", "backward", "update", "communication", "idle".
const char* bar_kind_name(BarKind kind);

struct TimelineBar {
    double start = 0;  ///< in the caller's unit (the same as TimelineOptions' range)
    double end = 0;
    BarKind kind = BarKind::forward;
    ImU32 colour = 0;  ///< 0: bar_kind_colour(kind)
};

/// One resource. Bars must be in start order (they may overlap across lanes).
struct TimelineRow {
    std::string label;
    std::vector<TimelineBar> bars;
    ImU32 label_colour = 0;  ///< 0: the theme's text colour
};

struct TimelineOptions {
    double start = 0;              ///< visible range, caller's unit
    double end = 1;
    double cursor = -1;            ///< drawn as a line; bars after it are faded (< 0: no cursor)
    double seconds_per_unit = 1;   ///< for the axis labels (0: plain numbers)
    float row_height = 0;          ///< 0: 1.5 x the font size
    const char* idle_label = nullptr;  ///< written on idle bars wide enough to hold it, e.g. "bubble"
};

/// The mapping every part of one frame's drawing shares: computed once, then x_of() is a
/// multiply-add. `plot_x0..plot_x1` is the bar area, right of the row labels.
struct TimelineContext {
    double start = 0, end = 1;
    float plot_x0 = 0, plot_x1 = 1;
    float top = 0, row_height = 1;
    double px_per_unit = 1;
    float x_of(double t) const { return plot_x0 + static_cast<float>((t - start) * px_per_unit); }
    double t_of(float x) const { return start + static_cast<double>(x - plot_x0) / px_per_unit; }
};

/// What one call drew, for tests and for the caller's tooltips.
struct TimelineResult {
    int rows_drawn = 0;     ///< rows inside the clip rectangle (others are skipped)
    int rects = 0;          ///< filled rectangles emitted for bars (narrow neighbours merge)
    int hovered_row = -1;   ///< row under the mouse, -1 when none
    int hovered_bar = -1;   ///< index of the bar under the mouse in that row (compute lane first)
    double hovered_time = 0;
};

/// Draws the rows, an axis and the cursor into a box of `size` at the cursor position, and
/// advances the layout by it. Bars narrower than a pixel merge with their neighbours into one
/// rectangle (its colour from the widest bar in it), so the cost stays bounded by the width
/// in pixels, not by the number of bars.
TimelineResult draw_timeline(const View& view, const char* id, const std::vector<TimelineRow>& rows,
                             const TimelineOptions& options, ImVec2 size);

/// The height draw_timeline needs for `rows` rows and its axis.
float timeline_height(int rows, const TimelineOptions& options);

/// One line of swatches, e.g. forward, backward, NVLink, idle; wraps when out of room.
struct LegendEntry {
    const char* label;
    ImU32 colour;
};
void timeline_legend(const std::vector<LegendEntry>& entries);
/// The width timeline_legend needs to put `entries` on one line.
float timeline_legend_width(const std::vector<LegendEntry>& entries);

}  // namespace m2m::ui
