// Lesson 1's Measure section: a worker thread runs the CPU paths, the GPU path runs in slices
// between frames, and the results are drawn as bars on one time scale, a table and a plot.
//
// [SECTION] running   [SECTION] controls   [SECTION] scene   [SECTION] plot
#include "lessons/layers/measure_view.hpp"

#include <imgui.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <thread>

#include "m2m/core/engine/units.hpp"
#include "ui/theme.hpp"
#include "ui/view.hpp"
#include "ui/format.hpp"
#include "ui/widgets.hpp"
#include "m2m/core/engine/text.hpp"

namespace m2m::lessons {

/// One measurement in flight. The worker only touches `m` through run_cpu(); everything else
/// happens on the UI thread once `cpu_done` is set.
struct MeasureView::Job {
    std::unique_ptr<measure::Measurement> m;
    std::atomic<bool> cancel{false};
    std::atomic<bool> cpu_done{false};
    std::atomic<bool> cpu_ok{false};
    std::thread worker;
    ~Job() {
        cancel = true;
        if (worker.joinable()) worker.join();
    }
};

namespace {

/// Seconds of GPU work per frame: small enough that the window keeps its frame rate.
constexpr double gpu_slice_s = 0.008;

bool uniform_hidden(const std::vector<int>& w) {
    if (w.size() < 3) return false;
    return std::all_of(w.begin() + 1, w.end() - 1, [&](int x) { return x == w[1]; });
}

ImU32 row_colour(const ui::Theme& th, const measure::Report& r, const measure::PathResult& p) {
    if (p.id != "gpu") return th.cpu;
    return r.gpu.software ? ui::fade(th.gpu, 0.55f) : th.gpu;
}

}  // namespace

MeasureView::MeasureView() = default;
MeasureView::~MeasureView() = default;
MeasureView::MeasureView(MeasureView&&) noexcept = default;
MeasureView& MeasureView::operator=(MeasureView&&) noexcept = default;

// [SECTION] running -------------------------------------------------------------------------

void MeasureView::start(const std::vector<int>& widths) {
    if (busy()) return;
    m_queue.clear();
    begin(widths);
}

void MeasureView::start_sweep(const std::vector<int>& widths) {
    if (busy() || widths.size() < 3) return;
    const int top = *std::max_element(widths.begin() + 1, widths.end() - 1);
    m_queue.clear();
    std::vector<int> hidden;
    for (int w = 16; w < top; w *= 2) hidden.push_back(w);
    hidden.push_back(top);
    for (int w : hidden) {
        m_queue.push_back(widths);
        std::fill(m_queue.back().begin() + 1, m_queue.back().end() - 1, w);
    }
    const std::vector<int> first = m_queue.front();
    m_queue.erase(m_queue.begin());
    begin(first);
}

void MeasureView::begin(const std::vector<int>& widths) {
    measure::MeasureConfig config;
    config.widths = widths;
    config.batch = m_batch;
    auto gpu = measure::make_gpu_run();  // probes the GL context, so it happens here on the UI thread
    auto job = std::make_unique<Job>();
    job->m = std::make_unique<measure::Measurement>(config, std::move(gpu), "this window has no OpenGL path");
    m_showing = true;
    if (job->m->refused()) {
        m_last = job->m->report(false);
        m_queue.clear();
        m_status = " measure=refused";
        return;
    }
    Job* j = job.get();
    job->worker = std::thread([j] {
        j->cpu_ok = j->m->run_cpu(j->cancel);
        j->cpu_done = true;
    });
    m_job = std::move(job);
}

void MeasureView::cancel() {
    if (m_job) m_job->cancel = true;
    m_queue.clear();
}

void MeasureView::tick() {
    if (!m_job || !m_job->cpu_done) return;
    if (m_job->worker.joinable()) m_job->worker.join();
    if (m_job->cancel || !m_job->cpu_ok) return finish(true);
    if (m_job->m->step_gpu(gpu_slice_s)) finish(false);
}

void MeasureView::finish(bool cancelled) {
    measure::Report r = m_job->m->report(cancelled);
    m_job.reset();
    if (cancelled) {
        m_status = " measure=cancelled";
        return;
    }
    m_status = " measure=done";
    add_point(r);
    m_last = std::move(r);
    if (m_queue.empty() && m_points.size() > 1) m_select_plot = true;
    if (!m_queue.empty()) {
        const std::vector<int> next = m_queue.front();
        m_queue.erase(m_queue.begin());
        begin(next);
    }
}

void MeasureView::add_point(const measure::Report& r) {
    const auto& w = r.config.widths;
    if (!uniform_hidden(w)) return;
    const std::vector<int> shape{w.front(), static_cast<int>(w.size()) - 2, w.back(), r.config.batch};
    if (shape != m_points_shape) m_points.clear(), m_points_shape = shape;
    SweepPoint p;
    p.width = w[1];
    auto secs = [](const measure::PathResult& x) { return x.shown() ? x.seconds : 0.0; };
    p.naive_s = secs(r.naive), p.blas_s = secs(r.blas), p.gpu_s = secs(r.gpu_path);
    p.naive_model_s = r.naive.predicted_seconds, p.blas_model_s = r.blas.predicted_seconds;
    p.gpu_model_s = r.gpu_path.predicted_seconds;
    std::erase_if(m_points, [&](const SweepPoint& q) { return q.width == p.width; });
    m_points.push_back(p);
    std::sort(m_points.begin(), m_points.end(), [](const SweepPoint& a, const SweepPoint& b) { return a.width < b.width; });
}

std::string MeasureView::status() const {
    char buf[96];
    if (m_job)
        std::snprintf(buf, sizeof buf, " measure=%s progress=%.2f points=%zu", measure::phase_name(m_job->m->phase()),
                      m_job->m->progress(), m_points.size());
    else
        std::snprintf(buf, sizeof buf, "%s points=%zu", m_status.c_str(), m_points.size());
    return buf;
}

// [SECTION] controls ------------------------------------------------------------------------

void MeasureView::draw_controls(Context& ctx, const core::Network& net) {
    // Four short lines, so the controls column still fits a 1080p screen; the longer words are
    // in tooltips.
    const auto& th = ctx.view.theme;
    ImGui::TextUnformatted("Measure this machine");
    ui::same_line_if_fits(ImGui::CalcTextSize("(?)").x);
    ImGui::TextDisabled("(?)");
    if (ImGui::IsItemHovered())
        ui::tooltip_wrapped("Run this network for real, three ways: one neuron at a time on one core, OpenBLAS on "
                            "every core, and a compute shader on the GPU. Sweep the width to measure every doubling "
                            "of the hidden layers' width up to this one.",
                            30);
    const float slider_w = ImGui::GetContentRegionAvail().x * 0.55f;
    if (!busy()) {
        if (ImGui::Button("Measure")) start(net.widths);
        ctx.items.note("measure_button");
        ui::same_line_if_fits(ui::button_width("Sweep the width"));
        ImGui::BeginDisabled(net.widths.size() < 3);
        if (ImGui::Button("Sweep the width")) start_sweep(net.widths);
        ctx.items.note("sweep_button");
        ImGui::EndDisabled();
        if (m_last && !m_showing) {
            ui::same_line_if_fits(ui::button_width("Show"));
            if (ImGui::Button("Show")) m_showing = true;
        }
    } else {
        ImGui::ProgressBar(static_cast<float>(m_job->m->progress()), ImVec2(slider_w, 0));
        ImGui::SameLine();
        if (ImGui::Button("Cancel")) cancel();
        ctx.items.note("cancel_button");
    }
    ImGui::BeginDisabled(busy());
    const ui::LabelFit batch_label = ui::fit_label("Batch (inputs)", 0.55f);
    ImGui::SetNextItemWidth(batch_label.width);
    ImGui::SliderInt(batch_label.label.c_str(), &m_batch, 1, measure::max_batch, "%d",
                     ImGuiSliderFlags_AlwaysClamp | ImGuiSliderFlags_Logarithmic);
    ImGui::EndDisabled();
    measure::MeasureConfig preview;
    preview.widths = net.widths;
    preview.batch = m_batch;
    const measure::MemoryPlan plan = measure::plan_memory(preview, true, false);
    ui::text_wrapped_coloured(plan.fits ? th.text_dim : th.warning, plan.brief);
    if (ImGui::IsItemHovered()) ui::tooltip_wrapped(plan.sentence.c_str(), 30);
}

// [SECTION] scene ---------------------------------------------------------------------------

void MeasureView::draw_progress(Context& ctx) {
    const auto& th = ctx.view.theme;
    const measure::Phase phase = m_job->m->phase();
    const std::string words = m_job->cancel ? std::string("Cancelling after the current step\xe2\x80\xa6")
                                            : std::string(measure::phase_words(phase)) + "\xe2\x80\xa6";
    ImGui::PushStyleColor(ImGuiCol_PlotHistogram, th.accent);
    const float cancel_w = ImGui::CalcTextSize("Cancel").x + ImGui::GetStyle().FramePadding.x * 2 + ImGui::GetStyle().ItemSpacing.x;
    ImGui::ProgressBar(static_cast<float>(m_job->m->progress()), ImVec2(ImGui::GetContentRegionAvail().x - cancel_w, 0),
                       words.c_str());
    ImGui::PopStyleColor();
    ImGui::SameLine();
    if (ImGui::Button("Cancel##scene")) cancel();
    if (!m_queue.empty())
        ImGui::TextDisabled("sweep: %zu more width%s to measure after this one", m_queue.size(), m_queue.size() == 1 ? "" : "s");
}

void MeasureView::draw_scene(Context& ctx) {
    const auto& th = ctx.view.theme;
    ImFont* big = ImGui::GetIO().Fonts->Fonts.Size > 1 ? ImGui::GetIO().Fonts->Fonts[1] : nullptr;
    if (big) ImGui::PushFont(big);
    ImGui::TextUnformatted("Measured on this machine");
    if (big) ImGui::PopFont();
    ImGui::SameLine(ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize("Back to the animation").x -
                    ImGui::GetStyle().FramePadding.x * 2);
    if (ImGui::Button("Back to the animation")) m_showing = false;
    if (busy()) draw_progress(ctx);
    if (!m_last) {
        ui::text_wrapped_coloured(th.text_dim, "The first results appear when the measurement finishes.");
        return;
    }
    const measure::Report& r = *m_last;
    if (r.refused) {
        ui::text_wrapped_coloured(th.warning, r.memory.sentence);
        return;
    }
    std::string net;
    for (int w : r.config.widths) net += (net.empty() ? "" : "\xc2\xb7") + std::to_string(w);
    ui::text_wrapped_coloured(th.text_dim, "widths " + net + " \xc2\xb7 batch " + std::to_string(r.config.batch) + " \xc2\xb7 " +
                                               core::format_count(r.flops_per_pass) + " FLOPs a pass \xc2\xb7 " + r.activation);
    ImGui::TextDisabled("Model of this machine: %u cores, %.1f GFLOP/s each at peak, %.1f GB/s", r.machine.cpu.cores,
                        r.machine.cpu.flops_per_core / 1e9, r.machine.cpu.memory_bandwidth_Bps / 1e9);
    ui::sources_marker(r.machine.cpu.source);
    // Everything stacked when there is room (1080p); at 720p the times and the plot take turns.
    const float fs = ImGui::GetFontSize();
    if (ImGui::GetContentRegionAvail().y >= fs * 34) {
        draw_results(ctx, r);
        draw_plot(ctx, ImGui::GetContentRegionAvail().y - ImGui::GetStyle().ItemSpacing.y);
        return;
    }
    if (!ImGui::BeginTabBar("measure_tabs")) return;
    if (ImGui::BeginTabItem("Times")) {
        draw_results(ctx, r);
        ImGui::EndTabItem();
    }
    const ImGuiTabItemFlags select = m_select_plot ? ImGuiTabItemFlags_SetSelected : 0;
    m_select_plot = false;
    if (ImGui::BeginTabItem("Speedup against width", nullptr, select)) {
        ui::text_wrapped_coloured(r.gpu.software ? th.warning : th.text_dim, r.honesty);
        draw_plot(ctx, ImGui::GetContentRegionAvail().y - ImGui::GetStyle().ItemSpacing.y);
        ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
}

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
    struct Series {
        std::vector<ImVec2> pts;  // (width, speedup)
        ImU32 colour;
        bool model;
    };
    std::vector<Series> series(4);
    series[0].colour = th.cpu, series[1].colour = gpu_c;
    series[2].colour = ui::fade(th.cpu, 0.5f), series[3].colour = ui::fade(gpu_c, 0.5f);
    series[2].model = series[3].model = true;
    for (const auto& p : m_points) {
        auto add = [&](Series& s, double num, double den) {
            if (num > 0 && den > 0) s.pts.emplace_back(static_cast<float>(p.width), static_cast<float>(num / den));
        };
        add(series[0], p.naive_s, p.blas_s);
        add(series[1], p.naive_s, p.gpu_s);
        add(series[2], p.naive_model_s, p.blas_model_s);
        add(series[3], p.naive_model_s, p.gpu_model_s);
    }
    double y0 = 1, y1 = 1;
    for (const auto& s : series)
        for (const auto& q : s.pts) y0 = std::min<double>(y0, q.y), y1 = std::max<double>(y1, q.y);
    const double ly0 = std::floor(std::log10(y0)), ly1 = std::max(std::ceil(std::log10(y1)), ly0 + 1);
    const double lx0 = std::log2(m_points.front().width) - 0.5, lx1 = std::log2(m_points.back().width) + 0.5;

    // Legend on one line, then the box.
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
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float avail_h = height - fs * 1.4f;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g\xc3\x97", std::pow(10.0, ly0));
    const float margin = std::max(ImGui::CalcTextSize(buf).x, ImGui::CalcTextSize("100\xc3\x97").x) + fs * 0.5f;
    const ImVec2 a(p.x + margin, p.y + fs * 0.3f), b(p.x + ImGui::GetContentRegionAvail().x - fs * 0.5f, p.y + avail_h - fs * 2.2f);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ui::fill_opaque(ctx.view, dl, a, b, th.panel);
    auto to_screen = [&](double x, double y) {
        const double fx = (std::log2(x) - lx0) / (lx1 - lx0), fy = (std::log10(y) - ly0) / (ly1 - ly0);
        return ImVec2(a.x + static_cast<float>(fx) * (b.x - a.x), b.y - static_cast<float>(fy) * (b.y - a.y));
    };
    for (double e = ly0; e <= ly1; e += 1) {
        const float y = to_screen(m_points.front().width, std::pow(10.0, e)).y;
        dl->AddLine(ImVec2(a.x, y), ImVec2(b.x, y), e == 0 ? th.text_dim : th.grid, e == 0 ? 2.0f : 1.0f);
        std::snprintf(buf, sizeof buf, "%g\xc3\x97", std::pow(10.0, e));
        dl->AddText(ImVec2(a.x - ImGui::CalcTextSize(buf).x - 4, y - fs * 0.5f), th.text_dim, buf);
    }
    for (const auto& q : m_points) {
        const float x = to_screen(q.width, 1).x;
        std::snprintf(buf, sizeof buf, "%d", q.width);
        dl->AddLine(ImVec2(x, a.y), ImVec2(x, b.y), th.grid);
        dl->AddText(ImVec2(x - ImGui::CalcTextSize(buf).x * 0.5f, b.y + 2), th.text_dim, buf);
    }
    for (const auto& s : series) {
        std::vector<ImVec2> pts;
        for (const auto& q : s.pts) pts.push_back(to_screen(q.x, q.y));
        if (pts.size() > 1) dl->AddPolyline(pts.data(), static_cast<int>(pts.size()), s.colour, 0, s.model ? 1.5f : 2.5f);
        for (const auto& q : pts) {  // measured: filled dots; the model: rings, visible even on the 1x line
            if (s.model) dl->AddCircle(q, fs * 0.3f, s.colour, 12, 2.0f);
            else dl->AddCircleFilled(q, fs * 0.28f, s.colour, 12);
        }
    }
    const char* x_label = "width of every hidden layer (each point measured)";
    dl->AddText(ImVec2((a.x + b.x - ImGui::CalcTextSize(x_label).x) * 0.5f, b.y + fs * 1.1f), th.text_dim, x_label);
    dl->AddText(ImVec2(a.x + 4, a.y + 2), th.text_dim, "times faster than one neuron at a time on one core");
    ImGui::Dummy(ImVec2(b.x - p.x, avail_h));
}

}  // namespace m2m::lessons
