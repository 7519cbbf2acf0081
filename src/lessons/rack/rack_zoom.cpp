// The zoomed rack drawing, for a window too small to show 128 GPUs with their numbers: the nodes
// that matter (a send's two ends, the first nodes of a collective's group) as large boards, each
// rack's other nodes as one summary box, and a rack with none of them as a narrow column.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "lessons/rack/rack_board.hpp"
#include "lessons/rack/rack_view.hpp"

namespace m2m::ui {

using namespace rack_board;

std::vector<std::vector<std::string>> rack_board::summary_words(const RackLayout& l, std::uint32_t rack) {
    const std::string n = std::to_string(l.hidden_in(rack)), per = std::to_string(l.shape.gpus_per_node);
    const std::string name = "rack " + std::to_string(rack);
    if (l.compact(rack))
        return {{name + " \xc2\xb7 " + n + " nodes \xc3\x97 " + per + " GPUs"}, {name + " \xc2\xb7 " + n + " nodes"}, {name}};
    const std::string more = n + (n == "1" ? " more node" : " more nodes");
    return {{"rack " + std::to_string(rack) + ": " + more + " \xc2\xb7 " + per + " GPUs each"}, {more + " \xc2\xb7 " + per + " GPUs each"},
            {more}, {n + " more", n == "1" ? "node" : "nodes"}, {"+" + n}};
}

namespace {

// How the racks with boards arrange them: in one column beside the trunk or two either side of
// it, `rows` deep, above the summary strip; and the board that gives.
struct Grid {
    std::uint32_t cols = 1, rows = 1;
    float node_w = 0, node_h = 0;
    Board board{};
};

struct ZoomPlan {
    Frame f;
    std::vector<std::uint32_t> count;  // per rack: nodes shown
    std::vector<float> x0, w;          // per rack: its place on the top row (leaf or summary box)
    std::vector<float> body_x0, body_w;  // per rack: its boards' place below
    std::vector<float> top, bottom;      // per rack: its boards' rows, top to bottom
    float rack_top = 0, body_top = 0, strip_h = 0, trunk_gap = 0, row_gap = 0;
    float side_w = 0;  // stacked: the summary is a column beside the boards, this wide
};

// A rack with no node shown is one box on the top row, as wide as its middle words where they
// leave the leaf beside it half the width (its trunk stands under it), else its shortest.
float compact_width(const RackLayout& l, const Frame& f, float most) {
    float mid = 0, shortest = 0;
    for (std::uint32_t r = 0; r < l.shape.racks; ++r) {
        if (!l.compact(r)) continue;
        const std::vector<std::vector<std::string>> words = summary_words(l, r);  // kept: an element of a temporary dies in a range-for
        mid = std::max(mid, ImGui::CalcTextSize(words[words.size() / 2].front().c_str()).x);
        shortest = std::max(shortest, ImGui::CalcTextSize(words.back().front().c_str()).x);
    }
    return std::round(std::max(std::min(mid, most), shortest) + f.fs);
}

// Stacked (two racks of boards too narrow side by side): each rack's boards take the whole width,
// the first rack's above the second's; the second's trunk runs down the right-hand edge past the
// first, whose boxes leave it that room.
ZoomPlan plan_racks(RackLayout& l, glm::vec2 a, glm::vec2 b, bool stacked) {
    ZoomPlan p{rack_frame(l), std::vector<std::uint32_t>(l.shape.racks, 0), {}, {}, {}, {}, {}, {}};
    const std::uint32_t racks = l.shape.racks;
    const float fs = p.f.fs;
    // Tighter than the full drawing: every pixel here goes to the boards.
    if (l.spine_between) p.f.rack_gap = p.f.spine_w + 2 * std::round(fs * 0.4f);
    for (std::uint32_t n = 0; n < l.shown.size(); ++n) p.count[n / l.shape.nodes_per_rack] += l.shown[n];
    const auto with_boards = static_cast<std::uint32_t>(std::count_if(p.count.begin(), p.count.end(), [](std::uint32_t c) { return c > 0; }));
    stacked = stacked && with_boards == 2;  // only two racks of boards stack; one has the whole width already
    const float gaps = p.f.rack_gap * static_cast<float>(racks - 1), room = b.x - a.x - gaps;
    const float box_w = compact_width(l, p.f, room - (b.x - a.x) * 0.5f - 3 * p.f.pad - fs);
    const float board_w = std::floor((room - box_w * static_cast<float>(racks - with_boards)) / static_cast<float>(std::max(1u, with_boards)));
    float x = a.x;
    p.trunk_gap = std::round(fs * 0.5f);
    const bool whole = with_boards == 1 || stacked;
    for (std::uint32_t r = 0; r < racks; ++r) {
        p.x0.push_back(x);
        p.w.push_back(p.count[r] > 0 ? board_w : box_w);
        // One rack of boards has the whole width below the top row; several share it.
        const bool past = stacked && r + 1 < racks;  // a later rack's trunk runs down its right
        p.body_x0.push_back(whole ? a.x : x);
        p.body_w.push_back(whole ? b.x - a.x - (past ? 2 * p.trunk_gap + p.f.pad : 0.0f) : p.w.back());
        x += p.w.back() + p.f.rack_gap;
    }
    p.rack_top = place_spine(l, p.f, a, b, p.w.front(), p.w.back());
    p.body_top = p.rack_top + p.f.pad + p.f.bar_h + std::round(fs * 0.3f);
    p.strip_h = std::round(ImGui::GetTextLineHeight() + fs * 0.2f);
    p.row_gap = std::round(fs * 0.2f);
    if (stacked) p.side_w = std::round(ImGui::CalcTextSize(("+" + std::to_string(l.shape.nodes_per_rack)).c_str()).x + fs * 0.5f);
    const float bottom = b.y - p.f.pad, share = (bottom - p.body_top) / static_cast<float>(std::max(1u, with_boards));
    float top = p.body_top;
    for (std::uint32_t r = 0; r < racks; ++r) {
        const bool own = stacked && p.count[r] > 0;
        p.top.push_back(own ? top : p.body_top);
        p.bottom.push_back(own ? std::round(top + share) - (top + share < bottom - 1 ? p.f.pad + p.row_gap : 0.0f) : bottom);
        if (own) top = std::round(top + share);
    }
    return p;
}

// One column or two, whichever gives the bigger GPUs.
Grid choose_grid(const RackLayout& l, const ZoomPlan& p) {
    core::GpuId widest = 0;
    for (core::GpuId g = 0; g < l.gpus.size(); ++g)
        if (l.gpu_shown(g)) widest = g;
    const float label_w = ImGui::CalcTextSize(std::to_string(widest).c_str()).x;
    std::uint32_t most = 1;
    float board_w = 1e9f, body_h = 1e9f;  // the narrowest and the shortest rack of boards
    for (std::uint32_t r = 0; r < l.shape.racks; ++r) {
        if (p.count[r] == 0) continue;
        most = std::max(most, p.count[r]);
        board_w = std::min(board_w, p.body_w[r]);
        const bool strip = l.hidden_in(r) > 0 && p.side_w == 0;  // stacked: the summary goes beside
        body_h = std::min(body_h, p.bottom[r] - p.top[r] - (strip ? p.strip_h + p.row_gap : 0.0f));
    }
    if (p.side_w > 0) board_w -= p.side_w + p.row_gap;
    Grid best;
    for (std::uint32_t cols = 1; cols <= std::min<std::uint32_t>(2, most); ++cols) {
        Grid g;
        g.cols = cols;
        g.rows = (most + cols - 1) / cols;
        g.node_w = std::floor((board_w - 2 * p.f.pad - 2 * p.trunk_gap) / static_cast<float>(cols));
        g.node_h = std::floor((body_h - p.row_gap * static_cast<float>(g.rows - 1)) / static_cast<float>(g.rows));
        g.board = choose_board(board_space(p.f.fs, g.node_w, g.node_h, l.shape.gpus_per_node), p.f.bar_h, label_w);
        if (cols == 1 || std::min(g.board.gw, g.board.gh) > std::min(best.board.gw, best.board.gh)) best = g;
    }
    return best;
}

// A node inside its rack's summary: every box of it is the summary, its rail the summary's top.
void hide_node(RackLayout& l, std::uint32_t n, const Box& summary) {
    l.nodes[n] = l.nvswitches[n] = summary;
    for (std::uint32_t j = 0; j < l.shape.gpus_per_node; ++j) {
        const core::GpuId g = n * l.shape.gpus_per_node + j;
        l.gpus[g] = l.nics[g] = summary;
        l.rail_y[g] = summary.min.y;
        l.upper[g] = 1;
    }
}

// A rack with no node shown: its leaf and all its nodes are one box on the top row.
void place_compact(RackLayout& l, std::uint32_t r, const ZoomPlan& p) {
    const float x0 = p.x0[r], w = p.w[r], top = p.rack_top + p.f.pad;
    l.racks[r] = l.leaves[r] = l.summaries[r] = {glm::vec2(x0, top), glm::vec2(x0 + w, top + p.f.bar_h)};
    l.trunk_x[r] = std::round(x0 + w * 0.5f);
    for (std::uint32_t i = 0; i < l.shape.nodes_per_rack; ++i) hide_node(l, r * l.shape.nodes_per_rack + i, l.summaries[r]);
}

// Rack `r` with boards: its leaf on the top row, its shown nodes as boards beside the trunk (in
// one column the trunk runs on the side toward the middle of the drawing), and the summary of
// the rest along the bottom.
void place_rack(RackLayout& l, std::uint32_t r, const ZoomPlan& p, const Grid& g) {
    if (p.count[r] == 0) return place_compact(l, r, p);
    const float bottom = p.bottom[r];
    const float x0 = p.body_x0[r], w = p.body_w[r], pad = p.f.pad;
    l.leaves[r] = {glm::vec2(p.x0[r] + pad, p.rack_top + pad), glm::vec2(p.x0[r] + p.w[r] - pad, p.rack_top + pad + p.f.bar_h)};
    const float rack_y0 = p.top[r] > p.body_top ? p.top[r] - std::round(pad * 0.5f) : l.leaves[r].max.y + std::round(pad * 0.5f);
    l.racks[r] = {glm::vec2(x0, rack_y0), glm::vec2(x0 + w, bottom + pad)};
    // In one column the trunk runs under the leaf: toward the middle of the drawing, or, for the
    // one rack of boards, on the side its leaf stands.
    const bool alone = w > p.w[r] + 1;
    const bool trunk_right = alone ? l.leaves[r].centre().x > x0 + w * 0.5f : 2 * r + 1 < l.shape.racks || l.shape.racks == 1;
    l.trunk_x[r] = std::round(g.cols == 2 ? x0 + w * 0.5f : trunk_right ? x0 + w - pad - p.trunk_gap : x0 + pad + p.trunk_gap);
    // The trunk must reach the leaf: keep it under the leaf's span.
    l.trunk_x[r] = std::clamp(l.trunk_x[r], l.leaves[r].min.x + pad, l.leaves[r].max.x - pad);
    l.summaries[r] = l.hidden_in(r) == 0 ? Box{} : Box{glm::vec2(x0 + pad, bottom - p.strip_h), glm::vec2(x0 + w - pad, bottom)};
    if (p.side_w > 0 && l.hidden_in(r) > 0) {  // stacked: a column beside the boards, on the side away from the trunk
        const float sx = trunk_right ? x0 + pad : x0 + w - pad - p.side_w;
        l.summaries[r] = {glm::vec2(sx, p.top[r]), glm::vec2(sx + p.side_w, p.top[r] + g.node_h)};
    }
    const float shift = p.side_w > 0 && trunk_right ? p.side_w + p.row_gap : 0.0f;  // boards right of the column
    const BoardSpace space = board_space(p.f.fs, g.node_w, g.node_h, l.shape.gpus_per_node);
    std::uint32_t k = 0;
    for (std::uint32_t i = 0; i < l.shape.nodes_per_rack; ++i) {
        const std::uint32_t n = r * l.shape.nodes_per_rack + i;
        if (!l.node_shown(n)) {
            hide_node(l, n, l.summaries[r]);
            continue;
        }
        const float left = g.cols == 2 ? (k % 2 == 0 ? x0 + pad : l.trunk_x[r] + p.trunk_gap)
                                       : (trunk_right ? x0 + pad + shift : l.trunk_x[r] + p.trunk_gap);
        const float y = p.top[r] + static_cast<float>(k / g.cols) * (g.node_h + p.row_gap);
        place_node(l, n, glm::vec2(left, y), space, g.board);
        ++k;
    }
}

}  // namespace

RackLayout layout_zoomed(const core::ClusterShape& shape, glm::vec2 a, glm::vec2 b, const std::vector<std::uint8_t>& shown,
                         bool stacked) {
    RackLayout l;
    l.shape = shape;
    size_layout(l);
    if (shown.size() == l.shown.size()) l.shown = shown;
    l.zoomed = true;
    const ZoomPlan p = plan_racks(l, a, b, stacked);
    const Grid g = choose_grid(l, p);
    for (std::uint32_t r = 0; r < shape.racks; ++r) place_rack(l, r, p, g);
    set_labels(l, g.board);
    return l;
}

}  // namespace m2m::ui
