// Predict, then reveal in Lesson 2: the guess about a send against the send, in the lesson's words.
#include "m2m/core/rack/send_guess.hpp"
#include "m2m/core/engine/text.hpp"

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

}  // namespace m2m::core
