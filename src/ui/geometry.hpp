// The drawing maths in glm: positions, sizes and rectangles as glm::vec2, interpolation with
// glm::mix, limits with glm::clamp. ImVec2 appears only where ImGui is called.
#pragma once

#include <imgui.h>

#include <glm/common.hpp>
#include <glm/vec2.hpp>
#include <glm/vector_relational.hpp>

namespace m2m::ui {

inline ImVec2 to_im(glm::vec2 v) { return ImVec2(v.x, v.y); }
inline glm::vec2 to_glm(ImVec2 v) { return glm::vec2(v.x, v.y); }

/// The point a share `t` of the way from `a` to `b`, as a + (b - a) t. Where a and b share a
/// coordinate (an axis-aligned wire) it stays exactly that coordinate; glm::mix's a (1 - t) + b t
/// can round it off by a bit, enough to move a pixel-aligned square by a pixel.
inline glm::vec2 along(glm::vec2 a, glm::vec2 b, float t) { return a + (b - a) * t; }

/// Manhattan length: how far apart two points on an axis-aligned polyline are along it.
inline float manhattan(glm::vec2 d) {
    const glm::vec2 a = glm::abs(d);
    return a.x + a.y;
}

}  // namespace m2m::ui
