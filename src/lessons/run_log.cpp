// The shared record of the student's runs.
#include "lessons/run_log.hpp"

namespace m2m::lessons {

bool RunLog::record(core::RunFact fact) {
    for (auto it = m_facts.rbegin(); it != m_facts.rend(); ++it)
        if (it->index() == fact.index()) {
            if (*it == fact) return false;
            break;
        }
    if (m_facts.size() >= max_facts) m_facts.erase(m_facts.begin());
    m_facts.push_back(std::move(fact));
    ++m_revision;
    return true;
}

void RunLog::clear() {
    m_facts.clear();
    ++m_revision;
}

void record_layer_run(RunLog& log, const core::LayerRunSetup& setup, const core::LayerRunResult& result) {
    log.record(core::layer_run_fact(setup, result));
}

}  // namespace m2m::lessons
