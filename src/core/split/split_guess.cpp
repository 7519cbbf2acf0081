// Predict, then reveal in Lesson 3: the guess of the split that moves the most, in the lesson's words.
#include "m2m/core/split/split_guess.hpp"
#include "m2m/core/engine/text.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

namespace m2m::core {

namespace {

// One short reason per strategy for what it moves in a step (the core's why_sentence says more).
std::string moves_text(Strategy s) {
    switch (s) {
        case Strategy::data: return "data parallel exchanges only the gradients, once per step";
        case Strategy::tensor:
            return "tensor parallel collects every layer's outputs going forward and adds up their gradients "
                   "coming back";
        case Strategy::pipeline: return "a pipeline passes on only the values at each border between stages";
        case Strategy::three_d: return "3D parallel does all three at once";
        case Strategy::fsdp:
            return "FSDP gathers every layer's weights going forward and again going back, and reduce-scatters their "
                   "gradients: three passes over the weights' size each step, where data parallel's all-reduce makes two, "
                   "so 1.5 times its bytes on the wires";
    }
    return {};
}

std::string capitalised(std::string s) {
    if (!s.empty() && s[0] >= 'a' && s[0] <= 'z') s[0] = static_cast<char>(s[0] - 'a' + 'A');
    return s;
}

}  // namespace

std::vector<StrategyBytes> exchanged_by_strategy(const NextWordModel& model, const SplitSetup& setup) {
    std::vector<StrategyBytes> out;
    if (setup.gpus < 2) return out;  // one GPU puts nothing on a wire, whatever the strategy: no question
    for (Strategy s : all_strategies) {
        const std::vector<int> counts = accepted_gpu_counts(s);
        if (std::find(counts.begin(), counts.end(), setup.gpus) == counts.end()) continue;
        SplitSetup one = setup;
        one.strategy = s;
        const std::vector<int> mbs = accepted_micro_batches(one);
        if (!mbs.empty() && std::find(mbs.begin(), mbs.end(), one.micro_batches) == mbs.end())
            one.micro_batches = *std::min_element(mbs.begin(), mbs.end(), [&](int a, int b) {
                return std::abs(a - setup.micro_batches) < std::abs(b - setup.micro_batches);
            });
        if (check_split(one, false)) continue;
        const SplitResult r = plan_split(model, one);
        out.push_back({s, r.exchanged_bytes, r.wire_bytes});
    }
    return out;
}

SplitReveal reveal_split(Strategy guess, std::span<const StrategyBytes> bytes, int gpus) {
    if (bytes.empty()) throw std::invalid_argument("reveal_split needs at least one strategy's bytes");
    SplitReveal r;
    const auto top = std::max_element(bytes.begin(), bytes.end(),
                                      [](const StrategyBytes& a, const StrategyBytes& b) { return a.wire < b.wire; });
    r.most = top->strategy;
    r.right = std::any_of(bytes.begin(), bytes.end(), [&](const StrategyBytes& b) {
        return b.strategy == guess && b.wire == top->wire;
    });
    if (r.right) r.most = guess;  // a tie for the most: the one guessed is named, not the first
    const std::string most(strategy_label(r.most));
    r.lines.push_back(r.right ? "Right: " + most + " puts the most bytes on the wires."
                              : "You guessed " + std::string(strategy_label(guess)) + "; " + most +
                                    " puts the most bytes on the wires.");
    std::vector<StrategyBytes> sorted(bytes.begin(), bytes.end());
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const StrategyBytes& a, const StrategyBytes& b) { return a.wire > b.wire; });
    std::string each = "On the wires per training step on " + std::to_string(gpus) + (gpus == 1 ? " GPU: " : " GPUs: ");
    for (std::size_t i = 0; i < sorted.size(); ++i)
        each += (i ? ", " : "") + std::string(strategy_label(sorted[i].strategy)) + " " + format_bytes(sorted[i].wire);
    r.lines.push_back(each + ".");
    // The list before the reason: in a short words pane (1024x768 at 1.5) the figures came third,
    // below the fold.
    r.lines.push_back(capitalised(moves_text(r.most)) + ".");
    return r;
}

}  // namespace m2m::core
