// The settings and the home screen: a first start (no file) opens on it, and quitting there is remembered.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>

#include "app/settings.hpp"

using namespace m2m;

TEST_CASE("with no settings file the app starts on the home screen, and a saved home screen is kept") {
    char tmpl[] = "/tmp/m2m-home-XXXXXX";
    const std::string dir = ::mkdtemp(tmpl);
    CHECK(app::load_settings(dir).settings.lesson == "home");
    app::Settings s;
    s.lesson = "rack";
    REQUIRE(app::save_settings(dir, s).empty());
    CHECK(app::load_settings(dir).settings.lesson == "rack");
    s.lesson = "home";
    REQUIRE(app::save_settings(dir, s).empty());
    CHECK(app::load_settings(dir).settings.lesson == "home");
    CHECK(app::parse_settings(R"({"lesson": "home"})").lesson == "home");
    CHECK(app::parse_settings(R"({"lesson": "gone"})").lesson == "layers");  // a lesson since removed
    std::filesystem::remove_all(dir);
}
