// What the lesson says about a collective: its time and bandwidths in words, the algorithm NCCL
// picks and why, and which link holds it back (what it says while a run plays: collective_play.cpp).
//
// [SECTION] the choice   [SECTION] the links   [SECTION] the story
#include "m2m/core/rack/collectives.hpp"
#include "m2m/core/engine/text.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <stdexcept>

namespace m2m::core {

namespace {

// [SECTION] the choice -------------------------------------------------------------------------------

std::uint32_t tree_levels(const CollectiveGroup& g) {
    return g.nodes > 1 ? static_cast<std::uint32_t>(std::floor(std::log2(static_cast<double>(g.nodes)))) : 0;
}

// How far an algorithm's message travels before it is done, in hops a reader can count.
std::string path_of(CollectiveAlgorithm a, CollectiveOp op, const CollectiveGroup& g) {
    const std::uint32_t levels = tree_levels(g);
    switch (a) {
    case CollectiveAlgorithm::ring: {
        const auto steps = static_cast<std::int64_t>(op == CollectiveOp::broadcast ? g.gpus - 1 : ring_step_count(op, g.gpus));
        if (g.nodes <= 1) return format_counted(steps, "step") + " around the ring";
        // Every step has sends over the network (where the ring crosses between nodes); what NCCL's
        // latency counts is how often one piece of the data crosses it on its way round.
        const std::int64_t net = op == CollectiveOp::all_reduce ? 2 * (g.nodes - 1) : g.nodes - 1;
        return format_counted(steps, "step") + ", in which each piece crosses the network " +
               (net == 1 ? std::string("once") : format_count(net) + " times");
    }
    case CollectiveAlgorithm::tree:
        if (g.nodes <= 1) return format_counted(2 * (g.gpus_per_node - 1), "NVLink hop") + " down a chain and back";
        return format_counted(2 * levels, "network hop") + " (" + format_counted(levels, "level") + " up, " +
               format_count(levels) + " down)";
    case CollectiveAlgorithm::nvls:
        if (op == CollectiveOp::all_gather) return "one trip into the NVSwitch, which copies each piece to every GPU";
        if (op == CollectiveOp::reduce_scatter) return "one trip into the NVSwitch, which adds each GPU's share";
        return "one trip into the NVSwitch, which adds, and back";
    case CollectiveAlgorithm::nvls_tree:
        return "one trip through each node's NVSwitch and " + format_counted(2 * levels, "network hop");
    case CollectiveAlgorithm::p2p: {  // one send to each peer, each adding its hop (NcclModel::tune_p2p)
        // Not "one after another": NCCL runs up to eight peers at once on each of its channels; the
        // model adds a hop a peer, which is what the fixed cost measured grows by, not NCCL's order.
        const std::uint32_t nvlink = g.fewest() - 1, network = g.gpus - g.fewest();
        if (g.gpus == 2) return std::string("a send to the other GPU") + (network == 0 ? ", over NVLink" : ", across the network");
        const std::string each = "a send to each of the other " + format_count(g.gpus - 1) + " GPUs";
        const std::string adds = ", each adding its link's hop to the fixed cost";
        if (network == 0) return each + " over NVLink" + adds;
        if (nvlink == 0) return each + " across the network" + adds;
        return each + " (" + format_count(nvlink) + " over NVLink, " + format_count(network) + " across the network)" + adds;
    }
    }
    return {};
}

std::string where_of(const CollectiveGroup& g) {
    if (g.nodes <= 1) return "in one node";
    return "across " + format_counted(g.nodes, "node");
}

// "the ring (LL)", "NVLS (Simple)", "point-to-point sends (Simple)"
std::string named(const CollectiveCost& c) {
    return collective_algorithm_phrase(c.algorithm) + " (" + std::string(collective_protocol_label(c.protocol)) + ")";
}

// NCCL's pick at this size, and why, against the fastest other algorithm.
std::string choice_sentence(const Cluster& cluster, const CollectiveResult& r) {
    const NcclModel model(cluster.system(), r.group, r.op, *r.tuning);
    const double bytes = static_cast<double>(r.bytes);
    const CollectiveCost pick = model.best(bytes);
    std::string out = "At " + format_bytes(bytes) + " " + where_of(r.group) + " NCCL picks " + named(pick) + ": " +
                      path_of(pick.algorithm, r.op, r.group) + ", " + format_seconds(pick.time_s);
    // Set against the ring, the algorithm everyone knows, and against any other that runs
    // sooner than the pick (NCCL ranks by its own estimate); a ring's pick against the runner-up.
    std::optional<CollectiveCost> next, ring;
    for (CollectiveAlgorithm a : model.algorithms()) {
        if (a == pick.algorithm) continue;
        const CollectiveCost c = model.best(bytes, {a, std::nullopt});
        if (a == CollectiveAlgorithm::ring) ring = c;
        if (!next || c.time_s < next->time_s) next = c;  // the fastest other, as it runs
    }
    std::vector<const CollectiveCost*> told;
    const auto against = [&](const CollectiveCost& c) {
        out += "; " + named(c) + " needs " + path_of(c.algorithm, r.op, r.group) + ": " + format_seconds(c.time_s);
        told.push_back(&c);
    };
    if (ring) against(*ring);
    if (next && (!ring || (next->algorithm != ring->algorithm && next->time_s < pick.time_s))) against(*next);
    out += ".";
    // NCCL picks by its own estimate, which leaves out NVLS's pipeline filling and a small
    // message's few channels, and prices NVLS in one node and the tree across nodes below their runs.
    bool narrow_told = false;
    if (next && next->time_s < pick.time_s) {
        std::string why;
        if (pick.pipeline_fill_s > 0)
            why = "it leaves out the " + format_seconds(pick.pipeline_fill_s) + " its pipeline takes to fill";
        else if (pick.narrow_s > 0)
            why = "it leaves out the " + format_seconds(pick.narrow_s) + " a message this small loses on " +
                  std::to_string(pick.channels) + " of its " + std::to_string(pick.max_channels) + " channels";
        if (next->run_bandwidth_GBps > next->bandwidth_GBps)
            why += (why.empty() ? "it prices " : ", and it prices ") + named(*next) + " at an algbw of " +
                   format_rate_GBps(next->bandwidth_GBps) + ", " + run_rate_reason(*next);
        if (!why.empty())
            out += " NCCL's own estimate puts " + named(pick) + " first (" + format_seconds(pick.nccl_time_s) +
                   " against " + format_seconds(next->nccl_time_s) + "), but " + why + ".";
        narrow_told = pick.narrow_s > 0 && pick.pipeline_fill_s <= 0 && !why.empty();
    }
    // The same algorithm on another protocol can run well sooner than the pick: NCCL's estimate
    // leaves out the channels a small message loses (the ring's LL needs 8 bytes a thread for every
    // rank), so a size a little larger, on LL128, can take less time (a reviewer: 2 MB all-gathered
    // over 128 GPUs took 567 us, 4 MB 301 us).
    std::optional<CollectiveCost> other;
    for (CollectiveProtocol p : all_protocols) {
        if (p == pick.protocol) continue;
        try {
            const CollectiveCost c = model.best(bytes, {pick.algorithm, p});
            if (c.protocol == p && (!other || c.time_s < other->time_s)) other = c;
        } catch (const std::invalid_argument&) {
            // this algorithm cannot run that protocol here
        }
    }
    if (other && other->time_s < 0.9 * pick.time_s) {
        std::string same = collective_algorithm_phrase(pick.algorithm);
        same[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(same[0])));
        out += " " + same + " with " + std::string(collective_protocol_label(other->protocol)) + " would take " +
               format_seconds(other->time_s) + ": NCCL's estimate gives " + format_seconds(pick.nccl_time_s) + " for " +
               std::string(collective_protocol_label(pick.protocol)) + " against " + format_seconds(other->nccl_time_s);
        if (pick.narrow_s > 0 && !narrow_told)
            out += ", leaving out the " + format_seconds(pick.narrow_s) + " a message this small loses on " +
                   std::to_string(pick.channels) + " of its " + std::to_string(pick.max_channels) + " channels";
        out += ".";
    }
    // The reader's own choice: its time as NCCL would run it (the drawing may run it otherwise,
    // one ring instead of one per NIC), unless the sentence has just given it.
    if (r.algorithm != pick.algorithm || r.protocol != pick.protocol) {
        if (std::any_of(told.begin(), told.end(),
                        [&](const CollectiveCost* c) { return c->algorithm == r.algorithm && c->protocol == r.protocol; }))
            out += " You chose " + named(r.nccl) + ".";
        else
            out += " You chose " + named(r.nccl) + ": " + format_seconds(r.nccl.time_s) + " as NCCL would run it.";
    }
    return out;
}

// [SECTION] the links ----------------------------------------------------------------------------------

// Where a ring collective's time goes: all on NVLink, or waiting for InfiniBand (and how long the
// NVLink wires sit idle meanwhile). `crossings`: sends of one ring that leave their node.
std::string ring_verdict(const Cluster& cluster, const CollectiveResult& r, const CollectiveStory& st,
                         std::size_t crossings) {
    const SystemSpec& sys = cluster.system();
    // The start-up too, where there is one: "14 steps of 1.38 us" beside 25.9 us left 6.6 us unsaid.
    const std::string start = r.base_latency_s > 0 ? "after a start-up of " + format_seconds(r.base_latency_s) + ", " : "";
    if (r.slowest != LinkType::infiniband)
        return "All " + std::to_string(r.gpus) + " GPUs sit in one node, so every send of every step is NVLink: " + start +
               "each of the " + std::to_string(r.steps) + " steps takes " + format_seconds(r.step_s) +
               ", and busbw reaches " + st.busbw + " of NVLink's " + format_rate_GBps(sys.nvlink.effective_GBps()) + ".";
    const std::string ring = r.rings == 1 ? "The ring" : "Each ring";
    const std::string leaves = ring + " leaves a node " + std::to_string(crossings) +
                               (crossings == 1 ? " time" : " times") + " over " + sys.infiniband.name;
    // Balanced when the InfiniBand sends take less than a quarter longer than the NVLink ones.
    if (st.nvlink_sends_end_s > 0 && st.infiniband_sends_end_s < 1.25 * st.nvlink_sends_end_s)
        return leaves + ", but with " + std::to_string(r.rings) + " rings on " + std::to_string(r.rings) +
               " NICs per node the InfiniBand sends (" + format_seconds(st.infiniband_sends_end_s) +
               ") take about as long as the NVLink ones (" + format_seconds(st.nvlink_sends_end_s) +
               "): neither wire waits for long, and busbw reaches " + st.busbw + ".";
    std::string verdict = leaves + ", and every step waits for its slowest send";
    if (st.nvlink_sends_end_s > 0) {
        const double idle_share = 1.0 - st.nvlink_sends_end_s / std::max(r.step_wire_s, 1e-30);
        verdict += ": the NVLink sends are done after " + format_seconds(st.nvlink_sends_end_s) +
                   ", the InfiniBand ones after " + format_seconds(st.infiniband_sends_end_s) +
                   ", so the NVLink wires sit idle " + format_percent(std::max(idle_share, 0.0), 0) + " of the time";
    }
    return verdict + ". busbw " + st.busbw + " is set by InfiniBand, not by NVLink's " +
           format_rate_GBps(sys.nvlink.effective_GBps()) + ".";
}

// NVLS's pipeline (NcclModel::pipeline_fill_s): empty when it has none.
// How much of a one-pass algorithm's pass is fixed cost: "48.4 µs of it fixed cost", or "nearly all
// of it fixed cost" where the bytes take under 1%.
std::string pass_fixed(const CollectiveResult& r) {
    const double fixed = std::min(r.step_latency_s, r.step_s);
    if (fixed >= 0.99 * r.step_s) return "nearly all of it fixed cost";
    return format_seconds(fixed) + " of it fixed cost";
}

std::string pipeline_sentence(const CollectiveResult& r, const char* stages) {
    if (!(r.nccl.pipeline_fill_s > 0)) return {};
    return " It streams in loops of " + format_bytes(r.nccl.pipeline_loop_bytes) + ", stage after stage (" + stages +
           "): filling that pipeline takes " + format_seconds(r.nccl.pipeline_fill_s) + ", " +
           (r.nccl.pipeline_fill_s < 0.005 * r.time_s ? std::string("under 1%")
                                                       : format_percent(r.nccl.pipeline_fill_s / r.time_s, 0)) +
           " of the time.";
}

std::string other_verdict(const Cluster& cluster, const CollectiveResult& r, const CollectiveStory& st) {
    const SystemSpec& sys = cluster.system();
    switch (r.algorithm) {
    case CollectiveAlgorithm::nvls: {
        const std::string ceiling = format_rate_GBps(sys.nvlink.effective_GBps());
        const char* stages = r.op == CollectiveOp::all_reduce       ? "into the switch, the sum, back out"
                             : r.op == CollectiveOp::reduce_scatter ? "into the switch, the sum"
                                                                    : "into the switch, back out";
        // An all-gather or a reduce-scatter moves the whole message one way on every GPU's link
        // (NVIDIA/nccl #1083), where a ring moves (n-1)/n of it each way: NVLS saves SMs, not time.
        if (r.op != CollectiveOp::all_reduce)
            return std::string(r.op == CollectiveOp::all_gather
                                   ? "Each GPU stores its piece in the NVSwitch once and the switch copies it to every GPU, "
                                     "so each GPU still takes in the whole message"
                                   : "The NVSwitch reads every GPU's whole input to add it, so each GPU still sends out "
                                     "the whole message") +
                   ", where a ring moves (n-1)/n of it each way: busbw " + st.busbw + ", no faster than NVLink's " +
                   ceiling + " for a ring. NVLS saves the GPUs' cores here, not time." + pipeline_sentence(r, stages);
        std::string out = "Each GPU sends its data into the NVSwitch once; the switch adds it and sends the sum back to "
                          "all. A ring moves 2(n-1)/n of the data over every GPU's link, so ";
        // The busbw it streams at, fixed costs aside: on few GPUs the switch saves less than NVLS's
        // efficiency costs, and it never passes the ring's figure.
        const double streaming = r.nccl.run_bandwidth_GBps * busbw_factor(r.op, r.gpus);
        if (r.busbw_GBps > sys.nvlink.effective_GBps())
            out += "NVLS reaches a busbw of " + st.busbw + ", above NVLink's " + ceiling + " for a ring.";
        else if (streaming > sys.nvlink.effective_GBps())
            out += "with large messages NVLS passes NVLink's " + ceiling + " busbw for a ring; at this size its fixed "
                   "costs hold it to " + st.busbw + ".";
        else
            out += "it would pass NVLink's " + ceiling + " busbw for a ring on more GPUs, but on " +
                   std::to_string(r.gpus) + " the sum saves too little: busbw " + st.busbw + ", at most " +
                   format_rate_GBps(streaming) + ".";
        return out + pipeline_sentence(r, stages);
    }
    case CollectiveAlgorithm::nvls_tree:
        return "Inside each node the NVSwitch adds; across nodes each GPU's share goes up a tree and back down, through "
               "its own NIC on " + sys.infiniband.name + ". busbw " + st.busbw + "." +
               pipeline_sentence(r, "into the switch, the sum up the tree and down, back out");
    case CollectiveAlgorithm::tree:
        return r.nodes > 1 ? "The data climbs a chain in each node and a tree across nodes, and the sum comes back "
                             "down: each GPU's links carry it twice (up and down), but only a few hops lie between "
                             "any GPU and the root. busbw " + st.busbw + "."
                           : "Inside one node the tree is a chain: the data goes down it, adding, and the sum comes "
                             "back. busbw " + st.busbw + ".";
    default:
        return "Every GPU sends its piece to every other: each send adds its link's hop to the fixed cost, and the "
               "bytes all flow at once, over NVLink inside its node and through its own NIC to the others: busbw " +
               st.busbw + ".";
    }
}

// What more rings would change: nothing inside a node; one per NIC across nodes, as NCCL lays them
// out (a small message running on fewer of its channels).
std::string rings_note(const Cluster& cluster, const CollectiveResult& r) {
    if (r.algorithm != CollectiveAlgorithm::ring) return {};
    const std::uint32_t per_node = r.group.gpus_per_node;
    if (r.nodes <= 1)
        return r.rings == 1 ? "Inside one node more rings would share the same NVLink ports: they add nothing."
                            : "Inside one node the " + std::to_string(r.rings) + " rings share the same NVLink ports.";
    (void)cluster;
    if (r.rings == 1)
        return "This is a single ring: it leaves each node through one NIC while the other " +
               std::to_string(per_node - 1) + " sit idle. NCCL runs one ring per NIC (" + std::to_string(per_node) +
               " here), so one ring understates real cross-node throughput.";
    std::string out = std::to_string(r.rings) + " rings, as NCCL lays them out: each carries 1/" +
                      std::to_string(r.rings) + " of the data and leaves each node through a different NIC, so " +
                      std::to_string(r.rings) + " NICs per node carry InfiniBand traffic at once. Inside a node the "
                      "rings share NVLink.";
    if (r.nccl.channels > 0 && r.nccl.channels < r.nccl.max_channels)
        out += " A message this small runs on only " + std::to_string(r.nccl.channels) + " of NCCL's " +
               std::to_string(r.nccl.max_channels) + " channels, though, and the time is theirs.";
    return out;
}

}  // namespace

// [SECTION] the story --------------------------------------------------------------------------------

CollectiveStory tell(const Cluster& cluster, const CollectiveResult& r) {
    CollectiveStory st;
    st.time = format_seconds(r.time_s);
    st.algbw = format_rate_GBps(r.algbw_GBps);
    st.busbw = format_rate_GBps(r.busbw_GBps);
    st.algorithm = std::string(collective_algorithm_label(r.algorithm));
    st.protocol = std::string(collective_protocol_label(r.protocol));
    st.slowest = std::string(link_type_label(r.slowest));
    st.steps = std::to_string(r.steps) + " \u00d7 " + format_seconds(r.step_s);
    st.nccl_time = format_seconds(r.nccl.nccl_time_s);
    std::size_t crossings = 0;  // sends of one ring that leave their node
    for (const CollectiveSend& s : r.sends) {
        double& end = s.type == LinkType::infiniband ? st.infiniband_sends_end_s : st.nvlink_sends_end_s;
        end = std::max(end, s.end_s);
        if (s.ring == 0 && s.type == LinkType::infiniband) ++crossings;
    }
    st.waits_on = st.infiniband_sends_end_s > st.nvlink_sends_end_s ? LinkType::infiniband : LinkType::nvlink;
    if (st.nvlink_sends_end_s > 0) st.nvlink_sends = "NVLink sends: " + format_seconds(st.nvlink_sends_end_s);
    if (st.infiniband_sends_end_s > 0) st.infiniband_sends = "InfiniBand sends: " + format_seconds(st.infiniband_sends_end_s);
    if (r.steps == 0) {
        st.verdict = "A group of one GPU has nothing to exchange.";
        return st;
    }
    const double latency_s = r.base_latency_s + static_cast<double>(r.steps) * r.step_latency_s;
    st.sends_caption = r.steps > 1 ? "In each of the " + std::to_string(r.steps) + " steps (" + format_seconds(r.step_s) +
                                         "), the sends on each wire end after:"
                                   : (r.base_latency_s > 0 ? "After " + format_seconds(r.base_latency_s) + " of start-up, its"
                                                           : std::string("Its")) +
                                         " one pass (" + format_seconds(r.step_s) + ", " + pass_fixed(r) +
                                         "): the sends on each wire end after:";
    // Three parts: the fixed cost, the pace of the few threads a small message runs on, the wires.
    const double narrow_s = std::min(r.nccl.narrow_s, r.time_s - latency_s);
    const double wires_s = r.time_s - latency_s - narrow_s;
    const auto percent = [&](double part) { return format_share(part / r.time_s); };
    st.latency_bound = latency_s >= narrow_s && latency_s > wires_s;
    st.narrow_bound = !st.latency_bound && narrow_s > wires_s;
    // "Hardly" only where a wider wire could save under a fifth of the time; else what it could save.
    const auto wider_wire = [&](double fixed_s) {
        return fixed_s >= 0.8 * r.time_s ? std::string("a wider wire would hardly help")
                                         : "a wider wire could save at most the other " + percent(r.time_s - fixed_s);
    };
    if (st.latency_bound)
        st.bound = "Latency-bound: the fixed cost is " + percent(latency_s) + " of the time, so " + wider_wire(latency_s) + ".";
    else if (st.narrow_bound)
        st.bound = "Too small to fill NCCL: it runs " + std::to_string(r.nccl.channels) + " of its " +
                   std::to_string(r.nccl.max_channels) + " channels, " + std::to_string(r.nccl.threads) +
                   " threads each, and their pace is " + percent(narrow_s) + " of the time; " +
                   wider_wire(latency_s + narrow_s) + ".";
    else
        st.bound = "Bandwidth-bound: moving the bytes is " + percent(wires_s + narrow_s) + " of the time, so only "
                   "wider wires help.";
    st.verdict = r.algorithm == CollectiveAlgorithm::ring ? ring_verdict(cluster, r, st, crossings)
                                                          : other_verdict(cluster, r, st);
    st.rings_note = rings_note(cluster, r);
    st.choice = choice_sentence(cluster, r);
    return st;
}

std::string run_rate_reason(const CollectiveCost& c) {
    if (!(c.run_bandwidth_GBps > c.bandwidth_GBps)) return {};
    const std::string run = format_rate_GBps(c.run_bandwidth_GBps);
    if (c.algorithm == CollectiveAlgorithm::tree)
        return "less 15% for a tree whose channels enter and leave each node through one GPU, which measured runs do "
               "not lose: they reach " + run;
    return "each channel held to a speed its search lists, where its wires give " + run;
}

}  // namespace m2m::core
