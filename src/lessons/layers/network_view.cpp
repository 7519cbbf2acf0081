// The network drawing shared by the lessons: neurons as circles or strips, edges as lines or bands.
#include "lessons/layers/network_view.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "ui/fonts.hpp"
#include "ui/geometry.hpp"
#include "ui/theme.hpp"

namespace m2m::ui {

namespace {

// One layer: its neurons' centres when they are drawn one by one, else a strip; either way the
// column's extent, from `top` to `bottom` on its centre line.
struct Column {
    bool strip;
    std::vector<glm::vec2> centres;
    glm::vec2 top, bottom;
};

Column layout_column(int width, float x, float top, float bottom, float radius) {
    Column c{width > max_drawn_neurons, {}, {x, top}, {x, bottom}};
    if (!c.strip) {
        const float gap = glm::min(radius * 3.0f, (bottom - top) / static_cast<float>(std::max(width, 1)));
        const glm::vec2 first(x, glm::mix(top, bottom, 0.5f) - gap * static_cast<float>(width - 1) * 0.5f);
        for (int i = 0; i < width; ++i) c.centres.push_back(first + glm::vec2(0.0f, gap * static_cast<float>(i)));
        c.top = c.centres.front() - glm::vec2(0.0f, radius);
        c.bottom = c.centres.back() + glm::vec2(0.0f, radius);
    }
    return c;
}

// Half a strip's width: a strip is 1.6 neuron radii wide.
float strip_half_width(float radius) { return radius * 1.6f * 0.5f; }

ImU32 state_colour(const Theme& th, NeuronState s, ImU32 machine) {
    switch (s) {
    case NeuronState::active: return machine;
    case NeuronState::done: return fade(machine, 0.45f);
    default: return th.idle;
    }
}

// Edges between two columns: a line each when both are drawn neuron by neuron and there are few;
// else one translucent band stands for every edge between the two layers. The band starts where
// a strip's opaque rectangle ends (`strip_half`: half a strip's width), not at its centre line:
// under llvmpipe every pixel drawn costs, even one drawn over again (the widest network's bands
// and strips took ~6 ms of an 18 ms frame).
void draw_edges(ImDrawList* dl, const Column& p, const Column& c, bool few, ImU32 edge, float strip_half) {
    if (!p.strip && !c.strip && few) {
        for (glm::vec2 from : p.centres)
            for (glm::vec2 to : c.centres) dl->AddLine(to_im(from), to_im(to), edge, 1.0f);
        return;
    }
    // One pixel under each strip's edge, so that the band's anti-aliased side never shows a seam.
    const float under = std::max(0.0f, strip_half - 1.0f);
    const glm::vec2 in_p(p.strip ? under : 0.0f, 0.0f), in_c(c.strip ? under : 0.0f, 0.0f);
    const glm::vec2 pt = p.top + in_p, pb = p.bottom + in_p, ct = c.top - in_c, cb = c.bottom - in_c;
    // Where a side moves from a strip's edge, its top and bottom follow the band's slant.
    const auto at = [&](glm::vec2 a, glm::vec2 b, glm::vec2 q) {
        return b.x > a.x ? glm::mix(a, b, (q.x - a.x) / (b.x - a.x)) : q;
    };
    if (ct.x <= pt.x) return;  // the strips touch: no gap to fill
    dl->AddQuadFilled(to_im(at(p.top, c.top, pt)), to_im(at(p.top, c.top, ct)), to_im(at(p.bottom, c.bottom, cb)),
                      to_im(at(p.bottom, c.bottom, pb)), fade(edge, 0.5f));
}

// A strip: filled up to the share of the layer that is done, the bright band above that what is
// being computed right now. Square corners: a rounded rectangle is ~40 anti-aliased triangles, a
// square one 2, and the widest network draws 54 strips a frame (it shows under software GL).
void draw_strip(const Theme& th, ImDrawList* dl, const Column& c, float radius, bool input, int width, int done, int active,
                ImU32 colour) {
    const glm::vec2 half(strip_half_width(radius), 0.0f);
    const glm::vec2 s0 = c.top - half, s1 = c.bottom + half;
    if (input || width <= 0) {
        dl->AddRectFilled(to_im(s0), to_im(s1), input ? th.done_dim : th.idle);
        return;
    }
    // Each pixel once: the done part (the machine's colour at 45% over the idle grey, as one opaque
    // colour), the band being computed, then the idle rest.
    const float done_y = glm::mix(s0.y, s1.y, static_cast<float>(done) / static_cast<float>(width));
    const float act_h = (s1.y - s0.y) * static_cast<float>(active) / static_cast<float>(width);
    const float act_end = act_h > 0 ? std::min(s1.y, done_y + glm::max(act_h, 2.0f)) : done_y;
    const ImU32 done_colour = blend_over(ImGui::ColorConvertU32ToFloat4(fade(colour, 0.45f)), ImGui::ColorConvertU32ToFloat4(th.idle));
    if (done_y > s0.y) dl->AddRectFilled(to_im(s0), ImVec2(s1.x, done_y), done_colour);
    if (act_end > done_y) dl->AddRectFilled(ImVec2(s0.x, done_y), ImVec2(s1.x, act_end), colour, 0.0f);
    if (s1.y > act_end) dl->AddRectFilled(ImVec2(s0.x, act_end), to_im(s1), th.idle);
}

// Hovering a neuron shows its dot product: one weight per neuron of the layer before it.
void hover_neuron(const NetworkFrame& f, const Column& c, std::size_t l, float radius) {
    if (l == 0 || !ImGui::IsWindowHovered()) return;
    const ImVec2 m = ImGui::GetIO().MousePos;
    for (std::size_t i = 0; i < c.centres.size(); ++i) {
        const float ddx = m.x - c.centres[i].x, ddy = m.y - c.centres[i].y;
        if (ddx * ddx + ddy * ddy > radius * radius) continue;
        const int n_in = f.widths[l - 1];
        // sigma(w1 a1 + ... + wn an + b), with a subscript one
        ImGui::SetTooltip("Layer %zu, neuron %zu: \xcf\x83(w\xe2\x82\x81" "a\xe2\x82\x81 + ... + w%d a%d + b)\n"
                          "a dot product of %d weights with the %d outputs of the layer before",
                          l, i + 1, n_in, n_in, n_in, n_in);
        return;
    }
}

}  // namespace

float neuron_radius(const NetworkFrame& f, ImVec2 a, ImVec2 b) {
    const std::size_t n = f.widths.size();
    if (n < 2) return 0;
    const float fs = ImGui::GetFontSize();
    int widest = 1;  // the tallest column drawn neuron by neuron sets the size (a strip fits any height)
    for (int w : f.widths)
        if (w <= max_drawn_neurons) widest = std::max(widest, w);
    const float h = b.y - a.y - fs * 1.5f, dx = (b.x - a.x) / static_cast<float>(n);
    // A gap of 0.2 radius between circles in the tallest column, no wider than a third of the
    // space between columns, and no larger than a board drawing needs.
    return glm::clamp(std::min(h / (2.2f * static_cast<float>(widest)), dx / 3.0f), 3.0f, fs * 2.0f);
}

float draw_network(const Theme& th, const NetworkFrame& f, ImVec2 a, ImVec2 b, std::uint32_t colour) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const std::size_t n = f.widths.size();
    if (n < 2) return 0;
    const float fs = ImGui::GetFontSize();
    const float top = a.y + fs * 0.1f, bottom = b.y - fs * 1.4f;
    const float radius = neuron_radius(f, a, b);
    const float dx = (b.x - a.x - 2 * radius) / static_cast<float>(n - 1);
    std::vector<Column> cols;
    for (std::size_t l = 0; l < n; ++l)
        cols.push_back(layout_column(f.widths[l], a.x + radius + dx * static_cast<float>(l), top, bottom, radius));

    // Edges first, under the neurons, fainter the more there are (a dense mesh reads as a tone).
    for (std::size_t l = 1; l < n; ++l) {
        const float density = std::sqrt(static_cast<float>(f.widths[l - 1]) * static_cast<float>(f.widths[l]));
        const float alpha = glm::clamp(3.0f / density, 0.2f, 0.9f);
        const ImU32 edge = f.active[l] > 0 ? fade(colour, std::max(alpha, 0.45f)) : fade(th.text_dim, alpha);
        draw_edges(dl, cols[l - 1], cols[l], f.widths[l - 1] * f.widths[l] <= max_drawn_edges, edge, strip_half_width(radius));
    }
    char buf[32];
    float label_w = 0;
    for (int w : f.widths) {
        std::snprintf(buf, sizeof buf, "%d", w);
        label_w = std::max(label_w, ImGui::CalcTextSize(buf).x);
    }
    for (std::size_t l = 0; l < n; ++l) {
        const Column& c = cols[l];
        const bool input = l == 0;
        // Each neuron one square of the atlas's disc (ui::fill_disc), not a fan of triangles.
        for (std::size_t i = 0; i < c.centres.size(); ++i) {
            fill_disc(dl, to_im(c.centres[i]), radius, input ? th.done_dim : state_colour(th, f.states[l][i], colour));
            if (!input && f.states[l][i] == NeuronState::active) dl->AddCircle(to_im(c.centres[i]), radius + 2, th.text, 0, 2.0f);
        }
        hover_neuron(f, c, l, radius);
        if (c.strip) draw_strip(th, dl, c, radius, input, f.widths[l], f.done[l], f.active[l], colour);
        // Width labels: every layer when they fit, else every k-th, and always the last (the
        // k-th before it is left out when it would sit closer to the last than k layers).
        std::snprintf(buf, sizeof buf, "%d", f.widths[l]);
        const float tw = ImGui::CalcTextSize(buf).x;
        const auto every = static_cast<std::size_t>(std::max(1, static_cast<int>(std::ceil((label_w + fs) / std::max(dx, 1.0f)))));
        if (l + 1 == n || (l % every == 0 && l + every < n))
            dl->AddText(ImVec2(std::clamp(c.top.x - tw * 0.5f, a.x, b.x - tw), bottom + fs * 0.2f), th.text_dim, buf);
    }
    return radius;
}

}  // namespace m2m::ui
