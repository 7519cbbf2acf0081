// The network drawing shared by the lessons: neurons as circles or strips, edges as lines or bands.
#include "lessons/layers/network_view.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "ui/theme.hpp"

namespace m2m::ui {

namespace {

struct Column {
    float x;
    bool strip;
    std::vector<float> ys;  // neuron centres when drawn one by one
    float top, bottom;      // strip extent
};

Column layout_column(int width, float x, float top, float bottom, float radius) {
    Column c{x, width > max_drawn_neurons, {}, top, bottom};
    const float mid = (top + bottom) * 0.5f;
    if (!c.strip) {
        const float gap = std::min(radius * 3.0f, (bottom - top) / static_cast<float>(std::max(width, 1)));
        const float start = mid - gap * static_cast<float>(width - 1) * 0.5f;
        for (int i = 0; i < width; ++i) c.ys.push_back(start + gap * static_cast<float>(i));
        c.top = c.ys.front() - radius;
        c.bottom = c.ys.back() + radius;
    }
    return c;
}

ImU32 state_colour(const Theme& th, NeuronState s, ImU32 machine) {
    switch (s) {
    case NeuronState::active: return machine;
    case NeuronState::done: return fade(machine, 0.45f);
    default: return th.idle;
    }
}

}  // namespace

void draw_network(const Theme& th, const NetworkFrame& f, ImVec2 a, ImVec2 b, std::uint32_t colour) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const std::size_t n = f.widths.size();
    if (n < 2) return;
    const float fs = ImGui::GetFontSize();
    const float top = a.y + fs * 0.3f, bottom = b.y - fs * 1.4f;
    const float radius = std::clamp((bottom - top) / (max_drawn_neurons * 3.0f), 3.0f, fs * 0.7f);
    const float dx = (b.x - a.x - 2 * radius) / static_cast<float>(n - 1);
    std::vector<Column> cols;
    for (std::size_t l = 0; l < n; ++l)
        cols.push_back(layout_column(f.widths[l], a.x + radius + dx * static_cast<float>(l), top, bottom, radius));

    // Edges first, under the neurons.
    for (std::size_t l = 1; l < n; ++l) {
        const Column &p = cols[l - 1], &c = cols[l];
        const bool lit = f.active[l] > 0;
        const ImU32 edge = lit ? fade(colour, 0.55f) : fade(th.grid, 0.6f);
        if (!p.strip && !c.strip && f.widths[l - 1] * f.widths[l] <= max_drawn_edges) {
            for (float y0 : p.ys)
                for (float y1 : c.ys) dl->AddLine(ImVec2(p.x, y0), ImVec2(c.x, y1), edge, 1.0f);
        } else {  // one translucent band stands for every edge between the two layers
            dl->AddQuadFilled(ImVec2(p.x, p.top), ImVec2(c.x, c.top), ImVec2(c.x, c.bottom), ImVec2(p.x, p.bottom),
                              fade(edge, 0.5f));
        }
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
        if (!c.strip) {
            for (std::size_t i = 0; i < c.ys.size(); ++i) {
                const ImU32 fill = input ? th.done_dim : state_colour(th, f.states[l][i], colour);
                dl->AddCircleFilled(ImVec2(c.x, c.ys[i]), radius, fill, 12);
            }
        } else {
            // A strip: its filled height shows how much of the layer is done, the bright
            // band how much is being computed right now.
            const float w = radius * 1.6f;
            const ImVec2 s0(c.x - w * 0.5f, c.top), s1(c.x + w * 0.5f, c.bottom);
            // Square corners: a rounded rectangle is ~40 anti-aliased triangles, a square one 2, and
            // the widest network draws 54 strips a frame (it shows under software GL).
            dl->AddRectFilled(s0, s1, input ? th.done_dim : th.idle);
            if (!input && f.widths[l] > 0) {
                const float h = s1.y - s0.y;
                const float done_h = h * static_cast<float>(f.done[l]) / static_cast<float>(f.widths[l]);
                const float act_h = h * static_cast<float>(f.active[l]) / static_cast<float>(f.widths[l]);
                dl->AddRectFilled(s0, ImVec2(s1.x, s0.y + done_h), fade(colour, 0.45f));
                if (act_h > 0)
                    dl->AddRectFilled(ImVec2(s0.x, s0.y + done_h), ImVec2(s1.x, s0.y + done_h + std::max(act_h, 2.0f)),
                                      colour, 0.0f);
            }
        }
        // Width labels: every layer when they fit, else every k-th, and always the last (the
        // k-th before it is left out when it would sit closer to the last than k layers).
        std::snprintf(buf, sizeof buf, "%d", f.widths[l]);
        const float tw = ImGui::CalcTextSize(buf).x;
        const auto every = static_cast<std::size_t>(std::max(1, static_cast<int>(std::ceil((label_w + fs) / std::max(dx, 1.0f)))));
        if (l + 1 == n || (l % every == 0 && l + every < n))
            dl->AddText(ImVec2(std::clamp(c.x - tw * 0.5f, a.x, b.x - tw), bottom + fs * 0.2f), th.text_dim, buf);
    }
}

}  // namespace m2m::ui
