// Fuzz target: the text of a scenario file, read as File > Open scenario reads it: parsed, then
// handed to its lesson's load_state(). A bad file or state must be refused with
// std::invalid_argument and leave the lesson exactly as it was; a state the lesson accepts must
// save to a scenario file and load from it again.
#include <algorithm>
#include <stdexcept>

#include "app/scenario.hpp"
#include "fuzz_input.hpp"
#include "lessons/catalog.hpp"

namespace {

struct Lessons {
    m2m::lessons::Context ctx;  // what the app would share with its lessons
    std::vector<std::unique_ptr<m2m::lessons::Lesson>> panels = m2m::lessons::make_lessons(ctx);
    std::vector<nlohmann::json> initial;  // each panel's state when the app opens
    Lessons() {
        for (const auto& p : panels) initial.push_back(p->save_state());
    }
};

Lessons& all_lessons() {
    static Lessons lessons;  // built once: Lesson 3 trains its network when it is made
    return lessons;
}

}  // namespace

// Built before fuzzing starts, so the training does not count against the first input's time limit.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
    (void)all_lessons();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace m2m;
    Lessons& lessons = all_lessons();
    app::Scenario s;
    try {
        s = app::parse_scenario(fuzz::text(data, size));
    } catch (const std::invalid_argument&) {
        return 0;
    }
    const auto it = std::find_if(lessons.panels.begin(), lessons.panels.end(), [&](const auto& p) { return p->id() == s.lesson; });
    if (it == lessons.panels.end()) fuzz::broken("an accepted scenario names a lesson that exists", s.lesson);
    lessons::Lesson& lesson = **it;
    const nlohmann::json& initial = lessons.initial[static_cast<std::size_t>(it - lessons.panels.begin())];
    try {
        lesson.load_state(s.state);
    } catch (const std::invalid_argument&) {
        if (lesson.save_state() != initial) fuzz::broken("a refused state leaves the lesson as it was", s.state.dump());
        return 0;
    }
    // File > Save scenario, then File > Open scenario: the file must be written and read back.
    const std::string file = app::scenario_json({s.lesson, lesson.save_state()});
    try {
        lesson.load_state(app::parse_scenario(file).state);
    } catch (const std::invalid_argument& e) {
        fuzz::broken("a lesson loads the scenario it saved", file + "\n" + e.what());
    }
    lesson.load_state(initial);  // the next input starts from the lesson as the app opens it
    return 0;
}
