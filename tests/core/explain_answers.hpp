// The answer tables of "Explain it back": an answer as a student wrote it and the exact checklist it
// must get (its kind, the ideas found, the ideas named without their relation, the misconceptions).
#pragma once

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "m2m/core/explain/explain_back.hpp"

namespace m2m::test {

struct AnswerCase {
    const char* what;
    std::string answer;
    core::AnswerKind kind;
    const char* found;           // core::found_ids()
    const char* misconceptions;  // core::misconception_ids()
    const char* near = "none";   // near_ids(): ideas whose noun came without its relation
    std::size_t notes = 0;       // notes on the reading itself (the model answer pasted)
};

/// Comma-separated ids of the ideas named without their relation, or "none".
inline std::string near_ids(const core::ExplainFeedback& f) {
    std::string out;
    for (const auto& c : f.ideas)
        if (!c.near_miss.empty()) out += (out.empty() ? "" : ",") + std::string(core::explain_idea_id(c.idea));
    return out.empty() ? "none" : out;
}

/// `text` written `n` times, one after the other.
inline std::string repeated(const std::string& text, int n) {
    std::string out;
    for (int i = 0; i < n; ++i) out += text;
    return out;
}

inline void check_answers(const std::vector<AnswerCase>& table) {
    for (const AnswerCase& c : table) {
        INFO(c.what << ": \"" << c.answer << "\"");
        const core::ExplainFeedback f = core::grade_answer(c.answer);
        CHECK(f.kind == c.kind);
        CHECK(core::found_ids(f) == c.found);
        CHECK(core::misconception_ids(f) == c.misconceptions);
        CHECK(near_ids(f) == c.near);
        REQUIRE(f.ideas.size() == core::explain_idea_count);
        for (std::size_t i = 0; i < core::explain_idea_count; ++i) {
            CHECK(f.ideas[i].idea == static_cast<core::ExplainIdea>(i));
            CHECK(f.ideas[i].found == !f.ideas[i].evidence.empty());  // a found idea quotes the student
            CHECK((f.ideas[i].found && !f.ideas[i].near_miss.empty()) == false);
        }
        for (const auto& m : f.misconceptions) CHECK_FALSE(m.evidence.empty());
        CHECK_FALSE(f.truncated);
        CHECK(f.notes.size() == c.notes);
    }
}

}  // namespace m2m::test
