// Lesson 3's GPU cards: one drawing of the network per GPU, what it holds solid and the rest faint,
// the layer it works on lit, the exchange it takes part in outlined, and the core's words for it.
//
// [SECTION] the cards   [SECTION] header   [SECTION] the network   [SECTION] footer
#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "lessons/split/split_panel.hpp"
#include "lessons/split/split_panel_parts.hpp"
#include "ui/view.hpp"
#include "ui/widgets.hpp"

namespace m2m::lessons {

using namespace split_ui;

namespace {

constexpr int max_neuron_squares = 900;  // over every GPU drawing: 4 vertices each

// "hidden 2" -> "h2", "embedding" -> "emb", "output" -> "out": column labels for narrow drawings.
std::string short_layer_name(const std::string& name) {
    if (name.rfind("hidden ", 0) == 0) return "h" + name.substr(7);
    return name.substr(0, 3);
}

// Where a card's columns and neurons go: one column per layer, centred on the drawing's middle.
struct NetLayout {
    const std::vector<core::LayerInfo>* layers = nullptr;
    float left = 0, inset = 0, dx = 0, col_w = 0, pitch = 0, mid = 0;
    int labels = 0;  // 2: full layer names under the columns, 1: short ones, 0: none

    float col_x(int l) const { return left + inset + dx * static_cast<float>(l); }
    float neuron_y(int l, int i) const {
        const int n = (*layers)[static_cast<std::size_t>(l)].neurons;
        return mid - pitch * static_cast<float>(n) * 0.5f + pitch * static_cast<float>(i);
    }
};

// Column labels: the layer names, else short ones ("h2"), else none; the outer columns move in
// far enough for their labels to sit centred under them.
NetLayout layout_net(const std::vector<core::LayerInfo>& layers, float left, float inner_w, float top, float bottom,
                     bool show_labels) {
    const float fs = ImGui::GetFontSize();
    NetLayout n;
    n.layers = &layers;
    n.left = left;
    const int count = static_cast<int>(layers.size());
    int widest = 1;
    for (const core::LayerInfo& l : layers) widest = std::max(widest, l.neurons);
    n.pitch = std::min(fs * 0.5f, std::max(bottom - top, 1.0f) / static_cast<float>(widest));
    n.col_w = std::clamp(inner_w / static_cast<float>(count) * 0.22f, 4.0f, fs * 0.9f);
    float label_w = 0, short_w = 0;
    for (const core::LayerInfo& l : layers) {
        label_w = std::max(label_w, ImGui::CalcTextSize(l.name.c_str()).x);
        short_w = std::max(short_w, ImGui::CalcTextSize(short_layer_name(l.name).c_str()).x);
    }
    const float steps = static_cast<float>(std::max(count - 1, 1));
    auto spacing_with = [&](float w) { return (inner_w - n.col_w - std::max(0.0f, w - n.col_w)) / steps; };
    const float gap_w = fs * 0.4f;
    n.labels = !show_labels                                 ? 0
               : label_w + gap_w <= spacing_with(label_w)   ? 2
               : short_w + gap_w <= spacing_with(short_w)   ? 1
                                                            : 0;
    n.inset = n.labels == 2 ? std::max(0.0f, (label_w - n.col_w) * 0.5f)
              : n.labels == 1 ? std::max(0.0f, (short_w - n.col_w) * 0.5f)
                              : 0.0f;
    n.dx = (inner_w - n.col_w - 2 * n.inset) / steps;
    n.mid = (top + bottom) * 0.5f;
    return n;
}

// One layer's column: the neurons in `held` drawn `on`, the rest `rest` (faint, or lit while borrowed).
void draw_column(ImDrawList* dl, const NetLayout& n, int l, core::NeuronRange r, bool per_neuron, ImU32 on, ImU32 rest) {
    const int count = (*n.layers)[static_cast<std::size_t>(l)].neurons;
    const float x0 = n.col_x(l), x1 = x0 + n.col_w;
    if (per_neuron) {  // room for every neuron: one small square each
        for (int i = 0; i < count; ++i) {
            const float yy = n.neuron_y(l, i);
            dl->AddRectFilled(ImVec2(x0, yy), ImVec2(x1, yy + n.pitch - 1.0f), r.contains(i) ? on : rest);
        }
        return;
    }
    // Too small: the held run and the runs around it, three rectangles at most.
    if (r.first > 0) dl->AddRectFilled(ImVec2(x0, n.neuron_y(l, 0)), ImVec2(x1, n.neuron_y(l, r.first)), rest);
    if (r.count > 0) dl->AddRectFilled(ImVec2(x0, n.neuron_y(l, r.first)), ImVec2(x1, n.neuron_y(l, r.end())), on);
    if (r.end() < count) dl->AddRectFilled(ImVec2(x0, n.neuron_y(l, r.end())), ImVec2(x1, n.neuron_y(l, count)), rest);
}

// The layer names under the columns, dimmer under the layers this GPU holds nothing of.
void draw_layer_labels(ImDrawList* dl, const NetLayout& n, const std::vector<core::NeuronRange>& held, ImVec2 a, ImVec2 b,
                       float y, ImU32 colour) {
    const float pad = ImGui::GetFontSize() * 0.4f;
    for (int l = 0; l < static_cast<int>(n.layers->size()); ++l) {
        const std::string& name = (*n.layers)[static_cast<std::size_t>(l)].name;
        const std::string text = n.labels == 2 ? name : short_layer_name(name);
        const float tw = ImGui::CalcTextSize(text.c_str()).x;
        const float cx = n.col_x(l) + n.col_w * 0.5f;
        dl->AddText(ImVec2(std::clamp(cx - tw * 0.5f, a.x + pad, b.x - pad - tw), y + ImGui::GetFontSize() * 0.1f),
                    held[static_cast<std::size_t>(l)].count > 0 ? colour : ui::fade(colour, 0.5f), text.c_str());
    }
}

}  // namespace

// [SECTION] the cards -----------------------------------------------------------------------

void SplitPanel::draw_gpus(float height) {
    const float fs = ImGui::GetFontSize();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float w = ImGui::GetContentRegionAvail().x;
    const int n = static_cast<int>(m_result.gpus.size());
    const float gap = fs * 0.4f;
    // One row when every card keeps room for its header and five columns; else two rows.
    const bool one_row = n <= 4 || (w - gap * static_cast<float>(n - 1)) / static_cast<float>(n) >= fs * 4.5f;
    const int cols = one_row ? n : (n + 1) / 2;
    const int rows = (n + cols - 1) / cols;
    const float cw = (w - gap * static_cast<float>(cols - 1)) / static_cast<float>(cols);
    const float ch = (height - gap * static_cast<float>(rows - 1)) / static_cast<float>(rows);
    for (int g = 0; g < n; ++g) {
        const float x = p.x + static_cast<float>(g % cols) * (cw + gap);
        const float y = p.y + static_cast<float>(g / cols) * (ch + gap);
        draw_gpu_card(g, ImVec2(x, y), ImVec2(x + cw, y + ch));
    }
    ImGui::Dummy(ImVec2(w, height));
}

void SplitPanel::draw_gpu_card(int g, ImVec2 a, ImVec2 b) {
    const auto& th = m_ctx.view.theme;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const core::GpuCardMoment m = m_cards.moment(m_result, g, m_playback.cursor());
    ui::fill_opaque(m_ctx.view, dl, a, b, th.panel);
    dl->AddRect(a, b, m.exchange ? th.link(m.exchange->link) : th.grid, 0.0f, 0, m.exchange ? 3.0f : 1.0f);
    const float top = draw_card_header(g, m, a, b);
    draw_card_network(m, a, b, top);
    if (b.y - a.y >= ImGui::GetTextLineHeightWithSpacing() * 8.0f) draw_card_footer(g, a, b);
    if (ImGui::IsMouseHoveringRect(a, b) && ImGui::IsWindowHovered())
        ui::tooltip_wrapped(m_result.gpus[static_cast<std::size_t>(g)].sentence.c_str(), 32.0f);
}

// [SECTION] header --------------------------------------------------------------------------

// Which GPU, then where it sits and its place in the split; a short card puts what it is doing
// there instead (its place first, in letters on a narrow one).
float SplitPanel::draw_card_header(int g, const core::GpuCardMoment& m, ImVec2 a, ImVec2 b) {
    const auto& th = m_ctx.view.theme;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float fs = ImGui::GetFontSize();
    const float line = ImGui::GetTextLineHeightWithSpacing();
    const float pad = fs * 0.4f;
    const float inner_w = b.x - a.x - 2 * pad;
    const core::GpuCardWords& w = m_cards.words(g);
    const ImU32 say_colour = m.kernel     ? ui::bar_kind_colour(th, bar_kind(m.kernel->kind))
                             : m.exchange ? th.link(m.exchange->link)
                                          : th.text_dim;
    float y = a.y + pad * 0.5f;
    char buf[32];
    std::snprintf(buf, sizeof buf, "GPU %d", g);
    dl->AddText(ImVec2(a.x + pad, y), th.gpu, buf);
    const float head_w = ImGui::CalcTextSize(buf).x + fs * 0.5f;
    if (b.y - a.y >= line * 6.5f) {  // a line of its own for what it is doing
        if (const std::string* r = first_fitting(w.roles, inner_w - head_w))
            dl->AddText(ImVec2(a.x + pad + head_w, y), th.text_dim, r->c_str());
        y += line;
        if (const std::string* s = first_fitting(m.doing, inner_w)) dl->AddText(ImVec2(a.x + pad, y), say_colour, s->c_str());
    } else if (!w.places.empty()) {
        if (const std::string* who = first_fitting(w.places, inner_w - head_w)) {
            dl->AddText(ImVec2(a.x + pad + head_w, y), th.text_dim, who->c_str());
            const float who_w = ImGui::CalcTextSize(who->c_str()).x + fs * 0.5f;
            if (const std::string* s = first_fitting(m.doing, inner_w - head_w - who_w))
                dl->AddText(ImVec2(a.x + pad + head_w + who_w, y), say_colour, s->c_str());
        } else {  // too narrow beside the name: on a line of its own
            y += line;
            const std::string* own = first_fitting(w.places, inner_w);
            dl->PushClipRect(a, b, true);
            dl->AddText(ImVec2(a.x + pad, y), th.text_dim, (own ? *own : w.places.back()).c_str());
            dl->PopClipRect();
        }
    } else if (const std::string* s = first_fitting(m.doing, inner_w - head_w)) {
        dl->AddText(ImVec2(a.x + pad + head_w, y), say_colour, s->c_str());
    }
    return y + line;
}

// [SECTION] the network ---------------------------------------------------------------------

// One column per layer; the neurons this GPU holds solid, the others faint; the layer its kernel
// works on in the kernel's colour, and the values an exchange moves outlined in its link's. FSDP's
// borrowed layer shows whole: the other shards lit, in the link's colour while they arrive.
void SplitPanel::draw_card_network(const core::GpuCardMoment& m, ImVec2 a, ImVec2 b, float y) {
    const auto& th = m_ctx.view.theme;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float fs = ImGui::GetFontSize(), line = ImGui::GetTextLineHeightWithSpacing(), pad = fs * 0.4f;
    const float card_h = b.y - a.y;
    const bool show_labels = card_h >= line * 5.0f;
    const float net_top = y + fs * 0.2f;
    const float net_bottom = b.y - pad - (show_labels ? line : 0) - (card_h >= line * 8.0f ? line : 0);
    const auto& layers = m_result.layers;
    const NetLayout n = layout_net(layers, a.x + pad, b.x - a.x - 2 * pad, net_top, net_bottom, show_labels);
    const std::vector<core::NeuronRange>& held = *m.held;
    const ImU32 kernel_colour = m.kernel ? ui::bar_kind_colour(th, bar_kind(m.kernel->kind)) : th.gpu;
    // Level of detail: a square per neuron only while they are big enough to see and few
    // enough to stay cheap under software GL; else each column is at most three runs.
    int neurons = 0;
    for (const core::LayerInfo& l : layers) neurons += l.neurons;
    const bool per_neuron = n.pitch >= 4.0f && neurons * static_cast<int>(m_result.gpus.size()) <= max_neuron_squares;
    const ImU32 faint = ui::fade(th.idle, 0.55f), solid = ui::fade(th.gpu, 0.6f);
    const ImU32 lit = m.borrowed_arriving ? ui::fade(th.link(m.borrowed_link), 0.6f) : ui::fade(kernel_colour, 0.45f);
    const bool sharded = m_result.degrees.sharded && m_result.degrees.data > 1;
    // Bands first: each neuron it computes reads every value of the layer before (FSDP: every
    // neuron of the layer it has borrowed, and no other).
    for (int l = 1; l < static_cast<int>(layers.size()); ++l) {
        const core::NeuronRange r = !sharded ? held[static_cast<std::size_t>(l)]
                                    : l == m.borrowed_layer ? core::NeuronRange{0, layers[static_cast<std::size_t>(l)].neurons}
                                                            : core::NeuronRange{};
        if (r.count == 0) continue;
        const int prev = layers[static_cast<std::size_t>(l - 1)].neurons;
        const ImU32 c = l == m.active_layer ? ui::fade(kernel_colour, 0.35f) : ui::fade(th.gpu, 0.12f);
        dl->AddQuadFilled(ImVec2(n.col_x(l - 1) + n.col_w, n.neuron_y(l - 1, 0)), ImVec2(n.col_x(l), n.neuron_y(l, r.first)),
                          ImVec2(n.col_x(l), n.neuron_y(l, r.end())), ImVec2(n.col_x(l - 1) + n.col_w, n.neuron_y(l - 1, prev)), c);
    }
    for (int l = 0; l < static_cast<int>(layers.size()); ++l) {
        const core::NeuronRange r = held[static_cast<std::size_t>(l)];
        const ImU32 on = (l == m.active_layer || (m.updating && r.count > 0)) ? kernel_colour : solid;
        draw_column(dl, n, l, r, per_neuron, on, l == m.borrowed_layer ? lit : faint);
        if (m.exchange && m.exchange->layer == l)  // the values (FSDP: the weights) this exchange moves
            dl->AddRect(ImVec2(n.col_x(l) - 3, n.neuron_y(l, 0) - 3),
                        ImVec2(n.col_x(l) + n.col_w + 3, n.neuron_y(l, layers[static_cast<std::size_t>(l)].neurons) + 2),
                        th.link(m.exchange->link), 2.0f, 0, 2.5f);
    }
    if (m.exchange && m.exchange->layer < 0)  // gradients of every parameter it holds
        dl->AddRect(ImVec2(a.x + pad * 0.5f, net_top - 2), ImVec2(b.x - pad * 0.5f, net_bottom + 2), th.link(m.exchange->link),
                    3.0f, 0, 2.0f);
    if (n.labels > 0) draw_layer_labels(dl, n, held, a, b, net_bottom, th.text_dim);
}

// [SECTION] footer --------------------------------------------------------------------------

void SplitPanel::draw_card_footer(int g, ImVec2 a, ImVec2 b) {
    const float pad = ImGui::GetFontSize() * 0.4f, line = ImGui::GetTextLineHeightWithSpacing();
    if (const std::string* s = first_fitting(m_cards.words(g).footer, b.x - a.x - 2 * pad))
        ImGui::GetWindowDrawList()->AddText(ImVec2(a.x + pad, b.y - pad * 0.5f - line + (line - ImGui::GetFontSize()) * 0.5f),
                                            m_ctx.view.theme.text, s->c_str());
}

}  // namespace m2m::lessons
