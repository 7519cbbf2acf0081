// `math-to-metal sim estimate`: one training step of a real model on a GPU cluster (or the best layouts), as JSON.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/cli.hpp"
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

double gb(double bytes) { return bytes / 1e9; }

json layout_json(const core::Layout& l) {
    json j = {{"gpus", l.gpus},
              {"tp", l.tp},
              {"pp", l.pp},
              {"dp", l.dp},
              {"micro_batch", l.micro_batch},
              {"global_batch", l.global_batch},
              {"micro_batches", l.micro_batches()},
              {"schedule", std::string(core::schedule_kind_name(l.schedule))},
              {"recompute", std::string(core::recompute_name(l.recompute))},
              {"attention", std::string(core::attention_name(l.attention))},
              {"zero", l.zero_stage}};
    if (l.schedule == core::ScheduleKind::interleaved) j["chunks"] = l.chunks;
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

json estimate_json(const core::EstimateSetup& setup, const core::Estimate& e, bool with_timeline) {
    json j;
    j["model"] = model_json(setup.model);
    j["hardware"] = {{"id", setup.gpu.id},
                     {"name", setup.gpu.name},
                     {"system", setup.system.name},
                     {"peak_bf16_tflops", setup.gpu.peak_bf16_flops / 1e12},
                     {"memory_GB", gb(setup.gpu.memory_bytes)},
                     {"achievable_fraction", setup.gpu.achievable_fraction}};
    j["layout"] = layout_json(setup.layout);
    j["step_time_s"] = e.step_time_s;
    j["tokens_per_s"] = e.tokens_per_s;
    j["model_tflops_per_gpu"] = e.model_tflops_per_gpu;
    j["hardware_tflops_per_gpu"] = e.hardware_tflops_per_gpu;
    j["mfu"] = e.mfu;
    j["hfu"] = e.hfu;
    j["memory_GB_per_gpu"] = gb(e.memory.total_bytes);
    j["fits"] = e.memory.fits;
    j["memory"] = {{"stage", e.memory.stage},
                   {"parameters", e.memory.parameters},
                   {"weights_GB", gb(e.memory.weights_bytes)},
                   {"gradients_GB", gb(e.memory.gradients_bytes)},
                   {"optimizer_GB", gb(e.memory.optimizer_bytes)},
                   {"activations_GB", gb(e.memory.activations_bytes)},
                   {"in_flight_micro_batches", e.memory.in_flight_micro_batches},
                   {"total_GB", gb(e.memory.total_bytes)},
                   {"capacity_GB", gb(e.memory.capacity_bytes)}};
    j["model_flops_per_step"] = e.model_flops_per_step;
    j["hardware_flops_per_step"] = e.hardware_flops_per_step;
    j["bubble_fraction"] = e.bubble_fraction;
    j["idle_fraction"] = e.idle_fraction;
    j["exposed_after_backward_s"] = e.exposed_dp_s;
    if (setup.train_tokens > 0) {
        j["train_tokens"] = setup.train_tokens;
        j["train_days"] = e.train_days;
    }
    json stages = json::array();
    for (const core::StageCost& c : e.stages) {
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
        if (c.chunk == 0) {
            s["dp_reduce_s"] = c.dp_reduce_s;
            s["optimizer_s"] = c.optimizer_s;
            if (setup.layout.zero_stage == 1) s["param_gather_s"] = c.param_gather_s;
        }
        stages.push_back(std::move(s));
    }
    j["stages"] = std::move(stages);
    j["assumptions"] = e.assumptions;
    if (with_timeline) {
        json tl = json::array();
        for (const core::TrainingTask& t : e.tasks) {
            if (t.kind == core::TrainingTaskKind::join) continue;
            json row = {{"kind", std::string(core::training_task_name(t.kind))},
                        {"stage", t.stage},
                        {"start_s", t.start_s},
                        {"end_s", t.end_s}};
            if (t.micro_batch >= 0) row["micro_batch"] = t.micro_batch;
            if (setup.layout.schedule == core::ScheduleKind::interleaved) row["chunk"] = t.chunk;
            tl.push_back(std::move(row));
        }
        j["timeline"] = std::move(tl);
    }
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
                   {"schedule", std::string(core::schedule_kind_name(setup.layout.schedule))},
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

}  // namespace

int sim_estimate(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    CLI::App app{"Real scale: one training step of a transformer on a GPU cluster: memory, time, MFU", me};
    std::string model_id, hardware = "a100", schedule = "1f1b", recompute = "selective", attention = "standard";
    std::string mlp = "gelu";
    int gpus = 0, tp = 1, pp = 1, dp = 0, zero = 0, chunks = 2, top = 5;
    std::int64_t global_batch = 0, micro_batch = 1, seq = 0;
    std::int64_t layers = 0, hidden = 0, heads = 0, vocab = 0, kv_heads = 0, ffn = 0;
    std::string tokens_text;
    bool as_json = false, search = false, with_timeline = false;
    const std::string models = presets::joined_model_ids() + ", custom";
    const std::string gpus_ok = presets::joined_estimator_gpu_ids();
    app.add_option("--model", model_id, "a model preset (" + models + ")")->required();
    app.add_option("--hardware", hardware, "GPU type (" + gpus_ok + "); default a100");
    app.add_option("--gpus", gpus, "GPUs in the cluster")
        ->required()
        ->check(CLI::Range(1, static_cast<int>(core::max_cluster_gpus)));
    app.add_option("--tp", tp, "tensor-parallel size (default 1; within a node: 1, 2, 4, 8)")->check(CLI::Range(1, 1024));
    app.add_option("--pp", pp, "pipeline-parallel size (default 1)")->check(CLI::Range(1, 1000));
    app.add_option("--dp", dp, "data-parallel size (default: gpus / (tp x pp))")->check(CLI::Range(1, 1 << 20));
    app.add_option("--global-batch", global_batch, "sequences per optimizer step")
        ->required()
        ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 30));
    app.add_option("--micro-batch", micro_batch, "sequences per micro-batch (default 1)")
        ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 30));
    app.add_option("--seq", seq, "tokens per sequence (default: the model's)")
        ->check(CLI::Range(std::int64_t{1}, std::int64_t{10'000'000}));
    app.add_option("--schedule", schedule, "pipeline schedule: 1f1b (default), gpipe or interleaved")
        ->check(CLI::IsMember({"1f1b", "gpipe", "interleaved"}));
    app.add_option("--chunks", chunks, "interleaved: model chunks per GPU (default 2)")->check(CLI::Range(2, 64));
    app.add_option("--recompute", recompute, "activation recompute: none, selective (default) or full")
        ->check(CLI::IsMember({"none", "selective", "full"}));
    app.add_option("--attention", attention, "attention kernel: standard (default; scores in memory) or flash")
        ->check(CLI::IsMember({"standard", "flash"}));
    app.add_option("--zero", zero, "ZeRO stage: 0 (default) or 1 (optimizer state split over dp)")
        ->check(CLI::Range(0, 1));
    app.add_option("--tokens", tokens_text, "training tokens, e.g. 300e9: also report the days to train");
    const auto up_to = [](std::int64_t most) { return CLI::Range(std::int64_t{1}, most); };
    app.add_option("--layers", layers, "custom model: layers")->check(up_to(1000));
    app.add_option("--hidden", hidden, "custom model: hidden size")->check(up_to(1'000'000));
    app.add_option("--heads", heads, "custom model: attention heads")->check(up_to(1'000'000));
    app.add_option("--vocab", vocab, "custom model: vocabulary")->check(up_to(10'000'000));
    app.add_option("--kv-heads", kv_heads, "custom model: key/value heads (default: = heads)")->check(up_to(1'000'000));
    app.add_option("--ffn", ffn, "custom model: MLP width (default 4 x hidden)")->check(up_to(10'000'000));
    app.add_option("--mlp", mlp, "custom model: gelu (default) or swiglu")->check(CLI::IsMember({"gelu", "swiglu"}));
    app.add_flag("--search", search, "rank every valid tp x pp x dp x micro-batch for --gpus by throughput");
    app.add_option("--top", top, "--search: how many layouts to print (default 5)")->check(CLI::Range(1, 100));
    app.add_flag("--timeline", with_timeline, "add every task of the step: kind, stage, micro-batch, start, end");
    app.add_flag("--json", as_json, "print one JSON object (the only output format)");
    if (auto code = parse_or_exit(app, args, out, err)) return *code;
    (void)as_json;  // JSON is the only format; the flag is accepted so scripts read clearly
    double tokens = 0;
    if (!tokens_text.empty()) {
        std::size_t used = 0;
        try {
            tokens = std::stod(tokens_text, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used != tokens_text.size() || !(tokens >= 1) || tokens > 1e18) {
            err << me << ": --tokens: expected a number of tokens from 1 to 1e18, such as 300e9, got '" << tokens_text
                << "'\n";
            return exit_bad_input;
        }
    }

    // The model: a preset, or explicit dimensions.
    core::TransformerShape shape;
    const char* custom_flags[] = {"--layers", "--hidden", "--heads", "--vocab", "--kv-heads", "--ffn", "--mlp"};
    if (model_id == "custom") {
        for (const char* f : {"--layers", "--hidden", "--heads", "--vocab", "--seq"})
            if (app.count(f) == 0) {
                err << me << ": " << f
                    << ": required with --model custom (give --layers, --hidden, --heads, --vocab and --seq)\n";
                return exit_bad_input;
            }
        shape.layers = layers;
        shape.hidden = hidden;
        shape.heads = heads;
        shape.vocab = vocab;
        shape.kv_heads = kv_heads;
        shape.ffn_hidden = ffn;
        shape.mlp = mlp == "swiglu" ? core::MlpKind::swiglu : core::MlpKind::gelu;
    } else {
        const presets::ModelPreset* p = presets::builtin_models().find(model_id);
        if (!p) {
            err << me << ": --model: unknown model '" << model_id << "' (accepted: " << models << ")\n";
            return exit_bad_input;
        }
        for (const char* f : custom_flags)
            if (app.count(f) > 0) {
                err << me << ": " << f << ": only with --model custom (a preset's dimensions are fixed; --seq may change)\n";
                return exit_bad_input;
            }
        shape = p->shape;
    }
    if (seq > 0) shape.seq = seq;

    auto made = presets::estimator_setup(shape, hardware);
    if (!made) {
        err << me << ": --hardware: unknown GPU '" << hardware << "' (accepted: " << gpus_ok << ")\n";
        return exit_bad_input;
    }
    core::EstimateSetup setup = std::move(*made);
    setup.train_tokens = tokens;
    core::Layout& l = setup.layout;
    l.gpus = gpus;
    l.tp = tp;
    l.pp = pp;
    l.global_batch = global_batch;
    l.micro_batch = micro_batch;
    l.schedule = schedule == "gpipe"         ? core::ScheduleKind::gpipe
                 : schedule == "interleaved" ? core::ScheduleKind::interleaved
                                             : core::ScheduleKind::one_f_one_b;
    l.chunks = chunks;
    l.recompute = recompute == "none" ? core::Recompute::none
                  : recompute == "full" ? core::Recompute::full
                                        : core::Recompute::selective;
    l.attention = attention == "flash" ? core::AttentionKernel::flash : core::AttentionKernel::standard;
    l.zero_stage = zero;

    if (search) {
        l.tp = l.pp = 1;
        l.dp = gpus;
        l.micro_batch = 1;
        if (auto why = core::validate(setup.model); !why.empty()) {
            const auto colon = why.find(':');
            err << me << ": " << flag_of(why.substr(0, colon)) << ":" << why.substr(colon + 1) << "\n";
            return exit_bad_input;
        }
        const core::SearchResult r = core::search_layouts(setup, top);
        out << search_json(setup, r).dump(2) << "\n";
        return exit_ok;
    }

    if (app.count("--dp") > 0) {
        l.dp = dp;
    } else if (gpus % (static_cast<std::int64_t>(tp) * pp) != 0) {
        err << me << ": --gpus: " << gpus << " GPUs do not split into tp x pp = " << tp << " x " << pp
            << " groups (give --dp, or a --gpus that is a multiple of tp x pp)\n";
        return exit_bad_input;
    } else {
        l.dp = static_cast<int>(gpus / (static_cast<std::int64_t>(tp) * pp));
    }
    if (auto problem = core::check(setup)) {
        err << me << ": " << flag_of(problem->field) << ": " << problem->message << "\n";
        return exit_bad_input;
    }
    const core::Estimate e = core::estimate(setup, with_timeline);
    out << estimate_json(setup, e, with_timeline).dump(2) << "\n";
    return exit_ok;
}

}  // namespace m2m::cli
