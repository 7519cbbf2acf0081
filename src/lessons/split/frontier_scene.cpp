// Lesson 3's "Frontier scale" tab, its scene: the readouts, the whole model and one GPU's memory as
// stacked bars, the step on the shared timeline, the search's table and the estimate's assumptions.
// Every number and sentence is the core's (FrontierStory, FrontierSearch); this file only draws.
//
// [SECTION] layout   [SECTION] memory   [SECTION] readouts and timeline   [SECTION] search and assumptions
#include "lessons/split/frontier_view.hpp"
#include "lessons/view_tabs.hpp"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <string>
#include <utility>
#include <vector>

#include "m2m/core/engine/text.hpp"
#include "ui/view.hpp"
#include "ui/widgets.hpp"

namespace m2m::lessons {

namespace {

// Memory parts, in the order they are stacked: weights, gradients (made by the backward pass, so
// its colour), Adam state (the update's colour), activations, and what the framework adds.
ImU32 part_colour(const ui::Theme& th, int i) {
    const ImU32 c[5] = {th.gpu, ui::bar_kind_colour(th, ui::BarKind::backward), ui::bar_kind_colour(th, ui::BarKind::update),
                        th.cpu, th.grid};
    return c[std::clamp(i, 0, 4)];
}

// One horizontal bar of stacked parts on a scale of `scale` bytes; returns its left x and width.
std::pair<float, float> stacked_bar(const ui::Theme& th, const double* parts, int n, double scale, float height) {
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float w = ImGui::GetContentRegionAvail().x;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRectFilled(p, ImVec2(p.x + w, p.y + height), th.panel, 2.0f);
    float x = p.x;
    for (int i = 0; i < n; ++i) {
        const float x1 = std::min(p.x + w, x + static_cast<float>(parts[i] / scale) * w);
        if (x1 > x) dl->AddRectFilled(ImVec2(x, p.y), ImVec2(std::max(x1, x + 1.0f), p.y + height), part_colour(th, i));
        x = x1;
    }
    ImGui::Dummy(ImVec2(w, height));
    return {p.x, w};
}

// A tab of the lists under the scene, its contents in a padded child window. `shown` takes its id
// when it is the tab drawn; `select` (an id, or empty) is the tab T asked for.
template <class Draw>
void list_tab(Context& ctx, const char* title, const char* id, const char* child, std::string& shown, const std::string& select,
              Draw draw) {
    const bool open = ImGui::BeginTabItem(title, nullptr, select == id ? ImGuiTabItemFlags_SetSelected : 0);
    ctx.items.note(std::string("frontier_") + id + "_tab");
    if (!open) return;
    shown = id;
    if (child) ImGui::BeginChild(child, ImVec2(0, 0), false, ImGuiWindowFlags_AlwaysUseWindowPadding);
    if (child) scroll_by_keys(ctx);
    draw();
    if (child) ImGui::EndChild();
    ImGui::EndTabItem();
}

}  // namespace

// [SECTION] layout --------------------------------------------------------------------------

void FrontierView::draw_scene(Context& ctx) {
    const float fs = ImGui::GetFontSize();
    // Tall windows show memory, the step and the lists one under another; short ones keep the
    // readouts on top and let the rest take turns in tabs.
    const bool tall = ImGui::GetContentRegionAvail().y >= fs * 36.0f;
    draw_readouts(ctx);
    if (problem()) m_wrap.text(ctx.view.theme.warning, m_story.problem_text);
    if (tall) {
        draw_whole_model(ctx);
        ImGui::Spacing();
        draw_per_gpu(ctx);
        ImGui::Spacing();
        if (!problem()) {
            const float rest = ImGui::GetContentRegionAvail().y;
            const float rows_h = ui::timeline_height(static_cast<int>(m_rows.size()), {}) + fs * 1.6f;
            draw_timeline(ctx, std::min(rest - fs * 12.0f, rows_h));  // room left for the lists below
        }
    }
    draw_lists(ctx, tall);
}

void FrontierView::draw_lists(Context& ctx, bool tall) {
    // The tabs' full names where they fit side by side, else short ones: ImGui squeezes tabs that
    // do not fit to "Step timel…", "Best layo…", "What the…" (1024x768 at 1.5).
    const bool timeline = !tall && !problem();
    const char* full[] = {"Memory", "Step timeline", "Best layouts", "What the estimate assumes"};
    float need = 0;
    for (int i = tall ? 2 : timeline ? 0 : 1; i < 4; ++i)
        need += ImGui::CalcTextSize(full[i]).x + ImGui::GetStyle().FramePadding.x * 2 + ImGui::GetStyle().ItemInnerSpacing.x;
    const bool short_names = need > ImGui::GetContentRegionAvail().x;
    // The tabs shown, in order; T asks for the one after the tab drawn last (after the last, the first).
    std::vector<const char*> ids;
    if (!tall) ids.push_back("memory");
    if (timeline) ids.push_back("timeline");
    ids.insert(ids.end(), {"search", "assumptions"});
    std::string select;
    if (m_next_list) {
        const auto at = std::find(ids.begin(), ids.end(), m_list_shown);
        select = at == ids.end() || at + 1 == ids.end() ? ids.front() : *(at + 1);
        m_next_list = false;
    }
    if (!ImGui::BeginTabBar("frontier_lists")) return;
    if (!tall)
        list_tab(ctx, "Memory###memory", "memory", "frontier_memory", m_list_shown, select, [&] {
            draw_whole_model(ctx);
            ImGui::Spacing();
            draw_per_gpu(ctx);
        });
    if (timeline)
        list_tab(ctx, short_names ? "Timeline###timeline" : "Step timeline###timeline", "timeline", nullptr, m_list_shown, select,
                 [&] { draw_timeline(ctx, ImGui::GetContentRegionAvail().y); });
    list_tab(ctx, short_names ? "Best###search" : "Best layouts###search", "search", "frontier_search", m_list_shown, select,
             [&] { draw_search(ctx); });
    list_tab(ctx, short_names ? "Assumptions###assumptions" : "What the estimate assumes###assumptions", "assumptions",
             "frontier_assumptions", m_list_shown, select, [&] { draw_assumptions(ctx); });
    ImGui::EndTabBar();
}

// [SECTION] memory --------------------------------------------------------------------------

void FrontierView::draw_whole_model(Context& ctx) {
    const auto& th = ctx.view.theme;
    const float fs = ImGui::GetFontSize();
    const core::FrontierStory& st = m_story;
    m_wrap.text(th.text, st.whole_text);
    const double cap = st.setup.gpu.memory_bytes, state = st.state_bytes;
    const double parts[3] = {st.whole.weights_bytes, st.whole.gradients_bytes, st.whole.optimizer_bytes};
    const auto [x0, w] = stacked_bar(th, parts, 3, std::max(state, cap), fs * 1.1f);
    // One GPU's memory drawn on the same scale: a box from zero to its capacity.
    const float y1 = ImGui::GetItemRectMax().y, y0 = ImGui::GetItemRectMin().y;
    const float xc = x0 + static_cast<float>(cap / std::max(state, cap)) * w;
    ImGui::GetWindowDrawList()->AddRect(ImVec2(x0 + 1, y0 - 2), ImVec2(std::max(xc, x0 + 4) - 1, y1 + 2), th.text, 0, 0, 2.5f);
    ui::timeline_legend({{st.whole_legend[0].c_str(), part_colour(th, 0)}, {st.whole_legend[1].c_str(), part_colour(th, 1)},
                         {st.whole_legend[2].c_str(), part_colour(th, 2)}, {st.whole_legend[3].c_str(), th.text}});
    m_wrap.text(st.fits_one_gpu ? th.text : th.warning, st.whole_verdict);
}

void FrontierView::draw_per_gpu(Context& ctx) {
    const auto& th = ctx.view.theme;
    const float fs = ImGui::GetFontSize();
    if (problem()) return;
    const core::MemoryUse& m = estimate().memory;
    const auto& legend = m_story.gpu_legend;
    m_wrap.text(m.fits ? th.text : th.warning, m_story.gpu_head);
    // Every part the heading's total counts, so the bar ends where the words say.
    const double parts[5] = {m.weights_bytes, m.gradients_bytes, m.optimizer_bytes, m.activations_bytes, m.framework_bytes};
    const double scale = std::max(m.total_bytes, m.capacity_bytes) * 1.04;
    const auto [x0, w] = stacked_bar(th, parts, 5, scale, fs * 1.1f);
    const float y0 = ImGui::GetItemRectMin().y, y1 = ImGui::GetItemRectMax().y;
    const float xc = x0 + static_cast<float>(m.capacity_bytes / scale) * w;
    ImGui::GetWindowDrawList()->AddLine(ImVec2(xc, y0 - fs * 0.3f), ImVec2(xc, y1 + fs * 0.3f), th.text, 3.0f);
    ui::timeline_legend({{legend[0].c_str(), part_colour(th, 0)}, {legend[1].c_str(), part_colour(th, 1)},
                         {legend[2].c_str(), part_colour(th, 2)}, {legend[3].c_str(), part_colour(th, 3)},
                         {legend[4].c_str(), part_colour(th, 4)}, {legend[5].c_str(), th.text}});
}

// [SECTION] readouts and timeline -----------------------------------------------------------

void FrontierView::draw_readouts(Context& ctx) {
    const auto& th = ctx.view.theme;
    if (problem()) return;
    m_wrap.text(th.text, m_story.layout_text);
    const ImU32 colours[5] = {th.text, th.text, th.gpu, th.text_dim, th.accent};
    std::vector<ui::Readout> items;
    for (std::size_t i = 0; i < m_story.readouts.size(); ++i)
        items.push_back({m_story.readouts[i].label, m_story.readouts[i].value,
                         estimate().memory.fits ? colours[std::min<std::size_t>(i, 4)] : th.text_dim});  // greyed: it would not run
    // A quarter of the scene at most: on a short window at a large scale the headline form took
    // half of it and left the lists below a strip (1024x768 at 1.5: ~100 px).
    const float scene_h = ImGui::GetContentRegionAvail().y + ImGui::GetCursorPosY();
    ui::readouts(th, items, ImGui::GetFontSize() * 2.0f, scene_h / 4.0f, [&](std::size_t i) {
        const std::string& tip = m_story.readouts[i].tooltip;
        if (!tip.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tip.c_str());
    });
}

void FrontierView::draw_timeline(Context& ctx, float height) {
    const float fs = ImGui::GetFontSize();
    const auto& th = ctx.view.theme;
    std::vector<ui::LegendEntry> legend = {{"forward", ui::bar_kind_colour(th, ui::BarKind::forward)},
                                           {"backward", ui::bar_kind_colour(th, ui::BarKind::backward)},
                                           {"Adam update", ui::bar_kind_colour(th, ui::BarKind::update)}};
    const core::LinkType links[2] = {core::LinkType::nvlink, core::LinkType::infiniband};
    for (int k = 0; k < 2; ++k)
        if (!m_story.link_legend[k].empty()) legend.push_back({m_story.link_legend[k].c_str(), th.link(links[k])});
    const float y_before = ImGui::GetCursorPosY();
    if (!m_story.timeline_note.empty()) m_wrap.text(th.warning, m_story.timeline_note);  // it would not run
    ui::timeline_legend(legend);
    const float box = std::max(height - (ImGui::GetCursorPosY() - y_before), fs * 3.0f);
    ui::TimelineOptions o;
    o.start = 0;
    o.end = estimate().step_time_s;
    o.cursor = -1;
    const int n = static_cast<int>(m_rows.size());
    o.row_height = std::clamp((box - fs * 1.4f) / static_cast<float>(std::max(n, 1)), fs * 1.05f, fs * 1.5f);
    const float need = ui::timeline_height(n, o);
    ui::TimelineResult r;
    if (need <= box) {
        r = ui::draw_timeline(ctx.view, "frontier_step", m_rows, o, ImVec2(ImGui::GetContentRegionAvail().x, need));
    } else {  // many stages: the rows scroll, only the visible ones are drawn
        ImGui::BeginChild("frontier_step_rows", ImVec2(0, box), false, ImGuiWindowFlags_AlwaysUseWindowPadding);
        scroll_by_keys(ctx);
        r = ui::draw_timeline(ctx.view, "frontier_step", m_rows, o, ImVec2(ImGui::GetContentRegionAvail().x, need));
        ImGui::EndChild();
    }
    if (r.hovered_row >= 0 && r.hovered_bar >= 0) {
        const core::StepBar& b = m_story.rows[static_cast<std::size_t>(r.hovered_row)].bars[static_cast<std::size_t>(r.hovered_bar)];
        const ui::TimelineBar& drawn = m_rows[static_cast<std::size_t>(r.hovered_row)].bars[static_cast<std::size_t>(r.hovered_bar)];
        const std::string traffic = b.kind != core::StepBarKind::transfer ? std::string()
                                    : std::string(core::traffic_words(b.what)) + " on " +
                                          std::string(core::link_type_label(b.link)) +
                                          (b.what >= core::StepTraffic::tensor ? " (exposed: they run between the pass's kernels, "
                                                                                 "drawn together at its end)"
                                                                               : "");
        if (b.stands_for > 1 && b.kind == core::StepBarKind::transfer)
            ImGui::SetTooltip("stage %d: steady state, a pass's %s\nthis one %s to %s", r.hovered_row + 1, traffic.c_str(),
                              core::format_seconds(b.start_s).c_str(), core::format_seconds(b.end_s).c_str());
        else if (b.stands_for > 1 && b.run)
            ImGui::SetTooltip("stage %d: steady state, GPipe's %ss one after another\n"
                              "this stripe stands for %lld of them, %s to %s",
                              r.hovered_row + 1, ui::bar_kind_name(drawn.kind), static_cast<long long>(b.stands_for),
                              core::format_seconds(b.start_s).c_str(), core::format_seconds(b.end_s).c_str());
        else if (b.stands_for > 1)
            ImGui::SetTooltip("stage %d: steady state, a forward and a backward in turn\n"
                              "each pair of stripes stands for %lld passes; this %s one %s to %s",
                              r.hovered_row + 1, static_cast<long long>(b.stands_for), ui::bar_kind_name(drawn.kind),
                              core::format_seconds(b.start_s).c_str(), core::format_seconds(b.end_s).c_str());
        else
            ImGui::SetTooltip("stage %d: %s, %s to %s", r.hovered_row + 1,
                              b.kind == core::StepBarKind::transfer ? traffic.c_str() : ui::bar_kind_name(drawn.kind),
                              core::format_seconds(b.start_s).c_str(), core::format_seconds(b.end_s).c_str());
    }
}

// [SECTION] search and assumptions ----------------------------------------------------------

void FrontierView::draw_search(Context& ctx) {
    const auto& th = ctx.view.theme;
    if (ImGui::Button(m_story.search_button.c_str())) run_search();
    ctx.items.note("frontier_search_button");
    if (!m_search) {
        ui::hint_if_fits("(up to a few tenths of a second)");
        static const std::string how =
            "Tries every TP (1, 2, 4, 8) x CP x PP x DP (and EP for a mixture of experts) that splits this batch "
            "evenly, with every ZeRO stage, recompute, micro-batch, 1F1B and interleaved with 2, 4 or 8 chunks, keeping "
            "this attention kernel and overlap; ranks those that fit by a closed-form step time, then times the "
            "fastest pass by pass.";
        m_wrap.text(th.text_dim, how);
        return;
    }
    // Beside the button where it fits, else wrapped under it ("17,270 v" was cut at 1024x768 at 1.5).
    if (!ui::hint_if_fits(m_search->summary.c_str())) m_wrap.text(th.text_dim, m_search->summary);
    if (m_search->result.best.empty()) {
        m_wrap.text(th.warning, m_search->none_fit);
        return;
    }
    draw_search_table(ctx);
}

void FrontierView::draw_search_table(Context& ctx) {
    // Where eight columns would cut every head and cell (a projector at 1.5x), each row is two
    // lines of words instead: the layout, then its figures.
    if (ImGui::GetContentRegionAvail().x < ImGui::GetFontSize() * 44.0f) {
        draw_search_list(ctx);
        return;
    }
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingStretchProp;
    if (!ImGui::BeginTable("frontier_best", 8, flags)) return;
    for (const char* h : core::FrontierSearch::heads) ImGui::TableSetupColumn(h);
    ImGui::TableSetupColumn(m_search->days_head.c_str());
    ImGui::TableHeadersRow();
    const core::Layout& cur = m_settings.layout;
    for (std::size_t i = 0; i < m_search->cells.size(); ++i) {
        const core::Layout& l = m_search->result.best[i].layout;
        const auto& cells = m_search->cells[i];
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        const std::string label = cells[0] + "##best" + std::to_string(i);
        const bool current = l == cur;  // every choice of the search: rows may differ in the schedule alone
        if (ImGui::Selectable(label.c_str(), current, ImGuiSelectableFlags_SpanAllColumns) && !current && apply_search_row(i)) {
            ImGui::EndTable();  // the row's layout is applied; the list may have been replaced
            return;
        }
        if (ImGui::IsItemHovered()) ui::tooltip_wrapped(core::layout_words(l).c_str(), 30);
        ctx.items.note("frontier_best_" + std::to_string(i));
        for (std::size_t c = 1; c < cells.size(); ++c) {
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(cells[c].c_str());
        }
    }
    ImGui::EndTable();
}

void FrontierView::draw_search_list(Context& ctx) {
    const core::Layout& cur = m_settings.layout;
    const float wrap = ImGui::GetContentRegionAvail().x - ImGui::GetStyle().FramePadding.x * 2;
    for (std::size_t i = 0; i < m_search->cells.size(); ++i) {
        const core::Layout& l = m_search->result.best[i].layout;
        const auto& c = m_search->cells[i];
        const std::string words = ui::wrap_at_spaces(
            "TP x CP x PP x DP " + c[0] + ", micro-batch " + c[1] + ", " + c[2] + "\n" + c[3] + " a step, " + c[4] +
                " tokens/s, MFU " + c[5] + ", " + c[6] + " per GPU, " + c[7] + " " + m_search->days_head,
            wrap);
        const bool current = l == cur;
        if (ImGui::Selectable((words + "##best" + std::to_string(i)).c_str(), current) && !current && apply_search_row(i))
            return;  // the row's layout is applied; the list may have been replaced
        ctx.items.note("frontier_best_" + std::to_string(i));
    }
}

void FrontierView::draw_assumptions(Context& ctx) {
    const auto& th = ctx.view.theme;
    if (!m_story.links_text.empty()) m_wrap.text(th.text, m_story.links_text);
    ImGui::TextDisabled("Hardware figures and where they come from");
    ui::sources_marker(m_gpu_sources);
    static const std::string memory_model =
        "Memory: 16 bytes per parameter (bf16 weights and gradients; fp32 master weights, Adam's momentum and "
        "variance), activations as Korthikanti et al. 2022 count them.";
    static const std::string waiting = "The estimate's assumptions appear once the layout can run.";
    if (problem()) {
        m_wrap.bullet(th.text_dim, memory_model);
        m_wrap.bullet(th.text_dim, waiting);
        return;
    }
    for (const std::string& a : estimate().assumptions) m_wrap.bullet(th.text_dim, a);
}

}  // namespace m2m::lessons
