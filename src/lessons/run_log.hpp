// What the student did: facts the lesson panels record as runs finish, read back by "Explain it back".
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "m2m/core/explain/explain_back.hpp"

namespace m2m::lessons {

/// An append-only record of run facts (newest last), shared by the panels of one app (its
/// lessons::Context holds it).
/// A panel may report the same finished run every frame; a repeat of the latest fact of the
/// same kind is ignored, so the record grows only when something new happened.
class RunLog {
public:
    static constexpr std::size_t max_facts = 64;  ///< the oldest go first past this

    /// Adds `fact` unless it repeats the latest fact of its kind; true when added.
    bool record(core::RunFact fact);
    const std::vector<core::RunFact>& facts() const { return m_facts; }
    /// Changes whenever the facts change, so a reader can redo its sentences only then.
    std::uint64_t revision() const { return m_revision; }
    void clear();

private:
    std::vector<core::RunFact> m_facts;
    std::uint64_t m_revision = 0;
};

/// Lesson 1's one call: records the run of `setup` in `log` (cheap enough to call every frame
/// at the end). Lesson 2 records a core::TransferFact, Lesson 3 a core::SplitFact.
void record_layer_run(RunLog& log, const core::LayerRunSetup& setup, const core::LayerRunResult& result);

}  // namespace m2m::lessons
