// Reading one panel's part of a settings or scenario file (see the header).
#include "lessons/saved_state.hpp"

#include <stdexcept>

#include "m2m/core/engine/units.hpp"
#include "m2m/core/engine/text.hpp"

namespace m2m::lessons {

SavedState::SavedState(const nlohmann::json& j, std::string where) : m_j(j), m_where(std::move(where)) {
    if (!j.is_object()) fail("the saved state is not an object");
}

void SavedState::fail(const std::string& why) const { throw std::invalid_argument(m_where + ": " + why); }

void SavedState::text(const char* key, std::string& out) const {
    if (!has(key)) return;
    if (!m_j[key].is_string()) fail(quoted(key) + " must be text");
    out = m_j[key].get<std::string>();
}

void SavedState::number(const char* key, double& out) const {
    if (!has(key)) return;
    if (!m_j[key].is_number()) fail(quoted(key) + " must be a number");
    out = m_j[key].get<double>();
}

void SavedState::flag(const char* key, bool& out) const {
    if (!has(key)) return;
    if (!m_j[key].is_boolean()) fail(quoted(key) + " must be true or false");
    out = m_j[key].get<bool>();
}

std::int64_t SavedState::whole_value(const char* key, std::int64_t lo, std::int64_t hi) const {
    const nlohmann::json& v = m_j[key];
    if (!v.is_number_integer() || v.get<std::int64_t>() < lo || v.get<std::int64_t>() > hi)
        fail(quoted(key) + " must be a whole number from " + core::format_count(lo) + " to " + core::format_count(hi));
    return v.get<std::int64_t>();
}

}  // namespace m2m::lessons
