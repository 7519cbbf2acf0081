// `math-to-metal sim collective`: one collective over the first N GPUs as NCCL would run it (or as
// asked), simulated on the links, as JSON; or with --sweep, NCCL's cost of every size 8 B to 16 GB.
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
    std::string op = "allreduce", bytes_text, algorithm = "auto", protocol = "auto", nccl = "2.30.7";
    std::uint32_t gpus = 0, rings = 0;
    rack::Options rack;
    bool with_sends = false, sweep = false;
};

void add_options(CLI::App& app, CollectiveOptions& o) {
    app.add_option("--op", o.op, "allreduce, allgather, reducescatter, broadcast or alltoall")
        ->check(CLI::IsMember({"allreduce", "allgather", "reducescatter", "broadcast", "alltoall"}));
    app.add_option("--gpus", o.gpus, "GPUs taking part: 0 .. N-1, filling nodes, then racks")
        ->required()
        ->check(CLI::Range(2u, static_cast<std::uint32_t>(core::max_cluster_gpus)));
    app.add_option("--bytes", o.bytes_text, "nccl-tests' size S: e.g. 1e9, 1073741824 or 64M (K, M, G, T: powers of 1024; not with --sweep)");
    app.add_option("--algorithm", o.algorithm, "auto (NCCL's pick), ring, tree or nvls (NVLS tree across nodes)")
        ->check(CLI::IsMember({"auto", "ring", "tree", "nvls"}));
    app.add_option("--protocol", o.protocol, "auto (NCCL's pick), ll, ll128 or simple")
        ->check(CLI::IsMember({"auto", "ll", "ll128", "simple"}));
    app.add_option("--rings", o.rings, "parallel rings, each carrying bytes/rings and leaving each node by another NIC "
                                       "(NCCL's channels); default as NCCL: one per NIC across nodes, else 1")
        ->check(CLI::Range(1u, 64u));
    app.add_option("--nccl", o.nccl, "the NCCL version whose cost model picks and prices it (its tuning.cc figures): " +
                                         std::string(core::nccl_versions()) + " (default 2.30.7)");
    rack::add_options(app, o.rack, "racks joined by the spine (default: as many as the group needs)");
    add_json_flag(app);
    app.add_flag("--sends", o.with_sends, "add one step's sends (every ring step has the same ones): from, to, link, start, end");
    app.add_flag("--sweep", o.sweep, "NCCL's cost at every size from 8 B to 16 GB (x2 steps): each algorithm and its pick");
}

std::optional<core::CollectiveAlgorithm> algorithm_of(const std::string& name) {
    for (auto a : {core::CollectiveAlgorithm::ring, core::CollectiveAlgorithm::tree, core::CollectiveAlgorithm::nvls})
        if (name == core::collective_algorithm_name(a)) return a;
    return std::nullopt;
}

std::optional<core::CollectiveProtocol> protocol_of(const std::string& name) {
    for (auto p : core::all_protocols)
        if (name == core::collective_protocol_name(p)) return p;
    return std::nullopt;
}

json cost_json(const core::CollectiveCost& c) {
    json out = {{"algorithm", std::string(core::collective_algorithm_name(c.algorithm))},
                {"protocol", std::string(core::collective_protocol_name(c.protocol))},
                {"time_s", c.time_s},
                {"nccl_time_s", c.nccl_time_s},
                {"nccl_bandwidth_GBps", c.bandwidth_GBps},
                {"run_bandwidth_GBps", c.run_bandwidth_GBps},
                {"pipeline_fill_s", c.pipeline_fill_s},
                {"algbw_GBps", c.algbw_GBps},
                {"busbw_GBps", c.busbw_GBps}};
    if (c.channels > 0) {  // a ring or tree: how wide NCCL runs it at this size
        out["channels"] = c.channels;
        out["max_channels"] = c.max_channels;
        out["threads_per_channel"] = c.threads;
        out["narrow_s"] = c.narrow_s;
    }
    return out;
}

json sends_json(const core::CollectiveResult& r) {
    static constexpr const char* roles[] = {"ring", "up", "down", "into_switch", "out_of_switch", "peer"};
    json sends = json::array();
    for (const core::CollectiveSend& s : r.sends)
        sends.push_back({{"ring", s.ring},
                         {"position", s.position},
                         {"role", roles[static_cast<int>(s.role)]},
                         {"from", s.from},
                         {"to", s.to},
                         {"link", std::string(core::link_type_name(s.type))},
                         {"hops", s.hops},
                         {"bytes", s.bytes},
                         {"start_s", s.start_s},
                         {"end_s", s.end_s}});
    return sends;
}

json collective_json(const CollectiveOptions& o, const core::Cluster& cluster, const core::CollectiveResult& r) {
    const core::CollectiveStory st = core::tell(cluster, r);
    json j;
    j["op"] = o.op;
    j["gpus"] = r.gpus;
    j["bytes"] = r.bytes;
    j["hardware"] = o.rack.hardware;
    j["system"] = cluster.system().name;
    j["cluster"] = rack::cluster_json(cluster);
    j["nodes"] = r.nodes;
    j["algorithm"] = std::string(core::collective_algorithm_name(r.algorithm));
    j["protocol"] = std::string(core::collective_protocol_name(r.protocol));
    j["rings"] = r.rings;
    j["link"] = std::string(core::link_type_name(r.slowest));  // the slowest link any send crosses
    j["bottleneck_GBps"] = r.bottleneck_GBps;
    j["efficiency"] = r.efficiency;
    j["steps"] = r.steps;
    j["chunk_bytes"] = r.chunk_bytes;
    j["base_latency_s"] = r.base_latency_s;
    j["step_latency_s"] = r.step_latency_s;
    j["step_s"] = r.step_s;
    j["time_s"] = r.time_s;
    j["algbw_GBps"] = r.algbw_GBps;
    j["busbw_GBps"] = r.busbw_GBps;
    j["busbw_factor"] = core::busbw_factor(r.op, r.gpus);
    j["nccl_model"] = cost_json(r.nccl);  // NCCL's closed form for the same algorithm and protocol
    j["nccl_version"] = std::string(r.tuning->version);
    j["choice"] = st.choice;
    j["bound"] = st.bound;
    if (o.with_sends) j["sends"] = sends_json(r);
    return j;
}

json sweep_json(const CollectiveOptions& o, const core::Cluster& cluster, const core::CollectiveSweep& s,
                const core::NcclTuning& tuning) {
    json rows = json::array();
    for (std::size_t i = 0; i < s.sizes.size(); ++i) {
        json algorithms = json::object();
        for (std::size_t a = 0; a < s.algorithms.size(); ++a)
            algorithms[std::string(core::collective_algorithm_name(s.algorithms[a]))] = cost_json(s.curves[a][i]);
        rows.push_back({{"bytes", s.sizes[i]}, {"auto", cost_json(s.picks[i])}, {"algorithms", algorithms}});
    }
    return {{"op", o.op},
            {"gpus", o.gpus},
            {"nodes", s.group.nodes},
            {"hardware", o.rack.hardware},
            {"system", cluster.system().name},
            {"nccl_version", std::string(tuning.version)},
            {"model", "NCCL's closed-form cost (latency + bytes / bandwidth per algorithm and protocol) plus what a run does otherwise: the loops NVLS's and the NVLS tree's pipeline take to fill (pipeline_fill_s), a small message's pace on fewer channels and threads (narrow_s), NVLS's all-reduce in one node at its wires' rate, where NCCL's estimate holds each channel to a speed its search lists, and the tree across nodes without the 15% NCCL's estimate charges its plain TREE pattern (run_bandwidth_GBps against nccl_bandwidth_GBps, algbw); auto is NCCL's pick by its own estimate (nccl_time_s)"},
            {"nvlink_ceiling_GBps", s.nvlink_ceiling_GBps},
            {"network_ceiling_GBps", s.network_ceiling_GBps},
            {"latency_floor_s", s.latency_floor_s},
            {"crossover_bytes", s.crossover_bytes},
            {"sizes", rows}};
}

// The cluster for the group: as many racks as it needs when --racks is not given.
std::optional<core::ClusterShape> shape_for(const CLI::App& app, const CollectiveOptions& o, std::ostream& err, int& code) {
    core::ClusterShape shape = rack::shape(o.rack);
    if (app.count("--racks") == 0) {
        const std::uint64_t per_rack = std::uint64_t{shape.gpus_per_node} * shape.nodes_per_rack;
        shape.racks = static_cast<std::uint32_t>(std::max<std::uint64_t>(1, (o.gpus + per_rack - 1) / per_rack));
    }
    if (auto why = core::validate(shape); !why.empty()) {
        code = refuse(err, me, rack::shape_flags, why);
        return std::nullopt;
    }
    if (o.gpus > shape.gpu_count()) {
        code = refuse(err, me, "--gpus",
                      "a group of " + std::to_string(o.gpus) + " GPUs does not fit in a cluster of " +
                          rack::describe(shape) + " (accepted: 2 to " + std::to_string(shape.gpu_count()) +
                          ", or raise --racks)");
        return std::nullopt;
    }
    return shape;
}

}  // namespace

int sim_collective(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    CLI::App app{"Lesson 2: a collective over GPUs 0 .. N-1 as NCCL runs it, timed on the links it crosses", me};
    CollectiveOptions o;
    add_options(app, o);
    if (auto code = parse_or_exit(app, args, out, err)) return *code;

    core::Bytes bytes = 0;
    if (o.sweep && app.count("--bytes")) return refuse(err, me, "--bytes", "--sweep covers every size from 8 B to 16 GB: drop --bytes");
    if (!o.sweep) {
        if (app.count("--bytes") == 0) return refuse(err, me, "--bytes", "required: " + rack::bytes_accepted() + " (or --sweep)");
        if (auto why = rack::read_bytes(o.bytes_text, bytes)) return refuse(err, me, "--bytes", *why);
    }
    const core::NcclTuning* tuning = core::nccl_tuning_of(o.nccl);
    if (!tuning)
        return refuse(err, me, "--nccl", "no cost model for NCCL \"" + o.nccl + "\" (accepted: " + std::string(core::nccl_versions()) + ")");
    int code = exit_ok;
    const auto shape = shape_for(app, o, err, code);
    if (!shape) return code;
    const core::Cluster cluster(*shape, presets::builtin().find_system(o.rack.hardware)->spec);
    if (!core::nccl_knows(*tuning, cluster.system().generation))
        return refuse(err, me, "--nccl",
                      "NCCL " + o.nccl + " has no figures for " + o.rack.hardware +
                          ": Blackwell's entered its tuning in 2.25.1 (accepted with b200: 2.30.7)");
    core::CollectiveSetup setup;
    setup.op = *core::parse_collective_op(o.op);
    setup.group = core::first_gpus(o.gpus);
    setup.bytes = bytes;
    setup.rings = o.rings;
    setup.choice = {algorithm_of(o.algorithm), protocol_of(o.protocol)};
    setup.nccl = tuning;
    const core::NcclModel model(cluster.system(), core::collective_group(cluster, setup.group), setup.op, *tuning);
    if (auto why = model.refusal({setup.choice.algorithm, std::nullopt}); !why.empty())
        return refuse(err, me, "--algorithm", why);
    if (auto why = model.refusal(setup.choice); !why.empty()) return refuse(err, me, "--protocol", why);
    if (o.sweep) {
        const core::CollectiveSweep s = core::sweep_collective(cluster.system(), model.group(), setup.op, 8, 16.0 * (1ull << 30), *tuning);
        return print_json(out, sweep_json(o, cluster, s, *tuning));
    }
    return print_json(out, collective_json(o, cluster, core::run_collective(cluster, setup)));
}

}  // namespace m2m::cli
