// Lesson 1's Measure section: a worker thread runs the CPU paths, the GPU path runs in slices
// between frames; measure_results.cpp draws the results (bars on one time scale, a table, a plot).
//
// [SECTION] running   [SECTION] controls   [SECTION] scene
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
    ui::text_wrapped_coloured(th.text, "Measure this machine");  // wraps in a narrow column at 2.0
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
        // The short word on a narrow column (1024x768 at 2.0), where the long one does not fit a line.
        const char* sweep = ui::button_width("Sweep the width") <= ImGui::GetContentRegionAvail().x ? "Sweep the width" : "Sweep";
        ui::same_line_if_fits(ui::button_width(sweep));
        ImGui::BeginDisabled(net.widths.size() < 3);
        if (ImGui::Button(sweep)) start_sweep(net.widths);
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

}  // namespace m2m::lessons
