// Lesson 1's picture on the home screen: the CPU takes one neuron at a time on one of a few big
// cores; the GPU lights the whole layer at once on a grid of small cores.
#include <algorithm>
#include <initializer_list>
#include <vector>

#include "lessons/home_picture.hpp"
#include "lessons/layers/layer_run_panel.hpp"

namespace m2m::lessons {

namespace {

enum class Dot { idle, done, active };

// A tiny layered network in [a, b]: columns of neurons joined by every edge.
template <class StateOf>
void mini_network(const ui::Theme& th, ImDrawList* dl, ImVec2 a, ImVec2 b, std::initializer_list<int> widths, ImU32 colour,
                  StateOf state_of) {
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
        const ImU32 edge = lit ? ui::fade(colour, 0.5f) : ui::fade(th.grid, 0.7f);
        for (int i = 0; i < w[static_cast<std::size_t>(l - 1)]; ++i)
            for (int j = 0; j < w[static_cast<std::size_t>(l)]; ++j) dl->AddLine(at(l - 1, i), at(l, j), edge, 1.0f);
    }
    for (int l = 0; l < n; ++l)
        for (int i = 0; i < w[static_cast<std::size_t>(l)]; ++i) {
            const Dot s = l == 0 ? Dot::done : state_of(l, i);
            const ImU32 fill = s == Dot::active ? colour : s == Dot::done ? ui::fade(colour, 0.45f) : th.idle;
            dl->AddCircleFilled(at(l, i), r, l == 0 ? th.done_dim : fill, 10);
        }
}

}  // namespace

void LayerRunPanel::draw_home_picture(const ui::Theme& th, ImDrawList* dl, ImVec2 a, ImVec2 b) const {
    const float w = b.x - a.x, h = b.y - a.y, gap = w * 0.06f, lab = small_label_height();
    const float half = (w - gap) * 0.5f;
    for (int side = 0; side < 2; ++side) {
        const bool gpu = side == 1;
        const ImU32 c = gpu ? th.gpu : th.cpu;
        const float x0 = a.x + (half + gap) * static_cast<float>(side), x1 = x0 + half;
        dl->AddRectFilled(ImVec2(x0, a.y), ImVec2(x1, b.y), ui::fade(c, 0.08f), 4.0f);
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

}  // namespace m2m::lessons
