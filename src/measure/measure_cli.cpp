// `math-to-metal measure`: parses the flags, opens a hidden GL context unless --no-gpu, runs one
// measurement and prints it.
#include "measure/measure_cli.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <ostream>
#include <thread>

#include "cli/cli.hpp"
#include "m2m/core/layers/layer_run.hpp"
#include "m2m/core/engine/units.hpp"
#include "measure/gl_context.hpp"
#include "measure/gl_path.hpp"
#include "measure/measurement.hpp"
#include "m2m/core/engine/text.hpp"

namespace m2m::measure {

namespace {

using nlohmann::json;

json number_or_null(bool present, double v) { return present ? json(v) : json(nullptr); }

json path_json(const PathResult& p, const Report& r) {
    json j = {{"id", p.id},
              {"label", p.label},
              {"ran", p.ran},
              {"agrees", p.agrees},
              {"seconds", number_or_null(p.shown(), p.seconds)},
              {"gflops", number_or_null(p.shown(), p.gflops)},
              {"max_abs_err", number_or_null(p.ran, p.max_abs_err)},
              {"flops", p.flops},
              {"repeats", p.timing.repeats},
              {"passes_per_repeat", p.timing.passes_per_repeat},
              {"repeat_seconds", p.timing.repeat_seconds},
              {"predicted_seconds", number_or_null(p.predicted_seconds > 0, p.predicted_seconds)},
              {"prediction_basis", p.prediction_basis},
              {"note", p.note},
              {"why_not", p.why_not}};
    j["renderer"] = p.id == "gpu" ? r.gpu.renderer : r.machine.cpu.name;
    return j;
}

json caches_json(const core::ComputeSpec& m) {
    json list = json::array();
    for (const auto& c : m.caches)
        list.push_back({{"name", c.name}, {"bytes", c.bytes}, {"cores_sharing", c.cores_sharing},
                        {"read_Bps_per_core", c.bandwidth_Bps}});
    return list;
}

json report_json(const Report& r) {
    const auto& m = r.machine.cpu;
    return {{"widths", r.config.widths},
            {"batch", r.config.batch},
            {"repeats", r.config.repeats},
            {"seed", weight_seed},
            {"weights", r.weights},
            {"activation", r.activation},
            {"flops_per_pass", r.flops_per_pass},
            {"flops_rule", "2 x weights x batch; bias adds and activations are not counted"},
            {"memory",
             {{"host_bytes", r.memory.host_bytes},
              {"gpu_bytes", r.memory.gpu_bytes},
              {"cap_bytes", r.memory.cap_bytes},
              {"gpu_in_host_memory", r.memory.gpu_in_host_memory},
              {"sentence", r.memory.sentence}}},
            {"tolerance", r.tolerance},
            {"tolerance_rule", "max |result - double reference| <= 1e-4 x max(1, max |reference|)"},
            {"renderer", r.gpu.renderer},
            {"vendor", r.gpu.vendor},
            {"gl_version", r.gpu.version},
            {"software_gl", r.gpu.software},
            {"honesty", r.honesty},
            {"machine",
             {{"name", m.name},
              {"cores", m.cores},
              {"flops_per_core", m.flops_per_core},
              {"memory_bandwidth_Bps", m.memory_bandwidth_Bps},
              {"dependent_add_s", r.machine.add_seconds},
              {"blas_call_s", r.machine.blas_call_seconds},
              {"activation_s", r.machine.activation_seconds},
              {"caches", caches_json(m)},
              {"source", m.source}}},
            {"paths", json::array({path_json(r.naive, r), path_json(r.blas, r), path_json(r.gpu_path, r)})}};
}

void print_table(std::ostream& out, const Report& r) {
    out << "Measured: widths";
    for (int w : r.config.widths) out << ' ' << w;
    out << ", batch " << r.config.batch << ", " << core::format_count(r.flops_per_pass) << " FLOPs a pass\n";
    char line[256];
    std::snprintf(line, sizeof line, "%-34s %12s %10s %12s %12s\n", "path", "time", "GFLOP/s", "max |error|", "model");
    out << line;
    for (const PathResult* p : {&r.naive, &r.blas, &r.gpu_path}) {
        const std::string t = p->shown() ? core::format_seconds(p->seconds) : "-";
        const std::string model = p->predicted_seconds > 0 ? core::format_seconds(p->predicted_seconds) : "-";
        const std::string gf = p->shown() ? core::format_significant(p->gflops) : "-";
        const std::string err = p->ran ? core::format_significant(p->max_abs_err, 2) : "-";
        std::snprintf(line, sizeof line, "%-34s %12s %10s %12s %12s\n", p->label.c_str(), t.c_str(), gf.c_str(),
                      err.c_str(), model.c_str());
        out << line;
        if (!p->why_not.empty()) out << "    not shown: " << p->why_not << "\n";
        if (!p->note.empty()) out << "    " << p->note << "\n";
    }
    out << r.honesty << "\n" << r.machine.cpu.source << "\n";
}

}  // namespace

std::optional<int> parse_cli(const std::vector<std::string>& args, CliOptions& o, std::ostream& out, std::ostream& err) {
    CLI::App app{"Measure this machine: Lesson 1's network run for real, one neuron at a time on one core, "
                 "through OpenBLAS on every core, and as an OpenGL compute shader (needs a display or xvfb-run)",
                 "math-to-metal measure"};
    MeasureConfig& config = o.config;
    app.add_option("--widths", config.widths, "every layer's width from the inputs to the outputs, e.g. 1024,1024,1024,1024")
        ->delimiter(',')
        ->check(CLI::Range(1, core::max_layer_width));
    app.add_option("--batch", config.batch, "inputs run through the network at once")->check(CLI::Range(1, max_batch));
    app.add_option("--repeats", config.repeats, "timed repeats; the median is reported")->check(CLI::Range(1, max_repeats));
    app.add_flag("--no-gpu", o.no_gpu, "skip the OpenGL path (no display needed)");
    app.add_flag("--json", o.as_json, "print one JSON object instead of a table");
    if (auto code = cli::parse_or_exit(app, args, out, err)) return code;
    if (auto why = validate(config); !why.empty()) {
        err << "math-to-metal measure: --widths: " << why << "\n";
        return cli::exit_bad_input;
    }
    return std::nullopt;
}

int run_cli(const std::vector<std::string>& all_args, std::ostream& out, std::ostream& err) {
    const std::vector<std::string> args(all_args.begin() + (all_args.empty() ? 0 : 1), all_args.end());
    CliOptions options;
    if (auto code = parse_cli(args, options, out, err)) return *code;
    const MeasureConfig& config = options.config;
    const bool no_gpu = options.no_gpu, as_json = options.as_json;

    std::unique_ptr<HiddenGlContext> context;
    std::unique_ptr<GpuRun> gpu;
    std::string gpu_skip = "skipped (--no-gpu)";
    if (!no_gpu) {
        context = std::make_unique<HiddenGlContext>();
        if (context->no_display()) {
            err << "math-to-metal measure: the GPU path needs a display and none is set (DISPLAY is empty); run "
                   "xvfb-run -a math-to-metal measure ..., or add --no-gpu to measure the CPU paths alone\n";
            return cli::exit_bad_input;
        }
        if (context->ok()) gpu = make_gl_run();
        else gpu_skip = "no OpenGL context: " + context->error();
    }
    Measurement m(config, std::move(gpu), gpu_skip);
    if (m.refused()) {
        err << "math-to-metal measure: " << m.memory().sentence << "\n";
        return cli::exit_bad_input;
    }
    if (!as_json)  // said before it runs, as the window does
        out << m.memory().sentence << " " << plan_time(config, this_machine()).sentence << std::endl;
    const std::atomic<bool> never{false};
    m.run_cpu(never);
    while (!m.step_gpu(0.05)) std::this_thread::sleep_for(std::chrono::microseconds(200));
    const Report r = m.report(false);
    if (as_json) out << report_json(r).dump(2) << "\n";
    else print_table(out, r);
    return cli::exit_ok;
}

}  // namespace m2m::measure
