// `sim estimate`'s JSON: every field the command has always printed, plus the memory breakdown,
// the exchanges with their collectives, and exposed vs hidden communication.
//
// [SECTION] the setup   [SECTION] the estimate   [SECTION] the search
#include "cli/estimate_json.hpp"

#include <string>

namespace m2m::cli {

namespace {

using nlohmann::json;

double gb(double bytes) { return bytes / 1e9; }

// [SECTION] the setup -----------------------------------------------------------------------

json layout_json(const core::Layout& l) {
    json j = {{"gpus", l.gpus},
              {"tp", l.tp},
              {"pp", l.pp},
              {"dp", l.dp},
              {"cp", l.cp},
              {"ep", l.ep},
              {"micro_batch", l.micro_batch},
              {"global_batch", l.global_batch},
              {"micro_batches", l.micro_batches()},
              {"schedule", std::string(core::schedule_name(l.schedule))},
              {"recompute", std::string(core::recompute_name(l.recompute))},
              {"attention", std::string(core::attention_name(l.attention))},
              {"zero", l.zero_stage},
              {"hybrid_shard", l.hybrid_shard},
              {"overlap", l.overlap},
              {"tp_overlap", l.tp_overlap},
              {"free_stage_inputs", l.free_stage_inputs},
              {"fp32_gradients", l.fp32_gradients},
              {"eager_kernels", l.eager_kernels}};
    if (l.schedule == core::PipelineSchedule::interleaved) j["chunks"] = l.chunks;
    return j;
}

json model_json(const core::TransformerShape& m) {
    const core::ParameterCount p = core::count_parameters(m);
    json j = {{"id", m.id},
              {"name", m.name},
              {"parameters", p.total},
              {"active_parameters", p.active},
              {"layers", m.layers},
              {"hidden", m.hidden},
              {"heads", m.heads},
              {"kv_heads", core::effective_kv_heads(m)},
              {"ffn_hidden", core::effective_ffn_hidden(m)},
              {"vocab", m.vocab},
              {"seq", m.seq},
              {"mlp", m.mlp == core::MlpKind::swiglu ? "swiglu" : "gelu"}};
    if (m.moe())
        j["experts"] = {{"routed", m.experts},
                        {"top_k", m.top_k},
                        {"expert_ffn", core::effective_expert_ffn(m)},
                        {"shared", m.shared_experts},
                        {"dense_layers", m.dense_layers}};
    return j;
}

json hardware_json(const core::EstimateSetup& setup) {
    return {{"id", setup.gpu.id},
            {"name", setup.gpu.name},
            {"system", setup.system.name},
            {"peak_bf16_tflops", setup.gpu.peak_bf16_flops / 1e12},
            {"memory_GB", gb(setup.gpu.memory_bytes)},
            {"achievable_fraction", setup.gpu.achievable_fraction}};
}

// [SECTION] the estimate --------------------------------------------------------------------

json memory_json(const core::MemoryUse& m) {
    return {{"stage", m.stage},
            {"parameters", m.parameters},
            {"expert_parameters", m.expert_parameters},
            {"weights_GB", gb(m.weights_bytes)},
            {"gradients_GB", gb(m.gradients_bytes)},
            {"optimizer_GB", gb(m.optimizer_bytes)},
            {"gathered_GB", gb(m.gathered_bytes)},
            {"activations_GB", gb(m.activations_bytes)},
            {"framework_GB", gb(m.framework_bytes)},
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
              {"forward_cp_s", c.forward_cp_s},
              {"backward_cp_s", c.backward_cp_s},
              {"forward_ep_s", c.forward_ep_s},
              {"backward_ep_s", c.backward_ep_s},
              {"forward_zero_s", c.forward_zero_s},
              {"backward_zero_s", c.backward_zero_s},
              {"send_s", c.send_s},
              {"send_link", std::string(core::link_type_name(c.send_link))}};
    if (c.chunk == 0) {  // the gradient sync and the optimizer are per GPU stage, on its first chunk
        s["dp_reduce_s"] = c.dp_reduce_s;
        s["dp_exposed_s"] = c.dp_exposed_s;
        s["optimizer_s"] = c.optimizer_s;
        if (zero_stage == 1 || zero_stage == 2) {
            s["param_gather_s"] = c.param_gather_s;
            s["param_exposed_s"] = c.param_exposed_s;
        }
    }
    return s;
}

json exchange_json(const core::StepExchange& x) {
    return {{"what", x.what},
            {"group", std::string(core::group_kind_name(x.group))},
            {"collective", std::string(core::collective_kind_name(x.op))},
            {"algorithm", std::string(x.algorithm)},
            {"protocol", std::string(x.protocol)},
            {"group_size", x.group_size},
            {"link", std::string(core::link_type_name(x.link))},
            {"bytes", x.bytes},
            {"count_per_step", x.count},
            {"bytes_per_step", x.total_bytes()},
            {"seconds_each", x.seconds},
            {"exposed_s", x.exposed_s},
            {"hidden_s", x.hidden_s}};
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
        if (t.exposed_s > 0) row["exposed_s"] = t.exposed_s;
        tl.push_back(std::move(row));
    }
    return tl;
}

}  // namespace

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
    j["communication"] = {{"exposed_s", e.exposed_communication_s}, {"hidden_s", e.hidden_communication_s}};
    if (setup.train_tokens > 0) {
        j["train_tokens"] = setup.train_tokens;
        j["train_days"] = e.train_days;
    }
    j["stages"] = json::array();
    for (const core::StageCost& c : e.stages) j["stages"].push_back(stage_json(c, setup.layout.zero_stage));
    j["exchanges"] = json::array();
    for (const core::StepExchange& x : e.exchanges) j["exchanges"].push_back(exchange_json(x));
    j["assumptions"] = e.assumptions;
    if (with_timeline) j["timeline"] = timeline_json(setup, e);
    return j;
}

// [SECTION] the search ----------------------------------------------------------------------

json search_json(const core::EstimateSetup& setup, const core::SearchResult& r) {
    const auto score_json = [&](const core::LayoutScore& s) {
        json j = layout_json(s.layout);
        j.erase("gpus");
        j.erase("global_batch");
        j["step_time_s"] = s.step_time_s;
        j["tokens_per_s"] = s.tokens_per_s;
        j["mfu"] = s.mfu;
        j["memory_GB_per_gpu"] = gb(s.memory_bytes);
        j["fits"] = s.fits;
        j["confirmed_on_scheduler"] = s.confirmed;
        if (setup.train_tokens > 0 && s.tokens_per_s > 0) j["train_days"] = setup.train_tokens / s.tokens_per_s / 86400.0;
        return j;
    };
    json j;
    j["model"] = model_json(setup.model);
    j["hardware"] = setup.gpu.id;
    j["search"] = {{"gpus", setup.layout.gpus},
                   {"global_batch", setup.layout.global_batch},
                   {"attention", std::string(core::attention_name(setup.layout.attention))},
                   {"overlap", setup.layout.overlap},
                   {"hybrid_shard", setup.layout.hybrid_shard},
                   {"candidates", r.candidates},
                   {"fitting", r.fitting}};
    json list = json::array();
    for (const core::LayoutScore& s : r.best) list.push_back(score_json(s));
    j["layouts"] = std::move(list);
    if (r.smallest) j["smallest_memory_layout"] = score_json(*r.smallest);
    j["method"] = "every valid tp, cp, pp, dp, ep, ZeRO stage, recompute, micro-batch, schedule and chunk count; memory "
                  "first, a closed-form step time for those that fit, then the fastest timed by the estimate itself "
                  "(confirmed_on_scheduler: the pipeline timed pass by pass by the scheduler's rules)";
    return j;
}

}  // namespace m2m::cli
