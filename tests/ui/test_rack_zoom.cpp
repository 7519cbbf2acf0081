// Lesson 2's drawing at projector sizes (issue 16): when 128 GPUs would be specks, the drawing
// zooms onto the nodes that matter, their GPU numbers at the body text size, the rest of the
// cluster as summary boxes; at 1920x1080 the whole cluster stays.
#include <catch2/catch.hpp>

#include <string>

#include "headless.hpp"
#include "lessons/rack/rack_board.hpp"
#include "lessons/rack/rack_panel.hpp"
#include "ui/text_measure.hpp"

using namespace m2m;
using lessons::RackPanel;

namespace {

struct Window {
    float w, h, scale;
    ui::ThemeKind theme;
};

void run_frames(test::Headless& ui, RackPanel& panel, int frames, float dt = 1.0f / 60.0f) {
    for (int i = 0; i < frames; ++i) ui.frame([&] { panel.draw(dt); }, dt);
}

// Every GPU number the drawing drew is at least the body text size the issue asks (14 px times
// the scale), and so is every other text of the frame.
void numbers_are_readable(const RackPanel& panel, float scale) {
    INFO("GPU numbers at " << panel.layout().gpu_label_px << " px; smallest text "
                           << ui::smallest_text_px(ImGui::GetDrawData(), ImGui::GetIO().Fonts) << " px");
    CHECK(panel.layout().gpu_labels);
    CHECK(panel.layout().gpu_label_px >= 14.0f * scale);
    CHECK(ui::smallest_text_px(ImGui::GetDrawData(), ImGui::GetIO().Fonts) >= 14.0f * scale - 0.5f);
}

// Clicks at `at` (press on one frame, release on the next).
void click(test::Headless& ui, RackPanel& panel, ImVec2 at) {
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = at;
    run_frames(ui, panel, 1);
    io.MouseDown[0] = true;
    run_frames(ui, panel, 1);
    io.MouseDown[0] = false;
    run_frames(ui, panel, 2);
    io.MousePos = ImVec2(-1, -1);
}

ImVec2 centre_of(const ui::ItemRegistry& items, const std::string& name) {
    const std::optional<ImVec4> r = items.rect(name);
    return r ? ImVec2((r->x + r->z) * 0.5f, (r->y + r->w) * 0.5f) : ImVec2(-1, -1);
}

}  // namespace

TEST_CASE("at projector sizes a send's two nodes are drawn large with their numbers, the rest summarised") {
    // 1280x720 at 1.5, 1024x768 at 1.75 and 1920x1080 at 3.0: too narrow for the two racks' nodes
    // side by side, so one above the other.
    for (const Window& w : {Window{1024, 768, 1.5f, ui::ThemeKind::projector}, Window{1920, 1080, 2.0f, ui::ThemeKind::dark},
                            Window{1280, 720, 1.5f, ui::ThemeKind::projector}, Window{1024, 768, 1.75f, ui::ThemeKind::projector},
                            Window{1920, 1080, 3.0f, ui::ThemeKind::dark}}) {
        test::Headless ui(w.w, w.h, w.scale);
        ui::apply_theme(ui.context().view, w.theme, w.scale);
        RackPanel panel(ui.context());
        for (auto pick : {RackPanel::Pick::same_node, RackPanel::Pick::other_node, RackPanel::Pick::other_rack}) {
            panel.pick(pick);
            panel.send();
            run_frames(ui, panel, 3);
            INFO(w.w << "x" << w.h << " at " << w.scale << ": GPU " << panel.from() << " to GPU " << panel.to());
            CHECK(panel.layout().zoomed);
            CHECK_THAT(panel.status(), Catch::Contains("rack_zoom=1 gpu_label_px="));
            CHECK(ui.context().items.rect("gpu_" + std::to_string(panel.from())));
            CHECK(ui.context().items.rect("gpu_" + std::to_string(panel.to())));
            CHECK_FALSE(ui.context().items.rect("gpu_127"));  // summarised
            CHECK(ui.context().items.rect("rack_summary_0"));
            numbers_are_readable(panel, w.scale);
        }
    }
}

TEST_CASE("at 1024x768 and 2.0 a send to the other rack keeps the sender's node and tags the receiver's rack, with the readouts on one line each") {
    test::Headless ui(1024, 768, 2.0f);
    ui::apply_theme(ui.context().view, ui::ThemeKind::projector, 2.0f);
    RackPanel panel(ui.context());
    panel.pick(RackPanel::Pick::other_rack);
    panel.send();
    run_frames(ui, panel, 3);
    const ui::RackLayout& l = panel.layout();
    INFO("GPU " << panel.from() << " to GPU " << panel.to());
    REQUIRE(l.zoomed);
    CHECK(l.gpu_shown(panel.from()));
    CHECK(ui.context().items.rect("gpu_" + std::to_string(panel.from())));
    // The receiver's node does not fit beside the sender's with its numbers: its rack is one box,
    // which carries the "to" tag in place of its words.
    CHECK_FALSE(l.gpu_shown(panel.to()));
    CHECK(l.compact(1));
    numbers_are_readable(panel, 2.0f);
    // The rack (its leaf row) starts in the top half of the window: the readouts, one line each
    // here, leave it the room.
    const auto first = ui.context().items.rect("readout_first");
    REQUIRE(first);
    CHECK(first->w - first->y < ImGui::GetTextLineHeightWithSpacing() * 1.5f);
    CHECK(l.leaves[0].min.y < 768 * 0.6f);
    CHECK(l.racks[0].max.y <= 768);
}

TEST_CASE("a tree across 128 GPUs zooms onto a node in each rack and its wave still lights links") {
    test::Headless ui(1024, 768, 1.5f);
    ui::apply_theme(ui.context().view, ui::ThemeKind::projector, 1.5f);
    RackPanel panel(ui.context());
    panel.set_mode(RackPanel::Mode::all_reduce);
    panel.set_group(128);
    panel.set_collective_bytes(8);
    run_frames(ui, panel, 2);
    REQUIRE(panel.collective().algorithm == core::CollectiveAlgorithm::tree);
    CHECK(panel.layout().zoomed);
    CHECK(panel.layout().node_shown(0));
    CHECK(panel.layout().node_shown(8));
    numbers_are_readable(panel, 1.5f);
    // Halfway through each hop of the wave some link carries the message, drawn or summarised.
    const core::CollectiveResult& r = panel.collective();
    double at = r.base_latency_s;
    for (const core::WaveHop& h : r.wave) {
        const ui::RackPaint p = panel.paint_at(at + h.seconds * 0.5);
        std::size_t lit = 0;
        for (std::size_t i = 0; i < p.lit_to.size(); ++i) lit += p.lit_to[i] > p.lit_from[i];
        CHECK(lit > 0);
        at += h.seconds;
    }
}

TEST_CASE("at 1920x1080 the whole cluster is drawn, in both modes") {
    test::Headless ui(1920, 1080, 1.0f);
    RackPanel panel(ui.context());
    panel.pick(RackPanel::Pick::other_rack);
    run_frames(ui, panel, 2);
    CHECK_FALSE(panel.layout().zoomed);
    CHECK(panel.layout().gpu_label_px >= 14.0f);
    CHECK_THAT(panel.status(), Catch::Contains("rack_zoom=0"));
    CHECK(ui.context().items.rect("gpu_127"));
    panel.set_mode(RackPanel::Mode::all_reduce);
    panel.set_group(128);
    run_frames(ui, panel, 2);
    CHECK_FALSE(panel.layout().zoomed);
    CHECK(ui.context().items.rect("gpu_127"));
}

TEST_CASE("in the zoomed drawing a click picks the GPU under it, and a click on a summary a GPU inside it") {
    test::Headless ui(1024, 768, 1.5f);
    ui::apply_theme(ui.context().view, ui::ThemeKind::projector, 1.5f);
    RackPanel panel(ui.context());
    panel.pick(RackPanel::Pick::other_rack);  // GPU 0 to GPU 64
    run_frames(ui, panel, 3);
    REQUIRE(panel.layout().zoomed);
    click(ui, panel, centre_of(ui.context().items, "gpu_3"));
    CHECK(panel.from() == 3);
    CHECK(panel.picking_receiver());
    click(ui, panel, centre_of(ui.context().items, "gpu_66"));
    CHECK(panel.to() == 66);
    CHECK_FALSE(panel.picking_receiver());
    // The rest of rack 0 is one box: a click there takes its first node's first GPU (node 1: GPU 8).
    click(ui, panel, centre_of(ui.context().items, "rack_summary_0"));
    CHECK(panel.from() == 8);
    run_frames(ui, panel, 2);
    CHECK(ui.context().items.rect("gpu_8"));  // its node is drawn now
}

TEST_CASE("no summary box covers a GPU drawn beside it, in either mode, at any projector size") {
    // Found in presenter view at 1024x768 and 2.0: a group's two nodes of one rack were laid out
    // as for two racks one above the other, and the summary column covered the second node.
    for (const Window& w : {Window{1024, 768, 1.5f, ui::ThemeKind::projector}, Window{1024, 768, 2.0f, ui::ThemeKind::projector},
                            Window{1280, 720, 1.5f, ui::ThemeKind::projector}, Window{1920, 1080, 3.0f, ui::ThemeKind::dark}}) {
        for (const bool presenter : {false, true}) {
            test::Headless ui(w.w, w.h, w.scale);
            ui::apply_theme(ui.context().view, w.theme, w.scale);
            ui.context().view.presenter = presenter;
            RackPanel panel(ui.context());
            for (int group : {0, 64, 128}) {
                if (group == 0) {
                    panel.set_mode(RackPanel::Mode::send);
                    panel.pick(RackPanel::Pick::other_rack);
                    panel.send();
                } else {
                    panel.set_mode(RackPanel::Mode::all_reduce);
                    panel.set_group(static_cast<std::uint32_t>(group));
                }
                run_frames(ui, panel, 3);
                const ui::RackLayout& l = panel.layout();
                INFO(w.w << "x" << w.h << " at " << w.scale << (presenter ? " presenter" : "") << ", group " << group);
                for (core::GpuId g = 0; g < l.gpus.size(); ++g) {
                    if (!l.gpu_shown(g)) continue;
                    for (std::uint32_t r = 0; r < l.shape.racks; ++r) {
                        const ui::Box& s = l.summaries[r];
                        if (l.hidden_in(r) == 0 || s.width() <= 0) continue;
                        const ui::Box& b = l.gpus[g];
                        const bool apart = b.max.x <= s.min.x || s.max.x <= b.min.x || b.max.y <= s.min.y || s.max.y <= b.min.y;
                        INFO("GPU " << g << " and rack " << r << "'s summary");
                        CHECK(apart);
                    }
                }
            }
        }
    }
}

TEST_CASE("wires that share a line are drawn once: overlapping runs of one colour merge, the rest stay") {
    using ui::rack_board::WireRect;
    const ImU32 orange = IM_COL32(200, 90, 0, 255), green = IM_COL32(0, 160, 90, 255);
    // Three GPUs' routes along one rail (y 10-14), overlapping; one touching the next; a gap; a
    // trunk (vertical) crossing them; the same rail in another colour.
    const std::vector<WireRect> merged = ui::rack_board::merge_wires({
        {{10, 10}, {100, 14}, orange},
        {{40, 10}, {200, 14}, orange},
        {{200, 10}, {250, 14}, orange},  // touches the run: joins it
        {{300, 10}, {350, 14}, orange},  // a gap: its own
        {{120, 0}, {124, 300}, orange},  // vertical: never joins a horizontal one
        {{120, 20}, {124, 200}, orange},
        {{10, 10}, {100, 14}, green},
    });
    REQUIRE(merged.size() == 4);
    int horizontal_orange = 0;
    for (const WireRect& r : merged) {
        if (r.col == green) CHECK(r.max.x == 100);
        else if (r.max.y - r.min.y > r.max.x - r.min.x) CHECK((r.min.y == 0 && r.max.y == 300));
        else {
            ++horizontal_orange;
            CHECK(((r.min.x == 10 && r.max.x == 250) || (r.min.x == 300 && r.max.x == 350)));
        }
    }
    CHECK(horizontal_orange == 2);
}

TEST_CASE("at 1024x768 and 2.0 an all-reduce's drawing ends inside the window, one node numbered and the rest summarised") {
    test::Headless ui(1024, 768, 2.0f);
    ui::apply_theme(ui.context().view, ui::ThemeKind::projector, 2.0f);
    RackPanel panel(ui.context());
    panel.set_mode(RackPanel::Mode::all_reduce);
    panel.set_group(64);
    // Above the lesson in the app: the menu bar, the lesson tabs and the intro line, 230 px at 2x.
    for (int i = 0; i < 3; ++i)
        ui.frame([&] {
            ImGui::Dummy(ImVec2(10, 230));
            panel.draw(1.0f / 60.0f);
        });
    const ui::RackLayout& l = panel.layout();
    REQUIRE(l.zoomed);
    CHECK(l.node_shown(0));
    CHECK(ui.context().items.rect("rack_summary_0"));
    numbers_are_readable(panel, 2.0f);
    // Its 8-font-size minimum once ran the rack 58 px past the window's bottom (826 px).
    CHECK(l.racks[0].max.y <= 768);
    CHECK(l.racks[0].max.y > 768 * 0.8f);  // and it uses the room it has

    // The run reveals the readouts: the drawing stays where it was, numbers and all. The "?" once
    // shared rows their figures did not, and the reveal pushed the rack down until its GPU
    // numbers went (1024x768 at 2x, found on a projector).
    const float before_top = l.racks[0].min.y, before_bottom = l.racks[0].max.y;
    panel.run_collective();
    for (int i = 0; i < 30; ++i)
        ui.frame([&] {
            ImGui::Dummy(ImVec2(10, 230));
            panel.draw(1.0f / 60.0f);
        });
    REQUIRE(panel.playback().cursor() > 0);
    CHECK(panel.layout().racks[0].min.y == Approx(before_top));
    CHECK(panel.layout().racks[0].max.y == Approx(before_bottom));
    numbers_are_readable(panel, 2.0f);
}
