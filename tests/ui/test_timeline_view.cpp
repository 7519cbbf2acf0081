// The shared timeline widget run headless: narrow bars merge, rows off screen are skipped, the
// mouse finds the bar under it.
#include <catch2/catch.hpp>

#include "headless.hpp"
#include "ui/timeline_view.hpp"

using namespace m2m;

namespace {

ui::TimelineRow dense_row(int bars, double length) {
    ui::TimelineRow row;
    row.label = "GPU 0";
    for (int i = 0; i < bars; ++i) {
        const double s = length * i / bars;
        row.bars.push_back({s, s + length / bars * 0.6, i % 2 ? ui::BarKind::backward : ui::BarKind::forward, 0});
    }
    return row;
}

}  // namespace

TEST_CASE("ten thousand bars on one row cost about one rectangle per pixel, not one per bar") {
    test::Headless ui;
    const std::vector<ui::TimelineRow> rows = {dense_row(10000, 1.0)};
    ui::TimelineOptions o;
    o.start = 0;
    o.end = 1;
    o.cursor = 0.5;
    ui::TimelineResult r;
    ui.frame([&] { r = ui::draw_timeline(ui.context().view, "t", rows, o, ImVec2(400, ui::timeline_height(1, o))); });
    CHECK(r.rows_drawn == 1);
    CHECK(r.rects > 0);
    CHECK(r.rects <= 400);  // narrower than the box in pixels
}

TEST_CASE("wide bars are drawn one by one and split at the cursor") {
    test::Headless ui;
    const std::vector<ui::TimelineRow> rows = {dense_row(10, 1.0)};
    ui::TimelineOptions o;
    o.end = 1;
    o.cursor = 0.05;  // inside the first bar
    ui::TimelineResult r;
    ui.frame([&] { r = ui::draw_timeline(ui.context().view, "t", rows, o, ImVec2(800, ui::timeline_height(1, o))); });
    CHECK(r.rects == 11);  // ten bars, the first one in two halves
}

TEST_CASE("wide bars back to back in one colour are one rectangle; a change of colour or a gap starts another") {
    test::Headless ui;
    ui::TimelineRow row;
    row.label = "GPU 0";
    for (int i = 0; i < 4; ++i) row.bars.push_back({0.1 * i, 0.1 * (i + 1), ui::BarKind::forward, 0});  // a warm-up
    row.bars.push_back({0.4, 0.5, ui::BarKind::backward, 0});
    row.bars.push_back({0.6, 0.7, ui::BarKind::backward, 0});  // after a gap
    ui::TimelineOptions o;
    o.end = 1;
    o.cursor = -1;
    ui::TimelineResult r;
    ui.frame([&] { r = ui::draw_timeline(ui.context().view, "t", {row}, o, ImVec2(800, ui::timeline_height(1, o))); });
    CHECK(r.rects == 3);
}

TEST_CASE("rows outside the visible area are not drawn") {
    test::Headless ui(1280, 720);
    std::vector<ui::TimelineRow> rows;
    for (int i = 0; i < 1000; ++i) rows.push_back(dense_row(50, 1.0));
    ui::TimelineOptions o;
    o.end = 1;
    o.row_height = 20;
    ui::TimelineResult r;
    ui.frame([&] {
        ImGui::BeginChild("box", ImVec2(600, 300));
        r = ui::draw_timeline(ui.context().view, "t", rows, o, ImVec2(580, ui::timeline_height(1000, o)));
        ImGui::EndChild();
    });
    CHECK(r.rows_drawn > 0);
    CHECK(r.rows_drawn <= 16);  // 300 px of 20 px rows, plus a partly shown one
}

TEST_CASE("the mouse over a bar reports its row and index") {
    test::Headless ui;
    const std::vector<ui::TimelineRow> rows = {dense_row(4, 1.0), dense_row(4, 1.0)};
    ui::TimelineOptions o;
    o.end = 1;
    o.row_height = 30;
    ui::TimelineResult r;
    ImVec2 origin;
    auto draw = [&] {
        origin = ImGui::GetCursorScreenPos();
        r = ui::draw_timeline(ui.context().view, "t", rows, o, ImVec2(800, ui::timeline_height(2, o)));
    };
    ui.frame(draw);
    // Second row, in the middle of its third bar (bars start at 0, 0.25, 0.5, 0.75 and last 0.15).
    const float label_w = ImGui::CalcTextSize("GPU 0").x + ImGui::GetFontSize() * 0.6f;
    const float plot_w = 800 - label_w - ImGui::GetFontSize() * 0.5f;
    ImGui::GetIO().MousePos = ImVec2(origin.x + label_w + plot_w * 0.55f, origin.y + 30 + 8);
    ui.frame(draw);
    ui.frame(draw);
    CHECK(r.hovered_row == 1);
    CHECK(r.hovered_bar == 2);
    CHECK(r.hovered_time == Approx(0.55).margin(0.01));
}

TEST_CASE("in both themes a step's kinds and links, drawn side by side, are colours a room can tell apart") {
    // Red-mean colour distance: the Adam update drawn in the projector theme's orange sat beside
    // InfiniBand's vermilion at every stage's end, and on the activations' orange in memory bars.
    const auto distance = [](ImU32 a, ImU32 b) {
        const ImVec4 x = ImGui::ColorConvertU32ToFloat4(a), y = ImGui::ColorConvertU32ToFloat4(b);
        const float r = (x.x + y.x) * 0.5f * 255, dr = (x.x - y.x) * 255, dg = (x.y - y.y) * 255, db = (x.z - y.z) * 255;
        return std::sqrt((2 + r / 256) * dr * dr + 4 * dg * dg + (2 + (255 - r) / 256) * db * db);
    };
    for (ui::ThemeKind kind : {ui::ThemeKind::dark, ui::ThemeKind::projector}) {
        const ui::Theme th = ui::make_theme(kind);
        const ImU32 update = ui::bar_kind_colour(th, ui::BarKind::update), backward = ui::bar_kind_colour(th, ui::BarKind::backward);
        // A training step's timeline, and the Frontier tab's memory bar (weights, gradients, Adam
        // state, activations, the framework's share).
        const std::vector<std::vector<ImU32>> sets = {
            {ui::bar_kind_colour(th, ui::BarKind::forward), backward, update, th.nvlink, th.infiniband, th.idle},
            {th.gpu, backward, update, th.cpu, th.grid, th.text}};  // th.text: the capacity marks drawn over them
        for (const auto& set : sets)
            for (std::size_t i = 0; i < set.size(); ++i)
                for (std::size_t j = i + 1; j < set.size(); ++j) {
                    INFO((kind == ui::ThemeKind::dark ? "dark" : "projector") << ": colours " << i << " and " << j);
                    CHECK(distance(set[i], set[j]) > 120.0f);
                }
    }
}

TEST_CASE("a timeline's axis labels every tick in one unit, with the step's precision") {
    // A 92-second step, ticks 10 s apart: "60 s", not "1.00 minutes"; "70 s", not "1.17 minutes".
    CHECK(ui::axis_tick_text(60, 10, 92, 1) == "60 s");
    CHECK(ui::axis_tick_text(70, 10, 92, 1) == "70 s");
    CHECK(ui::axis_tick_text(0, 10, 92, 1) == "0");
    // A 1.1 ms step, ticks 100 us apart: "0.1 ms ... 1.1 ms", not "100 us ... 1.00 ms, 1.10 ms".
    CHECK(ui::axis_tick_text(100, 100, 1110, 1e-6) == "0.1 ms");
    CHECK(ui::axis_tick_text(1000, 100, 1110, 1e-6) == "1.0 ms");
    // Ticks 5 s apart on a 21 s step: "5 s" beside "10 s", not "5.00 s" beside "10.0 s".
    CHECK(ui::axis_tick_text(5, 5, 21, 1) == "5 s");
    CHECK(ui::axis_tick_text(10, 5, 21, 1) == "10 s");
    // Training runs keep calendar units; plain axes plain numbers.
    CHECK(ui::axis_tick_text(3 * 86400, 86400, 30 * 86400, 1) == "3.00 days");
    CHECK(ui::axis_tick_text(12, 4, 16, 0) == "12");
}

TEST_CASE("a legend entry wider than its row wraps inside it") {
    test::Headless ui(1280, 720);
    ui.frame([&] {
        ImGui::BeginChild("narrow", ImVec2(260, 300));
        ui::timeline_legend({{"forward", IM_COL32(0, 0, 255, 255)},
                             {"NVLink: gradient sync, tensor-parallel collectives, context ring", IM_COL32(0, 255, 0, 255)}});
        ImGui::EndChild();
    });
    INFO(ui.clipped_text());
    CHECK(ui.clipped().empty());  // before: the entry ran past the child's right edge, cut
}
