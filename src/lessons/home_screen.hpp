// The home screen: every lesson on one page, one line each and a small picture of what happens
// inside it, drawn with ImGui's draw lists (no image files). Each lesson draws its own picture
// (Lesson::draw_home_picture), so adding a lesson never touches this file.
#pragma once

#include <imgui.h>

#include <memory>
#include <vector>

#include "lessons/lesson.hpp"

namespace m2m::lessons {

/// Draws the home screen into the current window: a heading, one row per lesson (its picture,
/// title and summary) and a line of keys. `selected` is the row Enter opens; it is drawn
/// outlined. Returns the row clicked this frame, or -1. Each row is noted as "home_<id>".
int draw_home(Context& ctx, const std::vector<std::unique_ptr<Lesson>>& lessons, int selected);

/// `lesson`'s picture inside [a, b]: it never draws outside the box.
void draw_lesson_picture(const ui::Theme& th, const Lesson& lesson, ImVec2 a, ImVec2 b);

}  // namespace m2m::lessons
