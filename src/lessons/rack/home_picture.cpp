// Lesson 2's picture on the home screen: a node of 8 GPUs on NVLink, and the InfiniBand wire that
// leaves it for another node.
#include <algorithm>

#include "lessons/home_picture.hpp"
#include "lessons/rack/rack_panel.hpp"

namespace m2m::lessons {

namespace {

// One node: two rows of GPUs joined to the NVSwitch between them.
void node(const ui::Theme& th, ImDrawList* dl, ImVec2 a, ImVec2 b, int per_row) {
    const ImU32 nvlink = th.link(core::LinkType::nvlink);
    dl->AddRect(a, b, th.grid, 4.0f, 0, 1.5f);
    const float pad = std::min(b.x - a.x, b.y - a.y) * 0.1f;
    const float cell = (b.x - a.x - 2 * pad) / static_cast<float>(per_row);
    const float sq = std::min(cell * 0.7f, (b.y - a.y - 2 * pad) * 0.3f);
    const float mid = (a.y + b.y) * 0.5f;
    const float sw_h = std::max(2.0f, (b.y - a.y) * 0.08f);
    dl->AddRectFilled(ImVec2(a.x + pad, mid - sw_h * 0.5f), ImVec2(b.x - pad, mid + sw_h * 0.5f), nvlink, 1.0f);
    for (int row = 0; row < 2; ++row)
        for (int k = 0; k < per_row; ++k) {
            const float cx = a.x + pad + cell * (static_cast<float>(k) + 0.5f);
            const float y0 = row == 0 ? a.y + pad : b.y - pad - sq;
            dl->AddLine(ImVec2(cx, row == 0 ? y0 + sq : y0), ImVec2(cx, mid), nvlink, 1.5f);
            dl->AddRectFilled(ImVec2(cx - sq * 0.5f, y0), ImVec2(cx + sq * 0.5f, y0 + sq), th.gpu, 2.0f);
        }
}

}  // namespace

void RackPanel::draw_home_picture(const ui::Theme& th, ImDrawList* dl, ImVec2 a, ImVec2 b) const {
    const ImU32 nvlink = th.link(core::LinkType::nvlink), infiniband = th.link(core::LinkType::infiniband);
    const float w = b.x - a.x, lab = small_label_height();
    const float bottom = b.y - lab - 3;
    const ImVec2 n0a(a.x, a.y), n0b(a.x + w * 0.52f, bottom);
    const ImVec2 n1a(a.x + w * 0.78f, a.y + (bottom - a.y) * 0.2f), n1b(b.x, bottom - (bottom - a.y) * 0.2f);
    node(th, dl, n0a, n0b, 4);
    node(th, dl, n1a, n1b, 2);
    const float y = (a.y + bottom) * 0.5f;
    const float thick = std::max(2.5f, (bottom - a.y) * 0.05f);
    dl->AddLine(ImVec2(n0b.x, y), ImVec2(n1a.x, y), infiniband, thick);
    const float nic = thick * 1.6f;
    for (float x : {n0b.x, n1a.x}) dl->AddRectFilled(ImVec2(x - nic, y - nic), ImVec2(x + nic, y + nic), infiniband, 1.0f);
    small_label(dl, "NVLink", (n0a.x + n0b.x) * 0.5f, bottom + 2, n0b.x - n0a.x, nvlink);
    small_label(dl, "InfiniBand", (n0b.x + b.x) * 0.5f + w * 0.02f, bottom + 2, b.x - n0b.x, infiniband);
}

}  // namespace m2m::lessons
