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
