// The lessons in the order a student meets them; the app, its command line and tests read this list.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "lessons/lesson.hpp"

namespace m2m::lessons {

/// Lesson ids accepted by --lesson, in order.
std::vector<std::string> lesson_ids();

/// One panel per lesson, in order, each sharing `ctx` (which must outlive them).
std::vector<std::unique_ptr<Lesson>> make_lessons(Context& ctx);

}  // namespace m2m::lessons
