// Lesson 2's panel run headless: what it reports for sends inside and across nodes, how the
// tensor and the all-reduce ring play, and that everything fits the window.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cfloat>
#include <string>
#include <utility>

#include "headless.hpp"
#include "lessons/rack/rack_panel.hpp"
#include "ui/widgets.hpp"
#include "m2m/core/engine/text.hpp"

using namespace m2m;
using lessons::RackPanel;

namespace {

int vertex_count() {
    const ImDrawData* dd = ImGui::GetDrawData();
    int n = 0;
    for (int i = 0; i < dd->CmdListsCount; ++i) n += dd->CmdLists[i]->VtxBuffer.Size;
    return n;
}

ImVec2 centre_of(const ui::ItemRegistry& items, const std::string& name) {
    const std::optional<ImVec4> r = items.rect(name);
    return r ? ImVec2((r->x + r->z) * 0.5f, (r->y + r->w) * 0.5f) : ImVec2(-1, -1);
}

void run_frames(test::Headless& ui, RackPanel& panel, int frames, float dt = 1.0f / 60.0f) {
    for (int i = 0; i < frames; ++i) ui.frame([&] { panel.draw(dt); }, dt);
}

// Frames until the run (a send or a collective) has played to its end: its figures, words and plot show.
void play_to_end(test::Headless& ui, RackPanel& panel) {
    for (int i = 0; i < 400 && !panel.run_done(); ++i) run_frames(ui, panel, 1, 0.25f);
    REQUIRE(panel.run_done());
}

// An all-reduce over `gpus` at the window's size, played to its end and shown a few frames more.
void run_all_reduce(test::Headless& ui, RackPanel& panel, std::uint32_t gpus, int frames) {
    panel.set_mode(RackPanel::Mode::all_reduce);
    panel.set_group(gpus);
    panel.run_collective();
    play_to_end(ui, panel);
    run_frames(ui, panel, frames, 0.05f);
}

// The mouse wheel turned over the scene until its words end, then the pointer leaves the window.
void wheel_scene_to_end(test::Headless& ui, RackPanel& panel) {
    ImGui::GetIO().MousePos = centre_of(ui.context().items, "scene");
    for (int i = 0; i < 10; ++i) {
        ImGui::GetIO().MouseWheel = -5.0f;
        run_frames(ui, panel, 1);
    }
    run_frames(ui, panel, 2);
    ImGui::GetIO().MousePos = ImVec2(-1, -1);
}

// A click on "bus bandwidth against size" on a short scene, then the pointer leaves the window.
void click_show_plot(test::Headless& ui, RackPanel& panel) {
    ImGui::GetIO().MousePos = centre_of(ui.context().items, "show_plot");
    ImGui::GetIO().MouseDown[0] = true;
    run_frames(ui, panel, 1);
    ImGui::GetIO().MouseDown[0] = false;
    run_frames(ui, panel, 2);
    ImGui::GetIO().MousePos = ImVec2(-1, -1);
}


// The glyph triangles of the scene that the wheel's strip cuts through (the strip's top `cut`), and
// how many of them no later rectangle of the window's background covers from their top to the cut.
std::pair<int, int> cut_glyphs(float cut) {
    const ImVec2 white = ImGui::GetIO().Fonts->TexUvWhitePixel;
    const ImU32 background = ImGui::GetColorU32(ImGuiCol_WindowBg) | IM_COL32_A_MASK;
    const ImDrawData* dd = ImGui::GetDrawData();
    int glyphs = 0, uncovered = 0;
    for (int i = 0; i < dd->CmdListsCount; ++i) {
        const ImDrawList* dl = dd->CmdLists[i];
        if (!dl->_OwnerName || std::string(dl->_OwnerName).find("_scene") == std::string::npos) continue;
        const auto span = [&](int t, float& lo, float& hi, bool& textured, bool& fill) {
            lo = FLT_MAX, hi = -FLT_MAX, textured = false, fill = true;
            for (int k = 0; k < 3; ++k) {
                const ImDrawVert& v = dl->VtxBuffer[dl->IdxBuffer[t + k]];
                lo = std::min(lo, v.pos.y), hi = std::max(hi, v.pos.y);
                const bool white_uv = v.uv.x == white.x && v.uv.y == white.y;
                textured |= !white_uv;
                fill &= white_uv && v.col == background;
            }
        };
        for (int t = 0; t + 2 < dl->IdxBuffer.Size; t += 3) {
            float lo, hi;
            bool glyph, fill;
            span(t, lo, hi, glyph, fill);
            if (!glyph || lo >= cut || hi <= cut) continue;
            ++glyphs;
            bool covered = false;
            for (int u = t + 3; u + 2 < dl->IdxBuffer.Size && !covered; u += 3) {
                float clo, chi;
                bool textured, bg;
                span(u, clo, chi, textured, bg);
                covered = bg && clo <= lo + 0.5f && chi >= cut - 0.5f;
            }
            uncovered += covered ? 0 : 1;
        }
    }
    return {glyphs, uncovered};
}

}  // namespace

TEST_CASE("the Lesson 2 panel opens on a send inside one node over NVLink") {
    test::Headless ui;
    RackPanel panel(ui.context());
    ui.frame([&] { panel.draw(0.016f); });
    CHECK(panel.cluster().gpu_count() == 128);
    CHECK(panel.cluster().node_of(panel.from()) == panel.cluster().node_of(panel.to()));
    CHECK(panel.transfer_story().link == "NVLink");
    CHECK(panel.transfer_story().relative_time == "1\xc3\x97");
    CHECK(panel.transfer_story().hops == "2");
    CHECK(panel.transfer_story().bandwidth == "371 GB/s");  // H100: 18 links x 20.6 GB/s, one direction
    CHECK_THAT(panel.status(), Catch::Contains("mode=send") && Catch::Contains("link=nvlink") &&
                                   Catch::Contains("playing=0") && Catch::Contains("cursor=0"));
}

TEST_CASE("a send to another node crosses InfiniBand, and takes longer than the same send inside a node") {
    test::Headless ui;
    RackPanel panel(ui.context());
    panel.pick(RackPanel::Pick::other_node);
    ui.frame([&] { panel.draw(0.016f); });
    CHECK(panel.transfer().run.route.type == core::LinkType::infiniband);
    CHECK(panel.transfer_story().link == "InfiniBand");
    CHECK(panel.transfer_story().hops == "4");
    CHECK(panel.transfer_story().bandwidth == "48 GB/s");
    CHECK(panel.transfer().relative_time > 7.0);
    CHECK_THAT(panel.status(), Catch::Contains("link=infiniband") && Catch::Contains("hops=4"));

    panel.pick(RackPanel::Pick::other_rack);
    CHECK(panel.cluster().rack_of(panel.to()) != panel.cluster().rack_of(panel.from()));
    CHECK(panel.transfer_story().hops == "6");
    CHECK_THAT(panel.transfer_story().path, Catch::Contains("spine"));
}

TEST_CASE("clicking two GPUs in the drawing picks the sender, then the receiver") {
    test::Headless ui;
    RackPanel panel(ui.context());
    panel.click_gpu(3);
    CHECK(panel.from() == 3);
    CHECK(panel.picking_receiver());
    panel.click_gpu(3);  // a GPU does not send to itself
    CHECK(panel.picking_receiver());
    panel.click_gpu(12);
    CHECK(panel.to() == 12);
    CHECK_FALSE(panel.picking_receiver());
    CHECK_THAT(panel.status(), Catch::Contains("from=3 to=12") && Catch::Contains("link=infiniband"));
    CHECK_THROWS_AS(panel.select(4, 4), std::invalid_argument);
    CHECK_THROWS_AS(panel.select(0, 500), std::out_of_range);
}

TEST_CASE("every GPU of the drawing is a button the window tests can find") {
    test::Headless ui;
    RackPanel panel(ui.context());
    run_frames(ui, panel, 2);
    const std::string items = ui.context().items.lines();
    CHECK_THAT(items, Catch::Contains("gpu_0 ") && Catch::Contains("gpu_127 ") && Catch::Contains("send_button "));
}

TEST_CASE("a small tensor is latency-bound and a large one bandwidth-bound") {
    lessons::Context ctx;
    RackPanel panel(ctx);
    panel.pick(RackPanel::Pick::other_node);
    panel.set_bytes(1e3);
    CHECK(panel.transfer_story().latency_bound);
    CHECK(panel.transfer_story().bound == "1 KB: latency-bound");
    CHECK(panel.transfer().run.latency_s > panel.transfer().run.bandwidth_s);
    panel.set_bytes(1e9);
    CHECK_FALSE(panel.transfer_story().latency_bound);
    CHECK(panel.transfer_story().bound == "1 GB: bandwidth-bound");
    panel.set_bytes(1e15);  // clamped to the slider's range
    CHECK(panel.transfer().run.request.bytes == 100'000'000'000);
}

TEST_CASE("Send plays the tensor: the NVLink send in about 1.5 s, the InfiniBand one several times longer") {
    test::Headless ui;
    RackPanel panel(ui.context());
    auto seconds_to_finish = [&] {
        panel.send();
        int frames = 0;
        while (panel.playback().playing() && frames < 60 * 60) {
            ui.frame([&] { panel.draw(1.0f / 60.0f); }, 1.0f / 60.0f);
            ++frames;
        }
        return frames / 60.0;
    };
    const double nvlink = seconds_to_finish();
    CHECK(nvlink == Approx(1.5).margin(0.1));
    panel.pick(RackPanel::Pick::other_node);
    const double infiniband = seconds_to_finish();
    CHECK(infiniband > 5 * nvlink);
    CHECK(infiniband <= 15.1);  // capped so it still plays
    CHECK(panel.playback().cursor() == Approx(panel.transfer().time_s));
}

TEST_CASE("the tensor lights each link as it crosses it and fills the receiver at the end") {
    test::Headless ui;
    RackPanel panel(ui.context());
    panel.pick(RackPanel::Pick::other_rack);
    panel.set_bytes(1e3);  // latency-bound: the head visibly crawls from hop to hop
    ui.frame([&] { panel.draw(0.016f); });
    CHECK(panel.paint_at(0).link_state[panel.transfer().run.route.links[1]] == 0);  // before Send: the route stays dark
    panel.send();
    const core::Route& route = panel.transfer().run.route;
    auto lit = [&](const ui::RackPaint& p, core::LinkId id) { return p.lit_to[id] > p.lit_from[id]; };

    const ui::RackPaint start = panel.paint_at(0);
    for (core::LinkId id : route.links) CHECK(start.link_state[id] == ui::RackPaint::ahead);
    CHECK(start.gpu_fill[panel.from()] == Approx(1.0f));
    CHECK(start.gpu_fill[panel.to()] == Approx(0.0f));

    // Halfway through the network hop's latency the head is on NIC -> leaf, nothing beyond.
    const core::Cluster& c = panel.cluster();
    const double mid = c.link(route.links[1]).latency_s * 0.5;
    const ui::RackPaint p = panel.paint_at(mid);
    CHECK(lit(p, route.links[1]));
    CHECK(p.lit_to[route.links[1]] == Approx(0.5f));
    CHECK(p.link_state[route.links.back()] == ui::RackPaint::ahead);
    CHECK(p.heads.size() == 1);

    const ui::RackPaint end = panel.paint_at(panel.transfer().time_s);
    for (core::LinkId id : route.links) CHECK(end.link_state[id] == ui::RackPaint::passed);
    CHECK(end.gpu_fill[panel.to()] == Approx(1.0f));
    CHECK(end.heads.empty());
}

TEST_CASE("a 64-GPU all-reduce goes around the ring step by step, held back by InfiniBand") {
    test::Headless ui;
    RackPanel panel(ui.context());
    panel.set_mode(RackPanel::Mode::all_reduce);
    panel.set_algorithm(core::CollectiveAlgorithm::ring);
    panel.set_ring_per_nic(false);  // the lesson's picture: one ring, 7 of each node's 8 NICs idle
    panel.set_group(8);
    const double one_node_busbw = panel.collective().busbw_GBps;
    CHECK(panel.collective().slowest == core::LinkType::nvlink);
    CHECK(one_node_busbw > 300);

    panel.set_group(64);
    ui.frame([&] { panel.draw(0.016f); });
    const core::CollectiveResult& r = panel.collective();
    CHECK(r.steps == 126);
    CHECK(r.slowest == core::LinkType::infiniband);
    CHECK(r.busbw_GBps < one_node_busbw / 5);
    CHECK(panel.collective_story().infiniband_sends_end_s > 5 * panel.collective_story().nvlink_sends_end_s);
    CHECK_THAT(panel.status(), Catch::Contains("mode=allreduce") && Catch::Contains("gpus=64") &&
                                   Catch::Contains("link=infiniband") && Catch::Contains("step=1/126"));

    // Late in a step the NVLink sends are done (passed) while InfiniBand still carries data.
    const double late = r.step_start_s(5) + (panel.collective_story().nvlink_sends_end_s + r.step_s) * 0.5;
    CHECK(panel.step_at(late) == 5);
    const ui::RackPaint p = panel.paint_at(late);
    const core::Cluster& c = panel.cluster();
    CHECK(p.link_state[c.gpu_link(0, core::LinkRole::gpu_to_nvswitch)] & ui::RackPaint::passed);
    const core::LinkId ib = c.gpu_link(7, core::LinkRole::nic_to_leaf);  // GPU 7 -> GPU 8 leaves node 0
    CHECK(p.lit_to[ib] > p.lit_from[ib]);

    panel.playback().play();
    run_frames(ui, panel, 30, 0.1f);
    CHECK_THAT(panel.status(), Catch::Contains("playing=1"));
    CHECK(panel.step_at(panel.playback().cursor()) > 0);
}

TEST_CASE("one ring per NIC spreads the traffic over every NIC, and the panel says what one ring leaves out") {
    lessons::Context ctx;
    RackPanel panel(ctx);
    panel.set_mode(RackPanel::Mode::all_reduce);
    panel.set_algorithm(core::CollectiveAlgorithm::ring);
    panel.set_group(16);
    // By default the rings are NCCL's: one per NIC at least, so the time is the one the words quote.
    CHECK(panel.collective().rings >= 8);
    CHECK(panel.collective().time_s == Approx(panel.collective().nccl.time_s).epsilon(0.05));
    panel.set_ring_per_nic(false);
    const double one_ring = panel.collective().busbw_GBps;
    CHECK_THAT(panel.collective_story().rings_note, Catch::Contains("understates"));
    panel.set_ring_per_nic(true);
    CHECK(panel.collective().rings >= 8);  // NCCL's channels: one ring per NIC at least
    CHECK(panel.collective().busbw_GBps > 4 * one_ring);
    CHECK_THAT(panel.status(), Catch::Contains("rings=" + std::to_string(panel.collective().rings)));
}

TEST_CASE("the panel's words come from the core: sizes, rates, ratios and the two directions of NVLink") {
    CHECK(core::format_bytes(1e3) == "1 KB");
    CHECK(core::format_bytes(1.56e7) == "15.6 MB");
    CHECK(core::format_bytes(1e11) == "100 GB");
    CHECK(core::format_rate_GBps(370.8) == "371 GB/s");
    CHECK(core::format_rate_GBps(48) == "48 GB/s");
    CHECK(core::format_ratio(7.72) == "7.7\xc3\x97");
    CHECK(core::format_ratio(1.0) == "1\xc3\x97");
    CHECK(core::format_ratio(12.4) == "12\xc3\x97");
    lessons::Context ctx;
    RackPanel panel(ctx);
    const std::string note = core::nvlink_direction_note(panel.cluster().system());
    CHECK_THAT(note, Catch::Contains("900 GB/s") && Catch::Contains("both directions") && Catch::Contains("450 GB/s"));
    panel.set_hardware("a100");
    CHECK_THAT(core::nvlink_direction_note(panel.cluster().system()), Catch::Contains("600 GB/s") && Catch::Contains("300 GB/s"));
    CHECK_THAT(panel.status(), Catch::Contains("hardware=a100"));
}

TEST_CASE("a scenario restores the whole set-up, and a bad one changes nothing") {
    lessons::Context ctx;
    RackPanel panel(ctx);
    panel.load_state({{"hardware", "b200"}, {"mode", "allreduce"}, {"group", 16}, {"ring_per_nic", true}, {"from", 3}, {"to", 70},
                      {"op", "reducescatter"}, {"algorithm", "ring"}, {"collective_bytes", 8}});
    CHECK(panel.mode() == RackPanel::Mode::all_reduce);
    CHECK(panel.collective().gpus == 16);
    CHECK(panel.collective().op == core::CollectiveOp::reduce_scatter);
    CHECK(panel.collective().algorithm == core::CollectiveAlgorithm::ring);
    CHECK(panel.collective().bytes == 8);
    CHECK(panel.collective().rings >= 8);
    CHECK(panel.from() == 3);
    RackPanel copy(ctx);
    copy.load_state(panel.save_state());
    CHECK(copy.status() == panel.status());
    const std::string before = panel.status();
    CHECK_THROWS_AS(panel.load_state({{"group", 12}}), std::invalid_argument);
    CHECK_THROWS_AS(panel.load_state({{"from", 5}, {"to", 5}}), std::invalid_argument);
    CHECK_THROWS_AS(panel.load_state({{"hardware", "tpu"}}), std::invalid_argument);
    CHECK_THROWS_AS(panel.load_state({{"bytes", 1e13}}), std::invalid_argument);
    CHECK_THROWS_AS(panel.load_state({{"op", "allsum"}}), std::invalid_argument);
    CHECK_THROWS_AS(panel.load_state({{"algorithm", "butterfly"}}), std::invalid_argument);
    CHECK_THROWS_AS(panel.load_state({{"collective_bytes", 4}}), std::invalid_argument);
    // An algorithm the file's own hardware cannot run is refused with the core's reason, not
    // quietly run as NCCL's pick.
    CHECK_THROWS_WITH(panel.load_state({{"hardware", "a100"}, {"algorithm", "nvls"}}),
                      Catch::Contains("\"algorithm\": NVLS needs an NVSwitch that can add") && Catch::Contains("(accepted: auto, ring)"));  // the reduce-scatter loaded above
    CHECK_THROWS_WITH(panel.load_state({{"op", "broadcast"}, {"algorithm", "tree"}}), Catch::Contains("no tree broadcast"));
    CHECK(panel.status() == before);
    // Without "algorithm" the file keeps the panel's own, which falls back to auto where it cannot run.
    panel.load_state({{"algorithm", "nvls"}, {"group", 8}});
    panel.load_state({{"hardware", "a100"}});
    CHECK_FALSE(panel.collective().algorithm == core::CollectiveAlgorithm::nvls);
    CHECK(panel.timeline_csv().empty());  // before the run its times would answer the guess
    panel.playback().step();
    CHECK_THAT(panel.timeline_csv(), Catch::StartsWith("step,ring,position,from,to,type,start_s,end_s\n"));
}

TEST_CASE("every system preset switches the wires and nothing leaves the window at 1280x720 or 1920x1080") {
    for (auto [w, h] : {std::pair{1280.0f, 720.0f}, std::pair{1920.0f, 1080.0f}}) {
        test::Headless ui(w, h);
        RackPanel panel(ui.context());
        for (const char* id : {"a100", "h100", "b200"}) {
            panel.set_hardware(id);
            panel.pick(RackPanel::Pick::other_rack);
            panel.send();
            run_frames(ui, panel, 20, 0.05f);
            CHECK(ui.worst_overflow() <= 2.0f);
            CHECK(vertex_count() < 40000);
            panel.set_mode(RackPanel::Mode::all_reduce);
            panel.set_group(64);
            panel.set_ring_per_nic(true);
            panel.playback().play();
            run_frames(ui, panel, 20, 0.05f);
            CHECK(ui.worst_overflow() <= 2.0f);
            CHECK(vertex_count() < 40000);
            panel.set_ring_per_nic(false);
            panel.set_mode(RackPanel::Mode::send);
        }
        CHECK_THROWS_AS(panel.set_hardware("tpu"), std::invalid_argument);
    }
}

TEST_CASE("the collective controls offer auto, the ring, the tree, and NVLS only where the switch can add") {
    lessons::Context ctx;
    RackPanel panel(ctx);
    panel.set_mode(RackPanel::Mode::all_reduce);
    using A = core::CollectiveAlgorithm;
    CHECK(panel.offered_algorithms() == std::vector<A>{A::ring, A::tree, A::nvls});  // DGX H100
    panel.set_op(core::CollectiveOp::all_gather);
    CHECK(panel.offered_algorithms() == std::vector<A>{A::ring, A::nvls});  // NCCL has no tree all-gather
    CHECK_THROWS_AS(panel.set_algorithm(A::tree), std::invalid_argument);
    panel.set_op(core::CollectiveOp::all_reduce);
    panel.set_hardware("a100");
    CHECK(panel.offered_algorithms() == std::vector<A>{A::ring, A::tree});
    CHECK_THROWS_WITH(panel.set_algorithm(A::nvls), Catch::Contains("NVLS"));
    // An NVLS choice made on an H100 falls back to auto on an A100.
    panel.set_hardware("h100");
    panel.set_algorithm(A::nvls);
    CHECK(panel.collective().algorithm == A::nvls);
    panel.set_hardware("a100");
    CHECK_FALSE(panel.algorithm().has_value());
    CHECK(panel.collective().algorithm != A::nvls);
}

TEST_CASE("8 bytes on 128 GPUs: NCCL picks the tree, and its latency wave lights the tree's links in turn") {
    test::Headless ui;
    RackPanel panel(ui.context());
    panel.set_mode(RackPanel::Mode::all_reduce);
    panel.set_group(128);
    panel.set_collective_bytes(8);
    CHECK(panel.collective().algorithm == core::CollectiveAlgorithm::tree);
    CHECK_THAT(panel.collective_story().choice, Catch::Contains("tree") && Catch::Contains("254 steps"));
    CHECK_THAT(panel.status(), Catch::Contains("algorithm=tree") && Catch::Contains("gpus=128"));
    run_frames(ui, panel, 1);
    const core::CollectiveResult& r = panel.collective();
    REQUIRE_FALSE(r.wave.empty());
    // Halfway through each hop of the wave some links carry the message; which ones changes.
    auto lit_links = [&](double t) {
        const ui::RackPaint p = panel.paint_at(t);
        std::vector<std::size_t> lit;
        for (std::size_t i = 0; i < p.lit_to.size(); ++i)
            if (p.lit_to[i] > p.lit_from[i]) lit.push_back(i);
        return lit;
    };
    double at = r.base_latency_s;
    std::vector<std::vector<std::size_t>> seen;
    for (const core::WaveHop& h : r.wave) {
        seen.push_back(lit_links(at + h.seconds * 0.5));
        CHECK_FALSE(seen.back().empty());
        at += h.seconds;
    }
    CHECK(seen.front() != seen[seen.size() / 2 - 1]);  // the wave climbs: the top hop is not the first
    panel.playback().play();
    run_frames(ui, panel, 40, 0.05f);
    CHECK_THAT(panel.status(), Catch::Contains("playing=1") && Catch::Contains("answers=shown"));
}

TEST_CASE("NVLS on one H100 node: every GPU sends into the NVSwitch, which adds, and takes the sum back") {
    test::Headless ui;
    RackPanel panel(ui.context());
    panel.set_mode(RackPanel::Mode::all_reduce);
    panel.set_collective_bytes(1e9);
    CHECK(panel.collective().algorithm == core::CollectiveAlgorithm::nvls);  // NCCL's pick at 1 GB in a node
    std::size_t into = 0, out = 0;
    for (const core::CollectiveSend& s : panel.collective().sends) {
        into += s.role == core::SendRole::into_switch;
        out += s.role == core::SendRole::out_of_switch;
    }
    CHECK(into == 8);
    CHECK(out == 8);
    run_frames(ui, panel, 1);
    const core::CollectiveResult& r = panel.collective();
    const ui::RackPaint p = panel.paint_at(r.wire_start_s(0) + r.step_wire_s * 0.5);
    const core::Cluster& c = panel.cluster();
    for (core::GpuId g = 0; g < 8; ++g) {
        const core::LinkId up = c.gpu_link(g, core::LinkRole::gpu_to_nvswitch), down = c.gpu_link(g, core::LinkRole::nvswitch_to_gpu);
        CHECK(p.lit_to[up] > p.lit_from[up]);
        CHECK(p.lit_to[down] > p.lit_from[down]);
    }
}

TEST_CASE("the bus-bandwidth plot: one curve per algorithm, NCCL's pick, the ceilings and the turn") {
    test::Headless ui;
    RackPanel panel(ui.context());
    panel.set_mode(RackPanel::Mode::all_reduce);
    panel.set_group(128);
    const core::CollectiveSweep& sw = panel.sweep();
    CHECK(sw.sizes.size() == 32);
    CHECK(sw.sizes.front() == 8);
    CHECK(sw.curves.size() == sw.algorithms.size());
    CHECK(sw.algorithms.size() >= 3);  // tree, ring, NVLS tree
    CHECK(sw.picks.front().algorithm == core::CollectiveAlgorithm::tree);
    CHECK(sw.picks.back().busbw_GBps > 100 * sw.picks.front().busbw_GBps);
    CHECK(sw.nvlink_ceiling_GBps > 0);
    CHECK(sw.network_ceiling_GBps > 0);
    CHECK(sw.crossover_bytes > sw.sizes.front());
    CHECK(sw.crossover_bytes < sw.sizes.back());
    // Before a run the curves would answer the guess: the plot waits for Run.
    run_frames(ui, panel, 2);
    CHECK_FALSE(ui.context().items.rect("busbw_plot"));
    panel.run_collective();
    run_frames(ui, panel, 3);
    // While the run plays its end is still to come: the plot too.
    CHECK_FALSE(ui.context().items.rect("busbw_plot"));
    play_to_end(ui, panel);
    run_frames(ui, panel, 2);
    const auto plot = ui.context().items.rect("busbw_plot");
    REQUIRE(plot);
    CHECK(ui.worst_overflow() <= 2.0f);
    // Hovering the plot's right part picks a large size; its left part a small one.
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = ImVec2(plot->z - 30, (plot->y + plot->w) * 0.5f);
    run_frames(ui, panel, 2);
    const int right = panel.plot_hover();
    io.MousePos = ImVec2(plot->x + ImGui::GetFontSize() * 4, (plot->y + plot->w) * 0.5f);
    run_frames(ui, panel, 2);
    const int left = panel.plot_hover();
    io.MousePos = ImVec2(-1, -1);
    CHECK(right > 25);
    CHECK(left >= 0);
    CHECK(left < 5);
}

TEST_CASE("predict, then reveal: before a run every readout that answers the guess is '?'") {
    test::Headless ui;
    RackPanel panel(ui.context());
    panel.pick(RackPanel::Pick::other_node);
    run_frames(ui, panel, 2);
    CHECK(panel.answers_hidden());
    CHECK(panel.shown(panel.transfer_story().link) == "?");
    CHECK_THAT(panel.status(), Catch::Contains("answers=hidden"));
    panel.send();
    run_frames(ui, panel, 2);
    CHECK_FALSE(panel.answers_hidden());
    CHECK(panel.shown(panel.transfer_story().link) == "InfiniBand");
    // Any change of a setting takes the run back to ready, and the answers away again.
    panel.set_bytes(2e9);
    CHECK(panel.answers_hidden());
    CHECK(panel.playback().cursor() == 0);
    CHECK_FALSE(panel.playback().playing());

    // The collective's question: the ring or the tree for 8 bytes on 128 GPUs?
    panel.set_mode(RackPanel::Mode::all_reduce);
    panel.set_group(128);
    panel.set_collective_bytes(8);
    panel.set_collective_guess({core::CollectiveAlgorithm::ring});
    CHECK_THAT(panel.status(), Catch::Contains("answers=hidden") && Catch::EndsWith("cguess=ring revealed=0"));
    // The words under the rack do not name NCCL's pick before the run either.
    CHECK_THAT(panel.step_head(), Catch::StartsWith("Press Run (Space): the rack shows NCCL's pick") && !Catch::Contains("tree") &&
                                      !Catch::Contains("ring"));
    panel.run_collective();
    for (int i = 0; i < 2000 && !panel.collective_finished(); ++i) run_frames(ui, panel, 1, 0.1f);
    CHECK(panel.collective_finished());
    CHECK_THAT(panel.status(), Catch::EndsWith("cguess=ring revealed=1"));
    CHECK_THAT(panel.step_head(), Catch::Contains("with the tree"));
    const core::CollectiveReveal rev = panel.collective_reveal();
    CHECK_FALSE(rev.right);
    CHECK(rev.faster == core::CollectiveAlgorithm::tree);
    panel.set_op(core::CollectiveOp::reduce_scatter);
    CHECK(panel.answers_hidden());
}

TEST_CASE("while a run plays the time counts up, and what it ends with comes at its end") {
    // A reviewer: every readout showed on Run's first frame, leaving the room nothing to watch for.
    test::Headless ui;
    RackPanel panel(ui.context());
    panel.pick(RackPanel::Pick::other_node);
    const core::TransferStory& send = panel.transfer_story();
    panel.send();
    run_frames(ui, panel, 3);
    REQUIRE_FALSE(panel.run_done());
    const std::string early = panel.time_so_far(send.time);
    CHECK(early != "?");
    CHECK(early != send.time);
    CHECK(panel.shown(send.link) == "InfiniBand");  // the wire lights up in the drawing already
    CHECK(panel.at_end(send.relative_time) == "?");   // N's question: how many times as long
    play_to_end(ui, panel);
    CHECK(panel.time_so_far(send.time) == send.time);
    CHECK(panel.at_end(send.relative_time) == send.relative_time);

    panel.set_mode(RackPanel::Mode::all_reduce);
    panel.set_group(16);
    const core::CollectiveStory& s = panel.collective_story();
    CHECK(panel.time_so_far(s.time) == "?");
    panel.run_collective();
    run_frames(ui, panel, 3);
    CHECK(panel.time_so_far(s.time) != s.time);
    CHECK(panel.at_end(s.busbw) == "?");
    // Halfway the time read is about half the run's (the readout and the cursor are one clock, the
    // readout in hundredths of the run).
    for (int i = 0; i < 400 && panel.playback().cursor() < 0.5 * panel.collective().time_s; ++i) run_frames(ui, panel, 1, 0.05f);
    const double quantum = panel.collective().time_s / 100;
    CHECK(panel.time_so_far(s.time) == core::format_seconds(std::floor(panel.playback().cursor() / quantum) * quantum));
    play_to_end(ui, panel);
    CHECK(panel.time_so_far(s.time) == s.time);
    CHECK(panel.at_end(s.busbw) == s.busbw);
    // Played again, the same question has nothing left to wait for: its figures show throughout
    // (and a benchmark's looping run draws the plot).
    panel.run_collective();
    run_frames(ui, panel, 3);
    CHECK_FALSE(panel.playback().finished());
    CHECK(panel.at_end(s.busbw) == s.busbw);
    CHECK(panel.time_so_far(s.time) != s.time);  // the clock still counts up
    CHECK(ui.context().items.rect("busbw_plot"));
    // Another question waits for its end again.
    panel.set_group(64);
    panel.run_collective();
    run_frames(ui, panel, 3);
    CHECK(panel.at_end(panel.collective_story().busbw) == "?");
}

TEST_CASE("the hidden readouts sit where their figures will: the reveal moves none, at any size") {
    // Each "?" keeps the room of the widest figure any algorithm could give (a class reading the
    // gaps between them learns nothing of NCCL's pick), and the figure revealed fits that room.
    struct Case {
        std::uint32_t gpus;
        double bytes;
    };
    for (const auto& [w, h, scale] : {std::tuple{1024, 768, 1.0f}, std::tuple{1920, 1080, 1.0f}, std::tuple{1024, 768, 1.5f}}) {
        test::Headless ui(w, h, scale);
        RackPanel panel(ui.context());
        panel.set_mode(RackPanel::Mode::all_reduce);
        for (const Case& c : {Case{8, 1024}, Case{8, 16e6}, Case{64, 1024}, Case{64, 1e9}, Case{128, 8}, Case{16, 3e5}}) {
            panel.set_group(c.gpus);
            panel.set_collective_bytes(c.bytes);
            run_frames(ui, panel, 2);
            REQUIRE(panel.answers_hidden());
            std::vector<ImVec4> before;
            for (int i = 0; i < 4; ++i) {
                const std::optional<ImVec4> r = ui.context().items.rect("readout_" + std::to_string(i));
                REQUIRE(r);
                before.push_back(*r);
            }
            panel.run_collective();
            run_frames(ui, panel, 3);
            REQUIRE_FALSE(panel.answers_hidden());
            for (int i = 0; i < 4; ++i) {
                REQUIRE(ui.context().items.rect("readout_" + std::to_string(i)));
                const ImVec4 after = *ui.context().items.rect("readout_" + std::to_string(i));
                INFO(w << "x" << h << " at " << scale << ", " << c.gpus << " GPUs, " << c.bytes << " B, readout " << i);
                CHECK(after.x == Approx(before[i].x).margin(1.0));  // a pixel of rounding, no more
                CHECK(after.y == before[i].y);
            }
        }
    }
}

TEST_CASE("the hidden readouts stay put while the size slider moves") {
    // Their rooms once followed the figures at the size set, so the "?" slid sideways under a
    // dragged slider; they now keep the widest any algorithm gives at any size the plot draws.
    for (const auto& [w, h, scale] : {std::tuple{1024, 768, 1.0f}, std::tuple{1920, 1080, 1.0f}}) {
        test::Headless ui(w, h, scale);
        RackPanel panel(ui.context());
        panel.set_mode(RackPanel::Mode::all_reduce);
        for (std::uint32_t gpus : {8u, 64u}) {
            panel.set_group(gpus);
            std::vector<ImVec4> first;
            for (double bytes : {8.0, 4096.0, 1048576.0, 3e7, 1e9, 16e9}) {
                panel.set_collective_bytes(bytes);
                run_frames(ui, panel, 2);
                REQUIRE(panel.answers_hidden());
                for (int i = 0; i < 4; ++i) {
                    REQUIRE(ui.context().items.rect("readout_" + std::to_string(i)));
                    const ImVec4 r = *ui.context().items.rect("readout_" + std::to_string(i));
                    if (first.size() < 4) {
                        first.push_back(r);
                        continue;
                    }
                    INFO(w << "x" << h << ", " << gpus << " GPUs, " << bytes << " B, readout " << i);
                    CHECK(r.x == first[static_cast<std::size_t>(i)].x);
                    CHECK(r.y == first[static_cast<std::size_t>(i)].y);
                }
            }
        }
    }
}

TEST_CASE("the step's bars stay put through the reveal and the run, whatever its words") {
    // The words above them once took one line, then two, and the bars jumped (found in review).
    test::Headless ui(1024, 768, 1.0f);
    RackPanel panel(ui.context());
    panel.set_mode(RackPanel::Mode::all_reduce);
    panel.set_group(64);
    panel.set_collective_bytes(1048576);
    run_frames(ui, panel, 2);
    const float y = ui.context().items.rect("nvlink_bar")->y;
    panel.run_collective();
    for (int i = 0; i < 200 && !panel.collective_finished(); ++i) {
        run_frames(ui, panel, 1, 0.05f);
        INFO("frame " << i << ": " << panel.step_head());
        REQUIRE(ui.context().items.rect("nvlink_bar")->y == y);
    }
}

TEST_CASE("before Run nothing on screen moves with NCCL's pick: the controls, the rack and the bars") {
    // 8 H100s: the ring (LL) at 1 MB, NVLS at 4 MB. The "one ring per NIC" box once showed only
    // for the ring's pick (Run jumped 86 px), and a one-pass caption's third line moved the bars.
    test::Headless ui(1024, 768, 1.0f);
    RackPanel panel(ui.context());
    panel.set_mode(RackPanel::Mode::all_reduce);
    panel.set_group(8);
    std::vector<std::vector<ImVec4>> seen;
    for (double bytes : {1048576.0, 4194304.0, 65536.0, 262144.0}) {
        panel.set_collective_bytes(bytes);
        run_frames(ui, panel, 2);
        REQUIRE(panel.answers_hidden());
        std::vector<ImVec4> at;
        for (const char* item : {"run_button", "nvlink_bar", "gpu_0", "gpu_7"}) {
            REQUIRE(ui.context().items.rect(item));
            at.push_back(*ui.context().items.rect(item));
        }
        seen.push_back(at);
    }
    REQUIRE(panel.collective().algorithm == core::CollectiveAlgorithm::ring);  // 256 KB
    for (std::size_t k = 1; k < seen.size(); ++k)
        for (std::size_t i = 0; i < seen[0].size(); ++i) {
            INFO("size " << k << ", item " << i);
            CHECK(seen[k][i].y == seen[0][i].y);
            CHECK(seen[k][i].w == seen[0][i].w);
        }
}

TEST_CASE("a hidden figure keeps room for every algorithm's, not only for NCCL's pick") {
    // Sized for the pick alone, the gaps between the "?" told the class which algorithm it was
    // (found in review: SLOWEST LINK sat 90 px further right when the tree was picked).
    test::Headless ui(1920, 1080, 1.0f);
    RackPanel panel(ui.context());
    panel.set_mode(RackPanel::Mode::all_reduce);
    for (const auto& [gpus, bytes] : {std::pair{64u, 1048576.0}, std::pair{128u, 8.0}, std::pair{8u, 65536.0}, std::pair{16u, 4e6}}) {
        panel.set_group(gpus);
        panel.set_collective_bytes(bytes);
        panel.set_algorithm(std::nullopt);
        run_frames(ui, panel, 2);
        REQUIRE(panel.answers_hidden());
        std::vector<float> hidden;
        for (int i : {0, 1})  // TIME, BUSBW
            hidden.push_back(ui.context().items.rect("readout_" + std::to_string(i))->z - ui.context().items.rect("readout_" + std::to_string(i))->x);
        for (core::CollectiveAlgorithm a : panel.offered_algorithms()) {
            panel.set_algorithm(a);
            panel.run_collective();
            run_frames(ui, panel, 3);
            for (int i : {0, 1}) {
                const ImVec4 r = *ui.context().items.rect("readout_" + std::to_string(i));
                INFO(gpus << " GPUs, " << bytes << " B, " << core::collective_algorithm_label(a) << ", readout " << i);
                CHECK(r.z - r.x <= hidden[static_cast<std::size_t>(i)] + 1.0f);
            }
        }
    }
}

TEST_CASE("a size typed into a slider is kept to the byte; a dragged one to three figures") {
    CHECK(RackPanel::slider_bytes(1024, RackPanel::min_bytes, RackPanel::max_bytes) == 1024);
    CHECK(RackPanel::slider_text(RackPanel::slider_bytes(1024, RackPanel::min_bytes, RackPanel::max_bytes)) == "1,024 B");
    CHECK(RackPanel::slider_text(1.37e6) == "1.37 MB");
    CHECK(RackPanel::slider_bytes(1369932.5, RackPanel::min_bytes, RackPanel::max_bytes) == 1370000);
    CHECK(RackPanel::slider_bytes(3, RackPanel::min_collective_bytes, RackPanel::max_collective_bytes) == 8);
    CHECK(RackPanel::slider_bytes(1e12, RackPanel::min_bytes, RackPanel::max_bytes) == RackPanel::max_bytes);
}

TEST_CASE("a collective at 1024x768 and 1.5x cuts nothing off sideways; on a short scene the rack and the plot take turns") {
    test::Headless ui(1024, 768, 1.5f);
    RackPanel panel(ui.context());
    run_all_reduce(ui, panel, 128, 5);
    // What does not fit below scrolls with the wheel (the scene's words); nothing is cut at a side.
    CHECK(ui.clipped().empty());
    INFO(ui.clipped_text());
    const std::string items = ui.context().items.lines();
    REQUIRE_THAT(items, Catch::Contains("show_plot "));
    CHECK_FALSE(ui.context().items.rect("busbw_plot"));  // the rack first (zoomed: test_rack_zoom.cpp)
    CHECK(ui.context().items.rect("gpu_0"));
    click_show_plot(ui, panel);
    CHECK(ui.context().items.rect("busbw_plot"));  // the plot instead of the rack
    CHECK_FALSE(ui.context().items.rect("gpu_0"));
    // ... and it comes first, on screen and large: below the words it started off the screen. Its
    // key stands beside it, where rows of it left the plot a strip whose axis was under the wheel's
    // tag; the whole plot, its axis's words too, is above the tag.
    const ImVec4 plot = *ui.context().items.rect("busbw_plot");
    const std::optional<ImVec4> tag = ui.context().items.rect("more_below");
    REQUIRE(tag);
    CHECK(plot.w <= tag->y);
    CHECK(plot.w - plot.y >= 9 * ImGui::GetFontSize());
    for (const char* op : {"allgather", "reducescatter", "broadcast", "alltoall", "allreduce"}) {
        panel.set_op(*core::parse_collective_op(op));
        panel.run_collective();
        run_frames(ui, panel, 3, 0.05f);
        INFO(op);
        CHECK(ui.clipped().empty());  // mid-run
        play_to_end(ui, panel);
        run_frames(ui, panel, 2, 0.05f);
        CHECK(ui.clipped().empty());
        CHECK_THAT(panel.status(), Catch::Contains(std::string("op=") + op));
    }
}

TEST_CASE("the wheel's tag has a strip of its own at the scene's foot: no word is drawn under it, no half line above it, and the last line scrolls clear") {
    test::Headless ui(1024, 768, 1.5f);
    RackPanel panel(ui.context());
    panel.set_mode(RackPanel::Mode::all_reduce);
    panel.set_group(8);
    run_frames(ui, panel, 4);
    const std::optional<ImVec4> tag = ui.context().items.rect("more_below");
    REQUIRE(tag);  // the words under the rack reach below the window here
    // Whatever the scene draws where the tag's strip is can only be the tag: every vertex of a draw
    // command whose clip rectangle reaches the strip lies in the tag (the words before were under it).
    const ImDrawData* dd = ImGui::GetDrawData();
    int in_tag = 0, under_tag = 0;
    for (int i = 0; i < dd->CmdListsCount; ++i) {
        const ImDrawList* dl = dd->CmdLists[i];
        if (!dl->_OwnerName || !std::string(dl->_OwnerName).ends_with("_scene") &&
                                   std::string(dl->_OwnerName).find("_scene_") == std::string::npos)
            continue;
        for (const ImDrawCmd& cmd : dl->CmdBuffer) {
            if (cmd.UserCallback || cmd.ClipRect.w <= tag->y + 0.5f) continue;
            for (unsigned k = cmd.IdxOffset; k < cmd.IdxOffset + cmd.ElemCount; ++k) {
                const ImDrawVert& v = dl->VtxBuffer[static_cast<int>(cmd.VtxOffset + dl->IdxBuffer[static_cast<int>(k)])];
                const bool inside = v.pos.x >= tag->x - 2 && v.pos.x <= tag->z + 2 && v.pos.y >= tag->y - 2 && v.pos.y <= tag->w + 2;  // its outline
                (inside ? in_tag : under_tag) += 1;
            }
        }
    }
    CHECK(in_tag > 0);
    CHECK(under_tag == 0);
    // Nor does half a line of words show above it (a reviewer saw the top half of "Right: the tensor
    // crossed InfiniBand ..."): the line the strip's top cuts is covered whole.
    const auto [glyphs, uncovered] = cut_glyphs(tag->y - ImGui::GetFontSize() * 0.15f);  // a pad above the tag
    CHECK(glyphs > 0);  // the strip does cut a line of words here
    CHECK(uncovered == 0);
    // Wheeled to the end, the tag goes and the scene's last words sit above the window's foot.
    wheel_scene_to_end(ui, panel);
    CHECK_FALSE(ui.context().items.rect("more_below"));
}

TEST_CASE("at 1024x768 and 2x Lesson 2's plot starts on screen, four lines of curves tall, and the wheel brings up the rest") {
    // Four rows of key above it had put the whole plot below the window; squeezed above the tag,
    // its frame was a line and a half tall.
    test::Headless ui(1024, 768, 2.0f);
    RackPanel panel(ui.context());
    run_all_reduce(ui, panel, 64, 3);
    click_show_plot(ui, panel);
    run_frames(ui, panel, 2);
    const float fs = ImGui::GetFontSize();
    std::optional<ImVec4> plot = ui.context().items.rect("busbw_plot");
    const std::optional<ImVec4> tag = ui.context().items.rect("more_below");
    REQUIRE(plot);
    REQUIRE(tag);
    CHECK(plot->y + 2 * fs <= tag->y);  // its axis's name and the top of its curves in sight
    CHECK(plot->w - plot->y >= 7.4f * fs - 1);  // the names' 3.4 lines and four of frame
    CHECK(ui.clipped().empty());
    INFO(ui.clipped_text());
    wheel_scene_to_end(ui, panel);
    plot = ui.context().items.rect("busbw_plot");
    REQUIRE(plot);
    CHECK(plot->w <= 768);  // the whole plot, its x axis's name too
}

TEST_CASE("once a send or an all-reduce has played to its end, Lesson 2's scene is drawn the same frame after frame") {
    // The wheel's strip was decided by ImGui's scroll range, the last frame's, which counts the
    // strip's own blank: where the words nearly fit (1280x720 after a send) the strip came and went
    // every other frame, and the last line with it.
    const auto scene_clips = [] {
        std::vector<ImVec4> out;
        const ImDrawData* dd = ImGui::GetDrawData();
        for (int i = 0; i < dd->CmdListsCount; ++i) {
            const ImDrawList* dl = dd->CmdLists[i];
            if (!dl->_OwnerName || std::string(dl->_OwnerName).find("_scene") == std::string::npos) continue;
            for (const ImDrawCmd& cmd : dl->CmdBuffer) out.push_back(cmd.ClipRect);
        }
        return out;
    };
    const auto same = [](const std::vector<ImVec4>& a, const std::vector<ImVec4>& b) {
        if (a.size() != b.size()) return false;
        for (std::size_t i = 0; i < a.size(); ++i)
            if (a[i].x != b[i].x || a[i].y != b[i].y || a[i].z != b[i].z || a[i].w != b[i].w) return false;
        return true;
    };
    // Window heights in steps smaller than the strip, so some leave the words just short of fitting.
    for (float w : {1024.0f, 1280.0f})
        for (float h = 600; h <= 800; h += 10)
            for (float scale : {1.0f, 1.5f})
                for (bool send : {true, false}) {
                INFO(w << "x" << h << " at " << scale << (send ? ", a send" : ", an all-reduce of 8"));
                test::Headless ui(w, h, scale);
                RackPanel panel(ui.context());
                if (send) {
                    run_frames(ui, panel, 2);
                    panel.send();
                } else {
                    panel.set_mode(RackPanel::Mode::all_reduce);
                    panel.set_group(8);
                    panel.run_collective();
                }
                for (int i = 0; i < 400 && !panel.playback().finished(); ++i) run_frames(ui, panel, 1, 0.1f);
                REQUIRE(panel.playback().finished());
                run_frames(ui, panel, 3);
                std::vector<ImVec4> before = scene_clips();
                REQUIRE_FALSE(before.empty());
                for (int i = 0; i < 4; ++i) {
                    run_frames(ui, panel, 1);
                    const std::vector<ImVec4> now = scene_clips();
                    CHECK(same(before, now));
                    before = now;
                }
            }
}

TEST_CASE("Down and Page Down scroll Lesson 2's scene to the reveal without a mouse; presenter view's question row stays pinned") {
    // A reviewer: at 1024x768 and 1.5 in presenter view the guess's answer lay below the window after
    // a send, no key scrolled to it, and the wheel took the question's row off the top with the scene.
    test::Headless ui(1024, 768, 1.5f);
    ui.context().view.presenter = true;
    RackPanel panel(ui.context());
    panel.pick(RackPanel::Pick::other_rack);
    core::SendGuess guess;
    guess.link = core::LinkType::infiniband;
    guess.times = 8;
    panel.set_guess(guess);
    panel.send();
    play_to_end(ui, panel);
    run_frames(ui, panel, 2);
    const ImVec4 strip_before = *ui.context().items.rect("guess_nvlink");
    REQUIRE(ui.context().items.rect("more_below"));  // the answer is below the window
    const std::optional<ImVec4> reveal_before = ui.context().items.rect("rack_reveal");
    for (int i = 0; i < 4; ++i) {
        ui.context().scene_scroll = 1;  // what the app's handle_keys sets for Down or Page Down
        run_frames(ui, panel, 1);
        ui.context().scene_scroll = 0;
        run_frames(ui, panel, 1);
    }
    const std::optional<ImVec4> reveal = ui.context().items.rect("rack_reveal");
    REQUIRE(reveal);
    CHECK(reveal->w <= 768);  // in sight
    if (reveal_before) CHECK(reveal->y < reveal_before->y);
    const ImVec4 strip_after = *ui.context().items.rect("guess_nvlink");
    CHECK(strip_after.y == strip_before.y);  // the question's row did not move
    // Up goes back; switching to All-reduce starts its scene at the top, its readouts' names in sight.
    panel.set_mode(RackPanel::Mode::all_reduce);
    run_frames(ui, panel, 2);
    const ImVec4 scene = *ui.context().items.rect("scene");
    const std::optional<ImVec4> first = ui.context().items.rect("readout_first");
    REQUIRE(first);
    CHECK(first->y >= scene.y - 1);
}

TEST_CASE("T and M set Lesson 2 up from the keyboard: the receiver in the next node or rack, the group, Send or All-reduce") {
    // A reviewer: a lecturer without a mouse could only show the send from GPU 0 to GPU 5, in one
    // node, where "how many times as long as in one node?" is always 1x.
    test::Headless ui;
    RackPanel panel(ui.context());
    const core::Cluster& c = panel.cluster();
    CHECK(c.node_of(panel.to()) == c.node_of(panel.from()));
    panel.target_key();
    CHECK(c.node_of(panel.to()) != c.node_of(panel.from()));
    CHECK(c.rack_of(panel.to()) == c.rack_of(panel.from()));
    panel.target_key();
    CHECK(c.rack_of(panel.to()) != c.rack_of(panel.from()));
    panel.target_key();
    CHECK(c.node_of(panel.to()) == c.node_of(panel.from()));
    panel.mode_key();
    CHECK(panel.mode() == RackPanel::Mode::all_reduce);
    for (std::uint32_t gpus : {16u, 64u, 128u, 8u}) {
        panel.target_key();
        CHECK(panel.group() == gpus);
    }
    panel.mode_key();
    CHECK(panel.mode() == RackPanel::Mode::send);
}

TEST_CASE("a send's readouts keep their places when Send fills them, so the drawing does not jump") {
    // A reviewer at 1024x768 and 1.5 in presenter view: the "?" fitted one row, the figures two, and
    // the rack jumped down 100 px as the send started.
    for (const bool presenter : {false, true})
    for (const RackPanel::Pick where : {RackPanel::Pick::same_node, RackPanel::Pick::other_rack}) {
        test::Headless ui(1024, 768, 1.5f);
        ui.context().view.presenter = presenter;
        RackPanel panel(ui.context());
        panel.pick(where);
        run_frames(ui, panel, 3);
        std::vector<ImVec4> before;
        for (int i = 0; i < 5; ++i) before.push_back(*ui.context().items.rect("readout_" + std::to_string(i)));
        const ImVec4 gpu_before = *ui.context().items.rect("gpu_0");
        panel.send();
        play_to_end(ui, panel);
        run_frames(ui, panel, 2);
        INFO((presenter ? "presenter" : "normal"));
        for (int i = 0; i < 5; ++i) {
            INFO("readout " << i);
            CHECK(ui.context().items.rect("readout_" + std::to_string(i))->y == before[static_cast<std::size_t>(i)].y);
            CHECK(ui.context().items.rect("readout_" + std::to_string(i))->x == before[static_cast<std::size_t>(i)].x);
        }
        CHECK(ui.context().items.rect("gpu_0")->y == gpu_before.y);
    }
}

TEST_CASE("at 1920x1080 Lesson 2's all-reduce fits its window before a run: no 'more' tag over a blank") {
    // The hidden plot's room ran into the window's foot padding, 8 px past it: the words were said
    // to reach below the window and the wheel's tag stood over nothing (a reviewer).
    test::Headless ui(1920, 1080, 1.0f);
    RackPanel panel(ui.context());
    panel.mode_key();  // M: All-reduce
    for (int i = 0; i < 4; ++i) ui.frame([&] { panel.draw(0); });
    CHECK_THAT(panel.status(), Catch::Contains("mode=allreduce"));
    CHECK_FALSE(ui.context().items.rect("more_below"));
}
