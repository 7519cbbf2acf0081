// Lesson 2's scene: the readouts, the rack with the tensor or the collective crossing its wires,
// where the time goes, and the guess against the result (a collective's step: rack_step.cpp).
//
// [SECTION] scene
#include <imgui.h>

#include <algorithm>
#include <tuple>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <optional>
#include <vector>
#include <stdexcept>
#include <string>

#include "lessons/rack/rack_common.hpp"
#include "lessons/rack/rack_panel.hpp"
#include "lessons/run_log.hpp"
#include "lessons/saved_state.hpp"
#include "m2m/core/engine/text.hpp"
#include "ui/theme.hpp"
#include "ui/view.hpp"
#include "ui/widgets.hpp"

namespace m2m::lessons {

using namespace rack_detail;

// [SECTION] scene ---------------------------------------------------------------------------

void RackPanel::draw_scene() {
    draw_readouts();
    const float fs = ImGui::GetFontSize();
    const float wrap = ImGui::GetContentRegionAvail().x;
    const float spacing = ImGui::GetStyle().ItemSpacing.y;
    if (m_mode == Mode::send) {
        // The room for the words is what they need once revealed, so the drawing keeps its size.
        const std::string verdict = run_done() ? m_transfer_story.verdict : std::string();
        const float verdict_h = ImGui::CalcTextSize(m_transfer_story.verdict.c_str(), nullptr, false, wrap).y;
        // The words under the drawing wrap on a narrow scene: the drawing gives up their height.
        const float below = time_split_height(wrap) + fs * 0.4f + fs + spacing * 4 + verdict_h + reveal_height(wrap);
        const float drawing_top = ImGui::GetCursorPosY();
        draw_drawing(std::max(fs * 8.0f, ImGui::GetContentRegionAvail().y - below));
        draw_time_split();
        draw_reveal();
        // The reveal says whether the guess was right; on a short scene (1024x768 at 1.5 in
        // presenter view) it came under the wheel's tag, and the room saw the send end and no
        // answer. On the frame it comes the scene scrolls up just far enough to show it, never
        // past the rack's top, so the route and the answer are seen together.
        const bool shown = send_finished() && m_guess.any();
        if (shown && !m_reveal_was_shown) {
            const float need = ImGui::GetCursorPosY() - (ImGui::GetWindowHeight() - more_below_strip());
            if (need > ImGui::GetScrollY()) ImGui::SetScrollY(std::min(need, drawing_top));
        }
        m_reveal_was_shown = shown;
        if (!verdict.empty()) ui::text_wrapped_coloured(m_ctx.view.theme.text, verdict);
        return;
    }
    // A collective: the drawing and its step, the words, and the bus-bandwidth plot. A short
    // scene shows the drawing or the plot, one at a time, each large enough to read.
    const float avail = ImGui::GetContentRegionAvail().y;
    const bool both = avail >= fs * 36.0f;
    if (!both) draw_view_switch();
    const float left = ImGui::GetContentRegionAvail().y;
    const float words_h = collective_words_height(wrap) + spacing;
    const float step_h = std::max(step_block_h() - spacing, ImGui::CalcTextSize(step_head().c_str(), nullptr, false, wrap).y) +
                         std::max(caption_block_h(wrap) - spacing, ImGui::CalcTextSize(m_collective_story.sends_caption.c_str(), nullptr, false, wrap).y) +
                         2 * fs * 1.1f + spacing * 4;
    if (both || !m_show_plot) {
        const float plot_h = both ? std::clamp(left * 0.3f, fs * 8.0f, fs * 16.0f) : 0.0f;
        // At least 8 font sizes (a node in each rack with its GPU numbers), but never past the
        // window's bottom: on the shortest scenes (1024x768 at 2x) the drawing takes what is left
        // and summarises more of the cluster; the step and the words follow below (the wheel).
        const float least = std::min(fs * 8.0f, left - plot_h - spacing);
        draw_drawing(std::max(least, left - step_h - words_h - plot_h - spacing));
        draw_step();
    }
    if (!both && m_show_plot) {
        // The plot alone: the picture first, as large as the scene allows, the words under it (the
        // wheel). Below the words it was off the screen at 1024x768 and 1.5x.
        // Its foot above the wheel's tag, which keeps the window's last line; but never under four
        // lines of curves between its axes' names (7.4 font sizes in all): at 1024x768 and 2x a
        // frame of one and a half could not tell them apart, so there the wheel brings its foot up.
        draw_plot(std::max(fs * 7.4f, left - spacing - (m_scene_scrolls ? more_below_strip() : 0.0f)));
        draw_collective_words();
        return;
    }
    draw_collective_words();
    // To the window's padding at its foot, not into it: the 8 px past it made the words "reach
    // below the window", and the wheel's tag stood over a blank (1920x1080 before a run).
    if (both) draw_plot(std::max(fs * 8.0f, ImGui::GetContentRegionAvail().y - spacing - ImGui::GetStyle().WindowPadding.y));
}

void RackPanel::draw_view_switch() {
    // On a short scene: the rack or the plot, a click apart.
    int view = m_show_plot ? 1 : 0;
    bool changed = ImGui::RadioButton("the rack", &view, 0);
    m_ctx.items.note("show_rack");
    ImGui::SameLine();
    // The plot's full name where it fits beside the first button, else shorter (1024x768 at 2x).
    const char* plot = "bus bandwidth against size";
    for (const char* name : {"bus bandwidth against size", "bus bandwidth plot", "the plot"}) {
        plot = name;
        if (ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + ui::radio_width(name) <=
            ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x)
            break;
    }
    changed |= ImGui::RadioButton(plot, &view, 1);
    m_ctx.items.note("show_plot");
    if (changed) m_show_plot = view == 1;
}

void RackPanel::draw_readouts() {
    const auto& th = m_ctx.view.theme;
    const float gap = ImGui::GetFontSize() * 1.5f;
    std::vector<ui::Readout> items;
    if (m_mode == Mode::send) {
        // Before Send, "?": the link and the ratio are what "Predict first?" asks.
        const core::TransferStory& s = m_transfer_story;
        const ImU32 link = answers_hidden() ? th.text : m_ctx.view.theme.link(m_transfer.run.route.type);
        // The wire shows once the send starts (it lights up in the drawing); the time counts up as
        // it plays, and how many times as long it is comes at its end.
        // Each keeps the room of its widest figure, whichever the wire, so the rows do not re-wrap
        // (and the drawing jump down) when Send fills them (a reviewer, at 1024x768 and 1.5).
        // A glyph more than three figures and a point, so "2.70 ms" or "97.4 µs" fits it ("888 ms" was
        // narrower than "2.70 ms" and moved the rest 10-16 px).
        items = {{"TIME", time_so_far(s.time), m_playback.finished() ? th.text : th.text_dim, "888.8 ms"},
                 {"LINK", shown(s.link), link, "InfiniBand"},
                 {"BANDWIDTH, ONE WAY", shown(s.bandwidth), link, "888.8 GB/s"},
                 {"RELATIVE TIME", at_end(s.relative_time), th.text, "88.8\xc3\x97"},
                 {"HOPS", shown(s.hops), th.text, "8"}};
    } else {
        // Before Run the figures are "?", and NCCL's pick too: "Predict first?" asks which
        // algorithm is fastest, and times read off while trying each would answer it.
        const core::CollectiveStory& s = m_collective_story;
        const std::string algorithm = m_algorithm ? s.algorithm + " \xc2\xb7 " + s.protocol : shown(s.algorithm + " \xc2\xb7 " + s.protocol);
        const ImU32 link = answers_hidden() ? th.text : m_ctx.view.theme.link(s.waits_on);
        // Each keeps the room of the widest figure any algorithm could give here, so neither the
        // gaps between the "?" nor the reveal say anything of which one NCCL picks.
        // The two figures first: short, they share a row on the narrowest scenes.
        // While the run plays the rack shows the pick at work and the time counts up; the bus
        // bandwidth it reaches comes at the end.
        items = {{"TIME", time_so_far(s.time), m_playback.finished() ? th.text : th.text_dim, m_widest_time},
                 {"BUSBW", at_end(s.busbw), run_done() ? link : th.text, m_widest_busbw},
                 {m_algorithm ? "ALGORITHM" : "NCCL PICKS", algorithm, th.text, m_algorithm ? std::string() : m_widest_pick},
                 {"STEP WAITS ON", shown(std::string(core::link_type_label(s.waits_on))), link, m_widest_link}};
    }
    // As many on a row as fit; the rest wrap onto the next row (none is dropped). At most a
    // third of the scene's height: past that they go one line each, so the rack stays on screen.
    // A quarter on a short scene's collective, whose rack or plot comes one at a time below them:
    // the plot and its key beside it had only the room of its axes at 1280x720 and 1.5x.
    const float avail = ImGui::GetContentRegionAvail().y;
    const bool short_collective = m_mode == Mode::all_reduce && avail < ImGui::GetFontSize() * 40.0f;
    ui::readouts(th, items, gap, avail / (short_collective ? 4.0f : 3.0f), [&](std::size_t i) {
        if (i == 0) m_ctx.items.note("readout_first");
        m_ctx.items.note("readout_" + std::to_string(i));
    });
}

std::vector<std::uint32_t> RackPanel::focus_nodes() const {
    // What a zoomed drawing keeps large, most important first: a send's two nodes; a group's
    // nodes taking each rack in turn (node 0, node 8, node 1, ...), so a group across racks keeps
    // a node in each.
    const core::Cluster& c = cluster();
    if (m_mode == Mode::send) {
        std::vector<std::uint32_t> out{c.node_of(m_from)};
        if (c.node_of(m_to) != out[0]) out.push_back(c.node_of(m_to));
        return out;
    }
    const core::ClusterShape& s = c.shape();
    const std::uint32_t nodes = std::max<std::uint32_t>(1, m_group / s.gpus_per_node);
    const std::uint32_t racks = (nodes + s.nodes_per_rack - 1) / s.nodes_per_rack;
    std::vector<std::uint32_t> out;
    for (std::uint32_t k = 0; k < s.nodes_per_rack; ++k)
        for (std::uint32_t r = 0; r < racks; ++r)
            if (r * s.nodes_per_rack + k < nodes) out.push_back(r * s.nodes_per_rack + k);
    return out;
}

std::optional<core::GpuId> RackPanel::summary_gpu(std::uint32_t rack) const {
    // A click on a rack's summary box: the first GPU of its first node not drawn.
    const core::ClusterShape& s = cluster().shape();
    for (std::uint32_t n = rack * s.nodes_per_rack; n < (rack + 1) * s.nodes_per_rack && n < m_layout.shown.size(); ++n)
        if (!m_layout.node_shown(n)) return n * s.gpus_per_node;
    return std::nullopt;
}

void RackPanel::draw_drawing(float height) {
    const ImVec2 a = ImGui::GetCursorScreenPos();
    const ImVec2 b(a.x + ImGui::GetContentRegionAvail().x, a.y + height);
    m_layout = ui::layout_rack(cluster().shape(), a, b, focus_nodes());
    m_ctx.items.measure("rack_zoom", m_layout.zoomed ? 1.0f : 0.0f);
    m_ctx.items.measure("rack_gpu_label_px", m_layout.gpu_label_px);
    const ui::RackInput in = ui::rack_buttons(m_ctx.items, m_layout, a, b);
    m_hovered = in.hovered ? static_cast<int>(*in.hovered) : -1;
    if (in.clicked && m_mode == Mode::send) click_gpu(*in.clicked);
    const std::optional<core::GpuId> summary = in.summary_hovered ? summary_gpu(*in.summary_hovered) : std::nullopt;
    if (in.summary_clicked && summary && m_mode == Mode::send) click_gpu(*summary);
    ui::draw_rack(m_ctx.view.theme, m_layout, cluster(), paint_at(m_playback.cursor()));
    if (in.hovered || summary) drawing_tooltip(in.hovered, in.summary_hovered, summary);
}

void RackPanel::drawing_tooltip(std::optional<core::GpuId> gpu, std::optional<std::uint32_t> rack, std::optional<core::GpuId> summary) {
    const core::Cluster& c = cluster();
    const char* click = m_picking_to ? "click: send to" : "click: send from";
    ImGui::BeginTooltip();
    if (gpu) {
        const core::GpuId g = *gpu;
        ImGui::Text("GPU %u \xc2\xb7 node %u \xc2\xb7 rack %u", g, c.node_of(g), c.rack_of(g));
        if (m_mode == Mode::send)
            ImGui::TextDisabled("%s", m_picking_to && g == m_from ? "the sender" : (std::string(click) + " this GPU").c_str());
    } else {
        // A box, not a drawing: "drawn small" promised GPUs that are not there.
        const std::uint32_t hidden = m_layout.hidden_in(*rack);
        ImGui::Text(hidden == c.shape().nodes_per_rack ? "rack %u: its %u nodes of %u GPUs, summed up in this box to leave room"
                                                        : "rack %u: %u more nodes of %u GPUs, summed up in this box to leave room",
                    *rack, hidden, c.shape().gpus_per_node);
        if (m_mode == Mode::send) ImGui::TextDisabled("%s GPU %u (node %u)", click, *summary, c.node_of(*summary));
    }
    ImGui::EndTooltip();
}

std::string RackPanel::time_so_far(const std::string& total) const {
    // The clock counts up on every run, a replay's too (a replay that showed the total from its
    // first frame read as a run that had ended).
    // It moves in hundredths of the run (17 a second at 1x for a 6 s run): a figure redrawn every
    // frame widened each frame's redrawn area to the readouts and cost 0.7-0.9 ms at p95 under
    // software GL (scripts/bench's Lesson 2 row), for digits no one reads faster than that.
    if (answers_hidden()) return "?";
    if (m_playback.finished()) return total;
    const double quantum = m_playback.end() / 100.0;
    return core::format_seconds(quantum > 0 ? std::floor(m_playback.cursor() / quantum) * quantum : m_playback.cursor());
}

std::string RackPanel::time_split_text() const {
    const core::TransferStory& s = m_transfer_story;
    if (answers_hidden()) return "Press Send: the time splits into latency and moving the bytes.";
    if (!run_done()) return "Sending: the head crosses each hop, then the bytes follow it. The split comes at the end.";
    return s.time + " = " + s.latency + " latency + " + s.bandwidth_time + " moving the bytes";
}

float RackPanel::time_split_height(float wrap) const {
    const core::TransferStory& s = m_transfer_story;
    const std::string text = s.time + " = " + s.latency + " latency + " + s.bandwidth_time + " moving the bytes";
    const float line = ImGui::CalcTextSize(text.c_str()).x, bound = ImGui::CalcTextSize(m_transfer_story.bound.c_str()).x;
    if (line + ImGui::GetFontSize() + bound <= wrap) return ImGui::GetTextLineHeight();
    return ImGui::CalcTextSize(text.c_str(), nullptr, false, wrap).y + ImGui::GetTextLineHeightWithSpacing();
}

std::vector<std::pair<std::string, bool>> RackPanel::collective_words(bool revealed, bool with_guess) const {
    // NCCL's pick and why (after the run: it answers the guess), the bound, the verdict, the reveal.
    const core::CollectiveStory& s = m_collective_story;
    std::vector<std::pair<std::string, bool>> out;
    if (m_collective.steps == 0) return out;
    if (answers_hidden()) {
        out.emplace_back("Which algorithm would NCCL pick here, and why? Press Run (Space) to see.", false);
        return out;
    }
    if (!revealed) {
        out.emplace_back(m_algorithm ? "Watch the wires: the time counts up, and what bounds it comes when the run ends."
                                     : "Watch the wires: the time counts up, and why NCCL picks this algorithm comes when the run ends.",
                         false);
        return out;
    }
    out.emplace_back(s.choice, false);
    out.emplace_back(s.bound, true);
    out.emplace_back(s.verdict, false);
    if (with_guess && m_collective_guess.any()) out.emplace_back(collective_reveal().line, true);
    return out;
}

float RackPanel::collective_words_height(float wrap) const {
    // A room that does not depend on what the words will say: sized by the revealed words, the
    // rack grew or shrank before Run as the hidden story's length changed with NCCL's pick. Four
    // paragraphs as long as the longer stories run (the pick and why, the bound, the verdict, the
    // guess's line), wrapped at this width; longer words run on below (the wheel), and the drawing
    // keeps its size through the reveal either way.
    static const std::vector<std::string> paragraphs = [] {
        std::vector<std::string> out;
        for (int tens : {24, 10, 26, 13}) {  // each paragraph's length in tens of characters
            std::string p;
            for (int i = 0; i < tens; ++i) p += "the bytes ";  // ten characters of common text
            out.push_back(p);
        }
        return out;
    }();  // built once: this runs every frame
    float h = 0;
    for (const std::string& p : paragraphs) h += ImGui::CalcTextSize(p.c_str(), nullptr, false, wrap).y + ImGui::GetStyle().ItemSpacing.y;
    return h;
}

void RackPanel::draw_collective_words() {
    const auto& th = m_ctx.view.theme;
    for (const auto& [text, marked] : collective_words(run_done(), collective_finished()))
        ui::text_wrapped_coloured(marked ? (m_collective_story.latency_bound || m_collective_story.narrow_bound ? th.warning : th.accent) : th.text, text);
    m_ctx.items.note("collective_words");
}

void RackPanel::draw_time_split() {
    // One bar for the whole send: the latency part, then the bytes over the bottleneck, each as
    // wide as its share of the time (the smaller never thinner than 3 px), filled up to the cursor.
    const auto& th = m_ctx.view.theme;
    const core::TransferRun& run = m_transfer.run;
    const core::TransferStory& s = m_transfer_story;
    const float fs = ImGui::GetFontSize();
    const std::string text = time_split_text();
    ImGui::PushTextWrapPos(0.0f);  // two lines on a narrow scene rather than a cut one
    ImGui::TextUnformatted(text.c_str());
    if (run_done()) {
        ui::same_line_if_fits(ImGui::CalcTextSize(s.bound.c_str()).x, fs);
        ImGui::PushStyleColor(ImGuiCol_Text, s.latency_bound ? th.warning : m_ctx.view.theme.link(run.route.type));
        ImGui::TextUnformatted(s.bound.c_str());
        ImGui::PopStyleColor();
    }
    ImGui::PopTextWrapPos();
    m_ctx.items.note("time_split");

    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float w = ImGui::GetContentRegionAvail().x, h = fs;
    const double total = std::max(m_transfer.time_s, 1e-30);
    // Before the send the bar is one grey: its colour would name the link the guess asks about,
    // and a split drawn half and half read as "latency is half the time".
    const float lat_w = answers_hidden() ? 0.0f : std::clamp(static_cast<float>(run.latency_s / total) * w, 3.0f, w - 3.0f);
    const ImU32 bytes_col = answers_hidden() ? th.text_dim : m_ctx.view.theme.link(run.route.type);
    dl->AddRectFilled(p, ImVec2(p.x + lat_w, p.y + h), ui::fade(th.warning, 0.35f));
    dl->AddRectFilled(ImVec2(p.x + lat_w, p.y), ImVec2(p.x + w, p.y + h), ui::fade(bytes_col, 0.35f));
    const float cur = static_cast<float>(std::clamp(m_playback.cursor() / total, 0.0, 1.0)) * w;
    dl->AddRectFilled(p, ImVec2(p.x + std::min(cur, lat_w), p.y + h), th.warning);
    if (cur > lat_w) dl->AddRectFilled(ImVec2(p.x + lat_w, p.y), ImVec2(p.x + cur, p.y + h), bytes_col);
    // Each part named inside itself where its words fit (no legend row under the fold at 1.5x).
    if (!answers_hidden())
        for (const auto& [x0, x1, name] : {std::tuple{p.x, p.x + lat_w, "latency"}, std::tuple{p.x + lat_w, p.x + w, "moving the bytes"}}) {
            const float tw = ImGui::CalcTextSize(name).x;
            if (x1 - x0 >= tw + fs) dl->AddText(ImVec2((x0 + x1 - tw) * 0.5f, p.y), th.text, name);
        }
    ImGui::Dummy(ImVec2(w, h));
}

}  // namespace m2m::lessons
