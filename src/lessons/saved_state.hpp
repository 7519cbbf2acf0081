// Reading one panel's part of a settings or scenario file. Every field is optional (absent:
// the panel keeps what it has); a bad one throws std::invalid_argument with one sentence that
// names the panel, the field and what it accepts. Panels read everything into a copy first and
// change themselves only after, so a bad file leaves them exactly as they were.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

namespace m2m::lessons {

class SavedState {
public:
    /// `where` begins every message ("Lesson 1", "Lesson 3: \"frontier\""); throws unless `j`
    /// is an object.
    SavedState(const nlohmann::json& j, std::string where);

    [[noreturn]] void fail(const std::string& why) const;
    bool has(const char* key) const { return m_j.contains(key); }
    const nlohmann::json& at(const char* key) const { return m_j.at(key); }

    // Each reads `key` into `out` when it is there, and fails when it is there but wrong.
    void text(const char* key, std::string& out) const;
    void number(const char* key, double& out) const;
    void flag(const char* key, bool& out) const;
    template <class T>
    void whole(const char* key, T& out, std::int64_t lo, std::int64_t hi) const {
        if (has(key)) out = static_cast<T>(whole_value(key, lo, hi));
    }
    /// One of a few names, each standing for a value: `"mode" must be lesson or hardware`.
    template <class T>
    void choice(const char* key, T& out, std::initializer_list<std::pair<const char*, T>> options) const {
        if (!has(key)) return;
        std::string names;
        std::size_t i = 0;
        for (const auto& [name, value] : options) {
            if (m_j[key].is_string() && m_j[key].get<std::string>() == name) {
                out = value;
                return;
            }
            names += (i == 0 ? "" : i + 1 == options.size() ? " or " : ", ") + std::string(name);
            ++i;
        }
        fail(quoted(key) + " must be " + names);
    }

    static std::string quoted(const char* key) { return std::string("\"") + key + "\""; }

private:
    std::int64_t whole_value(const char* key, std::int64_t lo, std::int64_t hi) const;

    const nlohmann::json& m_j;
    std::string m_where;
};

}  // namespace m2m::lessons
