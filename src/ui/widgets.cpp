// Shared widgets drawn with ImGui's draw lists: cheap under software GL (few vertices each).
// The readouts are in readouts.cpp, the playback rows and time bars in playback_controls.cpp.
//
// [SECTION] layouts for narrow panels   [SECTION] markers, tooltips, text   [SECTION] log-log plot
#include "ui/widgets.hpp"

#include <imgui_internal.h>  // ActivateItem: a click on a label gives its field the keyboard

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>

#include "ui/theme.hpp"
#include "ui/view.hpp"

namespace m2m::ui {

// [SECTION] layouts for narrow panels -------------------------------------------------------

void same_line_if_fits(float w, float spacing) {
    const float sp = spacing < 0 ? ImGui::GetStyle().ItemSpacing.x : spacing;
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    if (ImGui::GetItemRectMax().x + sp + w <= right) ImGui::SameLine(0, sp);
}

bool beside_if_fits(float w, float spacing) {
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    if (ImGui::GetItemRectMax().x + spacing + w > right) return false;
    ImGui::SameLine(0, spacing);
    return true;
}

bool hint_if_fits(const char* text) {
    const float sp = ImGui::GetFontSize();
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    if (ImGui::GetItemRectMax().x + sp + ImGui::CalcTextSize(text).x > right) return false;
    ImGui::SameLine(0, sp);
    ImGui::TextDisabled("%s", text);
    return true;
}

float radio_width(const char* label) {
    const float text = ImGui::CalcTextSize(label, nullptr, true).x;
    return ImGui::GetFrameHeight() + (text > 0 ? ImGui::GetStyle().ItemInnerSpacing.x + text : 0.0f);
}

float button_width(const char* label) {
    return ImGui::CalcTextSize(label, nullptr, true).x + ImGui::GetStyle().FramePadding.x * 2;
}

LabelFit fit_label(const char* label, float share, float least) {
    const float avail = ImGui::GetContentRegionAvail().x;
    const float label_w = ImGui::CalcTextSize(label, nullptr, true).x;
    const float room = avail - label_w - ImGui::GetStyle().ItemInnerSpacing.x;
    const float beside = std::min(std::max(avail * share, least), room);
    if (label_w <= 0 || beside >= std::max(ImGui::GetFontSize() * 4.0f, least)) return {label, std::max(beside, 1.0f)};
    const char* end = std::strstr(label, "##");
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(label, end);
    ImGui::PopTextWrapPos();
    return {std::string("##") + label, avail, ImGui::GetItemRectMin(), ImGui::GetItemRectMax()};
}

std::string combo_preview(const std::string& name, float width) {
    const float room = width - ImGui::GetFrameHeight() - ImGui::GetStyle().FramePadding.x * 2;
    const auto fits = [&](const std::string& s) { return ImGui::CalcTextSize(s.c_str()).x <= room; };
    if (fits(name)) return name;
    // The maker goes first: cut at the end, "NVIDIA A100 SXM 80GB" read "NVIDIA A10…", the name of
    // another GPU; "A100 SXM…" keeps the part that tells them apart.
    std::string cut = name;
    for (const char* maker : {"NVIDIA ", "AMD ", "Intel ", "Google ", "Apple "})
        if (cut.rfind(maker, 0) == 0) cut.erase(0, std::char_traits<char>::length(maker));
    if (fits(cut)) return cut;
    while (!cut.empty() && !fits(cut + "\xe2\x80\xa6")) {
        cut.pop_back();
        while (!cut.empty() && (static_cast<unsigned char>(cut.back()) & 0xC0) == 0x80) cut.pop_back();  // whole UTF-8
        if (!cut.empty() && (static_cast<unsigned char>(cut.back()) & 0xC0) == 0xC0) cut.pop_back();
    }
    return cut + "\xe2\x80\xa6";
}

void label_focuses_field(const LabelFit& fit) {
    if (ImGui::IsItemActive() || !ImGui::IsMouseClicked(ImGuiMouseButton_Left)) return;
    if (GImGui->LastItemData.InFlags & ImGuiItemFlags_Disabled) return;  // a locked guess takes no typing
    // ImGui's own label beside a field is inside the field's item rectangle, but only the frame
    // takes a click; the label above is an item of its own.
    const bool beside = ImGui::IsMouseHoveringRect(ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
    const bool above = fit.above_max.x > fit.above_min.x && ImGui::IsMouseHoveringRect(fit.above_min, fit.above_max);
    if (!beside && !above) return;
    type_into_last_item();
}

void scroll_to_last_item() {
    // Out of its pane, or cut by its edge (a note half under the fold at 1024x768 and 1.5): to
    // the middle.
    const ImRect clip = GImGui->CurrentWindow->InnerClipRect;
    if (clip.Contains(ImRect(ImGui::GetItemRectMin(), ImGui::GetItemRectMax()))) return;
    ImGui::SetScrollFromPosY(ImGui::GetItemRectMin().y - ImGui::GetWindowPos().y, 0.5f);
}

void scroll_last_item_to_foot() {
    const ImRect clip = GImGui->CurrentWindow->InnerClipRect;
    if (clip.Contains(ImRect(ImGui::GetItemRectMin(), ImGui::GetItemRectMax()))) return;
    ImGui::SetScrollFromPosY(ImGui::GetItemRectMax().y - ImGui::GetWindowPos().y, 1.0f);
}

void type_into_last_item() {
    scroll_to_last_item();  // a clipped field takes no keys: in view first, active the frame after
    // SetKeyboardFocusHere(-1) does not reach a text field in ImGui 1.86; activating the item
    // by its id with a preference for text input does (as Tab or Enter on it would).
    ImGui::ActivateItem(ImGui::GetItemID());
    GImGui->NavNextActivateFlags = ImGuiActivateFlags_PreferInput;
}

// [SECTION] markers, tooltips, text ---------------------------------------------------------

void sources_marker(const std::string& text, Beside place) {
    if (place == Beside::if_fits) same_line_if_fits(ImGui::CalcTextSize("(sources)").x);
    else if (place == Beside::yes) ImGui::SameLine();
    ImGui::TextDisabled("(sources)");
    if (ImGui::IsItemHovered()) tooltip_wrapped(text.c_str(), 40.0f);
}

void tooltip_wrapped(const char* text, float width_em) {
    // Opaque even over a disabled item (a locked guess): BeginDisabled's alpha would show the
    // words behind through the tooltip.
    ImGui::PushStyleVar(ImGuiStyleVar_Alpha, 1.0f);
    ImGui::BeginTooltip();
    // Broken at spaces only: ImGui's own wrapping breaks after a '.', so "14.6 KB" became "14." and "6 KB".
    const std::string lines = wrap_at_spaces(text, ImGui::GetFontSize() * width_em);
    ImGui::TextUnformatted(lines.c_str(), lines.c_str() + lines.size());
    ImGui::EndTooltip();
    ImGui::PopStyleVar();
}

std::string wrap_at_spaces(std::string_view text, float width) {
    std::string out;
    out.reserve(text.size() + 16);
    // Unrounded advances, which add up; a line keeps a pixel spare for ImGui's rounding up.
    const ImFont* font = ImGui::GetFont();
    const float size = ImGui::GetFontSize();
    const auto measure = [&](std::size_t from, std::size_t to) {
        return font->CalcTextSizeA(size, FLT_MAX, 0.0f, text.data() + from, text.data() + to).x;
    };
    width -= 1.0f;
    std::size_t para = 0;
    for (;;) {
        const std::size_t para_end = std::min(text.find('\n', para), text.size());
        std::size_t line = para;
        for (;;) {
            // Add word after word (each with the spaces before it: ImGui adds advances, so the
            // widths sum) while the line fits; its first word goes in whatever its width.
            std::size_t fit = line;
            float line_w = 0;
            for (std::size_t pos = line; pos <= para_end;) {
                const std::size_t space = std::min(text.find(' ', pos), para_end);
                const float w = measure(fit, space);
                if (fit > line && line_w + w > width) break;
                line_w += w;
                fit = space;
                pos = space + 1;
            }
            out.append(text.substr(line, fit - line));
            line = fit;
            while (line < para_end && text[line] == ' ') ++line;
            if (line >= para_end) break;
            out.push_back('\n');
        }
        if (para_end >= text.size()) break;
        out.push_back('\n');
        para = para_end + 1;
    }
    return out;
}

void text_wrapped_coloured(ImU32 colour, const std::string& text) {
    ImGui::PushStyleColor(ImGuiCol_Text, colour);
    const std::string lines = wrap_at_spaces(text, ImGui::GetContentRegionAvail().x);
    ImGui::PushTextWrapPos(-1.0f);  // the lines are broken already: no wrapping of ImGui's on top
    ImGui::TextUnformatted(lines.data(), lines.data() + lines.size());
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
}

bool why(const char* id, const std::string& text, ImU32 colour) {
    ImGui::PushID(id);
    const bool open = ImGui::TreeNodeEx("Why?", ImGuiTreeNodeFlags_NoTreePushOnOpen);
    ImGui::PopID();
    if (open) text_wrapped_coloured(colour, text);
    return open;
}

// [SECTION] log-log plot --------------------------------------------------------------------

namespace {

// Nothing when no point is positive on both axes.
std::optional<LogLogFrame> log_log_frame(const std::vector<PlotSeries>& series, double y_reference, ImVec2 a, ImVec2 b) {
    double x0 = 1e300, x1 = 0, y0 = 1e300, y1 = 0;
    for (const auto& s : series)
        for (std::size_t i = 0; i < s.x.size(); ++i) {
            if (s.x[i] <= 0 || s.y[i] <= 0) continue;
            x0 = std::min(x0, s.x[i]), x1 = std::max(x1, s.x[i]);
            y0 = std::min(y0, s.y[i]), y1 = std::max(y1, s.y[i]);
        }
    if (y_reference > 0) y0 = std::min(y0, y_reference), y1 = std::max(y1, y_reference);
    if (x1 <= 0 || y1 <= 0) return std::nullopt;
    const double lx0 = std::floor(std::log10(x0)), lx1 = std::max(std::ceil(std::log10(x1)), lx0 + 1);
    const double ly0 = std::floor(std::log10(y0)), ly1 = std::max(std::ceil(std::log10(y1)), ly0 + 1);
    return LogLogFrame{a, b, lx0, lx1, ly0, ly1};
}

// A decade's number as a reader takes it in at a glance: 0.0001 to 100 as they are, larger with a
// metric prefix (1k, 10k, 1M, 100G: one axis never mixes "1000" with "10k"), smaller as a power of
// ten (1e-5).
void decade_label(char* buf, std::size_t n, double e) {
    const int k = static_cast<int>(std::lround(e));
    if (k >= -4 && k <= 2) {
        std::snprintf(buf, n, "%g", std::pow(10.0, k));
    } else if (k > 2 && k < 18) {
        static const char* const prefix[] = {"k", "M", "G", "T", "P"};
        static const char* const mantissa[] = {"1", "10", "100"};
        std::snprintf(buf, n, "%s%s", mantissa[k % 3], prefix[k / 3 - 1]);
    } else {
        std::snprintf(buf, n, "1e%d", k);
    }
}

// A grid line at every decade, a number at every decade that has room for one (a short plot
// over many decades labels every second or third).
void draw_log_log_grid(const Theme& th, ImDrawList* dl, const LogLogFrame& f) {
    const float fs = ImGui::GetFontSize();
    const ImVec2 a = f.a, b = f.b;
    char buf[32];
    auto label_step = [](float room_px, float label_px) {
        return room_px >= label_px ? 1 : static_cast<int>(std::ceil(label_px / std::max(room_px, 1.0f)));
    };
    decade_label(buf, sizeof buf, f.lx1);
    const int x_step = label_step((b.x - a.x) / static_cast<float>(f.lx1 - f.lx0), ImGui::CalcTextSize(buf).x + fs);
    const int y_step = label_step((b.y - a.y) / static_cast<float>(f.ly1 - f.ly0), fs * 1.1f);
    for (double e = f.lx0; e <= f.lx1; e += 1) {  // decade grid
        const ImVec2 s = f.to_screen(std::pow(10.0, e), std::pow(10.0, f.ly0));
        dl->AddLine(ImVec2(s.x, a.y), ImVec2(s.x, b.y), th.grid);
        if (static_cast<int>(e - f.lx0) % x_step != 0) continue;
        decade_label(buf, sizeof buf, e);
        const float tw = ImGui::CalcTextSize(buf).x;
        dl->AddText(ImVec2(std::min(s.x - tw * 0.5f, b.x - tw), b.y + 2), th.text_dim, buf);
    }
    for (double e = f.ly0; e <= f.ly1; e += 1) {
        const ImVec2 s = f.to_screen(std::pow(10.0, f.lx0), std::pow(10.0, e));
        dl->AddLine(ImVec2(a.x, s.y), ImVec2(b.x, s.y), th.grid);
        if (static_cast<int>(e - f.ly0) % y_step != 0) continue;
        decade_label(buf, sizeof buf, e);
        dl->AddText(ImVec2(a.x - ImGui::CalcTextSize(buf).x - 4, s.y - fs * 0.5f), th.text_dim, buf);
    }
}

// The curves, and each marker's label on a line of its own at the bottom, right of its line, under
// the rising curves (at the top a curve near its ceiling ran through them), inside the frame: the
// first of its forms that fits the frame's width.
std::vector<ImVec4> draw_log_log_curves(const Theme& th, ImDrawList* dl, const LogLogFrame& f,
                                        const std::vector<PlotSeries>& series, const std::vector<PlotMarker>& markers) {
    for (const auto& s : series) {
        std::vector<ImVec2> pts;
        for (std::size_t i = 0; i < s.x.size(); ++i)
            if (s.x[i] > 0 && s.y[i] > 0) pts.push_back(f.to_screen(s.x[i], s.y[i]));
        if (pts.size() > 1) dl->AddPolyline(pts.data(), static_cast<int>(pts.size()), s.colour, 0, s.thickness > 0 ? s.thickness : th.line_thickness + 1);
    }
    for (const auto& m : markers)  // every line first, so no line crosses a label drawn after it
        if (m.x > 0) {
            const float x = f.to_screen(m.x, std::pow(10.0, f.ly0)).x;
            dl->AddLine(ImVec2(x, f.a.y), ImVec2(x, f.b.y), m.colour, 2.0f);
        }
    const auto text_of = [&](const PlotMarker& m) {
        const char* text = m.label.c_str();  // the narrowest form given, where none fits
        for (const std::string* t : {&m.label, &m.short_label, &m.narrow_label}) {
            if (t->empty()) continue;
            text = t->c_str();
            if (ImGui::CalcTextSize(text).x <= f.b.x - f.a.x - 4) break;
        }
        return text;
    };
    float label_y = f.b.y - 2;
    for (const auto& m : markers)
        if (m.x > 0) label_y -= ImGui::CalcTextSize(text_of(m)).y;
    std::vector<ImVec4> labels;  // where each label went, so the points' labels keep clear of them
    for (const auto& m : markers) {
        if (m.x <= 0) continue;
        const float x = f.to_screen(m.x, std::pow(10.0, f.ly0)).x;
        const char* text = text_of(m);
        const ImVec2 ts = ImGui::CalcTextSize(text);
        const ImVec2 at(std::max(std::min(x + 4, f.b.x - ts.x), f.a.x + 2), label_y);
        dl->AddRectFilled(ImVec2(at.x - 2, at.y), ImVec2(at.x + ts.x + 2, at.y + ts.y), th.panel | IM_COL32_A_MASK);  // grid lines pass behind
        dl->AddText(at, m.colour, text);
        labels.push_back(ImVec4(at.x - 2, at.y, at.x + ts.x + 2, at.y + ts.y));
        label_y += ts.y;
    }
    return labels;
}

// Each point a dot, its label to its right (or left, near the right edge), moved down or up past any
// dot or label already placed (`placed`: the markers' labels) so that none is drawn over another.
void draw_log_log_points(const Theme& th, ImDrawList* dl, const LogLogFrame& f, const std::vector<PlotPoint>& points,
                         std::vector<ImVec4> placed) {
    const float fs = ImGui::GetFontSize();
    auto overlaps = [&](ImVec2 p0, ImVec2 p1) {
        for (const auto& r : placed)
            if (p0.x < r.z && p1.x > r.x && p0.y < r.w && p1.y > r.y) return true;
        return false;
    };
    const float r = fs * 0.32f;
    for (const auto& pt : points) {  // every dot first: a label goes around them all
        if (pt.x <= 0 || pt.y <= 0) continue;
        const ImVec2 c = f.to_screen(pt.x, pt.y);
        dl->AddCircleFilled(c, r, pt.colour, 12);
        dl->AddCircle(c, r, th.text, 12, 1.0f);
        placed.push_back(ImVec4(c.x - r, c.y - r, c.x + r, c.y + r));
    }
    for (const auto& pt : points) {
        if (pt.x <= 0 || pt.y <= 0 || pt.label.empty()) continue;
        const ImVec2 c = f.to_screen(pt.x, pt.y);
        const ImVec2 ts = ImGui::CalcTextSize(pt.label.c_str());
        ImVec2 at(c.x + fs * 0.5f, c.y - ts.y * 0.5f);
        if (at.x + ts.x > f.b.x) at.x = c.x - fs * 0.5f - ts.x;
        // Beside the dot if free, else a line lower, a line higher, two lower, ... inside the box.
        // Where no place in the box is free (a short plot with many labels), beside the dot: over
        // another label, but never outside the box.
        const float y0 = at.y;
        const auto inside = [&](float y) { return std::clamp(y, f.a.y, std::max(f.a.y, f.b.y - ts.y)); };
        at.y = inside(y0);
        for (int k = 1; k <= 40 && overlaps(at, ImVec2(at.x + ts.x, at.y + ts.y)); ++k)
            at.y = inside(y0 + ts.y * static_cast<float>((k + 1) / 2) * (k % 2 ? 1.0f : -1.0f));
        if (overlaps(at, ImVec2(at.x + ts.x, at.y + ts.y))) at.y = inside(y0);
        // A label moved off its dot's line gets a thin leader back to the dot, so it is never an orphan.
        if (std::abs(at.y - y0) > ts.y * 0.5f) {
            const float edge = at.x > c.x ? at.x - 2 : at.x + ts.x + 2;
            dl->AddLine(c, ImVec2(edge, at.y + ts.y * 0.5f), pt.colour, 1.0f);
        }
        dl->AddRectFilled(ImVec2(at.x - 2, at.y), ImVec2(at.x + ts.x + 2, at.y + ts.y), th.panel | IM_COL32_A_MASK);
        dl->AddText(at, pt.colour, pt.label.c_str());
        placed.push_back(ImVec4(at.x, at.y, at.x + ts.x, at.y + ts.y));
    }
}

}  // namespace

std::optional<LogLogFrame> log_log_plot(const View& view, const char* id, const std::vector<PlotSeries>& series,
                                        const std::vector<PlotMarker>& markers, const char* x_label, const char* y_label,
                                        ImVec2 size, double y_reference, const std::vector<PlotPoint>& points) {
    const Theme& th = view.theme;
    ImGui::PushID(id);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float fs = ImGui::GetFontSize();
    // The y axis's name above the frame, over its left edge: inside, in the top-left corner, the
    // ceilings and a steep curve's top ran through it on a short or narrow plot.
    const ImVec2 a(p.x + fs * 3.2f, p.y + fs * 1.1f);
    const ImVec2 b(p.x + size.x - fs * 0.5f, p.y + size.y - fs * 2.3f);
    fill_opaque(view, dl, a, b, th.panel);
    std::vector<PlotSeries> framed = series;  // the points count towards the axes' range too
    for (const auto& pt : points) framed.push_back({{pt.x}, {pt.y}, pt.colour});
    const std::optional<LogLogFrame> f = log_log_frame(framed, y_reference, a, b);
    if (f) {
        draw_log_log_grid(th, dl, *f);
        if (y_reference > 0) {
            const float y = f->to_screen(std::pow(10.0, f->lx0), y_reference).y;
            dl->AddLine(ImVec2(a.x, y), ImVec2(b.x, y), th.text_dim, 2.0f);
        }
        draw_log_log_points(th, dl, *f, points, draw_log_log_curves(th, dl, *f, series, markers));
        dl->AddText(ImVec2(a.x + fs * 0.3f, p.y), th.text_dim, y_label);
        dl->AddText(ImVec2(a.x + (b.x - a.x - ImGui::CalcTextSize(x_label).x) * 0.5f, b.y + fs * 1.2f), th.text_dim,
                    x_label);
    }
    ImGui::Dummy(size);
    ImGui::PopID();
    return f;
}

}  // namespace m2m::ui
