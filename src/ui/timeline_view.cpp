// The shared timeline (Gantt) widget: rows of bars on one time axis, drawn with a handful of
// rectangles per row whatever the number of bars (narrow bars merge), cheap under software GL.
//
// [SECTION] bar kinds   [SECTION] lanes and axis   [SECTION] the widget   [SECTION] legend
#include "ui/timeline_view.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "m2m/core/engine/units.hpp"
#include "ui/theme.hpp"
#include "ui/view.hpp"
#include "m2m/core/engine/text.hpp"

namespace m2m::ui {

// [SECTION] bar kinds -----------------------------------------------------------------------

ImU32 bar_kind_colour(const Theme& th, BarKind kind) {
    switch (kind) {
        case BarKind::forward: return th.gpu;
        case BarKind::backward: return th.warning;
        // The projector theme's accent is a purple close to its warning (backward), its orange is the
        // activations' and sits beside InfiniBand's vermilion, and a dark grey hid the black capacity
        // marks drawn over it: a dark mustard there, the dark theme's yellow on white.
        case BarKind::update: return th.kind == ThemeKind::projector ? IM_COL32(200, 175, 20, 255) : th.accent;
        case BarKind::communication: return th.link(core::LinkType::nvlink);
        case BarKind::idle: return th.idle;
    }
    return th.idle;
}

const char* bar_kind_name(BarKind kind) {
    switch (kind) {
        case BarKind::forward: return "forward";
        case BarKind::backward: return "backward";
        case BarKind::update: return "update";
        case BarKind::communication: return "communication";
        case BarKind::idle: return "idle";
    }
    return "?";
}

// [SECTION] lanes and axis ------------------------------------------------------------------

namespace {

constexpr float future_alpha = 0.28f;  // bars the cursor has not reached yet

float row_height_of(const TimelineOptions& o) { return o.row_height > 0 ? o.row_height : ImGui::GetFontSize() * 1.5f; }
float axis_height() { return ImGui::GetFontSize() * 1.4f; }

int lane_of(BarKind k) { return k == BarKind::communication ? 1 : k == BarKind::idle ? 2 : 0; }

}  // namespace

std::string axis_tick_text(double t, double step, double end, double seconds_per_unit) {
    char label[48];
    if (!(seconds_per_unit > 0)) {
        std::snprintf(label, sizeof label, "%g", t);
        return label;
    }
    if (t == 0) return "0";
    // One unit for every tick, the largest that reads at least 1 at the axis's end: "60 s, 70 s",
    // not "50.0 s, 1.00 minutes, 1.17 minutes". Calendar units (from 10 minutes) keep format_seconds.
    const double end_s = end * seconds_per_unit;
    if (!(end_s > 0) || end_s >= 600) return core::format_seconds(t * seconds_per_unit);
    double unit = 1e-12;
    const char* name = "ps";
    for (auto [u, n] : {std::pair{1.0, "s"}, std::pair{1e-3, "ms"}, std::pair{1e-6, "\u00b5s"}, std::pair{1e-9, "ns"}})
        if (end_s >= u) {
            unit = u, name = n;
            break;
        }
    // As many decimals as the step needs, the same for every tick: "0.1 ms ... 1.1 ms".
    const int decimals = std::clamp(static_cast<int>(std::ceil(-std::log10(step * seconds_per_unit / unit) - 1e-9)), 0, 3);
    std::snprintf(label, sizeof label, "%.*f %s", decimals, t * seconds_per_unit / unit, name);
    return label;
}

namespace {

// A tick step of 1, 2 or 5 times a power of ten, so that ticks sit at least `min_px` apart.
double tick_step(double units, float width_px, float min_px) {
    if (!(units > 0) || width_px <= 0) return 1;
    const double raw = units * static_cast<double>(min_px) / static_cast<double>(width_px);
    const double p = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (p * m >= raw) return p * m;
    return p * 10;
}

// Bars of one lane of one row, narrow neighbours merged into one run before drawing.
struct LanePainter {
    LanePainter(ImDrawList* d, const TimelineContext& c, float top, float bottom, float cx, int* counter)
        : dl(d), ctx(c), y0(top), y1(bottom), cursor_x(cx), rects(counter) {}
    ImDrawList* dl;
    const TimelineContext& ctx;
    float y0, y1;
    float cursor_x;  // bars right of it are faded
    int* rects;
    bool open = false, wide = false;  // a run of narrow bars; a run of touching wide bars of one colour
    float run_x0 = 0, run_x1 = 0, run_widest = -1;
    ImU32 run_colour = 0;

    void fill(float x0, float x1, ImU32 c) {
        x0 = std::max(x0, ctx.plot_x0);
        x1 = std::min(std::max(x1, x0 + 1.0f), ctx.plot_x1);
        if (x1 <= x0) return;
        if (cursor_x >= x1) {
            dl->AddRectFilled(ImVec2(x0, y0), ImVec2(x1, y1), c);
        } else if (cursor_x <= x0) {
            dl->AddRectFilled(ImVec2(x0, y0), ImVec2(x1, y1), fade(c, future_alpha));
        } else {
            dl->AddRectFilled(ImVec2(x0, y0), ImVec2(cursor_x, y1), c);
            dl->AddRectFilled(ImVec2(cursor_x, y0), ImVec2(x1, y1), fade(c, future_alpha));
            ++*rects;
        }
        ++*rects;
    }
    void flush() {
        if (open) fill(run_x0, run_x1, run_colour);
        open = wide = false;
    }
    void add(float x0, float x1, ImU32 c) {
        const float w = x1 - x0;
        if (w >= 1.0f) {  // wide enough to be seen on its own
            // Back to back with the last wide bar in the same colour (a stage's warm-up forwards,
            // its cool-down backwards): one rectangle draws the same pixels.
            if (open && wide && c == run_colour && x0 <= run_x1) {
                run_x1 = std::max(run_x1, x1);
                return;
            }
            flush();
            open = wide = true;
            run_x0 = x0;
            run_x1 = x1;
            run_colour = c;
            return;
        }
        if (open && wide) flush();
        if (open && x0 <= run_x1 + 1.0f) {
            run_x1 = std::max(run_x1, x1);
        } else {
            flush();
            open = true;
            run_x0 = x0;
            run_x1 = x1;
            run_widest = -1;
        }
        if (w > run_widest) run_widest = w, run_colour = c;
    }
};

void draw_axis(const Theme& th, ImDrawList* dl, const TimelineContext& ctx, float y_top, float y_axis,
               const TimelineOptions& o) {
    const float fs = ImGui::GetFontSize();
    // Spaced for the widest label the end can have, then labelled with the step's own precision.
    const float widest = ImGui::CalcTextSize(axis_tick_text(o.end, o.end / 1000, o.end, o.seconds_per_unit).c_str()).x;
    const double step = tick_step(ctx.end - ctx.start, ctx.plot_x1 - ctx.plot_x0, widest + fs * 1.5f);
    auto text_of = [&](double t) { return axis_tick_text(t, step, o.end, o.seconds_per_unit); };
    const double first = std::ceil(ctx.start / step) * step;
    dl->AddLine(ImVec2(ctx.plot_x0, y_axis), ImVec2(ctx.plot_x1, y_axis), th.grid);
    for (double t = first; t <= ctx.end + step * 1e-6; t += step) {
        const float x = std::round(ctx.x_of(t));
        dl->AddLine(ImVec2(x, y_top), ImVec2(x, y_axis + fs * 0.25f), fade(th.grid, 0.6f));
        const std::string s = text_of(std::abs(t) < step * 1e-6 ? 0.0 : t);
        const float tw = ImGui::CalcTextSize(s.c_str()).x;
        dl->AddText(ImVec2(std::clamp(x - tw * 0.5f, ctx.plot_x0, ctx.plot_x1 - tw), y_axis + fs * 0.2f), th.text_dim,
                    s.c_str());
    }
}

}  // namespace

// [SECTION] the widget ----------------------------------------------------------------------

float timeline_height(int rows, const TimelineOptions& options) {
    return static_cast<float>(rows) * row_height_of(options) + axis_height();
}

namespace {

// [the frame's context] label column, bar area, pixels per unit.
TimelineContext make_context(const std::vector<TimelineRow>& rows, const TimelineOptions& o, ImVec2 p, ImVec2 size,
                             float rh) {
    const float fs = ImGui::GetFontSize();
    float label_w = 0;
    for (const TimelineRow& r : rows) label_w = std::max(label_w, ImGui::CalcTextSize(r.label.c_str()).x);
    TimelineContext ctx;
    ctx.start = o.start;
    ctx.end = o.end > o.start ? o.end : o.start + 1;
    ctx.plot_x0 = p.x + label_w + fs * 0.6f;
    ctx.plot_x1 = std::max(ctx.plot_x0 + 10.0f, p.x + size.x - fs * 0.5f);
    ctx.top = p.y;
    ctx.row_height = rh;
    ctx.px_per_unit = static_cast<double>(ctx.plot_x1 - ctx.plot_x0) / (ctx.end - ctx.start);
    return ctx;
}

// One row with its label at (label_x, y): its background and its bars in their lanes (compute on
// top, communication below, idle across), the idle label on idle bars wide enough to hold it.
void draw_row(const View& view, ImDrawList* dl, const TimelineContext& ctx, const TimelineRow& row, float label_x, float y,
              float cursor_x, const TimelineOptions& o, int* rects) {
    const Theme& th = view.theme;
    const float fs = ImGui::GetFontSize(), rh = ctx.row_height;
    fill_opaque(view, dl, ImVec2(ctx.plot_x0, y + 1), ImVec2(ctx.plot_x1, y + rh - 1), th.panel);
    dl->AddText(ImVec2(label_x, y + (rh - fs) * 0.5f), row.label_colour ? row.label_colour : th.text, row.label.c_str());
    const float top = y + 2, bottom = y + rh - 2, split = top + (bottom - top) * 0.62f;
    LanePainter lanes[3] = {LanePainter(dl, ctx, top, split - 1, cursor_x, rects),
                            LanePainter(dl, ctx, split, bottom, cursor_x, rects),
                            LanePainter(dl, ctx, top, bottom, cursor_x, rects)};
    for (const TimelineBar& b : row.bars) {
        if (b.end < ctx.start) continue;
        if (b.start > ctx.end) break;  // bars are in start order
        const float x0 = ctx.x_of(b.start), x1 = ctx.x_of(b.end);
        const ImU32 c = b.colour ? b.colour : bar_kind_colour(th, b.kind);
        lanes[lane_of(b.kind)].add(x0, x1, b.kind == BarKind::idle ? fade(c, 0.8f) : c);
        if (b.kind == BarKind::idle && o.idle_label) {
            const float tw = ImGui::CalcTextSize(o.idle_label).x;
            if (x1 - x0 > tw + fs)
                dl->AddText(ImVec2((x0 + x1 - tw) * 0.5f, y + (rh - fs) * 0.5f), th.text_dim, o.idle_label);
        }
    }
    for (LanePainter& l : lanes) l.flush();
}

// The row, bar and time under the mouse, when it is over the rows' bar area.
void find_hovered(TimelineResult& res, const std::vector<TimelineRow>& rows, const TimelineContext& ctx, float rows_bottom) {
    const ImVec2 m = ImGui::GetIO().MousePos;
    const float rh = ctx.row_height;
    const int r = static_cast<int>(std::floor((m.y - ctx.top) / rh));
    if (r < 0 || r >= static_cast<int>(rows.size()) || m.x < ctx.plot_x0 || m.x > ctx.plot_x1 || m.y >= rows_bottom) return;
    res.hovered_row = r;
    res.hovered_time = ctx.t_of(m.x);
    const float y = ctx.top + static_cast<float>(r) * rh;
    const bool lower = m.y > y + rh * 0.62f;
    const auto& bars = rows[static_cast<std::size_t>(r)].bars;
    for (std::size_t b = 0; b < bars.size() && bars[b].start <= res.hovered_time; ++b) {
        if (bars[b].end < res.hovered_time) continue;
        const int lane = lane_of(bars[b].kind);
        if (lane == 2 || (lane == 1) == lower) res.hovered_bar = static_cast<int>(b);
    }
}

}  // namespace

TimelineResult draw_timeline(const View& view, const char* id, const std::vector<TimelineRow>& rows,
                             const TimelineOptions& o, ImVec2 size) {
    TimelineResult res;
    const Theme& th = view.theme;
    const float fs = ImGui::GetFontSize();
    ImGui::PushID(id);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float rh = row_height_of(o);
    const TimelineContext ctx = make_context(rows, o, p, size, rh);
    const float rows_bottom = std::min(p.y + static_cast<float>(rows.size()) * rh, p.y + size.y - axis_height());
    const float cursor_x = o.cursor < 0 ? ctx.plot_x1 + 1 : std::clamp(ctx.x_of(o.cursor), ctx.plot_x0, ctx.plot_x1);

    // Only rows inside the clip rectangle are looked at, so a long list costs what is visible.
    const ImVec2 clip0 = dl->GetClipRectMin(), clip1 = dl->GetClipRectMax();
    const int n = static_cast<int>(rows.size());
    const int first = std::clamp(static_cast<int>(std::floor((std::max(clip0.y, p.y) - p.y) / rh)), 0, n);
    const int last = std::clamp(static_cast<int>(std::ceil((std::min(clip1.y, rows_bottom) - p.y) / rh)), first, n);

    dl->PushClipRect(ImVec2(p.x, p.y), ImVec2(p.x + size.x, p.y + size.y), true);
    for (int i = first; i < last; ++i) {
        ++res.rows_drawn;
        draw_row(view, dl, ctx, rows[static_cast<std::size_t>(i)], p.x, p.y + static_cast<float>(i) * rh, cursor_x, o, &res.rects);
    }
    draw_axis(th, dl, ctx, p.y, rows_bottom, o);
    if (o.cursor >= 0) {
        dl->AddLine(ImVec2(cursor_x, p.y), ImVec2(cursor_x, rows_bottom), th.accent, 2.0f);
        dl->AddTriangleFilled(ImVec2(cursor_x - fs * 0.35f, p.y), ImVec2(cursor_x + fs * 0.35f, p.y),
                              ImVec2(cursor_x, p.y + fs * 0.4f), th.accent);
    }
    dl->PopClipRect();

    ImGui::InvisibleButton("timeline", ImVec2(std::max(size.x, 1.0f), std::max(size.y, 1.0f)));
    if (ImGui::IsItemHovered()) find_hovered(res, rows, ctx, rows_bottom);
    ImGui::PopID();
    return res;
}

// [SECTION] legend --------------------------------------------------------------------------

namespace {
float legend_entry_width(const LegendEntry& e) {
    return ImGui::GetFontSize() * 1.1f + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(e.label).x;
}
}  // namespace

float timeline_legend_width(const std::vector<LegendEntry>& entries) {
    float w = 0;
    for (const LegendEntry& e : entries) w += legend_entry_width(e) + (w > 0 ? ImGui::GetFontSize() : 0.0f);
    return w;
}

void timeline_legend(const std::vector<LegendEntry>& entries) {
    const float fs = ImGui::GetFontSize();
    const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
    bool first = true;
    for (const LegendEntry& e : entries) {
        const float w = legend_entry_width(e);
        // Beside the last entry when it fits, else on the next line (deciding before SameLine, so
        // the row never reaches past the right edge, not even by the spacing).
        if (!first && ImGui::GetItemRectMax().x + fs + w <= right) ImGui::SameLine(0, fs);
        first = false;
        const ImVec2 p = ImGui::GetCursorScreenPos();
        ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + fs * 0.2f), ImVec2(p.x + fs * 0.9f, p.y + fs * 1.0f),
                                                  e.colour, 2.0f);
        ImGui::Dummy(ImVec2(fs * 1.1f, fs));
        ImGui::SameLine(0, ImGui::GetStyle().ItemInnerSpacing.x);
        ImGui::PushTextWrapPos(0.0f);  // an entry wider than the row wraps at its edge, not past it
        ImGui::TextUnformatted(e.label);
        ImGui::PopTextWrapPos();
    }
}

}  // namespace m2m::ui
