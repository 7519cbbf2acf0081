// `sim estimate`'s JSON: a setup, its estimate (memory breakdown, stages, exchanges, exposed and
// hidden communication, the timeline on request) and a layout search.
#pragma once

#include <nlohmann/json.hpp>

#include "m2m/core/scale/estimator.hpp"

namespace m2m::cli {

nlohmann::json estimate_json(const core::EstimateSetup& setup, const core::Estimate& e, bool with_timeline);
nlohmann::json search_json(const core::EstimateSetup& setup, const core::SearchResult& r);

}  // namespace m2m::cli
