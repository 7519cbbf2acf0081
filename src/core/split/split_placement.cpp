// The same step in the other placement: one node against two. Its exchanging time, and why it
// differs, from the two steps the core ran and the collectives they are made of.
#include "m2m/core/engine/text.hpp"
#include "m2m/core/rack/collectives.hpp"
#include "m2m/core/split/split.hpp"
#include "split_parts.hpp"

namespace m2m::core::split_detail {

namespace {

// "the ring (LL), which runs a message this small on 1 of its 24 channels: 32.3 µs"
std::string pick_text(const Cluster& cluster, const CollectiveResult& c) {
    const CollectiveStory st = tell(cluster, c);
    std::string s = "the " + st.algorithm + " (" + st.protocol + ")";
    if (c.nccl.narrow_s > 0 && c.nccl.channels < c.nccl.max_channels)
        s += ", which runs a message this small on " + std::to_string(c.nccl.channels) + " of its " +
             std::to_string(c.nccl.max_channels) + " channels";
    return s + ": " + format_seconds(c.time_s);
}

}  // namespace

std::string placement_sentence(const SplitResult& r, const SplitResult& other) {
    const bool here_two = r.setup.placement == Placement::two_nodes;
    const SplitResult& one = here_two ? other : r;
    const SplitResult& two = here_two ? r : other;
    const double t_one = one.step.communication_s, t_two = two.step.communication_s;
    if (r.exchanges.empty() || t_one <= 0 || t_two <= 0) return {};
    const std::string other_time = format_seconds(other.step.communication_s);
    std::string s = here_two ? "In one node the GPUs would wait " + other_time + " on exchanges, not " +
                                   format_seconds(r.step.communication_s) + ": "
                             : "Across two nodes the GPUs would wait " + other_time + " on exchanges, not " +
                                   format_seconds(r.step.communication_s) + ": ";
    if (t_two >= t_one)
        return s + "the exchanges that cross between the nodes take InfiniBand's longer hops and slower wire.";
    // Two nodes wait less. Find the collective that gains the most there and say why.
    const Cluster cluster(split_cluster_shape(), r.setup.hardware.system);
    const Exchange* best = nullptr;
    double gain = 0;
    for (std::size_t k = 0; k < one.exchanges.size() && k < two.exchanges.size(); ++k) {
        const Exchange& e1 = one.exchanges[k];
        const double g = e1.seconds - two.exchanges[k].seconds;
        if (e1.op != ExchangeOp::send && g > gain) gain = g, best = &e1;
    }
    s += "two nodes wait less here, though InfiniBand is the slower wire.";
    if (!best) return s;
    const std::size_t k = static_cast<std::size_t>(best - one.exchanges.data());
    const CollectiveResult c1 = run_collective(cluster, exchange_collective(one, *best)),
                           c2 = run_collective(cluster, exchange_collective(two, two.exchanges[k]));
    return s + " The " + format_bytes(static_cast<double>(best->bytes)) + " " + std::string(exchange_op_name(best->op)) +
           " is too small for the wires' speed to matter: its time is fixed costs and how NCCL runs it. Across the "
           "nodes NCCL picks " + pick_text(cluster, c2) + "; in one node " + pick_text(cluster, c1) +
           ". Lesson 2 shows both against the size, and why NCCL picks the one it does.";
}

}  // namespace m2m::core::split_detail
