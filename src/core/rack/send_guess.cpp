// Predict, then reveal in Lesson 2: the guess about a send against the send, and the guess about
// which algorithm is faster against NCCL's costs, in the lesson's words.
#include "m2m/core/rack/send_guess.hpp"
#include "m2m/core/engine/text.hpp"

#include <algorithm>

namespace m2m::core {

namespace {

std::string label(LinkType t) { return std::string(link_type_label(t)); }

// Why the tensor took the wire it took: where the two GPUs sit.
std::string where_text(const Cluster& c, GpuId from, GpuId to) {
    const std::string pair = "GPU " + std::to_string(from) + " and GPU " + std::to_string(to);
    if (c.node_of(from) == c.node_of(to)) return pair + " sit in one node, joined through its NVSwitch";
    if (c.rack_of(from) == c.rack_of(to)) return pair + " sit in different nodes, so it left through a NIC";
    return pair + " sit in different racks, so it left through a NIC and crossed the spine";
}

}  // namespace

SendReveal reveal_send(const SendGuess& guess, const Cluster& cluster, const TransferResult& result) {
    SendReveal r;
    const Route& route = result.run.route;
    if (guess.link) {
        r.link_guessed = true;
        r.link_right = *guess.link == route.type;
        r.lines.push_back((r.link_right ? "Right: the tensor crossed " + label(route.type)
                                        : "You guessed " + label(*guess.link) + "; the tensor crossed " + label(route.type)) +
                          ". " + where_text(cluster, route.from, route.to) + ".");
    }
    if (guess.times > 0 && result.relative_time > 0) {
        r.times_guessed = true;
        r.times_off = guess.times / result.relative_time;
        r.times_close = r.times_off <= close_guess_factor && r.times_off >= 1.0 / close_guess_factor;
        std::string s = "You guessed " + format_ratio(guess.times) + " as long as over NVLink inside a node; it took " +
                        format_ratio(result.relative_time);
        if (r.times_close)
            s += ": close.";
        else if (r.times_off > 1)
            s += ": your guess was " + format_ratio(r.times_off) + " too high.";
        else
            s += ": your guess was " + format_ratio(1.0 / r.times_off) + " too low.";
        r.lines.push_back(s);
    }
    return r;
}

std::vector<CollectiveAlgorithm> guess_choices(const SystemSpec& system, const CollectiveGroup& group, CollectiveOp op) {
    if (group.gpus < 2 || op == CollectiveOp::all_to_all) return {};
    // Every algorithm that can run here, the ring first: the answer is always among them.
    const NcclModel model(system, group, op);
    const std::vector<CollectiveAlgorithm> all = model.algorithms();
    std::vector<CollectiveAlgorithm> out;
    for (CollectiveAlgorithm a : {CollectiveAlgorithm::ring, CollectiveAlgorithm::tree, CollectiveAlgorithm::nvls,
                                  CollectiveAlgorithm::nvls_tree})
        if (std::find(all.begin(), all.end(), a) != all.end()) out.push_back(a);
    if (out.size() < 2) out.clear();
    return out;
}

std::string guess_question(const SystemSpec& system, const CollectiveGroup& group, CollectiveOp op, double bytes) {
    const auto choices = guess_choices(system, group, op);
    if (choices.size() < 2) return {};
    std::string names;
    for (std::size_t i = 0; i < choices.size(); ++i)
        names += (i == 0 ? "" : i + 1 == choices.size() ? " or " : ", ") + collective_algorithm_phrase(choices[i]);
    return std::string(choices.size() == 2 ? "Which is faster" : "Which is fastest") + " for " + format_bytes(bytes) +
           " on " + format_counted(group.gpus, "GPU") + ": " + names + "?";
}

CollectiveReveal reveal_collective(const CollectiveGuess& guess, const Cluster& cluster, const CollectiveResult& result) {
    CollectiveReveal r;
    const auto choices = guess_choices(cluster.system(), result.group, result.op);
    if (!guess.faster || choices.size() < 2) return r;
    r.guessed = true;
    const NcclModel model(cluster.system(), result.group, result.op);
    const double bytes = static_cast<double>(result.bytes);
    std::vector<CollectiveCost> costs;
    for (CollectiveAlgorithm a : choices) costs.push_back(model.best(bytes, {a, std::nullopt}));
    std::stable_sort(costs.begin(), costs.end(), [](const CollectiveCost& x, const CollectiveCost& y) { return x.time_s < y.time_s; });
    const CollectiveCost& win = costs.front();
    const CollectiveAlgorithm guessed = *guess.faster == CollectiveAlgorithm::nvls && result.group.nodes > 1
                                            ? CollectiveAlgorithm::nvls_tree : *guess.faster;
    r.faster = win.algorithm;
    r.right = guessed == win.algorithm;
    // Set against the guess when it was wrong, else against the runner-up.
    const auto other = std::find_if(costs.begin() + 1, costs.end(), [&](const CollectiveCost& c) { return c.algorithm == guessed; });
    const CollectiveCost& lose = r.right || other == costs.end() ? costs[1] : *other;
    const std::string faster = choices.size() == 2 ? " is faster" : " is fastest";
    const auto the = collective_algorithm_phrase;
    r.line = (r.right ? "Right: " + the(win.algorithm) : "You guessed " + the(*guess.faster) + "; " + the(win.algorithm)) +
             faster + " at " + format_bytes(bytes) + ": " + format_seconds(win.time_s) + " against " +
             the(lose.algorithm) + "'s " + format_seconds(lose.time_s) + " (" + format_ratio(lose.time_s / win.time_s) + ").";
    return r;
}

}  // namespace m2m::core
