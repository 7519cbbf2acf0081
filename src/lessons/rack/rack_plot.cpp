// Lesson 2's bus-bandwidth plot: every algorithm's busbw against message size (8 B to 16 GiB, as
// nccl-tests prints it), NCCL's pick bold, the wires' ceilings, the latency limit, and where the
// pick turns from latency-bound to bandwidth-bound; hovering a size shows its time and bandwidths.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "lessons/rack/rack_panel.hpp"
#include "m2m/core/engine/text.hpp"
#include "ui/theme.hpp"
#include "ui/view.hpp"
#include "ui/widgets.hpp"

namespace m2m::lessons {

namespace {

ImU32 algorithm_colour(const ui::Theme& th, core::CollectiveAlgorithm a) {
    switch (a) {
    case core::CollectiveAlgorithm::ring: return th.cpu;
    case core::CollectiveAlgorithm::tree: return th.gpu;
    case core::CollectiveAlgorithm::nvls: return th.accent;
    case core::CollectiveAlgorithm::nvls_tree: return th.warning;
    case core::CollectiveAlgorithm::p2p: return th.text_dim;
    }
    return th.text;
}

// A horizontal line across the sizes, as a two-point series.
ui::PlotSeries flat(const core::CollectiveSweep& sw, double y, ImU32 colour) {
    return {{sw.sizes.front(), sw.sizes.back()}, {y, y}, colour};
}

// The key above the plot: each curve's colour and name as a short stroke (NCCL's pick as thick as
// its curve), the ceilings with their figures, the message as its ring. Where the longer names
// would take over three rows (1024x768 at 1.5: five, leaving the plot a strip), the short ones.
void draw_key(const ui::Theme& th, const core::CollectiveSweep& sw) {
    const float s = std::round(ImGui::GetFontSize() * 0.6f), stroke = std::round(ImGui::GetFontSize() * 1.2f);
    struct Entry {
        ImU32 colour;
        std::string name, short_name;
        float thickness;  // 0: the message's ring
    };
    const float thin = th.line_thickness * 1.5f;
    std::vector<Entry> entries{{th.text, "NCCL's pick (bold)", "NCCL's pick", th.line_thickness * 2.5f}};
    for (core::CollectiveAlgorithm a : sw.algorithms) {
        const std::string name(core::collective_algorithm_label(a));
        entries.push_back({algorithm_colour(th, a), name, name, thin});
    }
    // With their figures: on H100s the two lines nearly meet (371 and 384 GB/s) and one hides the
    // other; and NVLS, whose switch adds, passes the ring's NVLink ceiling.
    if (sw.nvlink_ceiling_GBps > 0) {
        const std::string rate = core::format_rate_GBps(sw.nvlink_ceiling_GBps);
        entries.push_back({th.nvlink, "NVLink ceiling (a ring's) " + rate, "NVLink " + rate, thin});
    }
    if (sw.network_ceiling_GBps > 0) {
        const std::string rate = core::format_rate_GBps(sw.network_ceiling_GBps);
        entries.push_back({th.infiniband, "NIC ceiling " + rate, "NICs " + rate, thin});
    }
    // A line above the curves at small sizes: busbw can be no higher, since no algorithm takes
    // less than the smallest start-up time (a "floor" under the time, a limit over the busbw).
    entries.push_back({th.text_dim, "latency limit", "latency limit", thin});
    entries.push_back({th.text, "this message", "this message", 0});
    const float gap = ImGui::GetFontSize(), avail = ImGui::GetContentRegionAvail().x;
    const auto width = [&](const std::string& name) { return stroke + s * 0.5f + ImGui::CalcTextSize(name.c_str()).x; };
    int rows = 1;
    for (float x = 0; const Entry& e : entries) {
        const float w = width(e.name);
        if (x > 0 && x + gap + w > avail) ++rows, x = 0;
        x += (x > 0 ? gap : 0) + w;
    }
    const bool compact = rows > 3;
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const Entry& e = entries[i];
        const std::string& name = compact ? e.short_name : e.name;
        if (i > 0) ui::same_line_if_fits(width(name), gap);
        const ImVec2 p = ImGui::GetCursorScreenPos();
        const float y = p.y + ImGui::GetTextLineHeight() * 0.5f;
        ImDrawList* dl = ImGui::GetWindowDrawList();
        if (e.thickness == 0)
            dl->AddCircle(ImVec2(p.x + stroke * 0.5f, y), s * 0.5f, e.colour, 16, thin);
        else
            dl->AddLine(ImVec2(p.x, y), ImVec2(p.x + stroke, y), e.colour, e.thickness);
        ImGui::Dummy(ImVec2(stroke, ImGui::GetTextLineHeight()));
        ImGui::SameLine(0, s * 0.5f);
        ImGui::TextUnformatted(name.c_str());
    }
}

}  // namespace

void RackPanel::draw_plot(float height) {
    const auto& th = m_ctx.view.theme;
    const core::CollectiveSweep& sw = m_sweep;
    const float w = ImGui::GetContentRegionAvail().x;
    const ImVec2 top = ImGui::GetCursorScreenPos();
    m_plot_hover = -1;
    if (sw.sizes.empty() || sw.algorithms.empty() || answers_hidden()) {
        // Before a run the curves would answer "which is faster?": keep the room, say when they come.
        ui::text_wrapped_coloured(th.text_dim, sw.algorithms.empty() ? "" : "Bus bandwidth against message size: press Run and it appears here.");
        ImGui::SetCursorScreenPos(top);
        ImGui::Dummy(ImVec2(w, height));
        return;
    }
    draw_key(th, sw);
    const float key_h = ImGui::GetCursorScreenPos().y - top.y;
    std::vector<ui::PlotSeries> series;
    for (std::size_t k = 0; k < sw.algorithms.size(); ++k) {
        ui::PlotSeries s{sw.sizes, {}, algorithm_colour(th, sw.algorithms[k])};
        for (const core::CollectiveCost& c : sw.curves[k]) s.y.push_back(c.busbw_GBps);
        series.push_back(std::move(s));
    }
    const double top_busbw = std::max(sw.nvlink_ceiling_GBps, sw.network_ceiling_GBps);
    // The lower ceiling, the one that binds, drawn last: on an H100 node the two nearly meet (370.8
    // and 384 GB/s), and the NIC's line drawn over NVLink's hid it.
    std::vector<ui::PlotSeries> ceilings;
    if (sw.nvlink_ceiling_GBps > 0) ceilings.push_back(flat(sw, sw.nvlink_ceiling_GBps, th.nvlink));
    if (sw.network_ceiling_GBps > 0) ceilings.push_back(flat(sw, sw.network_ceiling_GBps, th.infiniband));
    std::sort(ceilings.begin(), ceilings.end(), [](const ui::PlotSeries& a, const ui::PlotSeries& b) { return a.y.front() > b.y.front(); });
    series.insert(series.end(), ceilings.begin(), ceilings.end());
    // The latency floor: no algorithm moves S bytes faster than the smallest latency, so busbw
    // stays under factor x S / floor, a straight rising line on log-log axes.
    const double factor = core::busbw_factor(sw.op, sw.group.gpus);
    ui::PlotSeries floor_line{{}, {}, th.text_dim};
    for (double s : sw.sizes) {
        const double y = factor * s / sw.latency_floor_s / 1e9;
        if (y > top_busbw * 1.5 && !floor_line.x.empty()) break;
        floor_line.x.push_back(s), floor_line.y.push_back(y);
    }
    series.push_back(std::move(floor_line));
    std::vector<ui::PlotMarker> markers;
    if (sw.crossover_bytes > 0)
        markers.push_back({sw.crossover_bytes, "bandwidth-bound from " + core::format_bytes(sw.crossover_bytes) + " on", th.text_dim});
    const std::optional<ui::LogLogFrame> f = ui::log_log_plot(m_ctx.view, "busbw", series, markers, "message size (bytes)",
                                                              "busbw (GB/s)", ImVec2(w, std::max(height - key_h, ImGui::GetFontSize() * 6)));
    m_ctx.items.note("busbw_plot");
    if (!f) return;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    std::vector<ImVec2> pick;
    for (std::size_t i = 0; i < sw.sizes.size(); ++i) pick.push_back(f->to_screen(sw.sizes[i], sw.picks[i].busbw_GBps));
    dl->AddPolyline(pick.data(), static_cast<int>(pick.size()), th.text, 0, th.line_thickness * 2.5f);
    // The message being run, on NCCL's pick.
    const double now = static_cast<double>(m_collective.bytes);
    // A ring in the text's colour, not a coloured dot, which read as one of the algorithms' curves.
    if (now > 0) {
        const ImVec2 at = f->to_screen(now, m_collective.nccl.busbw_GBps);
        dl->AddCircleFilled(at, ImGui::GetFontSize() * 0.4f, th.panel | IM_COL32_A_MASK, 16);
        dl->AddCircle(at, ImGui::GetFontSize() * 0.4f, th.text, 16, th.line_thickness * 1.5f);
    }
    draw_plot_hover(*f);
}

void RackPanel::draw_plot_hover(const ui::LogLogFrame& f) {
    // The size under the pointer: a thin line, and NCCL's pick there with every algorithm's time.
    const auto& th = m_ctx.view.theme;
    const core::CollectiveSweep& sw = m_sweep;
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    if (mouse.x < f.a.x || mouse.x > f.b.x || mouse.y < f.a.y || mouse.y > f.b.y) return;
    std::size_t best = 0;
    for (std::size_t i = 1; i < sw.sizes.size(); ++i)
        if (std::abs(f.to_screen(sw.sizes[i], 1).x - mouse.x) < std::abs(f.to_screen(sw.sizes[best], 1).x - mouse.x)) best = i;
    m_plot_hover = static_cast<int>(best);
    const float x = f.to_screen(sw.sizes[best], 1).x;
    ImGui::GetWindowDrawList()->AddLine(ImVec2(x, f.a.y), ImVec2(x, f.b.y), th.text_dim, 1.0f);
    const core::CollectiveCost& c = sw.picks[best];
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);  // lines wrap, so the tip stays on screen at 1.5x
    ImGui::Text("%s: NCCL picks %s (%s)", core::format_bytes(sw.sizes[best]).c_str(),
                core::collective_algorithm_phrase(c.algorithm).c_str(),
                std::string(core::collective_protocol_label(c.protocol)).c_str());
    ImGui::Text("time %s \xc2\xb7 algbw %s \xc2\xb7 busbw %s", core::format_seconds(c.time_s).c_str(),
                core::format_rate_GBps(c.algbw_GBps).c_str(), core::format_rate_GBps(c.busbw_GBps).c_str());
    if (const std::string why = core::run_rate_reason(c); !why.empty()) {
        if (c.pipeline_fill_s > 0)
            ImGui::TextDisabled("NCCL's own estimate: %s, without the %s its pipeline takes to fill,",
                                core::format_seconds(c.nccl_time_s).c_str(), core::format_seconds(c.pipeline_fill_s).c_str());
        else
            ImGui::TextDisabled("NCCL's own estimate: %s,", core::format_seconds(c.nccl_time_s).c_str());
        ImGui::TextDisabled("its bytes streaming at %s, %s", core::format_rate_GBps(c.bandwidth_GBps).c_str(), why.c_str());
    } else if (c.pipeline_fill_s > 0)
        ImGui::TextDisabled("NCCL's own estimate: %s, without the %s its pipeline takes to fill",
                            core::format_seconds(c.nccl_time_s).c_str(), core::format_seconds(c.pipeline_fill_s).c_str());
    else if (c.narrow_s > 0)
        ImGui::TextDisabled("NCCL's own estimate: %s, as if all %u channels ran; at this size it runs on %u", core::format_seconds(c.nccl_time_s).c_str(),
                            c.max_channels, c.channels);
    for (std::size_t k = 0; k < sw.algorithms.size(); ++k)
        ImGui::TextDisabled("%s: %s", std::string(core::collective_algorithm_label(sw.algorithms[k])).c_str(),
                            core::format_seconds(sw.curves[k][best].time_s).c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}

}  // namespace m2m::lessons
