// The home screen's rows: each as tall as its picture or its words, the pictures as large as the
// window lets every row fit without scrolling.
#include "lessons/home_screen.hpp"

#include <algorithm>
#include <string>
#include <string_view>

#include "ui/widgets.hpp"

namespace m2m::lessons {

namespace {

using Lessons = std::vector<std::unique_ptr<Lesson>>;

float wrapped_height(std::string_view text, float wrap) {
    return ImGui::CalcTextSize(text.data(), text.data() + text.size(), false, wrap).y;
}

ImFont* headline_font() { return ImGui::GetIO().Fonts->Fonts.Size > 1 ? ImGui::GetIO().Fonts->Fonts[1] : ImGui::GetFont(); }

// The widths of one row: its picture (about 2:1, at most a third of the row) and its words.
struct RowWidths {
    float fs, pad, row_w;
    float picture(float pic_h) const { return std::min(pic_h * 2.2f, row_w * 0.3f); }
    float words(float pic_h) const { return std::max(fs * 4.0f, row_w - picture(pic_h) - pad * 4); }
};

// The height of a row's title and summary, wrapped at `text_w`.
float words_height(const Lesson& l, ImFont* title_font, float text_w) {
    const std::string_view title = l.title();
    return title_font->CalcTextSizeA(title_font->FontSize, 1e9f, text_w, title.data(), title.data() + title.size()).y +
           ImGui::GetStyle().ItemSpacing.y + wrapped_height(l.summary(), text_w);
}

// Every row's height with pictures `pic_h` tall, and the gaps between them.
float rows_height(const Lessons& lessons, const RowWidths& rw, float pic_h, ImFont* title_font) {
    float total = ImGui::GetStyle().ItemSpacing.y * static_cast<float>(lessons.size() - 1);
    for (const auto& l : lessons) total += std::max(pic_h, words_height(*l, title_font, rw.words(pic_h))) + 2 * rw.pad;
    return total;
}

// The tagline only when every row still fits under it at its smallest (a 1024x768 projector at
// 1.5x has room for the rows and one line of help, not both lines).
void draw_heading(const ui::Theme& th, const Lessons& lessons, float pad) {
    const char* tagline = "Why AI runs on GPUs, and on thousands of them.";
    const char* how = "Pick a lesson: click it or press its number. Enter opens the outlined one; Home or 0 comes back "
                      "here.";
    const ImGuiStyle& style = ImGui::GetStyle();
    const float fs = ImGui::GetFontSize();
    const float w = ImGui::GetContentRegionAvail().x;
    const float min_text_w = RowWidths{fs, pad, w}.words(fs * 2.5f);
    float rows_min = style.ItemSpacing.y * static_cast<float>(lessons.size() - 1);
    for (const auto& l : lessons)
        rows_min += std::max(fs * 2.5f, fs + style.ItemSpacing.y + wrapped_height(l->summary(), min_text_w)) + 2 * pad;
    const float how_h = ImGui::CalcTextSize(how, nullptr, false, w).y + style.ItemSpacing.y;
    const float tagline_h = ImGui::CalcTextSize(tagline, nullptr, false, w).y + style.ItemSpacing.y;
    if (ImGui::GetContentRegionAvail().y - how_h - tagline_h >= rows_min) ui::text_wrapped_coloured(th.text, tagline);
    ui::text_wrapped_coloured(th.text_dim, how);
}

// How the rows are drawn this frame: the pictures' size and the titles' font.
struct RowsFit {
    float pic_h, pic_w, text_w;
    ImFont* title_font;
};

// The pictures take the largest height (up to 7 lines) at which every row still fits without
// scrolling; the bold headline font for the titles when every row fits with it on one line.
RowsFit fit_rows(const Lessons& lessons, const RowWidths& rw, float avail_h) {
    const float min_pic_h = rw.fs * 2.5f, max_pic_h = rw.fs * 7.0f;
    ImFont* big = headline_font();
    ImFont* title_font = big;
    for (const auto& l : lessons) {
        const std::string_view t = l->title();
        if (big->CalcTextSizeA(big->FontSize, 1e9f, 0.0f, t.data(), t.data() + t.size()).x > rw.words(min_pic_h))
            title_font = ImGui::GetFont();
    }
    if (rows_height(lessons, rw, min_pic_h, title_font) > avail_h) title_font = ImGui::GetFont();
    float lo = min_pic_h, hi = max_pic_h;
    if (rows_height(lessons, rw, hi, title_font) <= avail_h) lo = hi;
    for (int k = 0; k < 16 && hi - lo > 1.0f; ++k) {
        const float mid = (lo + hi) * 0.5f;
        (rows_height(lessons, rw, mid, title_font) <= avail_h ? lo : hi) = mid;
    }
    return {lo, rw.picture(lo), rw.words(lo), title_font};
}

// The title and the summary as real items, so they wrap inside the row and a test can measure them.
void draw_words(const ui::Theme& th, const Lesson& l, const RowsFit& fit, ImVec2 at) {
    ImGui::SetCursorScreenPos(at);
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + fit.text_w);
    ImGui::PushFont(fit.title_font);
    ImGui::PushStyleColor(ImGuiCol_Text, th.text);
    const std::string_view title = l.title(), summary = l.summary();
    ImGui::TextUnformatted(title.data(), title.data() + title.size());
    ImGui::PopStyleColor();
    ImGui::PopFont();
    ImGui::SetCursorScreenPos(ImVec2(at.x, ImGui::GetCursorScreenPos().y));
    ImGui::PushStyleColor(ImGuiCol_Text, th.text_dim);
    ImGui::TextUnformatted(summary.data(), summary.data() + summary.size());
    ImGui::PopStyleColor();
    ImGui::PopTextWrapPos();
}

// Row `i`: a button as wide as the row, its background, its picture and its words; the next row
// starts `gap` below it. True when clicked.
bool draw_row(Context& ctx, const Lesson& l, int i, bool selected, const RowWidths& rw, const RowsFit& fit, float gap) {
    const ui::Theme& th = ctx.view.theme;
    const float words_h = words_height(l, fit.title_font, fit.text_w);
    const float row_h = std::max(fit.pic_h, words_h) + 2 * rw.pad;
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::PushID(i);
    const bool clicked = ImGui::InvisibleButton("row", ImVec2(rw.row_w, row_h));
    ImGui::PopID();
    ctx.items.note("home_" + std::string(l.id()));
    const bool hovered = ImGui::IsItemHovered();
    const ImVec2 q(p.x + rw.row_w, p.y + row_h);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ui::fill_opaque(ctx.view, dl, p, q, th.panel);
    // The keyboard's row (Enter opens it) stands out more than the one under the mouse: a reviewer
    // saw the hovered row look the more selected of the two.
    if (selected) {
        dl->AddRectFilled(p, q, ui::fade(th.accent, 0.16f));
        dl->AddRect(p, q, th.accent, 0.0f, 0, 3.5f);
    } else if (hovered) {
        dl->AddRectFilled(p, q, ui::fade(th.accent, 0.06f));
        dl->AddRect(p, q, ui::fade(th.accent, 0.7f), 0.0f, 0, 1.0f);
    }
    draw_lesson_picture(th, l, ImVec2(p.x + rw.pad, p.y + rw.pad), ImVec2(p.x + rw.pad + fit.pic_w, q.y - rw.pad));
    draw_words(th, l, fit, ImVec2(p.x + fit.pic_w + rw.pad * 3, p.y + (row_h - words_h) * 0.5f));
    ImGui::SetCursorScreenPos(ImVec2(p.x, q.y + gap));
    return clicked;
}

}  // namespace

void draw_lesson_picture(const ui::Theme& th, const Lesson& lesson, ImVec2 a, ImVec2 b) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->PushClipRect(a, b, true);  // a picture never draws outside its box
    lesson.draw_home_picture(th, dl, ImVec2(a.x + 2, a.y + 2), ImVec2(b.x - 2, b.y - 2));  // room for outlines on the edge
    dl->PopClipRect();
}

int draw_home(Context& ctx, const Lessons& lessons, int selected) {
    const float pad = ImGui::GetFontSize() * 0.4f;
    draw_heading(ctx.view.theme, lessons, pad);
    // The rows scroll in their own pane when the window is too small for all of them.
    ImGui::BeginChild("home_rows", ImVec2(0, 0), false);
    const RowWidths rw{ImGui::GetFontSize(), pad, ImGui::GetContentRegionAvail().x};  // less a scrollbar, when there is one
    const RowsFit fit = fit_rows(lessons, rw, ImGui::GetContentRegionAvail().y);
    int clicked = -1;
    const int n = static_cast<int>(lessons.size());
    for (int i = 0; i < n; ++i) {
        const float gap = i + 1 < n ? ImGui::GetStyle().ItemSpacing.y : 0.0f;
        if (draw_row(ctx, *lessons[static_cast<std::size_t>(i)], i, i == selected, rw, fit, gap)) clicked = i;
    }
    ImGui::Dummy(ImVec2(0, 0));  // the child's content ends at the last row
    ImGui::EndChild();
    return clicked;
}

}  // namespace m2m::lessons
