// `math-to-metal sim estimate`: one training step of a real model on a GPU cluster (or the best layouts), as JSON.
//
// [SECTION] the options   [SECTION] from options to a setup   [SECTION] the two runs
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/cli.hpp"
#include "cli/estimate_json.hpp"
#include "cli/subcommand.hpp"
#include "m2m/core/scale/estimator.hpp"
#include "m2m/presets/models.hpp"

namespace m2m::cli {

namespace {

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

// [SECTION] the options ---------------------------------------------------------------------

struct EstimateOptions {
    std::string model_id, hardware = "a100", schedule = "1f1b", recompute = "selective", attention = "standard";
    std::string mlp = "gelu", overlap = "on", tokens_text;
    int gpus = 0, tp = 1, pp = 1, dp = 0, cp = 1, ep = 1, zero = 0, chunks = 2, top = 5;
    std::int64_t global_batch = 0, micro_batch = 1, seq = 0;
    std::int64_t layers = 0, hidden = 0, heads = 0, vocab = 0, kv_heads = 0, ffn = 0;
    std::int64_t experts = 0, top_k = 0, expert_ffn = 0, shared_experts = 0, dense_layers = 0;
    bool hybrid = false, tp_overlap = false, free_stage_inputs = false, fp32_gradients = false;
    bool eager_kernels = false;
    bool search = false, with_timeline = false;
};

const char* const custom_flags[] = {"--layers",  "--hidden", "--heads",      "--vocab",          "--kv-heads",
                                    "--ffn",     "--mlp",    "--experts",    "--top-k",          "--expert-ffn",
                                    "--shared-experts", "--dense-layers"};

void add_split_options(CLI::App& app, EstimateOptions& o) {
    app.add_option("--model", o.model_id, "a model preset (" + presets::joined_model_ids() + ", custom)")->required();
    app.add_option("--hardware", o.hardware, "GPU type (" + presets::joined_estimator_gpu_ids() + "); default a100");
    app.add_option("--gpus", o.gpus, "GPUs in the cluster")
        ->required()
        ->check(CLI::Range(1, static_cast<int>(core::max_cluster_gpus)));
    app.add_option("--tp", o.tp, "tensor-parallel size (default 1; within a node: 1, 2, 4, 8)")->check(CLI::Range(1, 1024));
    app.add_option("--pp", o.pp, "pipeline-parallel size (default 1)")->check(CLI::Range(1, 1000));
    app.add_option("--dp", o.dp, "data-parallel size (default: gpus / (tp x cp x pp))")->check(CLI::Range(1, 1 << 20));
    app.add_option("--cp", o.cp, "context-parallel size: splits every sequence, ring attention (default 1)")
        ->check(CLI::Range(1, 1 << 16));
    app.add_option("--ep", o.ep, "expert-parallel size, dividing dp: a MoE model's experts over that many GPUs (default 1)")
        ->check(CLI::Range(1, 1 << 16));
    app.add_option("--global-batch", o.global_batch, "sequences per optimizer step")
        ->required()
        ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 30));
    app.add_option("--micro-batch", o.micro_batch, "sequences per micro-batch (default 1)")
        ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 30));
    app.add_option("--seq", o.seq, "tokens per sequence (default: the model's)")
        ->check(CLI::Range(std::int64_t{1}, std::int64_t{10'000'000}));
}

void add_step_options(CLI::App& app, EstimateOptions& o) {
    app.add_option("--schedule", o.schedule, "pipeline schedule: 1f1b (default), gpipe or interleaved")
        ->check(CLI::IsMember({"1f1b", "gpipe", "interleaved"}));
    app.add_option("--chunks", o.chunks, "interleaved: model chunks per GPU (default 2)")->check(CLI::Range(2, 64));
    app.add_option("--recompute", o.recompute, "activation recompute: none, selective (default) or full")
        ->check(CLI::IsMember({"none", "selective", "full"}));
    app.add_option("--attention", o.attention, "attention kernel: standard (default; scores in memory) or flash")
        ->check(CLI::IsMember({"standard", "flash"}));
    app.add_option("--zero", o.zero,
                   "ZeRO stage over the data-parallel replicas: 0 (default), 1 (Adam state split), 2 (and gradients), "
                   "3 (and weights: FSDP)")
        ->check(CLI::Range(0, 3));
    app.add_flag("--hybrid-shard", o.hybrid, "ZeRO shards inside a node only and replicates across nodes");
    app.add_option("--overlap", o.overlap, "communication beside compute: on (default) or off")
        ->check(CLI::IsMember({"on", "off"}));
    app.add_flag("--tp-overlap", o.tp_overlap, "tensor-parallel collectives behind their matrix multiplies");
    app.add_flag("--free-stage-inputs", o.free_stage_inputs,
                 "each pipeline chunk's received input freed after its first norm (Meta's Llama 3 405B run)");
    app.add_flag("--fp32-gradients", o.fp32_gradients,
                 "gradients accumulated and reduced in fp32, 4 bytes a parameter (Megatron-LM's bf16 default)");
    app.add_flag("--eager-kernels", o.eager_kernels,
                 "rotary embeddings and SwiGLU as eager PyTorch runs them, op by op (torchtitan without compile)");
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
    app.add_option("--experts", o.experts, "custom model: routed experts per layer (a mixture of experts)")->check(up_to(4096));
    app.add_option("--top-k", o.top_k, "custom model: experts each token goes to (needs --experts)")->check(up_to(4096));
    app.add_option("--expert-ffn", o.expert_ffn, "custom model: one expert's MLP width (default --ffn)")->check(up_to(10'000'000));
    app.add_option("--shared-experts", o.shared_experts, "custom model: experts every token also passes (default 0)")
        ->check(CLI::Range(std::int64_t{0}, std::int64_t{64}));
    app.add_option("--dense-layers", o.dense_layers, "custom model: leading layers with a dense MLP (default 0)")
        ->check(CLI::Range(std::int64_t{0}, std::int64_t{999}));
    app.add_flag("--search", o.search, "rank every valid layout for --gpus by throughput among those that fit");
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

std::optional<int> read_custom(const CLI::App& app, const EstimateOptions& o, core::TransformerShape& shape,
                               std::ostream& err) {
    for (const char* f : {"--layers", "--hidden", "--heads", "--vocab", "--seq"})
        if (app.count(f) == 0)
            return refuse(err, me, f, "required with --model custom (give --layers, --hidden, --heads, --vocab and --seq)");
    if ((app.count("--top-k") > 0 || app.count("--expert-ffn") > 0 || app.count("--shared-experts") > 0 ||
         app.count("--dense-layers") > 0) && app.count("--experts") == 0)
        return refuse(err, me, "--experts", "required with --top-k, --expert-ffn, --shared-experts or --dense-layers");
    if (app.count("--experts") > 0 && app.count("--top-k") == 0)
        return refuse(err, me, "--top-k", "required with --experts (how many experts each token goes to)");
    shape.layers = o.layers;
    shape.hidden = o.hidden;
    shape.heads = o.heads;
    shape.vocab = o.vocab;
    shape.kv_heads = o.kv_heads;
    shape.ffn_hidden = o.ffn;
    shape.mlp = o.mlp == "swiglu" ? core::MlpKind::swiglu : core::MlpKind::gelu;
    shape.experts = o.experts;
    shape.top_k = o.top_k;
    shape.expert_ffn = o.expert_ffn;
    shape.shared_experts = o.shared_experts;
    shape.dense_layers = o.dense_layers;
    return std::nullopt;
}

// The model: a preset, or explicit dimensions (--model custom).
std::optional<int> read_model(const CLI::App& app, const EstimateOptions& o, core::TransformerShape& shape,
                              std::ostream& err) {
    if (o.model_id == "custom") {
        if (auto code = read_custom(app, o, shape, err)) return code;
    } else {
        const presets::ModelPreset* p = presets::builtin_models().find(o.model_id);
        if (!p)
            return refuse(err, me, "--model",
                          "unknown model '" + o.model_id + "' (accepted: " + presets::joined_model_ids() + ", custom)");
        const std::string kind = p->shape.moe() ? "has " + std::to_string(p->shape.experts) + " experts" : "is dense";
        for (const char* f : custom_flags)
            if (app.count(f) > 0)
                return refuse(err, me, f, "only with --model custom: a preset's dimensions are fixed (" + p->shape.name +
                                              " " + kind + "; --seq may change)");
        shape = p->shape;
    }
    if (o.seq > 0) shape.seq = o.seq;
    if (auto why = core::validate(shape); !why.empty()) {
        const auto colon = why.find(':');
        return refuse(err, me, flag_of(why.substr(0, colon)), why.substr(colon + 2));
    }
    return std::nullopt;
}

void apply_layout(const EstimateOptions& o, core::Layout& l) {
    l.gpus = o.gpus;
    l.tp = o.tp;
    l.pp = o.pp;
    l.cp = o.cp;
    l.ep = o.ep;
    l.global_batch = o.global_batch;
    l.micro_batch = o.micro_batch;
    l.schedule = *core::parse_schedule(o.schedule);
    l.chunks = o.chunks;
    l.recompute = o.recompute == "none" ? core::Recompute::none
                  : o.recompute == "full" ? core::Recompute::full
                                          : core::Recompute::selective;
    l.attention = o.attention == "flash" ? core::AttentionKernel::flash : core::AttentionKernel::standard;
    l.zero_stage = o.zero;
    l.hybrid_shard = o.hybrid;
    l.overlap = o.overlap == "on";
    l.tp_overlap = o.tp_overlap;
    l.free_stage_inputs = o.free_stage_inputs;
    l.fp32_gradients = o.fp32_gradients;
    l.eager_kernels = o.eager_kernels;
}

// [SECTION] the two runs ---------------------------------------------------------------------

int run_search(core::EstimateSetup setup, int top, std::ostream& out) {
    core::Layout& l = setup.layout;
    l.tp = l.pp = l.cp = l.ep = 1;
    l.dp = l.gpus;
    l.micro_batch = 1;
    return print_json(out, search_json(setup, core::search_layouts(setup, top)));
}

int run_estimate(const CLI::App& app, const EstimateOptions& o, core::EstimateSetup setup, std::ostream& out,
                 std::ostream& err) {
    core::Layout& l = setup.layout;
    const std::int64_t split = static_cast<std::int64_t>(o.tp) * o.pp * o.cp;
    if (app.count("--dp") > 0) {
        l.dp = o.dp;
    } else if (o.gpus % split != 0) {
        return refuse(err, me, "--gpus",
                      std::to_string(o.gpus) + " GPUs do not split into tp x cp x pp = " + std::to_string(o.tp) + " x " +
                          std::to_string(o.cp) + " x " + std::to_string(o.pp) +
                          " groups (give --dp, or a --gpus that is a multiple of tp x cp x pp)");
    } else {
        l.dp = static_cast<int>(o.gpus / split);
    }
    if (auto problem = core::check(setup)) return refuse(err, me, flag_of(problem->field), problem->message);
    return print_json(out, estimate_json(setup, core::estimate(setup, o.with_timeline), o.with_timeline));
}

}  // namespace

int sim_estimate(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    CLI::App app{"Real scale: one training step of a transformer on a GPU cluster: memory, time, MFU", me};
    EstimateOptions o;
    add_split_options(app, o);
    add_step_options(app, o);
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
    return o.search ? run_search(std::move(setup), o.top, out) : run_estimate(app, o, std::move(setup), out, err);
}

}  // namespace m2m::cli
