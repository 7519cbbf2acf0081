// What Lesson 3's Frontier story's two files share, inside the core only: the step's rows and links.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "m2m/core/scale/frontier_story.hpp"

namespace m2m::core::frontier_detail {

/// The step's timeline and which links its traffic takes.
struct FrontierSteps {
    std::vector<StepRow> rows;
    std::array<std::string, 2> link_legend;  ///< NVLink, InfiniBand
    std::string links_text;
};

/// Throws std::invalid_argument when the cluster model cannot build the layout's links.
FrontierSteps tell_steps(const EstimateSetup& setup, const Estimate& e);

}  // namespace m2m::core::frontier_detail
