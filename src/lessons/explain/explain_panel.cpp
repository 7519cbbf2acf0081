// "Explain it back" panel: the question and the answer box on the left; on the right the checklist
// of ideas, hints for the missing ones, facts from the student's own runs and a model answer.
//
// [SECTION] text helpers   [SECTION] the answer   [SECTION] drawing   [SECTION] scenario and status
#include "lessons/explain/explain_panel.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cfloat>
#include <cstdio>
#include <stdexcept>

#include "lessons/saved_state.hpp"
#include "lessons/view_tabs.hpp"
#include "ui/theme.hpp"
#include "ui/view.hpp"
#include "ui/widgets.hpp"

namespace m2m::lessons {

// [SECTION] text helpers --------------------------------------------------------------------

namespace {

std::size_t utf8_length(std::string_view s) {
    return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    }));
}

int utf8_bytes(unsigned char lead) {
    return lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xE ? 3 : (lead >> 3) == 0x1E ? 4 : 1;
}

/// ImGui 1.86 cannot wrap a multiline input, so a space where a line of `buf[begin, end)` runs
/// past `width` becomes a line break, as on a typewriter. The checker reads a single line break
/// as a space. Returns whether anything changed.
bool wrap_lines(char* buf, int begin, int end, float width) {
    ImFont* font = ImGui::GetFont();
    const float size = ImGui::GetFontSize();
    bool changed = false;
    float x = 0;
    int line_start = begin, last_space = -1;
    for (int i = begin; i < end;) {
        if (buf[i] == '\n') {
            x = 0;
            line_start = ++i;
            last_space = -1;
            continue;
        }
        const int n = std::min(utf8_bytes(static_cast<unsigned char>(buf[i])), end - i);
        if (buf[i] == ' ') last_space = i;
        x += font->CalcTextSizeA(size, FLT_MAX, 0, buf + i, buf + i + n).x;
        i += n;
        if (x > width && last_space > line_start) {
            buf[last_space] = '\n';
            changed = true;
            line_start = last_space + 1;
            last_space = -1;
            x = font->CalcTextSizeA(size, FLT_MAX, 0, buf + line_start, buf + i).x;
        }
    }
    return changed;
}

/// While the student types: wraps the whole answer, or past 20,000 bytes only the cursor's line.
int soft_wrap(ImGuiInputTextCallbackData* d) {
    if (d->EventFlag != ImGuiInputTextFlags_CallbackEdit) return 0;
    const float width = *static_cast<const float*>(d->UserData);
    if (width <= 0) return 0;
    int begin = 0, end = d->BufTextLen;
    if (d->BufTextLen > 20000) {
        begin = d->CursorPos;
        while (begin > 0 && d->Buf[begin - 1] != '\n') --begin;
        end = d->CursorPos;
        while (end < d->BufTextLen && d->Buf[end] != '\n') ++end;
    }
    if (wrap_lines(d->Buf, begin, end, width)) d->BufDirty = true;
    return 0;
}

/// A tick or a cross drawn with lines (the font has no such glyphs), one text line high.
void draw_mark(bool ok, ImU32 colour) {
    const float s = ImGui::GetFontSize();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::Dummy(ImVec2(s, s));
    if (!ImGui::IsItemVisible()) return;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float t = std::max(2.0f, s * 0.13f);
    auto at = [&](float fx, float fy) { return ImVec2(p.x + s * fx, p.y + s * fy); };
    if (ok) {
        dl->AddLine(at(0.12f, 0.55f), at(0.40f, 0.82f), colour, t);
        dl->AddLine(at(0.40f, 0.82f), at(0.90f, 0.20f), colour, t);
    } else {
        dl->AddLine(at(0.22f, 0.25f), at(0.78f, 0.81f), colour, t);
        dl->AddLine(at(0.78f, 0.25f), at(0.22f, 0.81f), colour, t);
    }
}

/// Wrapped text laid out one line per item, so ImGui skips the lines scrolled out of the
/// feedback box (TextWrapped emits every line of a paragraph once any part of it shows).
void wrapped(ImU32 colour, std::string_view text) {
    ImFont* font = ImGui::GetFont();
    const float scale = ImGui::GetFontSize() / font->FontSize;
    const float width = std::max(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize());
    ImGui::PushStyleColor(ImGuiCol_Text, colour);
    ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(ImGui::GetStyle().ItemSpacing.x, 0));
    ImGui::BeginGroup();
    const char* s = text.data();
    const char* end = s + text.size();
    while (s < end) {
        const char* eol = font->CalcWordWrapPositionA(scale, s, end, width);
        for (const char* c = s; c < eol; ++c)
            if (*c == '\n') {
                eol = c;
                break;
            }
        if (eol == s && *s != '\n') eol = s + std::min<std::ptrdiff_t>(utf8_bytes(static_cast<unsigned char>(*s)), end - s);
        ImGui::TextUnformatted(s, eol);
        s = eol;
        while (s < end && (*s == ' ' || *s == '\t')) ++s;
        if (s < end && *s == '\n') ++s;
    }
    ImGui::PopStyleVar();
    ImGui::EndGroup();
    ImGui::PopStyleColor();
}

void heading(const ui::Theme& th, const char* text) {
    ImGui::Spacing();
    ImGui::PushStyleColor(ImGuiCol_Text, th.text_dim);
    ImGui::TextUnformatted(text);
    ImGui::PopStyleColor();
}

std::string quoted(const std::string& s) { return "you wrote \xe2\x80\x9c" + s + "\xe2\x80\x9d"; }

}  // namespace

// [SECTION] the answer ----------------------------------------------------------------------

const LessonInfo ExplainPanel::info = {
    "explain",
    "4 \xc2\xb7 Explain it back",
    "Say in your own words why a GPU suits a matrix multiply, and get a checklist back.",
    "Time to put it together. Answer the question in a few sentences of your own, then press Submit: "
    "the checklist shows which key ideas your answer covers and hints at the ones it misses. Your own "
    "numbers from the earlier lessons are listed for you to use, and a model answer is there when you "
    "want to compare.",
};

ExplainPanel::ExplainPanel(Context& ctx) : Lesson(ctx, info) {}

void ExplainPanel::set_answer(std::string_view text) {
    m_answer.assign(text);
    m_rewrap = true;  // at the next draw, when the box's width is known
    answer_edited();
}

void ExplainPanel::answer_edited() {
    m_answer_chars = utf8_length(m_answer);
    m_changed = m_feedback.has_value();
}

void ExplainPanel::submit() {
    m_feedback = core::grade_answer(m_answer);
    m_changed = false;
}

const std::vector<std::string>& ExplainPanel::run_sentences() {
    if (m_ctx.run_log.revision() != m_log_revision) {
        m_run_sentences = core::run_fact_sentences(m_ctx.run_log.facts());
        m_log_revision = m_ctx.run_log.revision();
    }
    return m_run_sentences;
}

// [SECTION] drawing -------------------------------------------------------------------------

// Wide windows: controls on the left, feedback on the right. Narrow ones (a projector at 1024x768
// and a large scale): the question and a smaller answer box on top, the feedback below, and
// Submit in the footer. Presenter mode: the question in large type over the feedback. The
// feedback scrolls inside its own box, with the footer below it, so nothing runs off the window.
// Child names carry the lesson's id, as controls_beside_scene's "<id>_controls" do. This is not
// that layout: the feedback and the footer share the right-hand column, and narrow windows and
// presenter mode stack everything instead.
void ExplainPanel::draw(float /*dt_s*/) {
    run_sentences();
    const float fs = ImGui::GetFontSize();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float footer_h = ImGui::GetFrameHeightWithSpacing();
    const bool presenter = m_ctx.view.presenter;
    const bool wide = !presenter && avail.x >= fs * 36.0f;
    if (presenter) {
        draw_question_large();
    } else if (wide) {
        const float controls_w = std::min(fs * 32.0f, avail.x * 0.42f);
        ImGui::BeginChild("explain_controls", ImVec2(controls_w, 0), true,
                          ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
        draw_controls(0, true);
        ImGui::EndChild();
        ImGui::SameLine();
        ImGui::BeginGroup();
    } else {
        draw_controls(std::clamp(avail.y * 0.2f, fs * 2.5f, fs * 6.0f), false);
    }
    ImGui::BeginChild("explain_feedback", ImVec2(0, -footer_h), true);
    scroll_by_keys(m_ctx);
    draw_feedback();
    draw_readouts();
    ImGui::EndChild();
    draw_footer(!wide && !presenter);
    if (wide) ImGui::EndGroup();
}

void ExplainPanel::draw_question_large() {
    ImFont* big = ImGui::GetIO().Fonts->Fonts.Size > 1 ? ImGui::GetIO().Fonts->Fonts[1] : nullptr;
    if (big) ImGui::PushFont(big);
    wrapped(m_ctx.view.theme.text, core::explain_question());
    if (big) ImGui::PopFont();
}

void ExplainPanel::draw_controls(float box_height, bool roomy) {
    const auto& th = m_ctx.view.theme;
    const ImGuiStyle& st = ImGui::GetStyle();
    if (roomy) heading(m_ctx.view.theme, "In your own words:");
    wrapped(th.text, core::explain_question());
    if (roomy) {
        ImGui::Spacing();
        heading(m_ctx.view.theme, "Your answer (in English, a few sentences)");
    }
    const float h = box_height > 0 ? box_height
                                   : ImGui::GetContentRegionAvail().y - ImGui::GetFrameHeightWithSpacing() - st.ItemSpacing.y;
    m_wrap_width = ImGui::GetContentRegionAvail().x - st.FramePadding.x * 2 - st.ScrollbarSize - ImGui::GetFontSize() * 0.5f;
    if (m_rewrap && m_wrap_width > 0) {
        wrap_lines(m_answer.data(), 0, static_cast<int>(m_answer.size()), m_wrap_width);
        m_rewrap = false;
    }
    // The box's background is painted opaque first, the frame colour over the window's (what
    // ImGui would blend, at a fraction of the cost under software GL; see ui::fill_opaque).
    const ImVec2 box(ImGui::GetContentRegionAvail().x, std::max(h, ImGui::GetFontSize() * 2.5f));
    const ImVec2 at = ImGui::GetCursorScreenPos();
    ui::fill_opaque(m_ctx.view, ImGui::GetWindowDrawList(), at, ImVec2(at.x + box.x, at.y + box.y),
                    ui::blend_over(st.Colors[ImGuiCol_FrameBg], st.Colors[ImGuiCol_WindowBg]));
    ImGui::PushStyleColor(ImGuiCol_FrameBg, IM_COL32(0, 0, 0, 0));
    const bool edited = ImGui::InputTextMultiline("##answer", &m_answer, box, ImGuiInputTextFlags_CallbackEdit, soft_wrap, &m_wrap_width);
    ImGui::PopStyleColor();
    if (edited) answer_edited();
    m_ctx.items.note("answer_box");
    if (roomy) draw_submit();
}

void ExplainPanel::draw_submit() {
    if (ImGui::Button("Submit")) submit();
    m_ctx.items.note("submit_button");
    ImGui::SameLine();
    ImGui::TextDisabled("%zu characters", m_answer_chars);
}

const char* ExplainPanel::prompt() const {
    if (m_ctx.view.presenter)
        return "Ask the room first. To type their answer, press H to leave presenter view: the answer box and "
               "Submit come back, and the checker shows which of the lesson's key ideas it holds and which are "
               "still missing.";
    return "Write your answer, then press Submit. The checker looks for the lesson's key ideas in your own words "
           "and shows which ones are there and which are still missing.";
}

void ExplainPanel::draw_feedback() {
    const auto& th = m_ctx.view.theme;
    if (!m_feedback) {
        wrapped(th.text_dim, prompt());
        return;
    }
    const core::ExplainFeedback& f = *m_feedback;
    const bool all = f.found_count() == core::explain_idea_count;
    char value[32];
    std::snprintf(value, sizeof value, "%zu of %zu", f.found_count(), core::explain_idea_count);
    ui::readout(m_ctx.view.theme, "IDEAS FOUND", value, all ? th.nvlink : th.text);
    m_ctx.items.note("ideas_found");
    wrapped(th.text, f.summary);
    for (const std::string& note : f.notes) wrapped(th.warning, note);
    if (m_changed)
        wrapped(th.warning, "You have changed your answer since: press Submit again to check it.");
    if (f.kind == core::AnswerKind::empty || f.kind == core::AnswerKind::no_words) return;
    ImGui::Separator();
    for (const core::IdeaCheck& c : f.ideas) draw_idea(c);
    if (f.misconceptions.empty()) return;
    ImGui::Separator();
    ImGui::PushStyleColor(ImGuiCol_Text, th.warning);
    ImGui::TextUnformatted("Worth a second look");
    ImGui::PopStyleColor();
    for (const core::MisconceptionCheck& m : f.misconceptions) {
        wrapped(th.text, core::misconception_note(m.which));
        wrapped(th.text_dim, quoted(m.evidence));
    }
}

void ExplainPanel::draw_idea(const core::IdeaCheck& c) {
    const auto& th = m_ctx.view.theme;
    const float indent = ImGui::GetFontSize() + ImGui::GetStyle().ItemSpacing.x;
    draw_mark(c.found, c.found ? th.nvlink : th.warning);
    ImGui::SameLine();
    wrapped(th.text, core::explain_idea_title(c.idea));
    ImGui::Indent(indent);
    wrapped(th.text_dim, core::explain_idea_line(c));
    ImGui::Unindent(indent);
}

void ExplainPanel::draw_readouts() {
    const auto& th = m_ctx.view.theme;
    ImGui::Separator();
    heading(m_ctx.view.theme, "From your own runs");
    if (m_run_sentences.empty())
        wrapped(th.text_dim,
                "Play a run to its end in Lessons 1 to 3 and your own numbers show up here, ready to use in your "
                "answer.");
    for (const std::string& s : m_run_sentences) {
        ImGui::Bullet();
        ImGui::SameLine();
        wrapped(th.text, s);
    }
    if (!m_show_model) return;
    ImGui::Separator();
    if (m_scroll_to_model) {
        ImGui::SetScrollHereY(0.0f);
        m_scroll_to_model = false;
    }
    heading(m_ctx.view.theme, "A model answer");
    wrapped(th.text, core::explain_model_answer());
}

void ExplainPanel::draw_footer(bool with_submit) {
    if (with_submit) {
        if (ImGui::Button("Submit")) submit();
        m_ctx.items.note("submit_button");
        ImGui::SameLine();
    }
    if (ImGui::Button(m_show_model ? "Hide the model answer" : "Show a model answer")) {
        m_show_model = !m_show_model;
        m_scroll_to_model = m_show_model;
    }
    m_ctx.items.note("model_answer_button");
}

// [SECTION] scenario and status -------------------------------------------------------------

nlohmann::json ExplainPanel::save_state() const {
    return {{"answer", m_answer}, {"submitted", submitted() && !m_changed}, {"model_answer_shown", m_show_model}};
}

void ExplainPanel::load_state(const nlohmann::json& state) {
    const SavedState in(state, "Explain it back");
    for (const auto& [key, value] : state.items())
        if (key != "answer" && key != "submitted" && key != "model_answer_shown")
            in.fail("unknown setting \"" + key + "\" (accepted: answer, submitted, model_answer_shown)");
    std::string answer;
    bool submitted = false, shown = m_show_model;
    in.text("answer", answer);
    in.flag("submitted", submitted);
    in.flag("model_answer_shown", shown);
    // Checked above, so nothing below can throw halfway.
    if (in.has("answer")) {
        m_feedback.reset();  // a new answer, not yet submitted
        set_answer(answer);
    }
    if (submitted) submit();
    m_show_model = shown;
}

std::string ExplainPanel::status() const {
    const bool done = m_feedback.has_value();
    const std::string found = done ? core::found_ids(*m_feedback) : "none";
    const std::string wrong = done ? core::misconception_ids(*m_feedback) : "none";
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "lesson=explain chars=%zu submitted=%d changed=%d ideas=%zu/%zu found=%s misconceptions=%s model=%d facts=%zu",
                  m_answer_chars, done ? 1 : 0, m_changed ? 1 : 0, done ? m_feedback->found_count() : 0,
                  core::explain_idea_count, found.c_str(), wrong.c_str(), m_show_model ? 1 : 0, m_ctx.run_log.facts().size());
    return buf;
}

}  // namespace m2m::lessons
