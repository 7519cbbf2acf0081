// `math-to-metal sim collective`: a ring all-reduce, all-gather or reduce-scatter over the first N GPUs, as JSON.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/cli.hpp"
#include "cli/rack_options.hpp"
#include "cli/subcommand.hpp"
#include "m2m/core/rack/collectives.hpp"

namespace m2m::cli {

namespace {

using nlohmann::json;
constexpr const char* me = "math-to-metal sim collective";

struct CollectiveOptions {
    std::string op = "allreduce", bytes_text;
    std::uint32_t gpus = 0, rings = 1;
    rack::Options rack;
    bool with_sends = false;
};

void add_options(CLI::App& app, CollectiveOptions& o) {
    app.add_option("--op", o.op, "allreduce, allgather or reducescatter")
        ->check(CLI::IsMember({"allreduce", "allgather", "reducescatter"}));
    app.add_option("--gpus", o.gpus, "GPUs in the ring: 0 .. N-1, filling nodes, then racks")
        ->required()
        ->check(CLI::Range(2u, static_cast<std::uint32_t>(core::max_cluster_gpus)));
    app.add_option("--bytes", o.bytes_text, "nccl-tests' size S: e.g. 1e9 or 1073741824")->required();
    app.add_option("--rings", o.rings, "parallel rings, each carrying bytes/rings and leaving each node by another NIC "
                                       "(NCCL's channels); default 1, the ring the lesson draws")
        ->check(CLI::Range(1u, 64u));
    rack::add_options(app, o.rack, "racks joined by the spine (default: as many as the group needs)");
    add_json_flag(app);
    app.add_flag("--sends", o.with_sends, "add one step's sends (every step has the same ones): from, to, link, start, end");
}

json sends_json(const core::CollectiveResult& r) {
    json sends = json::array();
    for (const core::RingSend& s : r.sends)
        sends.push_back({{"ring", s.ring},
                         {"position", s.position},
                         {"from", s.from},
                         {"to", s.to},
                         {"link", std::string(core::link_type_name(s.type))},
                         {"hops", s.hops},
                         {"start_s", s.start_s},
                         {"end_s", s.end_s}});
    return sends;
}

json collective_json(const CollectiveOptions& o, const core::Cluster& cluster, const core::CollectiveResult& r) {
    json j;
    j["op"] = o.op;
    j["gpus"] = r.gpus;
    j["bytes"] = r.bytes;
    j["hardware"] = o.rack.hardware;
    j["system"] = cluster.system().name;
    j["cluster"] = rack::cluster_json(cluster);
    j["nodes"] = r.nodes;
    j["rings"] = r.rings;
    j["link"] = std::string(core::link_type_name(r.slowest));  // the slowest link any send crosses
    j["bottleneck_GBps"] = r.bottleneck_GBps;
    j["steps"] = r.steps;
    j["chunk_bytes"] = r.chunk_bytes;
    j["base_latency_s"] = r.base_latency_s;
    j["step_s"] = r.step_s;
    j["time_s"] = r.time_s;
    j["algbw_GBps"] = r.algbw_GBps;
    j["busbw_GBps"] = r.busbw_GBps;
    j["busbw_factor"] = core::busbw_factor(r.op, r.gpus);
    if (o.with_sends) j["sends"] = sends_json(r);
    return j;
}

}  // namespace

int sim_collective(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    CLI::App app{"Lesson 2: a ring collective over GPUs 0 .. N-1, timed on the links it crosses", me};
    CollectiveOptions o;
    add_options(app, o);
    if (auto code = parse_or_exit(app, args, out, err)) return *code;

    core::Bytes bytes = 0;
    if (auto why = rack::read_bytes(o.bytes_text, bytes)) return refuse(err, me, "--bytes", *why);
    core::ClusterShape shape = rack::shape(o.rack);
    if (app.count("--racks") == 0) {  // as many racks as the group needs
        const std::uint64_t per_rack = std::uint64_t{shape.gpus_per_node} * shape.nodes_per_rack;
        shape.racks = static_cast<std::uint32_t>(std::max<std::uint64_t>(1, (o.gpus + per_rack - 1) / per_rack));
    }
    if (auto why = core::validate(shape); !why.empty()) return refuse(err, me, rack::shape_flags, why);
    if (o.gpus > shape.gpu_count())
        return refuse(err, me, "--gpus",
                      "a group of " + std::to_string(o.gpus) + " GPUs does not fit in a cluster of " +
                          rack::describe(shape) + " (accepted: 2 to " + std::to_string(shape.gpu_count()) +
                          ", or raise --racks)");

    const core::Cluster cluster(shape, presets::builtin().find_system(o.rack.hardware)->spec);
    core::CollectiveSetup setup;
    setup.op = *core::parse_collective_op(o.op);
    setup.group = core::first_gpus(o.gpus);
    setup.bytes = bytes;
    setup.rings = o.rings;
    return print_json(out, collective_json(o, cluster, core::run_collective(cluster, setup)));
}

}  // namespace m2m::cli
