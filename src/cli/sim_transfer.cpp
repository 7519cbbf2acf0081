// `math-to-metal sim transfer`: Lesson 2's "send a tensor" from one GPU to another, as JSON.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/cli.hpp"
#include "cli/rack_options.hpp"
#include "m2m/core/rack/topology.hpp"

namespace m2m::cli {

int sim_transfer(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    const char* me = "math-to-metal sim transfer";
    CLI::App app{"Lesson 2: send a tensor from one GPU to another over NVLink or InfiniBand", me};
    std::int64_t from = 0, to = 0;
    std::string bytes_text;
    rack::Options opt;
    bool as_json = false;
    app.add_option("--from", from, "sending GPU, global id = node * gpus-per-node + local")->required();
    app.add_option("--to", to, "receiving GPU, global id")->required();
    app.add_option("--bytes", bytes_text, "tensor size in bytes, e.g. 1e9 or 1073741824")->required();
    rack::add_options(app, opt, "racks joined by the spine (default 2)");
    app.add_flag("--json", as_json, "print one JSON object (the only output format)");
    if (auto code = parse_or_exit(app, args, out, err)) return *code;

    const auto bytes = rack::parse_bytes(bytes_text);
    if (!bytes) {
        err << me << ": --bytes: expected " << rack::bytes_accepted() << ", got '" << bytes_text << "'\n";
        return exit_bad_input;
    }
    const core::ClusterShape shape = rack::shape(opt);
    if (auto why = core::validate(shape); !why.empty()) {
        err << me << ": --nodes-per-rack/--racks: " << why << "\n";
        return exit_bad_input;
    }
    const std::int64_t gpus = static_cast<std::int64_t>(shape.gpu_count());
    for (auto [flag, id] : {std::pair{"--from", from}, std::pair{"--to", to}}) {
        if (id < 0 || id >= gpus) {
            err << me << ": " << flag << ": no GPU " << id << " in a cluster of " << rack::describe(shape)
                << " (accepted: 0 to " << gpus - 1 << ")\n";
            return exit_bad_input;
        }
    }

    const auto* system = presets::builtin().find_system(opt.hardware);
    const core::Cluster cluster(shape, system->spec);
    const auto src = static_cast<core::GpuId>(from), dst = static_cast<core::GpuId>(to);
    const core::TransferResult r = core::run_transfer(cluster, src, dst, *bytes);
    const core::Route& route = r.run.route;

    nlohmann::json hops = nlohmann::json::array();
    for (core::LinkId id : route.links) {
        const core::Link l = cluster.link(id);
        hops.push_back({{"name", cluster.link_name(id)},
                        {"link", std::string(core::link_type_name(l.type))},
                        {"bandwidth_GBps", l.bandwidth_GBps},
                        {"latency_s", l.latency_s}});
    }
    nlohmann::json j;
    j["from"] = from;
    j["to"] = to;
    j["bytes"] = *bytes;
    j["hardware"] = opt.hardware;
    j["system"] = cluster.system().name;
    j["cluster"] = rack::cluster_json(cluster);
    j["from_node"] = cluster.node_of(src);
    j["to_node"] = cluster.node_of(dst);
    j["from_rack"] = cluster.rack_of(src);
    j["to_rack"] = cluster.rack_of(dst);
    j["link"] = std::string(core::link_type_name(route.type));
    j["link_name"] = route.type == core::LinkType::nvlink       ? cluster.system().nvlink.name
                     : route.type == core::LinkType::infiniband ? cluster.system().infiniband.name
                                                                : std::string("local (no wire)");
    j["bandwidth_GBps"] = route.bandwidth_GBps;  // bottleneck, achievable, one direction (0: local)
    j["latency_s"] = r.run.latency_s;
    j["bandwidth_time_s"] = r.run.bandwidth_s;
    j["time_s"] = r.time_s;
    j["hops"] = route.hops();
    j["reference_time_s"] = r.reference_s;
    j["relative_time"] = r.relative_time;
    j["path"] = cluster.path_names(route);
    j["hop_details"] = std::move(hops);
    (void)as_json;  // JSON is the only format; the flag is accepted so scripts read clearly
    out << j.dump(2) << "\n";
    return exit_ok;
}

}  // namespace m2m::cli
