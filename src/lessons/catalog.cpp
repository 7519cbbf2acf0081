// Which panels exist and in what order: add a lesson here and everywhere else follows.
#include "lessons/catalog.hpp"

#include "lessons/explain/explain_panel.hpp"
#include "lessons/layers/layer_run_panel.hpp"
#include "lessons/rack/rack_panel.hpp"
#include "lessons/split/split_panel.hpp"

namespace m2m::lessons {

namespace {

struct Entry {
    const LessonInfo& info;  // the panel's own (Panel::info): listing ids builds no panel
    std::unique_ptr<Lesson> (*make)(Context&);
};

template <class Panel>
std::unique_ptr<Lesson> make(Context& ctx) {
    return std::make_unique<Panel>(ctx);
}

// Panels are only built when the app starts, never to list the ids (Lesson 3 trains a network).
const Entry entries[] = {
    {LayerRunPanel::info, make<LayerRunPanel>},
    {RackPanel::info, make<RackPanel>},
    {SplitPanel::info, make<SplitPanel>},
    {ExplainPanel::info, make<ExplainPanel>},
};

}  // namespace

std::vector<std::unique_ptr<Lesson>> make_lessons(Context& ctx) {
    std::vector<std::unique_ptr<Lesson>> out;
    for (const Entry& e : entries) out.push_back(e.make(ctx));
    return out;
}

std::vector<std::string> lesson_ids() {
    std::vector<std::string> ids;
    for (const Entry& e : entries) ids.emplace_back(e.info.id);
    return ids;
}

}  // namespace m2m::lessons
