// `math-to-metal sim transfer`: Lesson 2's "send a tensor" from one GPU to another, as JSON.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/cli.hpp"
#include "cli/rack_options.hpp"
#include "cli/subcommand.hpp"
#include "m2m/core/rack/topology.hpp"

namespace m2m::cli {

namespace {

using nlohmann::json;
constexpr const char* me = "math-to-metal sim transfer";

struct TransferOptions {
    std::int64_t from = 0, to = 0;
    std::string bytes_text;
    rack::Options rack;
};

void add_options(CLI::App& app, TransferOptions& o) {
    app.add_option("--from", o.from, "sending GPU, global id = node * gpus-per-node + local")->required();
    app.add_option("--to", o.to, "receiving GPU, global id")->required();
    app.add_option("--bytes", o.bytes_text, "tensor size in bytes, e.g. 1e9, 1073741824 or 1G (K, M, G, T: powers of 1024)")->required();
    rack::add_options(app, o.rack, "racks joined by the spine (default 2)");
    add_json_flag(app);
}

json hops_json(const core::Cluster& cluster, const core::Route& route) {
    json hops = json::array();
    for (core::LinkId id : route.links) {
        const core::Link l = cluster.link(id);
        hops.push_back({{"name", cluster.link_name(id)},
                        {"link", std::string(core::link_type_name(l.type))},
                        {"bandwidth_GBps", l.bandwidth_GBps},
                        {"latency_s", l.latency_s}});
    }
    return hops;
}

json transfer_json(const TransferOptions& o, const core::Cluster& cluster, const core::TransferResult& r) {
    const core::Route& route = r.run.route;
    const auto src = static_cast<core::GpuId>(o.from), dst = static_cast<core::GpuId>(o.to);
    json j;
    j["from"] = o.from;
    j["to"] = o.to;
    j["bytes"] = r.run.request.bytes;
    j["hardware"] = o.rack.hardware;
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
    j["hop_details"] = hops_json(cluster, route);
    return j;
}

}  // namespace

int sim_transfer(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    CLI::App app{"Lesson 2: send a tensor from one GPU to another over NVLink or InfiniBand", me};
    TransferOptions o;
    add_options(app, o);
    if (auto code = parse_or_exit(app, args, out, err)) return *code;

    core::Bytes bytes = 0;
    if (auto why = rack::read_bytes(o.bytes_text, bytes)) return refuse(err, me, "--bytes", *why);
    const core::ClusterShape shape = rack::shape(o.rack);
    if (auto why = core::validate(shape); !why.empty()) return refuse(err, me, rack::shape_flags, why);
    const std::int64_t gpus = static_cast<std::int64_t>(shape.gpu_count());
    for (auto [flag, id] : {std::pair{"--from", o.from}, std::pair{"--to", o.to}})
        if (id < 0 || id >= gpus)
            return refuse(err, me, flag,
                          "no GPU " + std::to_string(id) + " in a cluster of " + rack::describe(shape) +
                              " (accepted: 0 to " + std::to_string(gpus - 1) + ")");

    const core::Cluster cluster(shape, presets::builtin().find_system(o.rack.hardware)->spec);
    const core::TransferResult r =
        core::run_transfer(cluster, static_cast<core::GpuId>(o.from), static_cast<core::GpuId>(o.to), bytes);
    return print_json(out, transfer_json(o, cluster, r));
}

}  // namespace m2m::cli
