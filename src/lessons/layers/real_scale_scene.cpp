// Lesson 1's "Real scale" tab, its scene: one bar per machine on a logarithmic time axis, the
// answer once the bars have stopped, and how each row is counted. Every figure and sentence is the
// core's (RealScaleStory); the settings and the controls: real_scale_view.cpp.
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string>
#include <vector>

#include "lessons/layers/real_scale_view.hpp"
#include "ui/theme.hpp"
#include "ui/view.hpp"
#include "ui/widgets.hpp"

namespace m2m::lessons {

// [SECTION] scene ---------------------------------------------------------------------------

void RealScaleView::draw_scene(Context& ctx) {
    const auto& th = ctx.view.theme;
    ImFont* big = ImGui::GetIO().Fonts->Fonts.Size > 1 ? ImGui::GetIO().Fonts->Fonts[1] : nullptr;
    if (big) ImGui::PushFont(big);
    m_wrap.text(th.text, m_story.title);
    if (big) ImGui::PopFont();
    m_wrap.text(th.text_dim, m_story.flops_note);
    ImGui::Spacing();
    const float bars_top = ImGui::GetCursorPosY();
    draw_bars(ctx);
    const bool shown = revealed();
    if (shown) {
        const core::RealScaleReveal r = core::reveal_real_scale(m_guess, m_story);
        if (!r.line.empty()) {
            m_wrap.text(r.right ? th.accent : th.warning, r.line);
            ctx.items.note("real_scale_reveal");
        }
        m_wrap.text(th.text, m_story.factor_note);
        // The answer comes below the bars; where the window is short (1024x768 at 1.5) it came
        // below the fold. On the frame it comes, the scene scrolls up just far enough to show
        // it, never past the first bar's name, so the bars and the answer are seen together.
        if (!m_answer_was_shown) {
            const float need = ImGui::GetCursorPosY() - ImGui::GetWindowHeight();
            if (need > ImGui::GetScrollY()) ImGui::SetScrollY(std::min(need, bars_top));
        }
    } else {
        static const std::string before = "Press Run (Space): each bar grows along the time axis and stops at its machine's time, "
                                          "the fastest first.";
        static const std::string during = "Each bar stops at its machine's time, the fastest first.";
        m_wrap.text(th.text_dim, answers_hidden() ? before : during);
    }
    m_answer_was_shown = shown;
    ImGui::Spacing();
    draw_notes(ctx);
}

/// One bar per machine on a logarithmic time axis with calendar marks, so "months against
/// days" and "centuries against months" both show.
void RealScaleView::draw_bars(Context& ctx) {
    const auto& th = ctx.view.theme;
    const float fs = ImGui::GetFontSize();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImFont* big = ImGui::GetIO().Fonts->Fonts.Size > 1 ? ImGui::GetIO().Fonts->Fonts[1] : nullptr;
    const float big_fs = big ? big->FontSize : fs;
    const ImU32 colours[3] = {th.cpu, th.gpu, th.nvlink};
    ImFont* value_font = big ? big : ImGui::GetFont();
    float right_w = 0;
    for (const auto& r : m_story.rows) right_w = std::max(right_w, value_font->CalcTextSizeA(big_fs, FLT_MAX, 0, r.duration.c_str()).x);
    const std::string* sources[3] = {&m_cpu_sources, &m_gpu_sources, &m_gpu_sources};
    const float w = ImGui::GetContentRegionAvail().x;
    const float bar_w = std::max(fs * 6, w - right_w - fs), bar_h = big_fs * 1.2f;
    const double e0 = std::log10(m_axis_lo), e1 = std::log10(m_axis_hi);
    const float x0 = ImGui::GetCursorScreenPos().x;
    auto x_of = [&](double s) { return x0 + static_cast<float>((std::log10(std::max(s, m_axis_lo)) - e0) / (e1 - e0)) * bar_w; };
    for (std::size_t i = 0; i < m_story.rows.size(); ++i) {
        const core::RealScaleRow& r = m_story.rows[i];
        m_wrap.text(colours[i], r.label);
        // Every peak rate and share of it, and where it is from: beside the label when it fits.
        const float marker_w = ImGui::CalcTextSize("(sources)").x + ImGui::GetStyle().ItemSpacing.x;
        if (ImGui::GetItemRectMax().x + marker_w <= x0 + w) ImGui::SameLine();
        ui::sources_marker(*sources[i], ui::Beside::no);
        const ImVec2 p = ImGui::GetCursorScreenPos();
        if (!r.shown) {
            m_wrap.text(th.warning, m_story.cluster_note);
            continue;
        }
        dl->AddRectFilled(p, ImVec2(p.x + bar_w, p.y + bar_h), th.panel, 3.0f);
        // The bar grows with the cursor and stops at its time; its figure shows once it has.
        const double end = row_fraction(i), at = std::min(end, m_playback.cursor());
        const bool arrived = m_playback.cursor() >= end && !answers_hidden();
        const float x1 = std::max(x0 + static_cast<float>(at) * bar_w, p.x + 3.0f);
        if (!answers_hidden()) dl->AddRectFilled(p, ImVec2(x1, p.y + bar_h), colours[i], 3.0f);
        for (const Tick& t : m_ticks) {  // the marks, through the bars only (never through words)
            const float x = x_of(t.seconds);
            dl->AddLine(ImVec2(x, p.y), ImVec2(x, p.y + bar_h), ui::fade(th.grid, 0.8f));
        }
        dl->AddText(value_font, big_fs, ImVec2((answers_hidden() ? p.x : x1) + fs * 0.5f, p.y + (bar_h - big_fs) * 0.5f),
                    arrived ? th.text : th.text_dim, arrived ? r.duration.c_str() : answers_hidden() ? "?" : "");
        ImGui::Dummy(ImVec2(w, bar_h));
        ctx.items.note("real_scale_bar_" + std::to_string(i));
    }
    draw_axis(ctx, x0, bar_w, w);
}

// The marks' words under the last bar, skipping a word that would run into the one before it.
void RealScaleView::draw_axis(Context& ctx, float x0, float bar_w, float row_w) {
    const auto& th = ctx.view.theme;
    const float fs = ImGui::GetFontSize();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const double e0 = std::log10(m_axis_lo), e1 = std::log10(m_axis_hi);
    const float bottom = ImGui::GetCursorScreenPos().y;
    // Each word centred under its mark, skipping one that would run into the one before; the
    // last is always kept (the axis's end), the word before it giving way: at 1024x768 and 1.5
    // "1,000 years" gave way to "10 years", and the CPU's 699-year bar ended at no word.
    struct Word { float x, right; const std::string* label; };
    std::vector<Word> words;
    for (const Tick& t : m_ticks) {
        const float x = x0 + static_cast<float>((std::log10(t.seconds) - e0) / (e1 - e0)) * bar_w;
        dl->AddLine(ImVec2(x, bottom - ImGui::GetStyle().ItemSpacing.y), ImVec2(x, bottom), ui::fade(th.grid, 0.8f));
        const float tw = ImGui::CalcTextSize(t.label.c_str()).x;
        // The last may reach into the room right of the bars (the bars' figures' column): held
        // inside the bars, "1,000 years" sat under the 100-year mark.
        const float tx = std::clamp(x - tw * 0.5f, x0, x0 + row_w - tw);
        auto overlaps = [&] { return !words.empty() && tx < words.back().right + fs * 0.6f; };
        if (&t == &m_ticks.back())
            while (overlaps()) words.pop_back();
        else if (overlaps())
            continue;
        words.push_back({tx, tx + tw, &t.label});
    }
    for (const Word& word : words) dl->AddText(ImVec2(word.x, bottom), th.text_dim, word.label->c_str());
    ImGui::Dummy(ImVec2(ImGui::GetContentRegionAvail().x, fs * 1.2f));
    static const std::string axis = "A logarithmic time axis: each mark is ten times (or a calendar unit) longer than the one before.";
    m_wrap.text(th.text_dim, axis);
}

void RealScaleView::draw_notes(Context& ctx) {
    const auto& th = ctx.view.theme;
    const ImU32 colours[3] = {th.cpu, th.gpu, th.nvlink};
    const float fs = ImGui::GetFontSize();
    ImGui::TextUnformatted("How each row is counted");
    for (std::size_t i = 0; i < m_story.rows.size(); ++i) {
        if (!m_story.rows[i].shown) continue;
        const ImVec2 p = ImGui::GetCursorScreenPos();
        ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + fs * 0.25f), ImVec2(p.x + fs * 0.7f, p.y + fs * 0.95f),
                                                  colours[i], 2.0f);
        ImGui::Indent(fs);
        m_wrap.text(th.text, m_story.rows[i].assumption);
        ImGui::Unindent(fs);
    }
    if (!m_story.layout_note.empty()) m_wrap.text(th.text, m_story.layout_note);
    if (!m_story.frontier_note.empty() && revealed()) m_wrap.text(th.text_dim, m_story.frontier_note);  // it names the time
    ImGui::Spacing();
    ImGui::TextUnformatted("Where this model is simple");
    for (const std::string& note : m_story.simple) m_wrap.bullet(th.text_dim, note);
}

}  // namespace m2m::lessons
