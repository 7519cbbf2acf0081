// `math-to-metal sim layers`: Lesson 1's CPU-vs-GPU run as JSON.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/cli.hpp"
#include "cli/subcommand.hpp"
#include "m2m/core/engine/text.hpp"
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
    int batch = 1;
    std::string precision = "fp32", cache = "cold";
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
    app.add_option("--batch", o.batch, "hardware mode: inputs run through each layer together, 1 to 4,096 (default 1)")
        ->check(CLI::Range(1, core::max_batch));
    app.add_option("--precision", o.precision, "hardware mode: fp32, bf16 or fp8 (default fp32)")
        ->check(CLI::IsMember({"fp32", "bf16", "fp8"}));
    app.add_option("--cache", o.cache,
                   "hardware mode: cold (weights from memory, a first pass; the default) or warm (weights that fit "
                   "stay in cache from the pass before)")
        ->check(CLI::IsMember({"cold", "warm"}));
    add_json_flag(app);
    app.add_flag("--timeline", o.with_timeline,
                 "add every task's resource, start and end (each neuron's core; in hardware mode each layer's fixed "
                 "cost before it: the GPU's launch, the CPU's add chain)");
}

// Every task of one machine's run: each neuron with its core, and (hardware mode) the fixed
// wait before each layer, which holds no core: the GPU's kernel launch, the CPU's add chain.
json timeline_json(const core::LayerRunResult& r, const core::MachineRun& m, const std::vector<int>& widths,
                   const char* machine) {
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
        if (m.fixed_tasks)  // build_layer_graph adds a layer's fixed cost just before its first neuron
            list.push_back(timed({{"layer", l + 1},
                                  {"task", std::string(machine) == "GPU" ? "launch" : "add chain"},
                                  {"resource", "none: a wait before the layer"}},
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

// Hardware mode: each machine's roofs, every weight layer on them, and the story's sentences.
void add_roofline(json& j, const core::LayerRunSetup& setup, const core::LayerRunResult& r) {
    const core::LayerRunStory st = core::tell(setup, r);
    j["batch"] = setup.batch;
    j["precision"] = std::string(core::precision_id(setup.precision));
    j["cache"] = std::string(core::cache_id(setup.cache));
    j["cpu_ridge_flops_per_byte"] = r.cpu_roof.ridge();
    j["gpu_ridge_flops_per_byte"] = r.gpu_roof.ridge();
    for (const auto* m : {&r.cpu_roof, &r.gpu_roof})
        j[m == &r.cpu_roof ? "cpu_roof" : "gpu_roof"] = {{"compute_flops", m->compute_flops},
                                                          {"peak_flops", m->peak_flops},
                                                          {"units", m->units},
                                                          {"fallback", m->fallback},
                                                          {"runs_as", core::precision_id(m->runs_as)},
                                                          {"bandwidth_Bps", m->bandwidth_Bps},
                                                          {"level", m->level}};
    json layers = json::array();
    for (const core::LayerPoint& l : r.layers)
        layers.push_back({{"inputs", l.n_in},
                          {"neurons", l.n_out},
                          {"flops", l.counts.flops},
                          {"bytes", l.counts.bytes()},
                          {"arithmetic_intensity_flops_per_byte", l.counts.intensity()},
                          {"cpu_bound", std::string(core::bound_id(l.cpu.bound))},
                          {"gpu_bound", std::string(core::bound_id(l.gpu.bound))},
                          {"cpu_time", static_cast<double>(l.cpu.total()) / core::picoseconds_per_second},
                          {"gpu_time", static_cast<double>(l.gpu.total()) / core::picoseconds_per_second},
                          {"cpu_fixed_time", l.cpu.fixed_s},
                          {"gpu_fixed_time", l.gpu.fixed_s}});
    j["layers"] = std::move(layers);
    j["story"] = {{"verdict", st.verdict},
                  {"crossover", st.crossover},
                  {"precision", st.precision_note},
                  {"cache", st.cache_note},
                  {"cpu", st.cpu.header + ", " + st.cpu.bound},
                  {"gpu", st.gpu.header + ", " + st.gpu.bound}};
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
        add_roofline(j, setup, r);
    } else {
        j["cpu_time"] = r.cpu.finish;
        j["gpu_time"] = r.gpu.finish;
    }
    j["speedup"] = r.speedup;
    j["gpu_faster"] = r.gpu.finish < r.cpu.finish;
    if (o.with_timeline)
        j["timeline"] = {{"cpu", timeline_json(r, r.cpu, o.widths, "CPU")}, {"gpu", timeline_json(r, r.gpu, o.widths, "GPU")}};
    return j;
}

/// Hardware mode's flags given in lesson mode: the first one named, or null.
const char* hardware_flag_in_lesson(const std::vector<std::string>& args) {
    for (const char* flag : {"--batch", "--precision", "--cache"})
        for (const std::string& a : args)
            if (a == flag || a.rfind(std::string(flag) + "=", 0) == 0) return flag;
    return nullptr;
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
    if (const char* flag = setup.mode == core::TimingMode::lesson ? hardware_flag_in_lesson(args) : nullptr)
        return refuse(err, me, flag,
                      "lesson mode runs one input in FP32 at one tick per dot product; add --mode hardware to set the "
                      "batch (1 to 4,096), the precision (fp32, bf16, fp8) or the cache (cold, warm)");
    setup.batch = o.batch;
    setup.precision = *core::precision_from_id(o.precision);
    setup.cache = o.cache == "warm" ? core::CacheState::warm : core::CacheState::cold;
    setup.cpu = presets::builtin().find(o.cpu_id)->spec;
    setup.gpu = presets::builtin().find(o.gpu_id)->spec;
    const bool hw = setup.mode == core::TimingMode::hardware;
    setup.cpu_cores = o.cpu_cores ? o.cpu_cores : (hw ? setup.cpu.cores : 1);
    setup.gpu_cores = o.gpu_cores ? o.gpu_cores : (hw ? setup.gpu.cores : 6);
    // Hardware mode's chips have the cores their presets say, no more.
    if (hw)
        for (const auto& [flag, spec, cores] : {std::tuple{"--cpu-cores", &setup.cpu, setup.cpu_cores},
                                                std::tuple{"--gpu-cores", &setup.gpu, setup.gpu_cores}})
            if (cores > spec->cores)
                return refuse(err, me, flag,
                              "in hardware mode the " + spec->name + " has " + core::format_count(spec->cores) +
                                  " cores: 1 to " + core::format_count(spec->cores) + " (lesson mode takes up to " +
                                  core::format_count(core::max_cores) + ")");
    if (auto why = core::validate(setup); !why.empty()) return refuse(err, me, "--mode", why);
    return print_json(out, run_json(o, setup, core::run_layers(setup)));
}

}  // namespace m2m::cli
