// What the rack drawing's files share: how a node's board is sized and placed (the full drawing
// and the zoomed one), a summary box's words, and walking along an axis-aligned wire.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "lessons/rack/rack_view.hpp"

namespace m2m::ui::rack_board {

/// Inside a board, top to bottom: NIC, GPU, NVLink stubs, NVSwitch (and, with two rows of GPUs,
/// stubs, GPU, NIC again). What every board of a layout shares, and the sizes chosen from it.
struct BoardSpace {
    float fs, node_w, node_h;
    float ip, g1, nic_h, gap, max_gh;   ///< inner padding, GPU-to-NIC gap, NIC height, GPU gap, tallest GPU
    std::uint32_t per_node, top_count;  ///< GPUs on a board, and in its upper row when there are two
};
struct Board {
    int gpu_rows;
    std::uint32_t cols;
    float gw, gh, stub, sw;  ///< GPU width and height, NVLink stub length, NVSwitch bar height
    float content(const BoardSpace& s) const { return static_cast<float>(gpu_rows) * (s.nic_h + s.g1 + gh + stub) + sw; }
};

/// What sits around the racks: switch bars `bar_h` tall (they carry a label), padding, the
/// spine's width and the gap between racks (room for the spine when it stands between two).
struct Frame {
    float fs, bar_h, pad, spine_w, rack_gap;
};
/// The frame for `l.shape` at the current font size; sets l.spine_between.
Frame rack_frame(RackLayout& l);
/// Places the spine for racks side by side from a.x to b.x, the first `first_w` and the last
/// `last_w` wide; returns the top of the racks (below the spine when it stands above them).
float place_spine(RackLayout& l, const Frame& f, glm::vec2 a, glm::vec2 b, float first_w, float last_w);
/// The spacing of a `node_w` x `node_h` board of `per_node` GPUs at font size `fs`.
BoardSpace board_space(float fs, float node_w, float node_h, std::uint32_t per_node);
/// One or two rows of GPUs, whichever gives the bigger GPUs (or, given the width of the widest
/// GPU number, the one whose GPUs carry it); the NVSwitch bar tall enough for its label when that
/// still leaves GPUs a line high, else at most `bar_h`.
Board choose_board(const BoardSpace& s, float bar_h, float label_w = 0);
/// Node `n`'s board with its top-left corner at `at`: its NVSwitch, and each GPU with its NIC on
/// the board's outer edge, on the rail that leads to the trunk.
void place_node(RackLayout& l, std::uint32_t n, glm::vec2 at, const BoardSpace& s, const Board& bd);
/// Sizes every per-GPU, per-node and per-rack vector of `l` for `l.shape`; every node shown.
void size_layout(RackLayout& l);
/// Sets gpu_labels, node_labels and gpu_label_px: the numbers of the GPUs drawn fit their boxes.
void set_labels(RackLayout& l, const Board& bd);
/// The words of rack `r`'s summary box, choices of lines from the longest: a rack with no node
/// shown is a column ("rack 1", "8 nodes", "× 8 GPUs"), else a strip ("6 more nodes · ...").
std::vector<std::vector<std::string>> summary_words(const RackLayout& l, std::uint32_t rack);

/// The length of an axis-aligned polyline.
inline float length_of(const glm::vec2* pts, int n) {
    float len = 0;
    for (int i = 1; i < n; ++i) len += manhattan(pts[i] - pts[i - 1]);
    return len;
}

/// The point at share f (0..1) of the way along an axis-aligned polyline.
inline glm::vec2 point_along(const glm::vec2* pts, int n, float f) {
    float left = glm::clamp(f, 0.0f, 1.0f) * length_of(pts, n);
    for (int i = 1; i < n; ++i) {
        const float seg = manhattan(pts[i] - pts[i - 1]);
        if (left <= seg || i + 1 == n) return along(pts[i - 1], pts[i], seg > 0 ? std::min(left / seg, 1.0f) : 0.0f);
        left -= seg;
    }
    return pts[0];
}

/// A wire segment as the rectangle drawn for it.
struct WireRect {
    glm::vec2 min, max;
    ImU32 col;
};
/// `rects` drawn once where they overlap: a collective's routes share rails and trunks (64 GPUs'
/// links run down one trunk), and under llvmpipe a rectangle drawn over another costs all its
/// pixels again (the 64-GPU all-reduce's routes took 4 ms of a 17 ms frame before this). Those of
/// one colour on the same line (the same extent across it) that touch or overlap along it become
/// one; the rest are kept as they are.
std::vector<WireRect> merge_wires(std::vector<WireRect> rects);

}  // namespace m2m::ui::rack_board
