// Lesson 1's Measure results: each path's time as a bar on one logarithmic scale beside the
// model's tick, the table of measured against predicted, and the speedup-against-width plot.
//
// [SECTION] results   [SECTION] plot
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "lessons/layers/measure_view.hpp"
#include "m2m/core/engine/text.hpp"
#include "m2m/core/engine/units.hpp"
#include "ui/format.hpp"
#include "ui/theme.hpp"
#include "ui/view.hpp"
#include "ui/widgets.hpp"

namespace m2m::lessons {

namespace {

ImU32 row_colour(const ui::Theme& th, const measure::Report& r, const measure::PathResult& p) {
    if (p.id != "gpu") return th.cpu;
    return r.gpu.software ? ui::fade(th.gpu, 0.55f) : th.gpu;
}

}  // namespace

// [SECTION] results -------------------------------------------------------------------------

/// The bars, the table, the renderer line and, while they fit, why each row differs from the model.
void MeasureView::draw_results(Context& ctx, const measure::Report& r) {
    const auto& th = ctx.view.theme;
    draw_bars(ctx, r);
    draw_table(ctx, r);
    ui::text_wrapped_coloured(r.gpu.software || !r.gpu_path.shown() ? th.warning : th.text, r.honesty);
    const float wrap = ImGui::GetContentRegionAvail().x;
    const float reserve = m_points.empty() || ImGui::GetContentRegionAvail().y < ImGui::GetFontSize() * 20 ? 0 : ImGui::GetFontSize() * 12;
    bool skipped = false;
    for (const measure::PathResult* p : {&r.naive, &r.blas, &r.gpu_path}) {
        if (p->note.empty()) continue;
        const float need = ImGui::CalcTextSize(p->note.c_str(), nullptr, false, wrap).y + ImGui::GetStyle().ItemSpacing.y;
        if (ImGui::GetContentRegionAvail().y - reserve < need + ImGui::GetFontSize() * 1.5f) {
            skipped = true;
            continue;
        }
        ui::text_wrapped_coloured(th.text_dim, p->note);
    }
    if (skipped) ImGui::TextDisabled("Hover a ratio in the table to read why it differs from the model.");
}

/// Each path's time per pass as a bar on one logarithmic axis (a 100x gap still shows both),
/// with the model's prediction as a tick on the same axis.
void MeasureView::draw_bars(Context& ctx, const measure::Report& r) {
    const auto& th = ctx.view.theme;
    const std::vector<const measure::PathResult*> rows{&r.naive, &r.blas, &r.gpu_path};
    double lo = 1e300, hi = 0;
    for (const auto* p : rows)
        for (double t : {p->shown() ? p->seconds : 0.0, p->predicted_seconds})
            if (t > 0) lo = std::min(lo, t), hi = std::max(hi, t);
    if (hi <= 0) return;
    const double e0 = std::floor(std::log10(lo)), e1 = std::max(std::ceil(std::log10(hi)), e0 + 1);
    const float fs = ImGui::GetFontSize();
    float label_w = 0;
    for (const auto* p : rows) label_w = std::max(label_w, ImGui::CalcTextSize(p->label.c_str()).x);
    label_w += fs;
    std::vector<std::string> right(rows.size());
    float right_w = ImGui::CalcTextSize("| the model").x;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& p = *rows[i];
        right[i] = p.shown() ? core::format_seconds(p.seconds) + " \xc2\xb7 " + ui::formatted("%.3g GFLOP/s", p.gflops)
                             : (p.ran ? "not shown" : "skipped");
        right_w = std::max(right_w, ImGui::CalcTextSize(right[i].c_str()).x);
    }
    right_w += fs * 0.5f;
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    const float w = std::max(fs * 6, ImGui::GetContentRegionAvail().x - label_w - right_w);
    const float row_h = fs * 1.35f;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    auto x_of = [&](double t) {
        return p0.x + label_w + static_cast<float>((std::log10(t) - e0) / (e1 - e0)) * w;
    };
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& p = *rows[i];
        const float y = p0.y + static_cast<float>(i) * row_h;
        const ImU32 c = row_colour(ctx.view.theme, r, p);
        dl->AddText(ImVec2(p0.x, y + (row_h - fs) * 0.5f), c, p.label.c_str());
        const ImVec2 a(p0.x + label_w, y + row_h * 0.15f), b(a.x + w, y + row_h * 0.85f);
        dl->AddRectFilled(a, b, th.panel, 2.0f);
        if (p.shown()) dl->AddRectFilled(a, ImVec2(x_of(p.seconds), b.y), c, 2.0f);
        if (p.predicted_seconds > 0) {
            const float x = x_of(p.predicted_seconds);
            dl->AddLine(ImVec2(x, a.y - 3), ImVec2(x, b.y + 3), th.accent, 3.0f);
        }
        dl->AddText(ImVec2(b.x + fs * 0.5f, y + (row_h - fs) * 0.5f), p.shown() ? th.text : th.warning, right[i].c_str());
    }
    const float axis_y = p0.y + static_cast<float>(rows.size()) * row_h + 2;
    for (double e = e0; e <= e1; e += 1) {
        const float x = x_of(std::pow(10.0, e));
        dl->AddLine(ImVec2(x, p0.y), ImVec2(x, axis_y), th.grid);
        const std::string s = core::format_seconds(std::pow(10.0, e));
        const float tw = ImGui::CalcTextSize(s.c_str()).x;
        dl->AddText(ImVec2(std::min(x - tw * 0.5f, p0.x + label_w + w - tw), axis_y), th.text_dim, s.c_str());
    }
    // The legend sits under the right-hand texts: a tick is the model, a bar the measurement.
    const float lx = p0.x + label_w + w + fs * 0.5f;
    dl->AddLine(ImVec2(lx + 2, axis_y + 2), ImVec2(lx + 2, axis_y + fs), th.accent, 3.0f);
    dl->AddText(ImVec2(lx + fs * 0.6f, axis_y), th.text_dim, "the model");
    ImGui::Dummy(ImVec2(label_w + w + right_w, rows.size() * row_h + fs * 1.2f));
}

void MeasureView::draw_table(Context& ctx, const measure::Report& r) {
    const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp;
    if (!ImGui::BeginTable("measured", 6, flags)) return;
    for (const char* h : {"Path", "Time a pass", "GFLOP/s", "Max |error|", "Model", "Measured \xc3\xb7 model"})
        ImGui::TableSetupColumn(h);
    ImGui::TableHeadersRow();
    for (const measure::PathResult* p : {&r.naive, &r.blas, &r.gpu_path}) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::PushStyleColor(ImGuiCol_Text, row_colour(ctx.view.theme, r, *p));
        ImGui::TextUnformatted(p->label.c_str());
        ImGui::PopStyleColor();
        ImGui::TableNextColumn();
        if (p->shown()) {
            ImGui::TextUnformatted(core::format_seconds(p->seconds).c_str());
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip("median of %d repeats of %d pass%s each", p->timing.repeats, p->timing.passes_per_repeat,
                                  p->timing.passes_per_repeat == 1 ? "" : "es");
        } else {
            ImGui::TextDisabled(p->ran ? "wrong answer" : "skipped");
            if (ImGui::IsItemHovered() && !p->why_not.empty()) ui::tooltip_wrapped(p->why_not.c_str(), 30);
        }
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(p->shown() ? ui::formatted("%.3g", p->gflops).c_str() : "\xe2\x80\x94");
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(p->ran ? ui::formatted("%.2g", p->max_abs_err).c_str() : "\xe2\x80\x94");
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(p->predicted_seconds > 0 ? core::format_seconds(p->predicted_seconds).c_str() : "\xe2\x80\x94");
        if (ImGui::IsItemHovered() && !p->prediction_basis.empty()) ImGui::SetTooltip("%s", p->prediction_basis.c_str());
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(p->shown() && p->predicted_seconds > 0 ? ui::formatted("%.2g", p->seconds / p->predicted_seconds).c_str()
                                                                       : "\xe2\x80\x94");
        if (ImGui::IsItemHovered() && !p->note.empty()) ui::tooltip_wrapped(p->note.c_str(), 30);
    }
    ImGui::EndTable();
    ImGui::TextDisabled("Checked against a double-precision reference: agrees when max |error| \xe2\x89\xa4 %.2g.", r.tolerance);
}

// [SECTION] plot ----------------------------------------------------------------------------

namespace {

// One line of the plot: (width, speedup) points, measured (dots) or the model's (rings).
struct Series {
    std::vector<ImVec2> pts;
    ImU32 colour = 0;
    bool model = false;
};

// OpenBLAS and the GPU measured, then the model's two, each over the naive loop.
std::vector<Series> speedup_series(const std::vector<MeasureView::SweepPoint>& points, ImU32 cpu_c, ImU32 gpu_c) {
    std::vector<Series> series = {{{}, cpu_c, false}, {{}, gpu_c, false}, {{}, ui::fade(cpu_c, 0.5f), true}, {{}, ui::fade(gpu_c, 0.5f), true}};
    for (const auto& p : points) {
        auto add = [&](Series& s, double num, double den) {
            if (num > 0 && den > 0) s.pts.emplace_back(static_cast<float>(p.width), static_cast<float>(num / den));
        };
        add(series[0], p.naive_s, p.blas_s);
        add(series[1], p.naive_s, p.gpu_s);
        add(series[2], p.naive_model_s, p.blas_model_s);
        add(series[3], p.naive_model_s, p.gpu_model_s);
    }
    return series;
}

// The plot's box and its log axes: width in powers of two across, speedup in decades up.
struct PlotBox {
    ImVec2 a, b;                   // top left, bottom right
    double lx0, lx1, ly0, ly1;     // log2 width and log10 speedup at the edges
    ImVec2 at(double width, double speedup) const {
        const double fx = (std::log2(width) - lx0) / (lx1 - lx0), fy = (std::log10(speedup) - ly0) / (ly1 - ly0);
        return ImVec2(a.x + static_cast<float>(fx) * (b.x - a.x), b.y - static_cast<float>(fy) * (b.y - a.y));
    }
};

std::string times_text(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g\xc3\x97", v);
    return buf;
}

// The decades' lines (1x stronger) with their labels, and a line under every measured width.
void draw_grid(ImDrawList* dl, const ui::Theme& th, const PlotBox& box, const std::vector<MeasureView::SweepPoint>& points) {
    const float fs = ImGui::GetFontSize();
    for (double e = box.ly0; e <= box.ly1; e += 1) {
        const float y = box.at(points.front().width, std::pow(10.0, e)).y;
        dl->AddLine(ImVec2(box.a.x, y), ImVec2(box.b.x, y), e == 0 ? th.text_dim : th.grid, e == 0 ? 2.0f : 1.0f);
        const std::string label = times_text(std::pow(10.0, e));
        dl->AddText(ImVec2(box.a.x - ImGui::CalcTextSize(label.c_str()).x - 4, y - fs * 0.5f), th.text_dim, label.c_str());
    }
    for (const auto& q : points) {
        const float x = box.at(q.width, 1).x;
        const std::string label = std::to_string(q.width);
        dl->AddLine(ImVec2(x, box.a.y), ImVec2(x, box.b.y), th.grid);
        dl->AddText(ImVec2(x - ImGui::CalcTextSize(label.c_str()).x * 0.5f, box.b.y + 2), th.text_dim, label.c_str());
    }
}

void draw_series(ImDrawList* dl, const PlotBox& box, const std::vector<Series>& series) {
    const float fs = ImGui::GetFontSize();
    for (const auto& s : series) {
        std::vector<ImVec2> pts;
        for (const auto& q : s.pts) pts.push_back(box.at(q.x, q.y));
        if (pts.size() > 1) dl->AddPolyline(pts.data(), static_cast<int>(pts.size()), s.colour, 0, s.model ? 1.5f : 2.5f);
        for (const auto& q : pts) {  // measured: filled dots; the model: rings, visible even on the 1x line
            if (s.model) dl->AddCircle(q, fs * 0.3f, s.colour, 12, 2.0f);
            else dl->AddCircleFilled(q, fs * 0.28f, s.colour, 12);
        }
    }
}

// The legend on one line: OpenBLAS, the GPU (or software GL), the model.
void draw_plot_legend(const ui::Theme& th, ImU32 gpu_c, bool software) {
    const float fs = ImGui::GetFontSize();
    auto legend = [&](ImU32 c, const char* text) {
        ImGui::PushStyleColor(ImGuiCol_Text, c);
        ImGui::TextUnformatted(text);
        ImGui::PopStyleColor();
        ImGui::SameLine(0, fs);
    };
    legend(th.cpu, "\xe2\x97\x8f OpenBLAS");
    legend(gpu_c, software ? "\xe2\x97\x8f software GL" : "\xe2\x97\x8f GPU");
    legend(th.text_dim, "\xe2\x97\x8b rings and thin lines: the model");
    ImGui::NewLine();
}

}  // namespace

/// Measured speedup over one neuron at a time on one core, against the width of every hidden
/// layer; the model's speedups as thin lines. Dots and a few lines: cheap under software GL.
void MeasureView::draw_plot(Context& ctx, float height) {
    const auto& th = ctx.view.theme;
    const float fs = ImGui::GetFontSize();
    if (height < fs * 5) return;
    if (m_points.empty()) {
        ui::text_wrapped_coloured(th.text_dim, "Sweep the width, or measure networks whose hidden layers share one width, "
                                               "to plot the measured speedup against that width.");
        return;
    }
    const bool software = m_last && m_last->gpu.software;
    const ImU32 gpu_c = software ? ui::fade(th.gpu, 0.55f) : th.gpu;
    const std::vector<Series> series = speedup_series(m_points, th.cpu, gpu_c);
    double y0 = 1, y1 = 1;
    for (const auto& s : series)
        for (const auto& q : s.pts) y0 = std::min<double>(y0, q.y), y1 = std::max<double>(y1, q.y);
    PlotBox box;
    box.ly0 = std::floor(std::log10(y0));
    box.ly1 = std::max(std::ceil(std::log10(y1)), box.ly0 + 1);
    box.lx0 = std::log2(m_points.front().width) - 0.5;
    box.lx1 = std::log2(m_points.back().width) + 0.5;

    draw_plot_legend(th, gpu_c, software);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float avail_h = height - fs * 1.4f;
    const float margin = std::max(ImGui::CalcTextSize(times_text(std::pow(10.0, box.ly0)).c_str()).x,
                                  ImGui::CalcTextSize("100\xc3\x97").x) + fs * 0.5f;
    box.a = ImVec2(p.x + margin, p.y + fs * 0.3f);
    box.b = ImVec2(p.x + ImGui::GetContentRegionAvail().x - fs * 0.5f, p.y + avail_h - fs * 2.2f);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ui::fill_opaque(ctx.view, dl, box.a, box.b, th.panel);
    draw_grid(dl, th, box, m_points);
    draw_series(dl, box, series);
    const char* x_label = "width of every hidden layer (each point measured)";
    dl->AddText(ImVec2((box.a.x + box.b.x - ImGui::CalcTextSize(x_label).x) * 0.5f, box.b.y + fs * 1.1f), th.text_dim, x_label);
    dl->AddText(ImVec2(box.a.x + 4, box.a.y + 2), th.text_dim, "times faster than one neuron at a time on one core");
    ImGui::Dummy(ImVec2(box.b.x - p.x, avail_h));
}

}  // namespace m2m::lessons
