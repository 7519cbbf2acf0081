// What the student did: facts the lesson panels record as runs finish, read back by "Explain it back".
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "m2m/core/explain/explain_back.hpp"

namespace m2m::lessons {

/// An append-only record of run facts (newest last), shared by the panels of one app.
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

/// The record the app's panels share. Panels append to it:
///   Lesson 1: record_layer_run(setup, result) when its playback reaches the end of a run;
///   Lesson 2: run_log().record(core::TransferFact{link, bytes, time_s, relative_time});
///   Lesson 3: run_log().record(core::SplitFact{strategy_label, gpus, exchanged_bytes}).
RunLog& run_log();

/// Lesson 1's one call: records the run of `setup` (cheap enough to call every frame at the end).
void record_layer_run(const core::LayerRunSetup& setup, const core::LayerRunResult& result);

}  // namespace m2m::lessons
