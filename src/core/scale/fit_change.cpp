// What one change would make a layout that does not fit in memory fit: the first of the usual
// moves, each tried on the memory model alone (no timing), named in a sentence.
#include <functional>
#include <string>
#include <vector>

#include "m2m/core/engine/text.hpp"
#include "m2m/core/scale/layout_search.hpp"
#include "m2m/core/scale/step_estimate.hpp"

namespace m2m::core {

std::optional<FitChange> change_to_fit(const EstimateSetup& setup) {
    struct Move {
        const char* what;
        std::function<bool(Layout&)> apply;  ///< false: not applicable to this layout
    };
    const auto twice = [](int Layout::*dim) {
        return [dim](Layout& l) {
            if (l.dp % 2 != 0) return false;
            l.*dim *= 2;
            l.dp /= 2;
            return true;
        };
    };
    // Cheapest first: what costs no throughput, then what costs compute, then what costs copies.
    const std::vector<Move> moves = {
        {"a micro-batch of 1", [](Layout& l) { return l.micro_batch > 1 && ((l.micro_batch = 1), true); }},
        {"each pipeline chunk's received input freed after its first norm (as Meta did for Llama 3)",
         [](Layout& l) {
             return l.pp > 1 && !l.free_stage_inputs && l.recompute != Recompute::full && ((l.free_stage_inputs = true), true);
         }},
        {"ZeRO-1 (the Adam state split over the copies)", [](Layout& l) { return l.zero_stage < 1 && ((l.zero_stage = 1), true); }},
        {"selective recompute", [](Layout& l) { return l.recompute == Recompute::none && ((l.recompute = Recompute::selective), true); }},
        {"flash attention", [](Layout& l) { return l.attention == AttentionKernel::standard && ((l.attention = AttentionKernel::flash), true); }},
        {"ZeRO-2 (the gradients split too)", [](Layout& l) { return l.zero_stage < 2 && ((l.zero_stage = 2), true); }},
        {"ZeRO-3 (FSDP: the weights split too)", [](Layout& l) { return l.zero_stage < 3 && l.pp == 1 && ((l.zero_stage = 3), true); }},
        {"full recompute", [](Layout& l) { return l.recompute != Recompute::full && ((l.recompute = Recompute::full), true); }},
        {"twice the tensor parallelism", twice(&Layout::tp)},
        {"twice the pipeline stages", twice(&Layout::pp)},
        {"twice the context parallelism", twice(&Layout::cp)},
    };
    for (const Move& m : moves) {
        Layout l = setup.layout;
        if (!m.apply(l)) continue;
        EstimateSetup tried = setup;
        tried.layout = l;
        if (check(tried)) continue;
        const MemoryUse u = memory_use(tried);
        if (u.fits)
            return FitChange{l, u.total_bytes, std::string("With ") + m.what + " it would fit: " + format_bytes(u.total_bytes) +
                                                   " per GPU (" + layout_words(l) + ")."};
    }
    return std::nullopt;
}

}  // namespace m2m::core
