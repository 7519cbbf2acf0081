// "Explain it back": the misconceptions an answer shows, each with the student's words, in the
// order the checklist names them.
#include "explain_parts.hpp"

namespace m2m::core::explain_detail {

namespace {

bool overlaps(const Span& a, const Span& b) { return a.begin < b.end && b.begin < a.end; }

/// The first span in reading order of all `lists`.
std::optional<Span> earliest(std::initializer_list<std::vector<Span>> lists) {
    std::optional<Span> best;
    for (const auto& l : lists)
        if (!l.empty() && (!best || l.front().begin < best->begin)) best = l.front();
    return best;
}

}  // namespace

std::vector<MisconceptionCheck> find_misconceptions(const Evidence& e) {
    const Cues& c = e.c;
    const Matcher& m = e.m;
    // "More cores make each core faster" says more than "GPU cores are faster": named once, as that.
    const auto more_faster = m.find(c.more_cores_faster);
    auto faster = [&](const Cue& cue) {
        std::vector<Span> out;
        for (const Span& s : m.find(cue)) {
            // Spans are a few words long: only those starting just before s's end can overlap it.
            bool covered = false;
            for (auto it = first_from(more_faster, s.end); it != more_faster.begin() && !covered;) {
                --it;
                if (s.begin > it->begin + 40) break;
                covered = overlaps(s, *it);
            }
            if (!covered) out.push_back(s);
        }
        return out;
    };
    // "They are only for games": the GPU's, said of whatever the sentence is about.
    std::vector<Span> graphics;
    for (const Span& s : m.find(c.graphics))
        if (e.machine(s) == Machine::gpu) graphics.push_back(s);

    const std::optional<Span> found[misconception_count] = {
        earliest({m.find(c.clock)}),
        earliest({graphics}),
        earliest({faster(c.gpu_faster), faster(c.cpu_slower)}),
        earliest({more_faster}),
        earliest({m.find(c.faster_everything)}),
        earliest({m.find(c.big_calculation)}),
        earliest({m.find(c.smarter)}),
        earliest({m.find(c.cpu_more), m.find(c.gpu_fewer)}),
        earliest({m.find(c.more_memory)}),
        earliest({m.find(c.outputs_depend)}),
        earliest({m.find(c.layers_parallel), m.find(c.layers_independent)}),
    };
    std::vector<MisconceptionCheck> out;
    for (std::size_t i = 0; i < misconception_count; ++i)
        if (found[i]) out.push_back({static_cast<Misconception>(i), e.quote(*found[i])});
    return out;
}

}  // namespace m2m::core::explain_detail
