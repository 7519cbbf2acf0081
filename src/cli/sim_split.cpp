// `math-to-metal sim split`: Lesson 3's network split across GPUs, one training step, as JSON.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/cli.hpp"
#include "cli/subcommand.hpp"
#include "m2m/core/split/split.hpp"
#include "m2m/presets/presets.hpp"

namespace m2m::cli {

namespace {

using nlohmann::json;
constexpr const char* me = "math-to-metal sim split";

struct SplitOptions {
    std::string strategy = "data", placement = "node", schedule = "1f1b", hardware = "h100", timing = "lesson";
    std::string prompt = "the cat sat on the";
    int gpus = 2, micro_batches = 4, top = 5;
    bool gpus_given = false, with_timeline = false;
};

void add_options(CLI::App& app, SplitOptions& o) {
    app.add_option("--strategy", o.strategy,
                   "data, tensor, pipeline, 3d (2 x 2 x 2 on 8 GPUs) or fsdp (fully sharded data parallel, ZeRO-3)")
        ->check(CLI::IsMember({"data", "tensor", "pipeline", "3d", "fsdp"}));
    app.add_option("--gpus", o.gpus, "number of GPUs, 1-8 (default 2; 8 for 3d)");
    app.add_option("--micro-batches", o.micro_batches, "micro-batches per step for a pipeline (default 4)");
    // Lesson 3's toy runs the two plain schedules; the estimator adds interleaving.
    app.add_option("--schedule", o.schedule, "pipeline order: 1f1b (default) or gpipe")
        ->check(CLI::IsMember({"1f1b", "gpipe"}));
    app.add_option("--placement", o.placement, "node: all GPUs in one node; nodes: half in each of two nodes")
        ->check(CLI::IsMember({"node", "nodes"}));
    app.add_option("--hardware", o.hardware, "node generation: its GPU and its NVLink and InfiniBand presets")
        ->check(CLI::IsMember(presets::builtin().system_ids()));
    app.add_option("--timing", o.timing,
                   "lesson (default): kernels cost their arithmetic at a teaching rate; hardware: the GPU's own "
                   "figures, launch overhead included")
        ->check(CLI::IsMember({"lesson", "hardware"}));
    app.add_option("--prompt", o.prompt, "words for the network to continue (default \"the cat sat on the\")");
    app.add_option("--top", o.top, "how many likely next words to list (1-24, default 5)")->check(CLI::Range(1, 24));
    add_json_flag(app);
    app.add_flag("--timeline", o.with_timeline, "add every GPU's tasks: kind, start and end");
}

// The setup the options name, or the refusal (exit code) when they do not make one.
std::optional<int> make_setup(const SplitOptions& o, core::SplitSetup& setup, std::ostream& err) {
    setup.strategy = *core::parse_strategy(o.strategy);
    setup.gpus = !o.gpus_given && setup.strategy == core::Strategy::three_d ? 8 : o.gpus;
    setup.micro_batches = o.micro_batches;
    setup.schedule = *core::parse_schedule(o.schedule);
    setup.placement = *core::parse_placement(o.placement);
    setup.timing = *core::parse_split_timing(o.timing);
    const presets::SystemPreset* system = presets::builtin().find_system(o.hardware);
    const presets::ComputePreset* gpu = system ? presets::builtin().find(system->gpu_id) : nullptr;
    if (!gpu)
        return refuse(err, me, "--hardware",
                      "'" + o.hardware + "' has no GPU preset (accepted: " + presets::joined_system_ids() + ")");
    setup.hardware.system = system->spec;
    setup.hardware.gpu = gpu->spec;
    setup.hardware.tensor_flops = gpu->bf16_flops;
    if (auto problem = core::check_split(setup))
        return refuse(err, me, "--" + std::string(core::split_field_name(problem->field)), problem->message);
    return std::nullopt;
}

json gpu_json(const core::SplitResult& r, const core::GpuHolding& g) {
    json neurons = json::array();
    for (std::size_t l = 0; l < g.neurons.size(); ++l)
        if (g.neurons[l].count > 0)
            neurons.push_back({{"layer", l},
                               {"name", r.layers[l].name},
                               {"first", g.neurons[l].first},
                               {"count", g.neurons[l].count},
                               {"parameters", g.layer_parameters[l]}});
    return {{"gpu", g.gpu},
            {"node", g.node},
            {"cluster_gpu", g.cluster_gpu},
            {"data_rank", g.data_rank},
            {"tensor_rank", g.tensor_rank},
            {"stage", g.stage},
            {"neurons", neurons},
            {"neuron_count", g.neuron_count},
            {"parameters", g.parameters},
            {"bytes", g.bytes.total()},
            {"memory",
             {{"weights", g.bytes.weights},
              {"gradients", g.bytes.gradients},
              {"optimizer", g.bytes.optimizer},
              {"activations", g.bytes.activations},
              {"borrowed", g.bytes.borrowed}}},
            {"prompts", g.prompts},
            {"rows_in_flight", g.rows_in_flight},
            {"sentence", g.sentence}};
}

json exchange_json(const core::Exchange& e) {
    return {{"phase", std::string(core::step_phase_name(e.phase))},
            {"op", std::string(core::exchange_op_name(e.op))},
            {"layer", e.layer},
            {"what", e.what},
            {"peers", e.gpus},
            {"bytes", e.bytes},
            {"times", e.times},
            {"total_bytes", e.total_bytes()},
            {"link", std::string(core::link_type_name(e.link))},
            {"seconds", e.seconds}};
}

json timeline_json(const core::StepTimeline& t) {
    json rows = json::array();
    for (const core::GpuTimeline& row : t.gpus) {
        json tasks = json::array();
        for (const core::StepTask& k : row.tasks) {
            json j = {{"kind", std::string(core::step_task_kind_name(k.kind))}, {"start_s", k.start_s()}, {"end_s", k.end_s()}};
            if (k.layer >= 0) j["layer"] = k.layer;
            if (k.micro_batch >= 0) j["micro_batch"] = k.micro_batch;
            if (k.exchange >= 0) j["exchange"] = k.exchange;
            tasks.push_back(std::move(j));
        }
        rows.push_back({{"gpu", row.gpu},
                        {"compute_s", row.compute_s},
                        {"communication_s", row.communication_s},
                        {"idle_s", row.idle_s},
                        {"tasks", std::move(tasks)}});
    }
    return rows;
}

json layers_json(const core::SplitResult& r) {
    json layers = json::array();
    for (const core::LayerInfo& l : r.layers)
        layers.push_back({{"name", l.name}, {"neurons", l.neurons}, {"inputs", l.inputs}, {"parameters", l.parameters}});
    return layers;
}

// The split network's prediction for the prompt, against the unsplit network's.
json prediction_json(const SplitOptions& o, const core::SplitSetup& setup) {
    const core::NextWordModel& model = core::trained_next_word_model();
    const core::Prediction whole = core::predict(model, o.prompt, o.top);
    const core::Prediction split = core::predict_split(model, setup, o.prompt, o.top);
    float max_diff = 0;
    for (std::size_t i = 0; i < whole.logits.size(); ++i)
        max_diff = std::max(max_diff, std::fabs(whole.logits[i] - split.logits[i]));
    json top_words = json::array();
    for (const core::WordProbability& w : split.top) top_words.push_back({{"word", w.word}, {"probability", w.probability}});
    return {{"prompt", o.prompt},
            {"word", split.word},
            {"context", split.context},
            {"unknown_words", split.unknown_words},
            {"top", top_words},
            {"unsplit_word", whole.word},
            {"max_logit_difference", max_diff},
            {"sentence", split.sentence}};
}

json split_json(const SplitOptions& o, const core::SplitSetup& setup, const core::SplitResult& r) {
    json j;
    j["strategy"] = o.strategy;
    j["label"] = std::string(core::strategy_label(setup.strategy));
    j["gpu_count"] = setup.gpus;
    j["degrees"] = {{"data", r.degrees.data},
                    {"tensor", r.degrees.tensor},
                    {"pipeline", r.degrees.pipeline},
                    {"sharded", r.degrees.sharded}};
    j["micro_batches"] = r.micro_batches;
    j["schedule"] = o.schedule;
    j["placement"] = o.placement;
    j["hardware"] = o.hardware;
    j["gpu"] = setup.hardware.gpu.name;
    j["timing"] = o.timing;
    j["prompts_per_step"] = core::step_prompts;
    j["layers"] = layers_json(r);
    std::int64_t parameters = 0;
    for (const core::LayerInfo& l : r.layers) parameters += l.parameters;
    j["parameters"] = parameters;
    j["gpus"] = json::array();
    for (const core::GpuHolding& g : r.gpus) j["gpus"].push_back(gpu_json(r, g));
    j["exchanges"] = json::array();
    for (const core::Exchange& e : r.exchanges) j["exchanges"].push_back(exchange_json(e));
    j["exchanged_bytes"] = r.exchanged_bytes;
    j["wire_bytes"] = r.wire_bytes;
    j["step_time_s"] = r.step.step_time_s;
    j["compute_s"] = r.step.compute_s;
    j["communication_s"] = r.step.communication_s;
    j["idle_s"] = r.step.idle_s;
    j["idle_fraction"] = r.step.idle_fraction;
    j["bubble_fraction"] = r.bubble_fraction;
    j["prediction"] = prediction_json(o, setup);
    j["sentences"] = {{"holds", r.holds_sentence}, {"exchange", r.exchange_sentence}, {"why", r.why_sentence},
                      {"time", r.time_sentence}, {"placement", r.placement_sentence}};
    if (o.with_timeline) j["timeline"] = timeline_json(r.step);
    return j;
}

}  // namespace

int sim_split(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    CLI::App app{"Lesson 3: one next-word network split across GPUs, one training step", me};
    SplitOptions o;
    add_options(app, o);
    if (auto code = parse_or_exit(app, args, out, err)) return *code;
    o.gpus_given = app.count("--gpus") > 0;
    core::SplitSetup setup;
    if (auto code = make_setup(o, setup, err)) return *code;
    return print_json(out, split_json(o, setup, core::run_split(core::trained_next_word_model(), setup)));
}

}  // namespace m2m::cli
