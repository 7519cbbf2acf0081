// Explain it back's picture on the home screen: a question, and a checklist with two ideas ticked.
#include <algorithm>

#include "lessons/explain/explain_panel.hpp"

namespace m2m::lessons {

void ExplainPanel::draw_home_picture(const ui::Theme& th, ImDrawList* dl, ImVec2 a, ImVec2 b) const {
    const float w = b.x - a.x, h = b.y - a.y;
    const ImVec2 qa(a.x, a.y), qb(a.x + w * 0.4f, a.y + h * 0.78f);
    dl->AddRectFilled(qa, qb, ui::fade(th.accent, 0.15f), 8.0f);
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
                          ui::fade(th.text_dim, k < 2 ? 0.8f : 0.35f), box * 0.15f);
    }
}

}  // namespace m2m::lessons
