// The home screen's rows and pictures. Each picture is a few dozen shapes, cheap under software GL.
#include "lessons/home_screen.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <string>
#include <tuple>
#include <vector>

#include "ui/theme.hpp"
#include "ui/view.hpp"
#include "ui/widgets.hpp"

namespace m2m::ui {

namespace {

enum class Dot { idle, done, active };

// Small text centred on `cx`, drawn only when it fits `max_w` (a picture never spills its words).
void small_label(ImDrawList* dl, const char* text, float cx, float y, float max_w, ImU32 colour) {
    const float size = ImGui::GetFontSize() * 0.8f;
    const float w = ImGui::GetFont()->CalcTextSizeA(size, 1e9f, 0.0f, text).x;
    if (w > max_w) return;
    dl->AddText(ImGui::GetFont(), size, ImVec2(cx - w * 0.5f, y), colour, text);
}

float small_height() { return ImGui::GetFontSize() * 0.8f; }

// A tiny layered network in [a, b]: columns of neurons joined by every edge.
template <class StateOf>
void mini_network(const Theme& th, ImDrawList* dl, ImVec2 a, ImVec2 b, std::initializer_list<int> widths, ImU32 colour, StateOf state_of) {
    const std::vector<int> w(widths);
    const int n = static_cast<int>(w.size());
    const int tallest = *std::max_element(w.begin(), w.end());
    const float r = std::max(1.5f, std::min((b.y - a.y) / (static_cast<float>(tallest) * 2.6f), (b.x - a.x) / (static_cast<float>(n) * 5.0f)));
    const float dx = (b.x - a.x - 2 * r) / static_cast<float>(std::max(n - 1, 1));
    const float mid = (a.y + b.y) * 0.5f;
    auto at = [&](int l, int i) {
        const float gap = r * 2.6f;
        return ImVec2(a.x + r + dx * static_cast<float>(l), mid + gap * (static_cast<float>(i) - static_cast<float>(w[static_cast<std::size_t>(l)] - 1) * 0.5f));
    };
    for (int l = 1; l < n; ++l) {
        bool lit = false;
        for (int i = 0; i < w[static_cast<std::size_t>(l)]; ++i) lit |= state_of(l, i) == Dot::active;
        const ImU32 edge = lit ? fade(colour, 0.5f) : fade(th.grid, 0.7f);
        for (int i = 0; i < w[static_cast<std::size_t>(l - 1)]; ++i)
            for (int j = 0; j < w[static_cast<std::size_t>(l)]; ++j) dl->AddLine(at(l - 1, i), at(l, j), edge, 1.0f);
    }
    for (int l = 0; l < n; ++l)
        for (int i = 0; i < w[static_cast<std::size_t>(l)]; ++i) {
            const Dot s = l == 0 ? Dot::done : state_of(l, i);
            const ImU32 fill = s == Dot::active ? colour : s == Dot::done ? fade(colour, 0.45f) : th.idle;
            dl->AddCircleFilled(at(l, i), r, l == 0 ? th.done_dim : fill, 10);
        }
}

// Lesson 1: the CPU takes one neuron at a time on one of a few big cores; the GPU lights the
// whole layer at once on a grid of small cores.
void picture_layers(const Theme& th, ImDrawList* dl, ImVec2 a, ImVec2 b) {
    const float w = b.x - a.x, h = b.y - a.y, gap = w * 0.06f, lab = small_height();
    const float half = (w - gap) * 0.5f;
    for (int side = 0; side < 2; ++side) {
        const bool gpu = side == 1;
        const ImU32 c = gpu ? th.gpu : th.cpu;
        const float x0 = a.x + (half + gap) * static_cast<float>(side), x1 = x0 + half;
        dl->AddRectFilled(ImVec2(x0, a.y), ImVec2(x1, b.y), fade(c, 0.08f), 4.0f);
        small_label(dl, gpu ? "GPU" : "CPU", (x0 + x1) * 0.5f, a.y + 1, half, c);
        const float cores_h = h * 0.18f, pad = half * 0.08f;
        const ImVec2 na(x0 + pad, a.y + lab + 2), nb(x1 - pad, b.y - cores_h - pad * 1.5f);
        mini_network(th, dl, na, nb, {3, 4, 2}, c, [&](int l, int i) {
            if (l != 1) return Dot::idle;
            if (gpu) return Dot::active;
            return i == 0 ? Dot::done : i == 1 ? Dot::active : Dot::idle;
        });
        const float cy0 = b.y - cores_h - pad * 0.5f, cy1 = b.y - pad * 0.5f;
        const int cores = gpu ? 12 : 2;
        const float cw = (x1 - x0 - 2 * pad) / static_cast<float>(cores);
        for (int k = 0; k < cores; ++k) {
            const float cx = x0 + pad + cw * static_cast<float>(k);
            const bool busy = gpu || k == 0;  // the GPU's cores all work on the layer
            dl->AddRectFilled(ImVec2(cx + 1, cy0), ImVec2(cx + cw - 1, cy1), busy ? c : th.idle, gpu ? 0.0f : 3.0f);
        }
    }
}

// One node: two rows of GPUs joined to the NVSwitch between them.
void node(const Theme& th, ImDrawList* dl, ImVec2 a, ImVec2 b, int per_row) {
    dl->AddRect(a, b, th.grid, 4.0f, 0, 1.5f);
    const float pad = std::min(b.x - a.x, b.y - a.y) * 0.1f;
    const float cell = (b.x - a.x - 2 * pad) / static_cast<float>(per_row);
    const float sq = std::min(cell * 0.7f, (b.y - a.y - 2 * pad) * 0.3f);
    const float mid = (a.y + b.y) * 0.5f;
    const float sw_h = std::max(2.0f, (b.y - a.y) * 0.08f);
    dl->AddRectFilled(ImVec2(a.x + pad, mid - sw_h * 0.5f), ImVec2(b.x - pad, mid + sw_h * 0.5f), th.nvlink, 1.0f);
    for (int row = 0; row < 2; ++row)
        for (int k = 0; k < per_row; ++k) {
            const float cx = a.x + pad + cell * (static_cast<float>(k) + 0.5f);
            const float y0 = row == 0 ? a.y + pad : b.y - pad - sq;
            dl->AddLine(ImVec2(cx, row == 0 ? y0 + sq : y0), ImVec2(cx, mid), th.nvlink, 1.5f);
            dl->AddRectFilled(ImVec2(cx - sq * 0.5f, y0), ImVec2(cx + sq * 0.5f, y0 + sq), th.gpu, 2.0f);
        }
}

// Lesson 2: a node of 8 GPUs on NVLink, and the InfiniBand wire that leaves it for another node.
void picture_rack(const Theme& th, ImDrawList* dl, ImVec2 a, ImVec2 b) {
    const float w = b.x - a.x, lab = small_height();
    const float bottom = b.y - lab - 3;
    const ImVec2 n0a(a.x, a.y), n0b(a.x + w * 0.52f, bottom);
    const ImVec2 n1a(a.x + w * 0.78f, a.y + (bottom - a.y) * 0.2f), n1b(b.x, bottom - (bottom - a.y) * 0.2f);
    node(th, dl, n0a, n0b, 4);
    node(th, dl, n1a, n1b, 2);
    const float y = (a.y + bottom) * 0.5f;
    const float thick = std::max(2.5f, (bottom - a.y) * 0.05f);
    dl->AddLine(ImVec2(n0b.x, y), ImVec2(n1a.x, y), th.infiniband, thick);
    const float nic = thick * 1.6f;
    for (float x : {n0b.x, n1a.x}) dl->AddRectFilled(ImVec2(x - nic, y - nic), ImVec2(x + nic, y + nic), th.infiniband, 1.0f);
    small_label(dl, "NVLink", (n0a.x + n0b.x) * 0.5f, bottom + 2, n0b.x - n0a.x, th.nvlink);
    small_label(dl, "InfiniBand", (n0b.x + b.x) * 0.5f + w * 0.02f, bottom + 2, b.x - n0b.x, th.infiniband);
}

// Lesson 3: one network cut in two, each half on its own GPU, values crossing the cut.
void picture_split(const Theme& th, ImDrawList* dl, ImVec2 a, ImVec2 b) {
    const float w = b.x - a.x, lab = small_height(), gap = w * 0.1f;
    const float half = (w - gap) * 0.5f;
    const ImVec2 g0a(a.x, a.y), g0b(a.x + half, b.y), g1a(b.x - half, a.y), g1b(b.x, b.y);
    for (const auto& [p, q, name] : {std::tuple{g0a, g0b, "GPU 0"}, std::tuple{g1a, g1b, "GPU 1"}}) {
        dl->AddRectFilled(p, q, fade(th.gpu, 0.08f), 4.0f);
        dl->AddRect(p, q, th.gpu, 4.0f, 0, 1.5f);
        small_label(dl, name, (p.x + q.x) * 0.5f, p.y + 1, q.x - p.x, th.gpu);
    }
    // Two layers in each box, joined across the gap by the values that must move (NVLink).
    const float pad = half * 0.14f;
    const float top = a.y + lab + 4, bot = b.y - pad * 0.6f;
    const int widths[4] = {3, 4, 4, 2};
    const float r = std::max(1.5f, std::min((bot - top) / (4 * 2.6f), half / 10.0f));
    const float xs[4] = {g0a.x + pad, g0b.x - pad, g1a.x + pad, g1b.x - pad};
    auto at = [&](int l, int i) {
        const float step = r * 2.6f;
        return ImVec2(xs[l], (top + bot) * 0.5f + step * (static_cast<float>(i) - static_cast<float>(widths[l] - 1) * 0.5f));
    };
    for (int l = 1; l < 4; ++l) {
        const bool crossing = l == 2;
        for (int i = 0; i < widths[l - 1]; ++i)
            for (int j = 0; j < widths[l]; ++j)
                dl->AddLine(at(l - 1, i), at(l, j), crossing ? th.nvlink : fade(th.grid, 0.8f), crossing ? 1.5f : 1.0f);
    }
    for (int l = 0; l < 4; ++l)
        for (int i = 0; i < widths[l]; ++i) dl->AddCircleFilled(at(l, i), r, th.gpu, 10);
}

// Explain it back: a question, and a checklist with two ideas ticked.
void picture_explain(const Theme& th, ImDrawList* dl, ImVec2 a, ImVec2 b) {
    const float w = b.x - a.x, h = b.y - a.y;
    const ImVec2 qa(a.x, a.y), qb(a.x + w * 0.4f, a.y + h * 0.78f);
    dl->AddRectFilled(qa, qb, fade(th.accent, 0.15f), 8.0f);
    dl->AddRect(qa, qb, th.accent, 8.0f, 0, 2.0f);
    dl->AddTriangleFilled(ImVec2(qa.x + w * 0.08f, qb.y), ImVec2(qa.x + w * 0.18f, qb.y), ImVec2(qa.x + w * 0.06f, b.y), th.accent);
    ImFont* big = ImGui::GetIO().Fonts->Fonts.Size > 1 ? ImGui::GetIO().Fonts->Fonts[1] : ImGui::GetFont();
    const float size = std::min(qb.y - qa.y, qb.x - qa.x) * 0.8f;
    const ImVec2 ts = big->CalcTextSizeA(size, 1e9f, 0.0f, "?");
    dl->AddText(big, size, ImVec2((qa.x + qb.x - ts.x) * 0.5f, (qa.y + qb.y - ts.y) * 0.5f), th.accent, "?");
    const float x0 = a.x + w * 0.5f, row = h / 3.0f, box = std::min(row * 0.6f, w * 0.1f);
    for (int k = 0; k < 3; ++k) {
        const float cy = a.y + row * (static_cast<float>(k) + 0.5f);
        const ImVec2 p(x0, cy - box * 0.5f), q(x0 + box, cy + box * 0.5f);
        dl->AddRect(p, q, th.text_dim, 2.0f, 0, 1.5f);
        if (k < 2) {
            const ImVec2 tick[3] = {ImVec2(p.x + box * 0.2f, cy), ImVec2(p.x + box * 0.45f, q.y - box * 0.2f), ImVec2(q.x - box * 0.1f, p.y + box * 0.1f)};
            dl->AddPolyline(tick, 3, th.nvlink, 0, 2.5f);
        }
        const float line_end = b.x - (k == 1 ? w * 0.12f : 0.0f);
        dl->AddRectFilled(ImVec2(q.x + box * 0.6f, cy - box * 0.15f), ImVec2(line_end, cy + box * 0.15f),
                          fade(th.text_dim, k < 2 ? 0.8f : 0.35f), box * 0.15f);
    }
}

}  // namespace

void draw_lesson_picture(const Theme& th, std::string_view id, ImVec2 a, ImVec2 b) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->PushClipRect(a, b, true);  // a picture never draws outside its box
    const ImVec2 ia(a.x + 2, a.y + 2), ib(b.x - 2, b.y - 2);  // room for outlines centred on the edge
    if (id == "layers") picture_layers(th, dl, ia, ib);
    else if (id == "rack") picture_rack(th, dl, ia, ib);
    else if (id == "split") picture_split(th, dl, ia, ib);
    else if (id == "explain") picture_explain(th, dl, ia, ib);
    else dl->AddRect(ia, ib, th.grid, 4.0f, 0, 1.5f);
    dl->PopClipRect();
}

int draw_home(const View& view, ItemRegistry& items, const std::vector<HomeEntry>& entries, int selected) {
    const auto& th = view.theme;
    const ImGuiStyle& style = ImGui::GetStyle();
    const float fs = ImGui::GetFontSize();
    ImFont* big = ImGui::GetIO().Fonts->Fonts.Size > 1 ? ImGui::GetIO().Fonts->Fonts[1] : ImGui::GetFont();

    const char* tagline = "Why AI runs on GPUs, and on thousands of them.";
    const char* how = "Pick a lesson: click it or press its number. Enter opens the outlined one; Home or 0 comes back "
                      "here.";
    const float w = ImGui::GetContentRegionAvail().x;
    const float pad = fs * 0.4f;
    const int n = static_cast<int>(entries.size());
    // The tagline only when every row still fits under it at its smallest (a 1024x768 projector
    // at 1.5x has room for the rows and one line of help, not both lines).
    const float min_text_w = std::max(fs * 4.0f, w - std::min(fs * 2.5f * 2.2f, w * 0.3f) - pad * 4);
    float rows_min = style.ItemSpacing.y * static_cast<float>(n - 1);
    for (const HomeEntry& e : entries)
        rows_min += std::max(fs * 2.5f, fs + style.ItemSpacing.y +
                                            ImGui::CalcTextSize(e.summary.c_str(), nullptr, false, min_text_w).y) + 2 * pad;
    const float how_h = ImGui::CalcTextSize(how, nullptr, false, w).y + style.ItemSpacing.y;
    const float tagline_h = ImGui::CalcTextSize(tagline, nullptr, false, w).y + style.ItemSpacing.y;
    if (ImGui::GetContentRegionAvail().y - how_h - tagline_h >= rows_min) text_wrapped_coloured(th.text, tagline);
    text_wrapped_coloured(th.text_dim, how);

    // The rows scroll in their own pane when the window is too small for all of them.
    ImGui::BeginChild("home_rows", ImVec2(0, 0), false);
    // Each row is as tall as its picture or its words, whichever is taller. The pictures take the
    // largest height (up to 7 lines) at which every row still fits without scrolling.
    const float row_w = ImGui::GetContentRegionAvail().x;  // less a scrollbar, when there is one
    const float avail_h = ImGui::GetContentRegionAvail().y;
    const float min_pic_h = fs * 2.5f, max_pic_h = fs * 7.0f;
    auto pic_width = [&](float pic_h) { return std::min(pic_h * 2.2f, row_w * 0.3f); };  // about 2:1, at most a third
    auto text_width = [&](float pic_h) { return std::max(fs * 4.0f, row_w - pic_width(pic_h) - pad * 4); };
    auto words_height = [&](const HomeEntry& e, ImFont* title_font, float text_w) {
        return title_font->CalcTextSizeA(title_font->FontSize, 1e9f, text_w, e.title.c_str()).y + style.ItemSpacing.y +
               ImGui::CalcTextSize(e.summary.c_str(), nullptr, false, text_w).y;
    };
    auto rows_height = [&](float pic_h, ImFont* title_font) {
        float total = style.ItemSpacing.y * static_cast<float>(n - 1);
        for (const HomeEntry& e : entries) total += std::max(pic_h, words_height(e, title_font, text_width(pic_h))) + 2 * pad;
        return total;
    };
    // The bold headline font for the titles when every row fits with it on one line; else the body font.
    ImFont* title_font = big;
    for (const HomeEntry& e : entries)
        if (big->CalcTextSizeA(big->FontSize, 1e9f, 0.0f, e.title.c_str()).x > text_width(min_pic_h)) title_font = ImGui::GetFont();
    if (rows_height(min_pic_h, title_font) > avail_h) title_font = ImGui::GetFont();
    float lo = min_pic_h, hi = max_pic_h;
    if (rows_height(hi, title_font) <= avail_h) lo = hi;
    for (int k = 0; k < 16 && hi - lo > 1.0f; ++k) {
        const float mid = (lo + hi) * 0.5f;
        (rows_height(mid, title_font) <= avail_h ? lo : hi) = mid;
    }
    const float pic_h = lo, pic_w = pic_width(lo), text_w = text_width(lo);

    int clicked = -1;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    for (int i = 0; i < n; ++i) {
        const HomeEntry& e = entries[static_cast<std::size_t>(i)];
        const float words_h = words_height(e, title_font, text_w);
        const float row_h = std::max(pic_h, words_h) + 2 * pad;
        const ImVec2 p = ImGui::GetCursorScreenPos();
        ImGui::PushID(i);
        if (ImGui::InvisibleButton("row", ImVec2(row_w, row_h))) clicked = i;
        ImGui::PopID();
        const std::string hook = "home_" + e.id;
        items.note(hook);
        const bool hovered = ImGui::IsItemHovered();
        const ImVec2 q(p.x + row_w, p.y + row_h);
        fill_opaque(view, dl, p, q, th.panel);
        if (hovered) dl->AddRectFilled(p, q, fade(th.accent, 0.12f));
        if (i == selected || hovered) dl->AddRect(p, q, th.accent, 0.0f, 0, 2.0f);
        draw_lesson_picture(th, e.id, ImVec2(p.x + pad, p.y + pad), ImVec2(p.x + pad + pic_w, q.y - pad));

        // The words, as real items, so they wrap inside the row and a test can measure them.
        const float text_x = p.x + pic_w + pad * 3;
        ImGui::SetCursorScreenPos(ImVec2(text_x, p.y + (row_h - words_h) * 0.5f));
        ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + text_w);
        ImGui::PushFont(title_font);
        ImGui::PushStyleColor(ImGuiCol_Text, th.text);
        ImGui::TextUnformatted(e.title.c_str());
        ImGui::PopStyleColor();
        ImGui::PopFont();
        ImGui::SetCursorScreenPos(ImVec2(text_x, ImGui::GetCursorScreenPos().y));
        ImGui::PushStyleColor(ImGuiCol_Text, th.text_dim);
        ImGui::TextUnformatted(e.summary.c_str());
        ImGui::PopStyleColor();
        ImGui::PopTextWrapPos();
        ImGui::SetCursorScreenPos(ImVec2(p.x, q.y + (i + 1 < n ? style.ItemSpacing.y : 0.0f)));
    }
    ImGui::Dummy(ImVec2(0, 0));  // the child's content ends at the last row
    ImGui::EndChild();
    return clicked;
}

}  // namespace m2m::ui
