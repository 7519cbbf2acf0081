// `math-to-metal sim layers`: Lesson 1's CPU-vs-GPU run as JSON.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/cli.hpp"
#include "cli/subcommand.hpp"
#include "m2m/core/layers/layer_run.hpp"
#include "m2m/presets/presets.hpp"

namespace m2m::cli {

namespace {

using nlohmann::json;
constexpr const char* me = "math-to-metal sim layers";

struct LayersOptions {
    std::vector<int> widths{4, 6, 6, 3};
    std::string mode = "lesson", cpu_id = "laptop-cpu", gpu_id = "h100";
    std::uint32_t cpu_cores = 0, gpu_cores = 0;
    bool with_timeline = false;
};

void add_options(CLI::App& app, LayersOptions& o) {
    app.add_option("--widths", o.widths, "every layer's width from the inputs to the outputs, e.g. 4,6,6,3")
        ->delimiter(',')
        ->check(CLI::Range(1, core::max_layer_width));
    app.add_option("--mode", o.mode, "lesson: one tick per dot product; hardware: roofline from presets")
        ->check(CLI::IsMember({"lesson", "hardware"}));
    app.add_option("--cpu-cores", o.cpu_cores, "CPU cores (lesson default 1; hardware default: the preset's)")
        ->check(CLI::Range(1u, core::max_cores));
    app.add_option("--gpu-cores", o.gpu_cores, "GPU cores (lesson default 6; hardware default: the preset's)")
        ->check(CLI::Range(1u, core::max_cores));
    app.add_option("--cpu", o.cpu_id, "CPU preset (hardware mode)")
        ->check(CLI::IsMember(presets::builtin().ids(core::ResourceKind::cpu_core)));
    app.add_option("--gpu", o.gpu_id, "GPU preset (hardware mode)")
        ->check(CLI::IsMember(presets::builtin().ids(core::ResourceKind::gpu_core)));
    add_json_flag(app);
    app.add_flag("--timeline", o.with_timeline,
                 "add every task's resource, start and end (each neuron's core; in hardware mode the GPU's launch "
                 "wait before each layer)");
}

// Every task of one machine's run: each neuron with its core, and (hardware mode, GPU) the
// launch and synchronisation wait before each layer, which holds no core.
json timeline_json(const core::LayerRunResult& r, const core::MachineRun& m, const std::vector<int>& widths,
                   const char* machine, bool launches) {
    const double scale = r.unit == core::TimeUnit::ticks ? 1.0 : core::seconds_per_step(r.unit);
    auto timed = [&](json e, const core::TaskRun& run) {
        if (r.unit == core::TimeUnit::ticks) {
            e["start"] = run.start;
            e["end"] = run.end;
        } else {
            e["start"] = run.start * scale;
            e["end"] = run.end * scale;
        }
        return e;
    };
    json list = json::array();
    for (std::size_t l = 0; l < m.layer_first_task.size(); ++l) {
        const core::TaskId first = m.layer_first_task[l];
        if (launches)  // build_layer_graph adds a layer's launch just before its first neuron
            list.push_back(timed({{"layer", l + 1}, {"task", "launch"}, {"resource", "none: a wait before the layer"}},
                                 m.timeline.runs[first - 1]));
        for (int i = 0; i < widths[l + 1]; ++i) {
            const core::TaskRun& run = m.timeline.runs[first + static_cast<core::TaskId>(i)];
            list.push_back(timed({{"layer", l + 1},
                                  {"neuron", i},
                                  {"task", "neuron"},
                                  {"core", run.resource},
                                  {"resource", std::string(machine) + " core " + std::to_string(run.resource)}},
                                 run));
        }
    }
    return list;
}

json run_json(const LayersOptions& o, const core::LayerRunSetup& setup, const core::LayerRunResult& r) {
    const bool hw = setup.mode == core::TimingMode::hardware;
    json j;
    j["widths"] = o.widths;
    j["mode"] = o.mode;
    j["neurons"] = r.neurons;
    j["parameters"] = r.parameters;
    j["cpu_cores"] = setup.cpu_cores;
    j["gpu_cores"] = setup.gpu_cores;
    j["time_unit"] = std::string(core::time_unit_name(r.unit));
    if (hw) {
        j["cpu_time"] = r.cpu_seconds();
        j["gpu_time"] = r.gpu_seconds();
        j["cpu"] = setup.cpu.name;
        j["gpu"] = setup.gpu.name;
        j["gpu_layer_overhead_s"] = setup.gpu.layer_overhead_s;
        const auto cross = core::gpu_crossover_width(setup);
        j["crossover_width"] = cross ? json(*cross) : json(nullptr);
    } else {
        j["cpu_time"] = r.cpu.finish;
        j["gpu_time"] = r.gpu.finish;
    }
    j["speedup"] = r.speedup;
    j["gpu_faster"] = r.gpu.finish < r.cpu.finish;
    if (o.with_timeline) {
        j["timeline"] = {
            {"cpu", timeline_json(r, r.cpu, o.widths, "CPU", core::layer_overhead(setup.mode, setup.cpu) > 0)},
            {"gpu", timeline_json(r, r.gpu, o.widths, "GPU", core::layer_overhead(setup.mode, setup.gpu) > 0)}};
    }
    return j;
}

}  // namespace

int sim_layers(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    CLI::App app{"Lesson 1: run a network layer by layer on a CPU and a GPU", me};
    LayersOptions o;
    add_options(app, o);
    if (auto code = parse_or_exit(app, args, out, err)) return *code;

    core::LayerRunSetup setup;
    setup.network.widths = o.widths;
    if (auto why = core::validate(setup.network); !why.empty())
        return refuse(err, me, "--widths", why + " (got " + std::to_string(o.widths.size()) + " widths)");
    setup.mode = o.mode == "hardware" ? core::TimingMode::hardware : core::TimingMode::lesson;
    setup.cpu = presets::builtin().find(o.cpu_id)->spec;
    setup.gpu = presets::builtin().find(o.gpu_id)->spec;
    const bool hw = setup.mode == core::TimingMode::hardware;
    setup.cpu_cores = o.cpu_cores ? o.cpu_cores : (hw ? setup.cpu.cores : 1);
    setup.gpu_cores = o.gpu_cores ? o.gpu_cores : (hw ? setup.gpu.cores : 6);
    return print_json(out, run_json(o, setup, core::run_layers(setup)));
}

}  // namespace m2m::cli
