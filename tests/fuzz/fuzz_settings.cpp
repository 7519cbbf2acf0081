// Fuzz target: the text of settings.json. A bad file must be refused with std::invalid_argument
// (load_settings catches only that, keeps the file as .bak and starts on defaults); a good one
// must give values the app can use, and survive being written and read back.
#include <stdexcept>

#include "app/settings.hpp"
#include "fuzz_input.hpp"
#include "lessons/catalog.hpp"
#include "ui/view.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace m2m;
    app::Settings s;
    try {
        s = app::parse_settings(fuzz::text(data, size));
    } catch (const std::invalid_argument&) {
        return 0;
    }
    if (s.theme != "dark" && s.theme != "projector") fuzz::broken("the theme is dark or projector", s.theme);
    const auto ids = lessons::lesson_ids();
    if (s.lesson != "home" && std::find(ids.begin(), ids.end(), s.lesson) == ids.end())
        fuzz::broken("the lesson is the home screen or one that exists", s.lesson);
    if (!(s.scale >= ui::View::min_scale && s.scale <= ui::View::max_scale)) fuzz::broken("the scale is within range");
    if (s.window_width < 320 || s.window_width > 7680 || s.window_height < 240 || s.window_height > 4320)
        fuzz::broken("the window size is within range");
    if (!(s.speed >= 0.125 && s.speed <= 64.0)) fuzz::broken("the speed is within range");
    const std::string saved = app::settings_json(s);
    const app::Settings back = app::parse_settings(saved);  // throws (a crash here) if our own file is refused
    if (back.theme != s.theme || back.lesson != s.lesson || back.scale != s.scale || back.window_width != s.window_width ||
        back.window_height != s.window_height || back.speed != s.speed)
        fuzz::broken("settings read back as they were saved", saved);
    return 0;
}
