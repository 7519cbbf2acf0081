// Lesson 2's collective, step by step: the words for the step under way, and a small Gantt chart of
// its NVLink and InfiniBand sends (who waits for whom), whose end times come with the run's end.
#include <imgui.h>

#include <algorithm>
#include <string>

#include "lessons/rack/rack_common.hpp"
#include "lessons/rack/rack_panel.hpp"
#include "m2m/core/engine/text.hpp"
#include "ui/theme.hpp"
#include "ui/view.hpp"
#include "ui/widgets.hpp"

namespace m2m::lessons {

std::string RackPanel::step_head() const {
    // Before Run, NCCL's pick is the question ("NCCL PICKS ?"): the words do not name it either.
    if (!m_algorithm && answers_hidden() && m_collective.steps > 0)
        return "Press Run (Space): the rack shows NCCL's pick at work.";
    return core::collective_play_text(m_collective, m_playback.cursor());
}

float RackPanel::step_block_h() const { return 2 * ImGui::GetTextLineHeight() + ImGui::GetStyle().ItemSpacing.y; }

float RackPanel::caption_block_h(float wrap) const {
    // The longest caption any algorithm could have, so the bars below sit where they will after
    // Run without their place telling which algorithm runs (a three-line one-pass caption once
    // moved them 20 px before Run, on a narrow scene).
    return std::max(step_block_h(), ImGui::CalcTextSize(core::CollectiveStory::sends_caption_room, nullptr, false, wrap).y +
                                         ImGui::GetStyle().ItemSpacing.y);
}

void RackPanel::draw_step() {
    // The current ring step as a small Gantt chart: every step is alike, so this one shows how
    // long the NVLink sends and the InfiniBand sends take inside it, and who waits for whom.
    const auto& th = m_ctx.view.theme;
    const core::CollectiveResult& r = m_collective;
    const core::CollectiveStory& s = m_collective_story;
    const float fs = ImGui::GetFontSize();
    const double cursor = m_playback.cursor();
    const std::size_t k = step_at(cursor);
    if (r.steps == 0) {
        ImGui::TextUnformatted("A group of one GPU has nothing to send.");
        return;
    }
    // The step's words and the bars' caption each keep two lines, so the bars under them stay put
    // while a run's words change (one line, then two) and when Run reveals the caption.
    const auto two_lines = [&](ImU32 colour, const std::string& text, float room) {
        const float y0 = ImGui::GetCursorPosY();
        ui::text_wrapped_coloured(colour, text);
        if (const float extra = y0 + room - ImGui::GetCursorPosY(); extra > 0) ImGui::SetCursorPosY(ImGui::GetCursorPosY() + extra);
    };
    const float wrap = ImGui::GetContentRegionAvail().x;
    two_lines(th.text, step_head(), step_block_h());
    m_ctx.items.note("step_text");
    const double in_step = cursor <= r.base_latency_s ? 0.0 : cursor >= r.time_s ? r.step_s : cursor - r.step_start_s(k);

    // Before Run the step's length and its wires' ends would give the time (and the algorithm) away.
    const bool hidden = answers_hidden();
    // The caption's step time (a one-pass algorithm's whole time) and the bars' end times come with
    // the run's end, as the readouts' do; meanwhile the bars show who waits for whom.
    const bool ends_shown = run_done();
    two_lines(th.text_dim,
              hidden       ? std::string("Each wire's sends: press Run (Space).")
              : ends_shown ? s.sends_caption
                           : std::string("The sends on each wire in a step, as they run; their times come at the end."),
              caption_block_h(wrap));
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float label_w = ImGui::CalcTextSize("InfiniBand sends ").x;
    const float value_w = ImGui::CalcTextSize(" 000.0 ms").x;
    const float w = std::max(fs * 4, ImGui::GetContentRegionAvail().x - label_w - value_w);
    const float h = fs * 1.1f;
    struct Row {
        const char* label;
        double end_s;
        ImU32 colour;
    };
    const Row rows[] = {{"NVLink sends", s.nvlink_sends_end_s, th.link(core::LinkType::nvlink)},
                        {"InfiniBand sends", s.infiniband_sends_end_s, th.link(core::LinkType::infiniband)}};
    for (const Row& row : rows) {
        const ImVec2 p = ImGui::GetCursorScreenPos();
        dl->AddText(ImVec2(p.x, p.y + (h - fs) * 0.5f), row.end_s > 0 ? th.text : th.text_dim, row.label);
        const ImVec2 a(p.x + label_w, p.y), b(a.x + w, p.y + h);
        ui::fill_opaque(m_ctx.view, dl, a, b, th.panel);
        if (hidden) {
            dl->AddText(ImVec2(b.x + 6, p.y + (h - fs) * 0.5f), th.text_dim, "?");
        } else if (row.end_s > 0 && r.step_s > 0) {
            const float end_x = a.x + w * static_cast<float>(std::min(row.end_s / r.step_s, 1.0));
            const float cur_x = a.x + w * static_cast<float>(std::clamp(std::min(in_step, row.end_s) / r.step_s, 0.0, 1.0));
            dl->AddRectFilled(a, ImVec2(end_x, b.y), ui::fade(row.colour, 0.35f));
            dl->AddRectFilled(a, ImVec2(cur_x, b.y), row.colour);
            if (ends_shown) {
                const std::string t = core::format_seconds(row.end_s);
                dl->AddText(ImVec2(b.x + 6, p.y + (h - fs) * 0.5f), th.text, t.c_str());
            }
        } else {
            dl->AddText(ImVec2(b.x + 6, p.y + (h - fs) * 0.5f), th.text_dim, "none");
        }
        const float cursor_x = a.x + w * static_cast<float>(std::clamp(in_step / std::max(r.step_s, 1e-30), 0.0, 1.0));
        dl->AddRectFilled(ImVec2(cursor_x - 1, a.y - 2), ImVec2(cursor_x + 1, b.y + 2), th.text);
        ImGui::Dummy(ImVec2(label_w + w + value_w, h));
        m_ctx.items.note(row.colour == th.link(core::LinkType::nvlink) ? "nvlink_bar" : "infiniband_bar");
    }
}

}  // namespace m2m::lessons
