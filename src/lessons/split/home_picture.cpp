// Lesson 3's picture on the home screen: one network cut in two, each half on its own GPU, values
// crossing the cut.
#include <algorithm>
#include <tuple>

#include "lessons/home_picture.hpp"
#include "lessons/split/split_panel.hpp"

namespace m2m::lessons {

void SplitPanel::draw_home_picture(const ui::Theme& th, ImDrawList* dl, ImVec2 a, ImVec2 b) const {
    const float w = b.x - a.x, lab = small_label_height(), gap = w * 0.1f;
    const float half = (w - gap) * 0.5f;
    const ImVec2 g0a(a.x, a.y), g0b(a.x + half, b.y), g1a(b.x - half, a.y), g1b(b.x, b.y);
    for (const auto& [p, q, name] : {std::tuple{g0a, g0b, "GPU 0"}, std::tuple{g1a, g1b, "GPU 1"}}) {
        dl->AddRectFilled(p, q, ui::fade(th.gpu, 0.08f), 4.0f);
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
                dl->AddLine(at(l - 1, i), at(l, j), crossing ? th.link(core::LinkType::nvlink) : ui::fade(th.grid, 0.8f), crossing ? 1.5f : 1.0f);
    }
    for (int l = 0; l < 4; ++l)
        for (int i = 0; i < widths[l]; ++i) dl->AddCircleFilled(at(l, i), r, th.gpu, 10);
}

}  // namespace m2m::lessons
