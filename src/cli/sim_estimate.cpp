// `math-to-metal sim estimate`: one training step of a real model on a GPU cluster (or the best layouts), as JSON.
//
// [SECTION] JSON   [SECTION] the options   [SECTION] from options to a setup   [SECTION] the two runs
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/cli.hpp"
#include "cli/subcommand.hpp"
#include "m2m/core/scale/estimator.hpp"
#include "m2m/presets/models.hpp"

namespace m2m::cli {

namespace {

using nlohmann::json;
constexpr const char* me = "math-to-metal sim estimate";

// The flag that sets a setup field, for one-line errors that name what to change.
std::string flag_of(const std::string& field) {
    if (field == "zero_stage") return "--zero";
    if (field == "ffn_hidden") return "--ffn";
    if (field == "gpu") return "--hardware";
    std::string f = "--" + field;
    for (char& c : f)
        if (c == '_') c = '-';
    return f;
}

// [SECTION] JSON ----------------------------------------------------------------------------

double gb(double bytes) { return bytes / 1e9; }

json layout_json(const core::Layout& l) {
    json j = {{"gpus", l.gpus},
              {"tp", l.tp},
              {"pp", l.pp},
              {"dp", l.dp},
              {"micro_batch", l.micro_batch},
              {"global_batch", l.global_batch},
              {"micro_batches", l.micro_batches()},
              {"schedule", std::string(core::schedule_name(l.schedule))},
              {"recompute", std::string(core::recompute_name(l.recompute))},
              {"attention", std::string(core::attention_name(l.attention))},
              {"zero", l.zero_stage}};
    if (l.schedule == core::PipelineSchedule::interleaved) j["chunks"] = l.chunks;
    return j;
}

json model_json(const core::TransformerShape& m) {
    return {{"id", m.id},
            {"name", m.name},
            {"parameters", core::count_parameters(m).total},
            {"layers", m.layers},
            {"hidden", m.hidden},
            {"heads", m.heads},
            {"kv_heads", core::effective_kv_heads(m)},
            {"ffn_hidden", core::effective_ffn_hidden(m)},
            {"vocab", m.vocab},
            {"seq", m.seq},
            {"mlp", m.mlp == core::MlpKind::swiglu ? "swiglu" : "gelu"}};
}

json hardware_json(const core::EstimateSetup& setup) {
    return {{"id", setup.gpu.id},
            {"name", setup.gpu.name},
            {"system", setup.system.name},
            {"peak_bf16_tflops", setup.gpu.peak_bf16_flops / 1e12},
            {"memory_GB", gb(setup.gpu.memory_bytes)},
            {"achievable_fraction", setup.gpu.achievable_fraction}};
}

json memory_json(const core::MemoryUse& m) {
    return {{"stage", m.stage},
            {"parameters", m.parameters},
            {"weights_GB", gb(m.weights_bytes)},
            {"gradients_GB", gb(m.gradients_bytes)},
            {"optimizer_GB", gb(m.optimizer_bytes)},
            {"activations_GB", gb(m.activations_bytes)},
            {"in_flight_micro_batches", m.in_flight_micro_batches},
            {"total_GB", gb(m.total_bytes)},
            {"capacity_GB", gb(m.capacity_bytes)}};
}

json stage_json(const core::StageCost& c, int zero_stage) {
    json s = {{"stage", c.stage},
              {"chunk", c.chunk},
              {"layers", c.layers},
              {"forward_s", c.forward_s},
              {"backward_s", c.backward_s},
              {"forward_compute_s", c.forward_compute_s},
              {"backward_compute_s", c.backward_compute_s},
              {"forward_memory_s", c.forward_memory_s},
              {"backward_memory_s", c.backward_memory_s},
              {"forward_tp_s", c.forward_tp_s},
              {"backward_tp_s", c.backward_tp_s},
              {"send_s", c.send_s},
              {"send_link", std::string(core::link_type_name(c.send_link))}};
    if (c.chunk == 0) {  // the gradient sync and the optimizer are per GPU stage, on its first chunk
        s["dp_reduce_s"] = c.dp_reduce_s;
        s["optimizer_s"] = c.optimizer_s;
        if (zero_stage == 1) s["param_gather_s"] = c.param_gather_s;
    }
    return s;
}

json timeline_json(const core::EstimateSetup& setup, const core::Estimate& e) {
    json tl = json::array();
    for (const core::TrainingTask& t : e.tasks) {
        if (t.kind == core::TrainingTaskKind::join) continue;
        json row = {{"kind", std::string(core::training_task_name(t.kind))},
                    {"stage", t.stage},
                    {"start_s", t.start_s},
                    {"end_s", t.end_s}};
        if (t.micro_batch >= 0) row["micro_batch"] = t.micro_batch;
        if (setup.layout.schedule == core::PipelineSchedule::interleaved) row["chunk"] = t.chunk;
        tl.push_back(std::move(row));
    }
    return tl;
}

json estimate_json(const core::EstimateSetup& setup, const core::Estimate& e, bool with_timeline) {
    json j;
    j["model"] = model_json(setup.model);
    j["hardware"] = hardware_json(setup);
    j["layout"] = layout_json(setup.layout);
    j["step_time_s"] = e.step_time_s;
    j["tokens_per_s"] = e.tokens_per_s;
    j["model_tflops_per_gpu"] = e.model_tflops_per_gpu;
    j["hardware_tflops_per_gpu"] = e.hardware_tflops_per_gpu;
    j["mfu"] = e.mfu;
    j["hfu"] = e.hfu;
    j["memory_GB_per_gpu"] = gb(e.memory.total_bytes);
    j["fits"] = e.memory.fits;
    j["memory"] = memory_json(e.memory);
    j["model_flops_per_step"] = e.model_flops_per_step;
    j["hardware_flops_per_step"] = e.hardware_flops_per_step;
    j["bubble_fraction"] = e.bubble_fraction;
    j["idle_fraction"] = e.idle_fraction;
    j["exposed_after_backward_s"] = e.exposed_dp_s;
    if (setup.train_tokens > 0) {
        j["train_tokens"] = setup.train_tokens;
        j["train_days"] = e.train_days;
    }
    j["stages"] = json::array();
    for (const core::StageCost& c : e.stages) j["stages"].push_back(stage_json(c, setup.layout.zero_stage));
    j["assumptions"] = e.assumptions;
    if (with_timeline) j["timeline"] = timeline_json(setup, e);
    return j;
}

json search_json(const core::EstimateSetup& setup, const core::SearchResult& r) {
    const auto score_json = [&](const core::LayoutScore& s) {
        json j = {{"tp", s.layout.tp},
                  {"pp", s.layout.pp},
                  {"dp", s.layout.dp},
                  {"micro_batch", s.layout.micro_batch},
                  {"micro_batches", s.layout.micro_batches()},
                  {"step_time_s", s.step_time_s},
                  {"tokens_per_s", s.tokens_per_s},
                  {"mfu", s.mfu},
                  {"memory_GB_per_gpu", gb(s.memory_bytes)},
                  {"fits", s.fits},
                  {"confirmed_on_scheduler", s.confirmed}};
        if (setup.train_tokens > 0) j["train_days"] = setup.train_tokens / s.tokens_per_s / 86400.0;
        return j;
    };
    json j;
    j["model"] = model_json(setup.model);
    j["hardware"] = setup.gpu.id;
    j["search"] = {{"gpus", setup.layout.gpus},
                   {"global_batch", setup.layout.global_batch},
                   {"schedule", std::string(core::schedule_name(setup.layout.schedule))},
                   {"recompute", std::string(core::recompute_name(setup.layout.recompute))},
                   {"attention", std::string(core::attention_name(setup.layout.attention))},
                   {"zero", setup.layout.zero_stage},
                   {"candidates", r.candidates},
                   {"fitting", r.fitting}};
    json list = json::array();
    for (const core::LayoutScore& s : r.best) list.push_back(score_json(s));
    j["layouts"] = std::move(list);
    if (r.smallest) j["smallest_memory_layout"] = score_json(*r.smallest);
    j["method"] = "every valid (tp, pp, dp, micro-batch) ranked by a closed-form step time; the fastest that fit "
                  "were then run on the scheduler and re-ranked (confirmed_on_scheduler)";
    return j;
}

// [SECTION] the options ---------------------------------------------------------------------

struct EstimateOptions {
    std::string model_id, hardware = "a100", schedule = "1f1b", recompute = "selective", attention = "standard";
    std::string mlp = "gelu", tokens_text;
    int gpus = 0, tp = 1, pp = 1, dp = 0, zero = 0, chunks = 2, top = 5;
    std::int64_t global_batch = 0, micro_batch = 1, seq = 0;
    std::int64_t layers = 0, hidden = 0, heads = 0, vocab = 0, kv_heads = 0, ffn = 0;
    bool search = false, with_timeline = false;
};

const char* const custom_flags[] = {"--layers", "--hidden", "--heads", "--vocab", "--kv-heads", "--ffn", "--mlp"};

void add_layout_options(CLI::App& app, EstimateOptions& o) {
    app.add_option("--model", o.model_id, "a model preset (" + presets::joined_model_ids() + ", custom)")->required();
    app.add_option("--hardware", o.hardware, "GPU type (" + presets::joined_estimator_gpu_ids() + "); default a100");
    app.add_option("--gpus", o.gpus, "GPUs in the cluster")
        ->required()
        ->check(CLI::Range(1, static_cast<int>(core::max_cluster_gpus)));
    app.add_option("--tp", o.tp, "tensor-parallel size (default 1; within a node: 1, 2, 4, 8)")->check(CLI::Range(1, 1024));
    app.add_option("--pp", o.pp, "pipeline-parallel size (default 1)")->check(CLI::Range(1, 1000));
    app.add_option("--dp", o.dp, "data-parallel size (default: gpus / (tp x pp))")->check(CLI::Range(1, 1 << 20));
    app.add_option("--global-batch", o.global_batch, "sequences per optimizer step")
        ->required()
        ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 30));
    app.add_option("--micro-batch", o.micro_batch, "sequences per micro-batch (default 1)")
        ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 30));
    app.add_option("--seq", o.seq, "tokens per sequence (default: the model's)")
        ->check(CLI::Range(std::int64_t{1}, std::int64_t{10'000'000}));
    app.add_option("--schedule", o.schedule, "pipeline schedule: 1f1b (default), gpipe or interleaved")
        ->check(CLI::IsMember({"1f1b", "gpipe", "interleaved"}));
    app.add_option("--chunks", o.chunks, "interleaved: model chunks per GPU (default 2)")->check(CLI::Range(2, 64));
    app.add_option("--recompute", o.recompute, "activation recompute: none, selective (default) or full")
        ->check(CLI::IsMember({"none", "selective", "full"}));
    app.add_option("--attention", o.attention, "attention kernel: standard (default; scores in memory) or flash")
        ->check(CLI::IsMember({"standard", "flash"}));
    app.add_option("--zero", o.zero, "ZeRO stage: 0 (default) or 1 (optimizer state split over dp)")
        ->check(CLI::Range(0, 1));
    app.add_option("--tokens", o.tokens_text, "training tokens, e.g. 300e9: also report the days to train");
}

void add_model_and_output_options(CLI::App& app, EstimateOptions& o) {
    const auto up_to = [](std::int64_t most) { return CLI::Range(std::int64_t{1}, most); };
    app.add_option("--layers", o.layers, "custom model: layers")->check(up_to(1000));
    app.add_option("--hidden", o.hidden, "custom model: hidden size")->check(up_to(1'000'000));
    app.add_option("--heads", o.heads, "custom model: attention heads")->check(up_to(1'000'000));
    app.add_option("--vocab", o.vocab, "custom model: vocabulary")->check(up_to(10'000'000));
    app.add_option("--kv-heads", o.kv_heads, "custom model: key/value heads (default: = heads)")->check(up_to(1'000'000));
    app.add_option("--ffn", o.ffn, "custom model: MLP width (default 4 x hidden)")->check(up_to(10'000'000));
    app.add_option("--mlp", o.mlp, "custom model: gelu (default) or swiglu")->check(CLI::IsMember({"gelu", "swiglu"}));
    app.add_flag("--search", o.search, "rank every valid tp x pp x dp x micro-batch for --gpus by throughput");
    app.add_option("--top", o.top, "--search: how many layouts to print (default 5)")->check(CLI::Range(1, 100));
    app.add_flag("--timeline", o.with_timeline, "add every task of the step: kind, stage, micro-batch, start, end");
    add_json_flag(app);
}

// [SECTION] from options to a setup ----------------------------------------------------------

std::optional<int> read_tokens(const std::string& text, double& tokens, std::ostream& err) {
    if (text.empty()) return std::nullopt;
    std::size_t used = 0;
    try {
        tokens = std::stod(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != text.size() || !(tokens >= 1) || tokens > 1e18)
        return refuse(err, me, "--tokens", "expected a number of tokens from 1 to 1e18, such as 300e9, got '" + text + "'");
    return std::nullopt;
}

// The model: a preset, or explicit dimensions (--model custom).
std::optional<int> read_model(const CLI::App& app, const EstimateOptions& o, core::TransformerShape& shape,
                              std::ostream& err) {
    if (o.model_id == "custom") {
        for (const char* f : {"--layers", "--hidden", "--heads", "--vocab", "--seq"})
            if (app.count(f) == 0)
                return refuse(err, me, f, "required with --model custom (give --layers, --hidden, --heads, --vocab and --seq)");
        shape.layers = o.layers;
        shape.hidden = o.hidden;
        shape.heads = o.heads;
        shape.vocab = o.vocab;
        shape.kv_heads = o.kv_heads;
        shape.ffn_hidden = o.ffn;
        shape.mlp = o.mlp == "swiglu" ? core::MlpKind::swiglu : core::MlpKind::gelu;
    } else {
        const presets::ModelPreset* p = presets::builtin_models().find(o.model_id);
        if (!p)
            return refuse(err, me, "--model",
                          "unknown model '" + o.model_id + "' (accepted: " + presets::joined_model_ids() + ", custom)");
        for (const char* f : custom_flags)
            if (app.count(f) > 0)
                return refuse(err, me, f, "only with --model custom (a preset's dimensions are fixed; --seq may change)");
        shape = p->shape;
    }
    if (o.seq > 0) shape.seq = o.seq;
    return std::nullopt;
}

void apply_layout(const EstimateOptions& o, core::Layout& l) {
    l.gpus = o.gpus;
    l.tp = o.tp;
    l.pp = o.pp;
    l.global_batch = o.global_batch;
    l.micro_batch = o.micro_batch;
    l.schedule = *core::parse_schedule(o.schedule);
    l.chunks = o.chunks;
    l.recompute = o.recompute == "none" ? core::Recompute::none
                  : o.recompute == "full" ? core::Recompute::full
                                          : core::Recompute::selective;
    l.attention = o.attention == "flash" ? core::AttentionKernel::flash : core::AttentionKernel::standard;
    l.zero_stage = o.zero;
}

// [SECTION] the two runs ---------------------------------------------------------------------

int run_search(core::EstimateSetup setup, int top, std::ostream& out, std::ostream& err) {
    core::Layout& l = setup.layout;
    l.tp = l.pp = 1;
    l.dp = l.gpus;
    l.micro_batch = 1;
    if (auto why = core::validate(setup.model); !why.empty()) {
        const auto colon = why.find(':');
        return refuse(err, me, flag_of(why.substr(0, colon)), why.substr(colon + 2));
    }
    return print_json(out, search_json(setup, core::search_layouts(setup, top)));
}

int run_estimate(const CLI::App& app, const EstimateOptions& o, core::EstimateSetup setup, std::ostream& out,
                 std::ostream& err) {
    core::Layout& l = setup.layout;
    if (app.count("--dp") > 0) {
        l.dp = o.dp;
    } else if (o.gpus % (static_cast<std::int64_t>(o.tp) * o.pp) != 0) {
        return refuse(err, me, "--gpus",
                      std::to_string(o.gpus) + " GPUs do not split into tp x pp = " + std::to_string(o.tp) + " x " +
                          std::to_string(o.pp) + " groups (give --dp, or a --gpus that is a multiple of tp x pp)");
    } else {
        l.dp = static_cast<int>(o.gpus / (static_cast<std::int64_t>(o.tp) * o.pp));
    }
    if (auto problem = core::check(setup)) return refuse(err, me, flag_of(problem->field), problem->message);
    return print_json(out, estimate_json(setup, core::estimate(setup, o.with_timeline), o.with_timeline));
}

}  // namespace

int sim_estimate(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    CLI::App app{"Real scale: one training step of a transformer on a GPU cluster: memory, time, MFU", me};
    EstimateOptions o;
    add_layout_options(app, o);
    add_model_and_output_options(app, o);
    if (auto code = parse_or_exit(app, args, out, err)) return *code;
    double tokens = 0;
    if (auto code = read_tokens(o.tokens_text, tokens, err)) return *code;
    core::TransformerShape shape;
    if (auto code = read_model(app, o, shape, err)) return *code;
    auto made = presets::estimator_setup(shape, o.hardware);
    if (!made)
        return refuse(err, me, "--hardware",
                      "unknown GPU '" + o.hardware + "' (accepted: " + presets::joined_estimator_gpu_ids() + ")");
    core::EstimateSetup setup = std::move(*made);
    setup.train_tokens = tokens;
    apply_layout(o, setup.layout);
    return o.search ? run_search(std::move(setup), o.top, out, err) : run_estimate(app, o, std::move(setup), out, err);
}

}  // namespace m2m::cli
