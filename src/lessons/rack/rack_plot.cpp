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

float key_stroke() { return std::round(ImGui::GetFontSize() * 1.2f); }
float key_gap() { return std::round(ImGui::GetFontSize() * 0.3f); }

// One entry of the key above the plot: a short stroke in the curve's colour (as thick as the
// curve), or for the message its ring; after the entry before it where the row has room (in a
// column beside the plot, each on its own line).
void key_entry(const ui::Theme& th, ImU32 colour, const std::string& name, float thickness, bool first) {
    const float s = std::round(ImGui::GetFontSize() * 0.6f), stroke = key_stroke();
    if (!first) ui::same_line_if_fits(stroke + key_gap() + ImGui::CalcTextSize(name.c_str()).x, ImGui::GetFontSize());
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float y = p.y + ImGui::GetTextLineHeight() * 0.5f;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    if (thickness == 0)  // the message: a ring, as on the curve
        dl->AddCircle(ImVec2(p.x + stroke * 0.5f, y), s * 0.5f, colour, 16, th.line_thickness * 1.5f);
    else
        dl->AddLine(ImVec2(p.x, y), ImVec2(p.x + stroke, y), colour, thickness);
    ImGui::Dummy(ImVec2(stroke, ImGui::GetTextLineHeight()));
    ImGui::SameLine(0, key_gap());
    ImGui::TextUnformatted(name.c_str());
}

struct KeyEntry {
    ImU32 colour;
    std::string name;
    float thickness;  // 0: the message's ring
};

// What each ceiling is, in words that say whose: a ring's NVLink, a node's NICs together, or (an
// all-to-all) one GPU's own NIC counted as busbw. A reviewer met "NIC" at 48, 50.8 and 384 GB/s on
// one system, and "a ring's" on an all-to-all, which has none.
struct CeilingNames {
    std::string nvlink, nvlink_short, network, network_short;
};

CeilingNames ceiling_names(const core::CollectiveSweep& sw) {
    const std::string nvlink = "NVLink " + core::format_rate_GBps(sw.nvlink_ceiling_GBps);
    const std::string net = core::format_rate_GBps(sw.network_ceiling_GBps);
    if (sw.op == core::CollectiveOp::all_to_all)
        return {"NVLink ceiling " + core::format_rate_GBps(sw.nvlink_ceiling_GBps), nvlink,
                "one GPU's NIC, as busbw " + net, "a GPU's NIC " + net};
    const std::string nics = core::format_count(sw.group.gpus_per_node) + " NICs";
    return {"NVLink ceiling (a ring's) " + core::format_rate_GBps(sw.nvlink_ceiling_GBps), nvlink,
            "a node's " + nics + " together " + net, nics + " " + net};
}

std::vector<KeyEntry> key_entries(const ui::Theme& th, const core::CollectiveSweep& sw, bool with_lines) {
    const float thin = th.line_thickness * 1.5f;
    std::vector<KeyEntry> out{{th.text, "NCCL's pick", th.line_thickness * 2.5f}};
    for (core::CollectiveAlgorithm a : sw.algorithms)
        out.push_back({algorithm_colour(th, a), std::string(core::collective_algorithm_label(a)), thin});
    out.push_back({th.text, "this message", 0});
    if (!with_lines) return out;
    const CeilingNames names = ceiling_names(sw);
    if (sw.nvlink_ceiling_GBps > 0) out.push_back({th.nvlink, names.nvlink_short, thin});
    if (sw.network_ceiling_GBps > 0) out.push_back({th.infiniband, names.network_short, thin});
    out.push_back({th.text_dim, "latency limit", thin});
    return out;
}

// The key: the curves and the message, in rows above the plot or a column beside it. The straight
// lines carry their names on the plot, or, where the plot is too short for them to keep clear of
// the curves, here (`with_lines`).
void draw_key(const ui::Theme& th, const std::vector<KeyEntry>& entries, std::size_t from, bool column) {
    for (std::size_t i = from; i < entries.size(); ++i)
        key_entry(th, entries[i].colour, entries[i].name, entries[i].thickness, column || i == 0);
}

// The height of the first `n` entries in rows `w` wide, as key_entry lays them out.
float key_rows_height(const std::vector<KeyEntry>& entries, std::size_t n, float w) {
    const float fs = ImGui::GetFontSize();
    int rows = 0;
    float x = 0;
    for (std::size_t i = 0; i < n && i < entries.size(); ++i) {
        const float ew = key_stroke() + key_gap() + ImGui::CalcTextSize(entries[i].name.c_str()).x;
        if (i == 0 || x + fs + ew > w) ++rows, x = ew;
        else x += fs + ew;
    }
    return static_cast<float>(rows) * ImGui::GetTextLineHeightWithSpacing();
}

float key_column_width(const std::vector<KeyEntry>& entries) {
    float w = 0;
    for (const KeyEntry& e : entries) w = std::max(w, key_stroke() + key_gap() + ImGui::CalcTextSize(e.name.c_str()).x);
    return w;
}

// The straight lines' names on the plot, where no curve can be: left of the latency limit (no
// algorithm beats the smallest latency, so no curve rises above it) and under the ceilings. Each
// ceiling's name goes under its line, or under the one before where the two nearly meet (on H100s
// 371 and 384 GB/s), with its figure; the latency limit's a line lower, left of its line. A name
// takes its long form where it fits before the limit, else its short one.
void label_lines(const ui::Theme& th, const ui::LogLogFrame& f, const core::CollectiveSweep& sw, double factor) {
    if (!(sw.latency_floor_s > 0) || !(factor > 0)) return;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float fs = ImGui::GetFontSize(), line_h = ImGui::GetTextLineHeight();
    const auto busbw_at = [&](float y) {
        return std::pow(10.0, f.ly0 + (f.b.y - y) / (f.b.y - f.a.y) * (f.ly1 - f.ly0));
    };
    // Where the limit stands at the height of a name's foot (the lower end, where it is nearer).
    const auto limit_x = [&](float y) { return f.to_screen(busbw_at(y) * 1e9 * sw.latency_floor_s / factor, 1.0).x - fs * 0.5f; };
    const auto put = [&](ImVec2 at, ImU32 colour, const std::string& text) {
        const ImVec2 ts = ImGui::CalcTextSize(text.c_str());
        dl->AddRectFilled(ImVec2(at.x - 2, at.y), ImVec2(at.x + ts.x + 2, at.y + ts.y), th.panel | IM_COL32_A_MASK);  // grid lines behind
        dl->AddText(at, colour, text.c_str());
    };
    struct Named {
        double busbw;
        ImU32 colour;
        std::string long_name, short_name;
    };
    std::vector<Named> lines;
    const CeilingNames names = ceiling_names(sw);
    if (sw.nvlink_ceiling_GBps > 0) lines.push_back({sw.nvlink_ceiling_GBps, th.nvlink, names.nvlink, names.nvlink_short});
    if (sw.network_ceiling_GBps > 0) lines.push_back({sw.network_ceiling_GBps, th.infiniband, names.network, names.network_short});
    std::sort(lines.begin(), lines.end(), [](const Named& a, const Named& b) { return a.busbw > b.busbw; });
    float next = f.a.y + 2;
    for (const Named& l : lines) {
        float y = std::max(f.to_screen(1.0, l.busbw).y + 2, next);
        for (const Named& other : lines)  // never over a line: under any it would cover (lines sorted top down)
            if (const float oy = f.to_screen(1.0, other.busbw).y; oy >= y - 1 && oy <= y + line_h + 1) y = oy + 2;
        if (y + line_h > f.b.y) break;
        const float x = f.a.x + 4, room = limit_x(y + line_h) - x;
        put(ImVec2(x, y), l.colour, ImGui::CalcTextSize(l.long_name.c_str()).x <= room ? l.long_name : l.short_name);
        next = y + line_h;
    }
    const float y = next + line_h * 0.5f;
    const char* limit = "latency limit";
    if (y + line_h <= f.b.y) put(ImVec2(std::max(f.a.x + 4, limit_x(y + line_h) - ImGui::CalcTextSize(limit).x), y), th.text_dim, limit);
}

}  // namespace

void RackPanel::draw_plot(float height) {
    const auto& th = m_ctx.view.theme;
    const core::CollectiveSweep& sw = m_sweep;
    const float w = ImGui::GetContentRegionAvail().x;
    const ImVec2 top = ImGui::GetCursorScreenPos();
    m_plot_hover = -1;
    if (sw.sizes.empty() || sw.algorithms.empty() || !run_done()) {
        // Before a run the curves would answer "which is faster?", and while it plays they would
        // give its end away: keep the room, say when they come.
        ui::text_wrapped_coloured(th.text_dim, sw.algorithms.empty() ? ""
                                               : answers_hidden() ? "Bus bandwidth against message size: press Run (Space) and it appears here."
                                                                  : "Bus bandwidth against message size: it appears here when the run ends.");
        ImGui::SetCursorScreenPos(top);
        ImGui::Dummy(ImVec2(w, height));
        return;
    }
    // The key in rows above the plot; on a short, wide scene (1024x768 at 1.5x) in a column beside
    // it, where rows would leave the plot a strip. On a plot under ten lines high the lines'
    // names would sit on the curves: into the key.
    const float fs = ImGui::GetFontSize();
    const bool beside = height < fs * 16 && w >= fs * 20;
    const std::vector<KeyEntry> entries = key_entries(th, sw, true);
    const std::size_t curves = sw.algorithms.size() + 2;  // the pick, each algorithm, the message; then the lines' names
    // Beside, the plot is too narrow for the names left of the latency limit: they go in the column.
    bool names_on_plot = !beside && height >= fs * 10;
    float plot_w = w, key_h = 0, column_h = 0;
    if (beside) {
        const std::vector<KeyEntry> shown(entries.begin(), entries.begin() + static_cast<long>(names_on_plot ? curves : entries.size()));
        plot_w = w - key_column_width(shown) - fs;
        ImGui::SetCursorScreenPos(ImVec2(top.x + plot_w + fs, top.y + fs * 0.5f));
        ImGui::BeginGroup();
        ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(ImGui::GetStyle().ItemSpacing.x, fs * 0.15f));
        draw_key(th, shown, 0, true);
        ImGui::PopStyleVar();
        ImGui::EndGroup();
        column_h = ImGui::GetItemRectMax().y - top.y;
        ImGui::SetCursorScreenPos(top);
    }
    // In rows: above the plot, or under it where above they would leave it under eight lines
    // (1024x768 at 2x, where four rows of key put the whole plot below the window).
    std::vector<KeyEntry> rows;
    if (!beside) {
        names_on_plot = height - key_rows_height(entries, curves, w) >= fs * 10;
        rows.assign(entries.begin(), entries.begin() + static_cast<long>(names_on_plot ? curves : entries.size()));
        if (height - key_rows_height(rows, rows.size(), w) >= fs * 8) {
            draw_key(th, rows, 0, false);
            key_h = ImGui::GetCursorScreenPos().y - top.y;
            rows.clear();
        }
    }
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
    ui::PlotSeries pick{sw.sizes, {}, th.text, th.line_thickness * 2.5f};  // NCCL's pick, bold, over the rest
    for (const core::CollectiveCost& c : sw.picks) pick.y.push_back(c.busbw_GBps);
    series.push_back(std::move(pick));
    std::vector<ui::PlotMarker> markers;
    if (sw.crossover_bytes > 0)
        markers.push_back({sw.crossover_bytes, "bandwidth-bound from " + core::format_bytes(sw.crossover_bytes) + " on", th.text_dim,
                           "bandwidth-bound \xe2\x86\x92", "bandwidth-\nbound \xe2\x86\x92"});
    const std::optional<ui::LogLogFrame> f = ui::log_log_plot(m_ctx.view, "busbw", series, markers, "message size (bytes)",
                                                              "busbw (GB/s)", ImVec2(plot_w, std::max(height - key_h, fs * 5)));
    m_ctx.items.note("busbw_plot");
    if (column_h > ImGui::GetCursorScreenPos().y - top.y) ImGui::Dummy(ImVec2(0, column_h - (ImGui::GetCursorScreenPos().y - top.y)));
    if (!rows.empty()) draw_key(th, rows, 0, false);  // the key under the plot
    if (!f) return;
    if (names_on_plot) label_lines(th, *f, sw, factor);
    ImDrawList* dl = ImGui::GetWindowDrawList();
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
    // Each algorithm's time beside NCCL's estimate of it, which is what the pick ranks: a tree that
    // runs sooner than the picked ring is then not a contradiction on screen.
    for (std::size_t k = 0; k < sw.algorithms.size(); ++k) {
        const core::CollectiveCost& a = sw.curves[k][best];
        ImGui::TextDisabled("%s: %s (NCCL's estimate %s)", std::string(core::collective_algorithm_label(sw.algorithms[k])).c_str(),
                            core::format_seconds(a.time_s).c_str(), core::format_seconds(a.nccl_time_s).c_str());
    }
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}

}  // namespace m2m::lessons
