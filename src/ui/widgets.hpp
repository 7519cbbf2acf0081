// Small shared widgets: big readouts, source tooltips, time bars and a log-log plot.
#pragma once

#include <imgui.h>

#include <cmath>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ui/item_registry.hpp"
#include "ui/playback.hpp"
#include "ui/view.hpp"

namespace m2m::ui {

/// A labelled number in the headline font, like the lesson's "NEURONS 15". A label wider than
/// the row wraps; a value wider than the row is written in the body font, wrapped.
/// `min_width`: the group is at least this wide (a readout keeping room for a value still hidden).
void readout(const Theme& th, const char* label, const std::string& value, ImU32 colour, float min_width = 0);

struct Readout {
    std::string label, value;
    ImU32 colour;
    /// Laid out as wide as this too (the value a hidden "?" stands for), so revealing it moves nothing.
    std::string reserve = {};
};
/// Readouts side by side, `gap` apart; one that does not fit beside the one before starts a new line.
/// Where that headline form would be taller than `max_height` (a small window at a large scale,
/// where it would push the picture off the screen), only those that share the first row keep it
/// (the lesson's key numbers) and the rest are one line each, "LABEL value" in the body font,
/// side by side; where even that is too tall, all are. `drawn(i)` runs after item i.
void readouts(const Theme& th, const std::vector<Readout>& items, float gap, float max_height = 1e30f,
              const std::function<void(std::size_t)>& drawn = {});
/// The height readouts() takes for `items` in the current row, in the headline form.
float readouts_height(const std::vector<Readout>& items, float gap);

// --- layouts that fit a narrow panel (a 1024x768 projector at 1.5x) -------------------------------

/// Puts the next item of width `w` on the same line as the last one when it fits there (with
/// `spacing`, or the style's spacing when negative); else it goes on the next line.
void same_line_if_fits(float w, float spacing = -1.0f);
/// On the same row as the last item when `w` more fits there (true); else nothing, and false:
/// for a one-row strip whose optional items are left out rather than wrapped.
bool beside_if_fits(float w, float spacing);
/// A dim hint after the last item on its row, only where it fits there (else left out).
bool hint_if_fits(const char* text);  ///< true: it fitted and is drawn
/// The width of a radio button or a checkbox with its label, and of a button.
float radio_width(const char* label);
float button_width(const char* label);

/// For a widget whose label ImGui draws on its right (slider, input, combo): the width that
/// leaves the label room beside it, at most `share` of the row. When the row is too narrow for
/// both, the label is drawn now on its own line and the widget takes the whole row under it
/// (its label then comes back hidden: "##" + label). A widget that needs `least` pixels to show
/// its value (a combo's longest choice) gets them beside the label, or the whole row under it.
/// Call SetNextItemWidth(width) yourself.
struct LabelFit {
    std::string label;
    float width;
    ImVec2 above_min{0, 0}, above_max{0, 0};  ///< where the label went when drawn above; empty if beside
};
LabelFit fit_label(const char* label, float share, float least = 0);

/// Call right after a text field laid out with fit_label: a click on its label (beside it, where
/// ImGui draws it, or above it) puts the keyboard in the field, as a form's label does. What the
/// student types next goes there: a "3" typed after clicking the guess box's label is a guess,
/// not a jump to Lesson 3 (shortcuts are off while a field has the keyboard).
void label_focuses_field(const LabelFit& fit);
/// The item just drawn (a text or number field) takes the keyboard from the next frame, as a
/// click on it would: a shortcut's way into a guess box.
void type_into_last_item();
/// The item just drawn, scrolled into the middle of its pane where it is out of sight.
void scroll_to_last_item();
/// The same, but with the item's foot at the pane's foot: what is above it (the choices above a
/// "no guess" button) stays in sight as far as the pane's height allows.
void scroll_last_item_to_foot();

/// A small "(sources)" marker; hovering shows `text` (every figure and where it is from).
/// It goes beside the item before it when it fits there, or where `place` says.
enum class Beside { if_fits, yes, no };
void sources_marker(const std::string& text, Beside place = Beside::if_fits);

/// A tooltip of `text` wrapped at `width_em` font sizes; call it while the item is hovered.
void tooltip_wrapped(const char* text, float width_em);
/// A combo box's closed text for `name` in a combo `width` wide: the name where it fits, else cut
/// at a whole character with an ellipsis ("Server CPU (Xeon Plat…", still told apart from "Server
/// CPU (AMD…"); never letters cut off at the arrow. The list itself shows the whole names.
std::string combo_preview(const std::string& name, float width);

/// Wrapped text in a colour.
void text_wrapped_coloured(ImU32 colour, const std::string& text);
/// `text` with a newline where each line must end to fit `width` in the current font, broken at
/// spaces only (ImGui 1.86's own wrapping also breaks after '.', ',' and ';', inside "0.461 GB/s"
/// or "1,024 GPUs"); a word wider than `width` gets a line of its own. Newlines in `text` stay.
std::string wrap_at_spaces(std::string_view text, float width);

/// A folded "Why?" line: the longer explanation a moment may need, wrapped in `colour` once the
/// student opens it (ImGui keeps each `id`'s open state). Returns true while it is open.
bool why(const char* id, const std::string& text, ImU32 colour);

/// Which rows of the playback controls to draw: all, or the buttons and the speed slider apart
/// (a short pane pins the buttons at its foot and scrolls the slider with the controls).
enum class PlaybackRows { all, buttons, speed };

/// The standard playback rows: Run/Pause, Step, Reset and the speed slider (Run and Reset are
/// noted in `items` as "run_button" and "reset_button"). Returns true when the user changed anything.
bool playback_controls(ItemRegistry& items, Playback& pb, PlaybackRows rows = PlaybackRows::all);
/// Presenter view's key hint for the run, where the row has room: "Space: run", "Space: pause" while
/// it plays, "Space: run again" once it has played to its end; after "G: guess \u00b7 " while
/// `guess_open` (the guess can still be made) and there is room for both.
void run_key_hint(const Playback& pb, bool guess_open);

/// A horizontal bar for one machine's clock on a shared time axis: filled up to the
/// cursor, outlined up to the machine's finish. `axis_end` is the time at the right edge;
/// a finish beyond it runs off the edge with an arrow.
void time_bar(const View& view, const char* label, double cursor, double finish, double axis_end, ImU32 colour,
              const std::string& right_text, float height);

struct PlotSeries {
    std::vector<double> x, y;
    ImU32 colour;
    float thickness = 0;  ///< 0: the theme's curve
};
struct PlotMarker {
    double x;
    std::string label;
    ImU32 colour;
    std::string short_label = {};   ///< where `label` is wider than the plot
    std::string narrow_label = {};  ///< where `short_label` is wider too: on two lines, say (empty: the widest form, cut)
};
/// A labelled dot (a roofline's layer), its label beside it where no other label is.
struct PlotPoint {
    double x, y;
    std::string label;
    ImU32 colour;
};
/// A log-log plot's box and decades: the data's range widened to whole decades, at least one each way.
struct LogLogFrame {
    ImVec2 a, b;
    double lx0, lx1, ly0, ly1;
    ImVec2 to_screen(double x, double y) const {
        const double fx = (std::log10(x) - lx0) / (lx1 - lx0);
        const double fy = (std::log10(y) - ly0) / (ly1 - ly0);
        return ImVec2(a.x + static_cast<float>(fx) * (b.x - a.x), b.y - static_cast<float>(fy) * (b.y - a.y));
    }
};
/// A log-log line plot with decade grid lines, in a box of `size`; `points` are dots on top.
/// Returns its frame, so a caller can draw on it (a bold curve, a hover mark); nothing when no point is positive on both axes.
std::optional<LogLogFrame> log_log_plot(const View& view, const char* id, const std::vector<PlotSeries>& series,
                                        const std::vector<PlotMarker>& markers, const char* x_label, const char* y_label,
                                        ImVec2 size, double y_reference = 0,
                                        const std::vector<PlotPoint>& points = {});

}  // namespace m2m::ui
