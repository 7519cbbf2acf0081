// The rack drawing: nodes as boards of GPUs around their NVSwitch, each GPU's NIC, a leaf switch
// per rack and the spine above them, with the links a transfer is crossing lit up.
#pragma once

#include <imgui.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "m2m/core/rack/topology.hpp"
#include "ui/geometry.hpp"
#include "ui/item_registry.hpp"
#include "ui/theme.hpp"

namespace m2m::ui {

/// An axis-aligned rectangle in screen pixels.
struct Box {
    glm::vec2 min, max;
    bool contains(glm::vec2 p) const { return glm::all(glm::greaterThanEqual(p, min)) && glm::all(glm::lessThan(p, max)); }
    glm::vec2 centre() const { return glm::mix(min, max, 0.5f); }
    glm::vec2 size() const { return max - min; }
    float width() const { return max.x - min.x; }
    float height() const { return max.y - min.y; }
};

/// Where every part of a cluster sits inside one rectangle. Racks stand side by side; with two
/// racks the spine stands between them, level with their leaves (more racks: above them). In
/// each rack the leaf switch runs along the top and the nodes sit in two columns either side of
/// the cable trunk down the middle. A node is a board: its GPUs in one row above the NVSwitch,
/// or half above and half below when that gives bigger GPUs; each GPU's NIC sits on the board's
/// outer edge, on the rail that leads to the trunk.
///
/// Zoomed (when the whole cluster would leave the GPUs too small for their numbers): only some
/// nodes are boards; each rack's other nodes are one summary box ("6 more nodes"), and a rack
/// with none shown is a narrow column that is all summary. A GPU not shown has its summary box
/// as its box, and its wires end at the summary's top, where the trunk meets it.
struct RackLayout {
    core::ClusterShape shape;
    std::vector<Box> gpus, nics;       ///< per GPU
    std::vector<float> rail_y;         ///< per GPU: the rail its NIC sits on
    std::vector<std::uint8_t> upper;   ///< per GPU: 1 above its NVSwitch, 0 below
    std::vector<Box> nodes, nvswitches;  ///< per node
    std::vector<Box> racks, leaves;    ///< per rack
    std::vector<float> trunk_x;        ///< per rack: the cable trunk up to the leaf
    Box spine;
    bool spine_between = false;  ///< two racks: the spine between them, else above them
    std::vector<std::uint8_t> shown;   ///< per node: drawn as a board (else inside its rack's summary)
    std::vector<Box> summaries;        ///< per rack: the box standing for its nodes not shown; empty when none
    bool zoomed = false;       ///< some nodes are summarised
    bool readable = false;     ///< the GPUs are boxes a reader can tell apart: 1.6 lines wide, one line high
    bool gpu_labels = false;   ///< the GPUs are big enough to carry their number
    bool node_labels = false;  ///< the NVSwitch bars are tall enough for "NVSwitch · node 3"
    float gpu_label_px = 0;    ///< the size GPU numbers are drawn at (the font's); 0 when they are not
    bool top_row(core::GpuId g) const { return upper[g] != 0; }
    bool node_shown(std::uint32_t n) const { return shown[n] != 0; }
    bool gpu_shown(core::GpuId g) const { return shown[g / shape.gpus_per_node] != 0; }
    std::uint32_t hidden_in(std::uint32_t rack) const;  ///< nodes of `rack` inside its summary
    /// Zoomed with none of its nodes shown: the rack is one box on the top row, its leaf included.
    bool compact(std::uint32_t rack) const { return zoomed && hidden_in(rack) == shape.nodes_per_rack; }
};

/// Lays the cluster out in [a, b], using the current ImGui font's size: every node, when that
/// leaves the GPUs readable (big enough to carry their numbers, or 1.6 lines wide and a line
/// high); else zoomed onto as many of the `focus` nodes (most important first) as leave the GPUs
/// their numbers, the rest summarised.
RackLayout layout_rack(const core::ClusterShape& shape, ImVec2 a, ImVec2 b, const std::vector<std::uint32_t>& focus = {});
/// Only the nodes in `shown` (per node, 1 or 0) as boards, the rest summarised (rack_zoom.cpp);
/// `stacked`: racks of boards one above the other, each the whole width, instead of side by side.
RackLayout layout_zoomed(const core::ClusterShape& shape, glm::vec2 a, glm::vec2 b, const std::vector<std::uint8_t>& shown,
                         bool stacked = false);

/// One directed link as a polyline from its sending end to its receiving end (2 or 3 points).
int link_points(const RackLayout& l, const core::Cluster& c, core::LinkId id, glm::vec2 out[3]);

enum class GpuMark : std::uint8_t { none, member, from, to };

/// What to light this frame, filled by paint_transfer (or by hand) and read by draw_rack.
struct RackPaint {
    enum : std::uint8_t { ahead = 1, passed = 2 };
    std::vector<std::uint8_t> link_state;  ///< per link: bits ahead / passed (on some route)
    std::vector<float> lit_from, lit_to;   ///< per link: the stretch carrying data now, 0..1 from its sending end
    std::vector<GpuMark> gpu_mark;         ///< per GPU
    std::vector<float> gpu_fill;           ///< per GPU: share of a tensor it holds, 0..1; < 0 for none
    std::vector<glm::vec2> heads;          ///< the front of each tensor still on its way
    std::vector<glm::vec2> pulses;         ///< small marks moving along lit stretches while bytes flow
    int hovered = -1;                      ///< GPU under the mouse, outlined; -1 for none
    bool tags_inward = false;              ///< "from"/"to" tags on the NVSwitch side, not the NIC side
    void reset(const core::Cluster& c);
};

/// Paints one pipelined (cut-through) transfer `t` seconds after it began. Its head crosses each
/// hop during that hop's latency, as the core charges it; its tail follows `bandwidth_s` later
/// (bytes / bottleneck); every stretch between the two carries data. With `pulses`, marks move
/// along the lit stretches in step with the bytes delivered, so a slower link visibly flows slower.
void paint_transfer(RackPaint& p, const RackLayout& l, const core::Cluster& c, const core::Route& r, double t,
                    double bandwidth_s, bool pulses);

/// Draws the cluster and the paint into the current window (nothing but draw-list calls).
void draw_rack(const Theme& th, const RackLayout& l, const core::Cluster& c, const RackPaint& p);

/// One invisible button per GPU, so a person (or xdotool) can click them; each GPU's rectangle
/// is noted in `items` as "gpu_<id>" for the window tests. Leaves the cursor below the drawing.
struct RackInput {
    std::optional<core::GpuId> clicked, hovered;
    std::optional<std::uint32_t> summary_clicked, summary_hovered;  ///< a rack's summary box (noted "rack_summary_<r>")
};
RackInput rack_buttons(ItemRegistry& items, const RackLayout& l, ImVec2 a, ImVec2 b);

}  // namespace m2m::ui
