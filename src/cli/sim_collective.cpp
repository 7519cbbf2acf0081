// `math-to-metal sim collective`: a ring all-reduce, all-gather or reduce-scatter over the first N GPUs, as JSON.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/cli.hpp"
#include "cli/rack_options.hpp"
#include "m2m/core/rack/collectives.hpp"

namespace m2m::cli {

int sim_collective(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    const char* me = "math-to-metal sim collective";
    CLI::App app{"Lesson 2: a ring collective over GPUs 0 .. N-1, timed on the links it crosses", me};
    std::string op_name = "allreduce", bytes_text;
    std::uint32_t gpus = 0, rings = 1;
    rack::Options opt;
    bool as_json = false, with_sends = false;
    app.add_option("--op", op_name, "allreduce, allgather or reducescatter")
        ->check(CLI::IsMember({"allreduce", "allgather", "reducescatter"}));
    app.add_option("--gpus", gpus, "GPUs in the ring: 0 .. N-1, filling nodes, then racks")
        ->required()
        ->check(CLI::Range(2u, static_cast<std::uint32_t>(core::max_cluster_gpus)));
    app.add_option("--bytes", bytes_text, "nccl-tests' size S: e.g. 1e9 or 1073741824")->required();
    app.add_option("--rings", rings, "parallel rings, each carrying bytes/rings and leaving each node by another NIC "
                                     "(NCCL's channels); default 1, the ring the lesson draws")
        ->check(CLI::Range(1u, 64u));
    rack::add_options(app, opt, "racks joined by the spine (default: as many as the group needs)");
    app.add_flag("--json", as_json, "print one JSON object (the only output format)");
    app.add_flag("--sends", with_sends, "add one step's sends (every step has the same ones): from, to, link, start, end");
    if (auto code = parse_or_exit(app, args, out, err)) return *code;

    const auto bytes = rack::parse_bytes(bytes_text);
    if (!bytes) {
        err << me << ": --bytes: expected " << rack::bytes_accepted() << ", got '" << bytes_text << "'\n";
        return exit_bad_input;
    }
    core::ClusterShape shape = rack::shape(opt);
    if (app.count("--racks") == 0) {
        const std::uint64_t per_rack = std::uint64_t{shape.gpus_per_node} * shape.nodes_per_rack;
        shape.racks = static_cast<std::uint32_t>(std::max<std::uint64_t>(1, (gpus + per_rack - 1) / per_rack));
    }
    if (auto why = core::validate(shape); !why.empty()) {
        err << me << ": --nodes-per-rack/--racks: " << why << "\n";
        return exit_bad_input;
    }
    if (gpus > shape.gpu_count()) {
        err << me << ": --gpus: a group of " << gpus << " GPUs does not fit in a cluster of " << rack::describe(shape)
            << " (accepted: 2 to " << shape.gpu_count() << ", or raise --racks)\n";
        return exit_bad_input;
    }

    const core::Cluster cluster(shape, presets::builtin().find_system(opt.hardware)->spec);
    core::CollectiveSetup setup;
    setup.op = *core::parse_collective_op(op_name);
    setup.group = core::first_gpus(gpus);
    setup.bytes = *bytes;
    setup.rings = rings;
    const core::CollectiveResult r = core::run_collective(cluster, setup);

    nlohmann::json j;
    j["op"] = op_name;
    j["gpus"] = r.gpus;
    j["bytes"] = r.bytes;
    j["hardware"] = opt.hardware;
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
    if (with_sends) {
        nlohmann::json sends = nlohmann::json::array();
        for (const core::RingSend& s : r.sends)
            sends.push_back({{"ring", s.ring},
                             {"position", s.position},
                             {"from", s.from},
                             {"to", s.to},
                             {"link", std::string(core::link_type_name(s.type))},
                             {"hops", s.hops},
                             {"start_s", s.start_s},
                             {"end_s", s.end_s}});
        j["sends"] = std::move(sends);
    }
    (void)as_json;  // JSON is the only format; the flag is accepted so scripts read clearly
    out << j.dump(2) << "\n";
    return exit_ok;
}

}  // namespace m2m::cli
