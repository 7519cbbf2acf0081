// Lesson 3's scene: the GPU cards above the training step on the shared timeline, the step time
// and its split into computing, exchanging and idle, the core's sentences, and the prompt.
//
// [SECTION] the scene   [SECTION] the step   [SECTION] words and prompt
#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "lessons/split/split_panel.hpp"
#include "lessons/split/split_panel_parts.hpp"
#include "lessons/view_tabs.hpp"
#include "m2m/core/engine/text.hpp"
#include "ui/widgets.hpp"

namespace m2m::lessons {

using namespace split_ui;

// [SECTION] the scene -----------------------------------------------------------------------

void SplitPanel::draw_scene() {
    const float fs = ImGui::GetFontSize();
    const float h = ImGui::GetContentRegionAvail().y;
    const int gpus = static_cast<int>(m_result.gpus.size());
    // Rows of the timeline shrink with many GPUs; the drawings give way before the words below
    // drop under a few lines.
    const float row_h = std::clamp((h * 0.28f - fs * 1.4f) / static_cast<float>(std::max(gpus, 1)), fs * 1.05f, fs * 1.6f);
    const float line = ImGui::GetTextLineHeightWithSpacing();
    const float big_h = ImGui::GetIO().Fonts->Fonts.Size > 1 ? ImGui::GetIO().Fonts->Fonts[1]->FontSize : fs;
    const float spacing = ImGui::GetStyle().ItemSpacing.y;
    const float step_h = line + static_cast<float>(gpus) * row_h + fs * 1.4f + spacing;
    const float readouts_h = big_h + line + spacing * 2;
    const float room = h - step_h - readouts_h - fs * 5.0f - spacing;
    // Each row of cards keeps room for its name, its place in the split and a small drawing (issue 16).
    const float card_w_one_row = (ImGui::GetContentRegionAvail().x - fs * 0.4f * static_cast<float>(gpus - 1)) /
                                 static_cast<float>(std::max(gpus, 1));
    const float card_rows = gpus <= 4 || card_w_one_row >= fs * 4.5f ? 1.0f : 2.0f;
    const float cards_min = card_rows * fs * 3.8f + (card_rows - 1.0f) * fs * 0.4f;
    const float cards_h = std::max(cards_min, std::min(h * (h >= fs * 40.0f ? 0.31f : 0.27f), room));
    draw_gpus(cards_h);
    draw_step(row_h);
    draw_readouts();
    // The words and the prompt share what is left; each scrolls when the window is small.
    const float rest = std::max(ImGui::GetContentRegionAvail().y, fs * 4.0f);
    // The prompt pane keeps room for its widest pick; the words take the rest (60% at most).
    float pick_w = 0;
    for (const char* p : prompt_picks) pick_w = std::max(pick_w, ImGui::CalcTextSize(p).x);
    const ImGuiStyle& st = ImGui::GetStyle();
    const float prompt_min = pick_w + st.FramePadding.x * 2 + st.WindowPadding.x * 2 + st.ScrollbarSize + st.ItemSpacing.x;
    const float words_w = std::max(ImGui::GetContentRegionAvail().x * 0.4f,
                                   std::min(ImGui::GetContentRegionAvail().x * 0.6f, ImGui::GetContentRegionAvail().x - prompt_min));
    ImGui::BeginChild("words", ImVec2(words_w, rest), true);
    scroll_by_keys(m_ctx);
    draw_words();
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginChild("prompt", ImVec2(0, rest), true);
    draw_prompt();
    ImGui::EndChild();
}

// [SECTION] the step ------------------------------------------------------------------------

void SplitPanel::draw_step(float row_height) {
    const auto& th = m_ctx.view.theme;
    const float fs = ImGui::GetFontSize();
    bool nv = false, ib = false;
    for (const core::Exchange& e : m_result.exchanges) (e.link == core::LinkType::infiniband ? ib : nv) = true;
    const bool pipeline = m_result.degrees.pipeline > 1;
    std::vector<ui::LegendEntry> legend = {{"forward", ui::bar_kind_colour(m_ctx.view.theme, ui::BarKind::forward)},
                                           {"backward", ui::bar_kind_colour(m_ctx.view.theme, ui::BarKind::backward)},
                                           {"update", ui::bar_kind_colour(m_ctx.view.theme, ui::BarKind::update)}};
    if (nv) legend.push_back({"NVLink", th.link(core::LinkType::nvlink)});
    if (ib) legend.push_back({"InfiniBand", th.link(core::LinkType::infiniband)});
    legend.push_back({pipeline ? "idle (bubble)" : "idle", ui::bar_kind_colour(m_ctx.view.theme, ui::BarKind::idle)});
    const char* title = "One training step";
    if (ImGui::CalcTextSize(title).x + fs * 1.5f + ui::timeline_legend_width(legend) <= ImGui::GetContentRegionAvail().x) {
        ImGui::TextUnformatted(title);  // only when the legend still fits beside it
        ImGui::SameLine(0, fs * 1.5f);
    }
    ui::timeline_legend(legend);

    ui::TimelineOptions o;
    o.start = 0;
    o.end = m_result.step.step_time_s;
    o.cursor = m_playback.cursor();
    o.seconds_per_unit = 1.0;
    const int n = static_cast<int>(m_rows.size());
    const bool hidden = guess_pending();
    o.row_height = row_height;
    o.idle_label = pipeline ? "bubble" : nullptr;
    const ui::TimelineResult r =
        ui::draw_timeline(m_ctx.view, "step", hidden ? m_rows_unseen : m_rows, o,
                          ImVec2(ImGui::GetContentRegionAvail().x, ui::timeline_height(n, o)));
    if (r.hovered_row >= 0 && r.hovered_bar >= 0) {
        const core::StepTask& t = m_result.step.gpus[static_cast<std::size_t>(r.hovered_row)].tasks[static_cast<std::size_t>(r.hovered_bar)];
        if (hidden && t.kind == core::StepTaskKind::communication) {
            ImGui::SetTooltip("An exchange: what it moves shows once the step has run.");
            return;
        }
        ImGui::BeginTooltip();
        ImGui::TextUnformatted(m_cards.words(r.hovered_row).tasks[static_cast<std::size_t>(r.hovered_bar)].c_str());
        ImGui::TextDisabled("%s to %s", core::format_seconds(t.start_s()).c_str(), core::format_seconds(t.end_s()).c_str());
        ImGui::EndTooltip();
    }
}

void SplitPanel::draw_readouts() {
    const auto& th = m_ctx.view.theme;
    const float fs = ImGui::GetFontSize();
    ImFont* big = ImGui::GetIO().Fonts->Fonts.Size > 1 ? ImGui::GetIO().Fonts->Fonts[1] : nullptr;
    const float big_h = big ? big->FontSize : fs;
    // Line 1: the step time, its sources, then one bar cut into computing, exchanging and idle.
    const float y0 = ImGui::GetCursorPosY();
    ImGui::SetCursorPosY(y0 + (big_h - fs) * 0.65f);
    ImGui::TextDisabled("STEP TIME");
    ImGui::SameLine();
    ImGui::SetCursorPosY(y0);
    if (big) ImGui::PushFont(big);
    ImGui::TextUnformatted(m_step_time_text.c_str());
    if (big) ImGui::PopFont();
    // The sources and the bar beside the time where they fit (else each on its own line: 2.0 at 1024x768).
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    if (ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + ImGui::CalcTextSize("(sources)").x <= right) {
        ImGui::SameLine();
        ImGui::SetCursorPosY(y0 + (big_h - fs) * 0.65f);
    }
    ui::sources_marker(m_sources, ui::Beside::no);
    if (ImGui::GetItemRectMax().x + fs * 5.0f <= right) {
        ImGui::SameLine(0, fs);
        ImGui::SetCursorPosY(y0);
    }
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float w = std::max(ImGui::GetContentRegionAvail().x - fs * 0.5f, fs);
    const core::StepTimeline& st = m_result.step;
    const double total = st.step_time_s > 0 ? st.step_time_s : 1.0;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float y_a = p.y + big_h * 0.2f, y_b = p.y + big_h * 0.85f;
    float x = p.x;
    // A pending guess about bytes sees one grey bar: the exchanging share would answer it.
    const bool hidden = guess_pending();
    const double parts[3] = {hidden ? total : st.compute_s, st.communication_s, st.idle_s};
    const ImU32 colours[3] = {hidden ? unseen_colour(th) : th.gpu, m_exchange_colour, th.idle};
    for (int i = 0; i < 3; ++i) {
        const float x1 = i == 2 ? p.x + w : std::min(p.x + w, x + static_cast<float>(parts[i] / total) * w);
        if (x1 > x) dl->AddRectFilled(ImVec2(x, y_a), ImVec2(x1, y_b), colours[i]);
        x = x1;
    }
    ImGui::Dummy(ImVec2(w, big_h));
    // Line 2: the same split in words.
    if (hidden)
        ui::timeline_legend({{"computing ?", th.gpu}, {"exchanging ?", m_exchange_colour}, {"idle ?", th.idle}});
    else
        ui::timeline_legend({{m_split_text[0].c_str(), th.gpu}, {m_split_text[1].c_str(), m_exchange_colour},
                             {m_split_text[2].c_str(), th.idle}});
}

// [SECTION] words and prompt ----------------------------------------------------------------

void SplitPanel::draw_words() {
    const auto& th = m_ctx.view.theme;
    draw_reveal();
    text(th.text, m_result.holds_sentence);
    const bool hidden = guess_pending();
    text(th.text, hidden ? m_result.exchange_sentence_before_run : m_result.exchange_sentence);
    text(th.text_dim, hidden ? m_result.why_sentence_before_run : m_result.why_sentence);
    text(th.text, hidden ? m_result.time_sentence_before_run : m_result.time_sentence);
    if (!hidden && !m_result.placement_sentence.empty()) text(th.text_dim, m_result.placement_sentence);
    if (ImGui::TreeNode("Each GPU")) {
        for (const core::GpuHolding& g : m_result.gpus) text(th.text, g.sentence);
        ImGui::TreePop();
    }
    const bool every = !m_result.exchanges.empty() && !hidden && ImGui::TreeNode("Every exchange");
    if (!m_result.exchanges.empty() && !hidden) m_ctx.items.note("every_exchange");
    if (every) {
        draw_exchange_table();
        ImGui::TreePop();
    }
}

namespace {

std::string peers_text(const core::Exchange& e) {
    std::string peers;
    for (int g : e.gpus) peers += (peers.empty() ? "" : ",") + std::to_string(g);
    return peers;
}

std::string times_text(const core::Exchange& e) {
    return core::format_bytes(static_cast<double>(e.bytes)) + " \xc3\x97 " + std::to_string(e.times);
}

std::string link_text(const core::Exchange& e) {
    return std::string(core::link_type_label(e.link)) + ", " + core::format_seconds(e.seconds);
}

}  // namespace

void SplitPanel::draw_exchange_table() {
    // The table's columns but "what" at their widest, and "what" eight font sizes wide: where the
    // pane is narrower (1024x768 at 1.5 in presenter view) "what" shrank to a letter a line and
    // the last columns were cut, so each exchange is told in two lines instead.
    const ImGuiStyle& style = ImGui::GetStyle();
    float widths[5] = {ImGui::CalcTextSize("collective").x, ImGui::CalcTextSize("GPUs").x,
                       ImGui::CalcTextSize("bytes \xc3\x97 times").x, ImGui::CalcTextSize("on the wires").x,
                       ImGui::CalcTextSize("link, time").x};
    for (const core::Exchange& e : m_result.exchanges) {
        const std::string_view op = core::exchange_op_name(e.op);
        widths[0] = std::max(widths[0], ImGui::CalcTextSize(op.data(), op.data() + op.size()).x);
        widths[1] = std::max(widths[1], ImGui::CalcTextSize(peers_text(e).c_str()).x);
        widths[2] = std::max(widths[2], ImGui::CalcTextSize(times_text(e).c_str()).x);
        widths[4] = std::max(widths[4], ImGui::CalcTextSize(link_text(e).c_str()).x);
    }
    float need = ImGui::GetFontSize() * 8.0f + 6 * 2 * style.CellPadding.x;
    for (float w : widths) need += w;
    if (need > ImGui::GetContentRegionAvail().x) {
        draw_exchange_list();
        m_ctx.items.note("exchange_list");
        return;
    }
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_BordersInnerV;
    // The tensors' bytes, and what they put on the wires, which the guess and its reveal count.
    if (!ImGui::BeginTable("exchanges", 6, flags)) return;
    ImGui::TableSetupColumn("collective");
    ImGui::TableSetupColumn("what", ImGuiTableColumnFlags_WidthStretch);  // wraps: the pane keeps the other columns
    ImGui::TableSetupColumn("GPUs");
    ImGui::TableSetupColumn("bytes \xc3\x97 times");
    ImGui::TableSetupColumn("on the wires");
    ImGui::TableSetupColumn("link, time");
    ImGui::TableHeadersRow();
    // Every row drawn (a clipper assumes rows of one height; "what" wraps to two lines in a
    // narrow pane). A step has at most a few hundred exchanges, and the list opens on request.
    for (const core::Exchange& e : m_result.exchanges) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(core::exchange_op_name(e.op).data(),
                               core::exchange_op_name(e.op).data() + core::exchange_op_name(e.op).size());
        ImGui::TableNextColumn();
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextUnformatted(e.what.c_str());
        ImGui::PopTextWrapPos();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(peers_text(e).c_str());
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(times_text(e).c_str());
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(core::format_bytes(core::wire_bytes(e) * e.times).c_str());
        ImGui::TableNextColumn();
        ImGui::PushStyleColor(ImGuiCol_Text, m_ctx.view.theme.link(e.link));
        ImGui::TextUnformatted(link_text(e).c_str());
        ImGui::PopStyleColor();
    }
    // The sums the sentence above and the guess's reveal give.
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted("in all");
    ImGui::TableSetColumnIndex(3);
    ImGui::TextUnformatted(core::format_bytes(static_cast<double>(m_result.exchanged_bytes)).c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(core::format_bytes(m_result.wire_bytes).c_str());
    ImGui::EndTable();
    m_ctx.items.note("exchange_table");
}

void SplitPanel::build_exchange_words() {
    // Built once per result, so the wrapped words are measured once, not every frame the list shows.
    m_exchange_words.clear();
    for (const core::Exchange& e : m_result.exchanges) {
        m_exchange_words.push_back(std::string(core::exchange_op_name(e.op)) + ", GPUs " + peers_text(e) + ": " + e.what);
        m_exchange_words.push_back(times_text(e) + ", " + core::format_bytes(core::wire_bytes(e) * e.times) + " on the wires; " +
                                   link_text(e));
    }
    m_exchange_words.push_back("In all: " + core::format_bytes(static_cast<double>(m_result.exchanged_bytes)) + " of tensors, " +
                               core::format_bytes(m_result.wire_bytes) + " on the wires.");
}

void SplitPanel::draw_exchange_list() {
    const auto& th = m_ctx.view.theme;
    for (std::size_t i = 0; i < m_result.exchanges.size() && 2 * i + 1 < m_exchange_words.size(); ++i) {
        text(th.text, m_exchange_words[2 * i]);
        text(th.link(m_result.exchanges[i].link), m_exchange_words[2 * i + 1]);
    }
    if (!m_exchange_words.empty()) text(th.text, m_exchange_words.back());
}

void SplitPanel::draw_prompt() {
    const auto& th = m_ctx.view.theme;
    const char* ask = "Ask the split network";
    const bool one_line = ImGui::CalcTextSize(ask).x + ImGui::GetStyle().ItemSpacing.x + ImGui::CalcTextSize("(?)").x <=
                          ImGui::GetContentRegionAvail().x;
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(ask);
    ImGui::PopTextWrapPos();
    if (one_line) ImGui::SameLine();
    ImGui::TextDisabled("(?)");
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("The prediction below is computed by the split network itself: each GPU used only the "
                          "weights it holds and the values it received from the others.");
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x);
    if (ImGui::InputTextWithHint("##prompt", "type a few words", m_prompt.data(), m_prompt.size()))
        set_prompt(m_prompt.data());
    m_ctx.items.note("prompt_input");
    // Picks wrap onto new lines when the box is narrow.
    const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
    for (std::size_t i = 0; i < std::size(prompt_picks); ++i) {
        const float w = ImGui::CalcTextSize(prompt_picks[i]).x + ImGui::GetStyle().FramePadding.x * 2;
        if (i > 0 && ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + w <= right) ImGui::SameLine();
        if (ImGui::SmallButton(prompt_picks[i])) set_prompt(prompt_picks[i]);
        const std::string hook = "prompt_pick_" + std::to_string(i);
        m_ctx.items.note(hook);
    }
    ImFont* big = ImGui::GetIO().Fonts->Fonts.Size > 1 ? ImGui::GetIO().Fonts->Fonts[1] : nullptr;
    if (big) ImGui::PushFont(big);
    ImGui::PushStyleColor(ImGuiCol_Text, th.accent);
    ImGui::TextUnformatted(m_prediction.word.c_str());
    ImGui::PopStyleColor();
    if (big) ImGui::PopFont();
    draw_prompt_bars();
    text(th.text_dim, m_prediction.sentence);
}

// Top probabilities as bars: word, bar, percent.
void SplitPanel::draw_prompt_bars() {
    const auto& th = m_ctx.view.theme;
    const float fs = ImGui::GetFontSize();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    float word_w = 0;
    for (const core::WordProbability& w : m_prediction.top) word_w = std::max(word_w, ImGui::CalcTextSize(w.word.c_str()).x);
    const float pct_w = ImGui::CalcTextSize("100%").x;
    const float bar_w = std::max(ImGui::GetContentRegionAvail().x - word_w - pct_w - fs * 1.2f, fs);
    for (const core::WordProbability& w : m_prediction.top) {
        const ImVec2 p = ImGui::GetCursorScreenPos();
        const ImVec2 size(word_w + bar_w + pct_w + fs * 1.2f, fs * 1.1f);
        ImGui::Dummy(size);
        if (!ImGui::IsItemVisible()) continue;  // scrolled out of the pane: draw nothing
        dl->AddText(p, th.text, w.word.c_str());
        const float x0 = p.x + word_w + fs * 0.5f;
        dl->AddRectFilled(ImVec2(x0, p.y + fs * 0.2f), ImVec2(x0 + bar_w, p.y + fs * 0.95f), th.panel, 2.0f);
        dl->AddRectFilled(ImVec2(x0, p.y + fs * 0.2f), ImVec2(x0 + bar_w * std::clamp(w.probability, 0.0f, 1.0f), p.y + fs * 0.95f),
                          th.accent, 2.0f);
        char pct[16];
        std::snprintf(pct, sizeof pct, "%.0f%%", 100.0 * static_cast<double>(w.probability));
        dl->AddText(ImVec2(x0 + bar_w + fs * 0.4f, p.y), th.text_dim, pct);
    }
}

}  // namespace m2m::lessons
