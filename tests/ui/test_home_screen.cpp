// The home screen run headless: one row per lesson in the catalog's order, a click opens one,
// and every picture stays inside its box.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "headless.hpp"
#include "lessons/catalog.hpp"
#include "lessons/home_screen.hpp"
#include "ui/widgets.hpp"

using namespace m2m;

namespace {

// A lesson with no picture of its own, as a new one starts out: the home screen shows a plain card.
class NewLesson : public lessons::Lesson {
public:
    explicit NewLesson(lessons::Context& ctx) : Lesson(ctx, {"something new", "5 \xc2\xb7 Something new", "", ""}) {}
    void draw(float) override {}
    std::string status() const override { return "lesson=new"; }
};

ImVec2 centre(const ImVec4& r) { return ImVec2((r.x + r.z) * 0.5f, (r.y + r.w) * 0.5f); }

}  // namespace

TEST_CASE("the home screen has one row per lesson, in the catalog's order, each with a title and a summary") {
    test::Headless ui(1280, 720);
    const auto entries = lessons::make_lessons(ui.context());
    REQUIRE(entries.size() == lessons::lesson_ids().size());
    for (const auto& e : entries) {
        INFO(e->id());
        CHECK_FALSE(e->title().empty());
        CHECK_FALSE(e->summary().empty());
    }
    int clicked = -2;
    ui.frame([&] { clicked = lessons::draw_home(ui.context(), entries, 0); });
    CHECK(clicked == -1);
    float last_y = -1;
    for (const auto& id : lessons::lesson_ids()) {
        INFO(id);
        const auto r = ui.context().items.rect("home_" + id);
        REQUIRE(r);
        CHECK(r->y > last_y);  // below the row before it
        CHECK(r->w <= 720.0f);  // on screen at 720p
        CHECK(r->z - r->x > 600.0f);  // a whole-width row, easy to hit
        last_y = r->y;
    }
}

TEST_CASE("clicking a lesson's row on the home screen returns that lesson") {
    test::Headless ui(1280, 720);
    const auto entries = lessons::make_lessons(ui.context());
    ui.frame([&] { lessons::draw_home(ui.context(), entries, 0); });
    const auto rack = ui.context().items.rect("home_rack");
    REQUIRE(rack);
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = centre(*rack);
    int clicked = -1;
    ui.frame([&] { clicked = lessons::draw_home(ui.context(), entries, 0); });  // hover
    io.MouseDown[0] = true;
    ui.frame([&] { clicked = lessons::draw_home(ui.context(), entries, 0); });  // press
    CHECK(clicked == -1);
    io.MouseDown[0] = false;
    ui.frame([&] { clicked = lessons::draw_home(ui.context(), entries, 0); });  // release: a click
    CHECK(clicked == 1);
    CHECK(entries[1]->id() == "rack");
}

TEST_CASE("every lesson's picture draws something, and nothing outside its box") {
    test::Headless ui(1280, 720);
    auto all = lessons::make_lessons(ui.context());
    all.push_back(std::make_unique<NewLesson>(ui.context()));
    for (const auto& lesson : all) {
        const std::string id(lesson->id());
        INFO(id);
        const ImVec2 a(100, 100), b(340, 210);
        int before = 0;
        ImDrawList* list = nullptr;
        ui.frame([&] {
            list = ImGui::GetWindowDrawList();
            before = list->VtxBuffer.Size;
            lessons::draw_lesson_picture(ui.context().view.theme, *lesson, a, b);
        });
        const ImDrawData* dd = ImGui::GetDrawData();
        int drawn = 0;
        float outside = 0;
        for (int i = 0; i < dd->CmdListsCount; ++i) {
            const ImDrawList* dl = dd->CmdLists[i];
            if (dl != list) continue;
            for (int v = before; v < dl->VtxBuffer.Size; ++v) {
                const ImVec2 p = dl->VtxBuffer[v].pos;
                ++drawn;
                outside = std::max({outside, a.x - p.x, p.x - b.x, a.y - p.y, p.y - b.y});
            }
        }
        CHECK(drawn >= (id == "something new" ? 4 : 100));
        CHECK(drawn < 6000);  // a few dozen shapes: cheap under software GL
        CHECK(outside <= 1.5f);  // an anti-aliased edge's fringe at most
    }
}
