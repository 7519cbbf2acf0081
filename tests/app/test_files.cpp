// Settings and scenarios: round trips, and every broken file reported with nothing lost.
#include <catch2/catch.hpp>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "app/files.hpp"
#include "app/scenario.hpp"
#include "app/settings.hpp"
#include "lessons/layers/layer_run_panel.hpp"

using namespace m2m;
namespace fs = std::filesystem;

namespace {

struct TempDir {
    fs::path path;
    TempDir() {
        char tmpl[] = "/tmp/m2m-test-XXXXXX";
        path = ::mkdtemp(tmpl);
    }
    ~TempDir() {
        std::error_code ec;
        fs::permissions(path, fs::perms::owner_all, fs::perm_options::add, ec);
        fs::remove_all(path, ec);
    }
    std::string file(const std::string& name) const { return (path / name).string(); }
    void write(const std::string& name, const std::string& text) const { std::ofstream(file(name)) << text; }
    std::string read(const std::string& name) const {
        std::string error;
        return app::read_file(file(name), error).value_or("<missing>");
    }
};

}  // namespace

TEST_CASE("settings survive a save and a load") {
    TempDir dir;
    app::Settings s;
    s.theme = "projector";
    s.scale = 1.75f;
    s.lesson = "layers";
    s.window_width = 1024;
    s.window_height = 768;
    s.speed = 4;
    REQUIRE(app::save_settings(dir.path.string(), s).empty());
    const auto loaded = app::load_settings(dir.path.string());
    CHECK(loaded.message.empty());
    CHECK(loaded.settings.theme == "projector");
    CHECK(loaded.settings.scale == Approx(1.75f));
    CHECK(loaded.settings.window_width == 1024);
    CHECK(loaded.settings.speed == Approx(4));
}

TEST_CASE("no settings file gives the defaults quietly") {
    TempDir dir;
    const auto loaded = app::load_settings(dir.path.string());
    CHECK(loaded.message.empty());
    CHECK(loaded.settings.theme == "dark");
}

TEST_CASE("a broken, empty, wrong-typed or newer settings file is reported, kept as .bak, and defaults are used") {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"{ \"theme\": \"dark\", ", "not valid JSON"},
        {"", "not valid JSON"},
        {"[1, 2, 3]", "not a JSON object"},
        {"{\"scale\": \"huge\"}", "\"scale\""},
        {"{\"theme\": \"neon\"}", "\"theme\""},
        {"{\"window\": [1, 2, 3]}", "\"window\""},
        {"{\"version\": 99}", "newer version"},
    };
    for (const auto& [text, reason] : cases) {
        INFO("file: " << text);
        TempDir dir;
        dir.write("settings.json", text);
        const auto loaded = app::load_settings(dir.path.string());
        CHECK_THAT(loaded.message, Catch::Contains(reason) && Catch::Contains("settings.json.bak"));
        CHECK(loaded.settings.theme == "dark");
        CHECK(dir.read("settings.json.bak") == text);  // nothing the user had is lost
        CHECK_FALSE(fs::exists(dir.file("settings.json")));
    }
}

TEST_CASE("values out of range in settings are clamped, not refused") {
    TempDir dir;
    dir.write("settings.json", R"({"scale": 9.5, "speed": 0.0001, "window": [10, 100000], "lesson": "gone"})");
    const auto loaded = app::load_settings(dir.path.string());
    CHECK(loaded.message.empty());
    CHECK(loaded.settings.scale == Approx(3.0f));
    CHECK(loaded.settings.speed == Approx(0.125));
    CHECK(loaded.settings.window_width == 320);
    CHECK(loaded.settings.window_height == 4320);
    CHECK(loaded.settings.lesson == "layers");
}

TEST_CASE("a huge settings file is reported, not a crash") {
    TempDir dir;
    dir.write("settings.json", "{\"theme\": \"" + std::string(8 * 1024 * 1024, 'x') + "\"}");
    const auto loaded = app::load_settings(dir.path.string());
    CHECK_THAT(loaded.message, Catch::Contains("theme"));
}

TEST_CASE("a settings file replaced by a folder is left alone and reported") {
    TempDir dir;
    fs::create_directory(dir.file("settings.json"));
    const auto loaded = app::load_settings(dir.path.string());
    CHECK_THAT(loaded.message, Catch::Contains("not a regular file") && Catch::Contains("left in place"));
    CHECK(fs::is_directory(dir.file("settings.json")));
    CHECK_THAT(app::save_settings(dir.path.string(), app::Settings{}), Catch::Contains("is a folder"));
}

TEST_CASE("a settings folder that cannot be made reports the problem and changes nothing") {
    // A regular file where the folder should be stops everyone, root included.
    TempDir dir;
    dir.write("config", "not a folder");
    const std::string error = app::save_settings(dir.file("config") + "/math-to-metal", app::Settings{});
    CHECK_THAT(error, Catch::Contains("cannot create the folder"));
    CHECK(dir.read("config") == "not a folder");
}

TEST_CASE("a folder without write permission reports the problem and keeps the old file") {
    TempDir dir;
    dir.write("settings.json", "{\"theme\": \"projector\"}");
    fs::permissions(dir.path, fs::perms::owner_read | fs::perms::owner_exec);
    const std::string error = app::save_settings(dir.path.string(), app::Settings{});
    fs::permissions(dir.path, fs::perms::owner_all);
    if (::geteuid() == 0) {
        // Permission bits do not stop root: the write goes through, atomically.
        CHECK(error.empty());
        CHECK_THAT(dir.read("settings.json"), Catch::Contains("\"theme\": \"dark\""));
    } else {
        CHECK_THAT(error, Catch::Contains("cannot write"));
        CHECK(dir.read("settings.json") == "{\"theme\": \"projector\"}");
    }
}

TEST_CASE("a full disk while saving leaves the previous file whole") {
    // /dev/full accepts opens and fails every write with ENOSPC; the temp file lives beside
    // the target, so point the target at a folder whose temp file is /dev/full's twin.
    TempDir dir;
    dir.write("scenario.json", "old and precious");
    const std::string target = dir.file("scenario.json");
    const std::string tmp = target + ".tmp-" + std::to_string(::getpid());
    fs::create_symlink("/dev/full", tmp);
    const std::string error = app::write_file_atomically(target, std::string(1 << 20, 'x'));
    CHECK_THAT(error, Catch::Contains("previous file is unchanged"));
    CHECK(dir.read("scenario.json") == "old and precious");
}

TEST_CASE("a Lesson 1 scenario round-trips through its file") {
    lessons::Context ctx;
    lessons::LayerRunPanel panel(ctx);
    core::LayerRunSetup s = panel.setup();
    s.network.widths = {8, 256, 256, 4};
    s.mode = core::TimingMode::hardware;
    s.cpu_cores = 4;
    s.gpu_cores = 6912;
    panel.apply(s);
    const std::string text = app::scenario_json({"layers", panel.save_state()});
    const app::Scenario back = app::parse_scenario(text);
    lessons::LayerRunPanel other(ctx);
    other.load_state(back.state);
    CHECK(other.setup().network.widths == s.network.widths);
    CHECK(other.setup().mode == core::TimingMode::hardware);
    CHECK(other.setup().gpu_cores == 6912);
    CHECK(other.result().speedup == Approx(panel.result().speedup));
}

TEST_CASE("an invalid scenario names the problem and the lesson keeps its state") {
    const std::vector<std::pair<std::string, std::string>> bad_files = {
        {"not json", "not valid JSON"},
        {"{}", "not a Math to Metal scenario"},
        {R"({"format": "math-to-metal scenario", "version": 7, "lesson": "layers"})", "newer version"},
        {R"({"format": "math-to-metal scenario", "version": 1, "lesson": "chemistry"})", "does not exist"},
        {R"({"format": "math-to-metal scenario", "version": 1, "lesson": "layers", "state": 3})", "not an object"},
    };
    for (const auto& [text, reason] : bad_files) {
        INFO(text);
        CHECK_THROWS_WITH(app::parse_scenario(text), Catch::Contains(reason));
    }
    const std::vector<std::pair<std::string, std::string>> bad_states = {
        {R"({"widths": [4, 0, 3]})", "between 1 and"},
        {R"({"widths": "wide"})", "whole numbers"},
        {R"({"widths": [4, 3.5, 3]})", "whole numbers"},
        {R"({"mode": "turbo"})", "\"mode\""},
        {R"({"gpu": "tpu-v9"})", "unknown gpu preset"},
        {R"({"gpu_cores": 0})", "\"gpu_cores\""},
        {R"({"cpu_cores": 1e12})", "\"cpu_cores\""},
    };
    for (const auto& [state, reason] : bad_states) {
        INFO(state);
        lessons::Context ctx;
        lessons::LayerRunPanel panel(ctx);
        const auto before = panel.save_state();
        CHECK_THROWS_WITH(panel.load_state(nlohmann::json::parse(state)), Catch::Contains(reason));
        CHECK(panel.save_state() == before);
    }
}
