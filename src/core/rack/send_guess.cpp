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
    const NcclModel model(system, group, op);
    const std::vector<CollectiveAlgorithm> all = model.algorithms();
    const auto has = [&](CollectiveAlgorithm a) { return std::find(all.begin(), all.end(), a) != all.end(); };
    for (CollectiveAlgorithm other : {CollectiveAlgorithm::tree, CollectiveAlgorithm::nvls, CollectiveAlgorithm::nvls_tree})
        if (has(other) && has(CollectiveAlgorithm::ring)) return {CollectiveAlgorithm::ring, other};
    return {};
}

std::string guess_question(const SystemSpec& system, const CollectiveGroup& group, CollectiveOp op, double bytes) {
    const auto choices = guess_choices(system, group, op);
    if (choices.size() < 2) return {};
    return "Which is faster for " + format_bytes(bytes) + " on " + format_counted(group.gpus, "GPU") + ": the " +
           std::string(collective_algorithm_label(choices[0])) + " or the " +
           std::string(collective_algorithm_label(choices[1])) + "?";
}

CollectiveReveal reveal_collective(const CollectiveGuess& guess, const Cluster& cluster, const CollectiveResult& result) {
    CollectiveReveal r;
    const auto choices = guess_choices(cluster.system(), result.group, result.op);
    if (!guess.faster || choices.size() < 2) return r;
    r.guessed = true;
    const NcclModel model(cluster.system(), result.group, result.op);
    const double bytes = static_cast<double>(result.bytes);
    const CollectiveCost a = model.best(bytes, {choices[0], std::nullopt});
    const CollectiveCost b = model.best(bytes, {choices[1], std::nullopt});
    const CollectiveCost& win = a.time_s <= b.time_s ? a : b;
    const CollectiveCost& lose = a.time_s <= b.time_s ? b : a;
    r.faster = win.algorithm;
    r.right = *guess.faster == win.algorithm ||
              (*guess.faster == CollectiveAlgorithm::nvls && win.algorithm == CollectiveAlgorithm::nvls_tree);
    const std::string w(collective_algorithm_label(win.algorithm)), l(collective_algorithm_label(lose.algorithm));
    r.line = (r.right ? "Right: the " + w : "You guessed the " + std::string(collective_algorithm_label(*guess.faster)) +
                                                "; the " + w + " is faster") +
             " at " + format_bytes(bytes) + ": " + format_seconds(win.time_s) + " against the " + l + "'s " +
             format_seconds(lose.time_s) + " (" + format_ratio(lose.time_s / win.time_s) + ").";
    return r;
}

}  // namespace m2m::core
