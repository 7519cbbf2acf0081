// What one pipeline stage of a real-scale layout costs for one micro-batch (its layers' compute and
// the exchanges compute waits for, the logits, the send to the next stage), its once-a-step gradient
// sync and Adam update, and the list of every exchange one of its GPUs makes in a step.
//
// [SECTION] a pass through a virtual stage   [SECTION] the update   [SECTION] the step's exchanges
#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "layer_work.hpp"
#include "m2m/core/scale/step_estimate.hpp"
#include "scale_parts.hpp"

namespace m2m::core {

namespace {

using namespace scale_detail;

// The two kinds of layer a model has (dense, and MoE if any), each worked out once.
struct ModelWork {
    LayerWork dense, moe;
};

ModelWork model_work(const EstimateSetup& setup, LayoutLinks& links) {
    const TransformerShape& m = setup.model;
    ModelWork w;
    w.dense = layer_work(setup, links, 0);
    w.moe = m.moe() ? layer_work(setup, links, m.layers - 1) : w.dense;
    return w;
}

// The compute of one layer that can hide traffic `t`, in one direction.
double hiding_compute(const LayerWork& w, const Traffic& t, bool forward, int cp) {
    const double compute = forward ? w.forward_compute_s : w.backward_compute_s;
    const double attention = forward ? w.forward_attention_s : w.backward_attention_s;
    switch (t.hiding) {
        case Hiding::matmuls: return compute - attention;
        case Hiding::attention: return attention * (cp - 1.0) / cp;
        case Hiding::next_layer: return compute + (forward ? w.forward_memory_s : w.backward_memory_s);
        case Hiding::none: return 0;
    }
    return 0;
}

// Seconds of `t` that compute waits for in one direction over `n` layers of kind `w`.
double pass_exposed(const LayerWork& w, const Traffic& t, bool forward, std::int64_t n, const Layout& l) {
    const double e = exposed_seconds(t, forward ? t.forward : t.backward, hiding_compute(w, t, forward, l.cp), n, l.overlap);
    return forward ? std::max(e, static_cast<double>(n) * t.unhidden_forward_s) : e;
}

// `n` layers of kind `w` into a pass: compute, and each exchange's exposed part by group.
void add_layers(StageCost& c, const LayerWork& w, std::int64_t n, const Layout& l) {
    if (n <= 0) return;
    const double layers = static_cast<double>(n);
    c.forward_compute_s += layers * w.forward_compute_s;
    c.backward_compute_s += layers * w.backward_compute_s;
    c.forward_memory_s += layers * w.forward_memory_s;
    c.backward_memory_s += layers * w.backward_memory_s;
    for (const Traffic& t : w.traffic) {
        const double fwd = pass_exposed(w, t, true, n, l), bwd = pass_exposed(w, t, false, n, l);
        if (t.group == GroupKind::tensor) {
            c.forward_tp_s += fwd;
            c.backward_tp_s += bwd;
        } else if (t.group == GroupKind::context) {
            c.forward_cp_s += fwd;
            c.backward_cp_s += bwd;
        } else if (t.group == GroupKind::experts) {
            c.forward_ep_s += fwd;
            c.backward_ep_s += bwd;
        } else {
            c.forward_zero_s += fwd;
            c.backward_zero_s += bwd;
            c.forward_zero_hidden_s += layers * t.forward * t.seconds - fwd;
            c.backward_zero_hidden_s += layers * t.backward * t.seconds - bwd;
        }
    }
}

// [SECTION] a pass through a virtual stage --------------------------------------------------

// The output layer on the last virtual stage: its matrix multiply and the memory traffic of the
// final norm and of the loss; ZeRO's gathers of the embedding and output matrices on the first and
// last (nothing earlier to hide them behind). The loss is Megatron-Core's vocab-parallel cross
// entropy (tensor_parallel/cross_entropy.py), one pass per kernel over this GPU's s b V / t logits:
// forward, the bf16 logits cast to fp32 (read 2, write 4 bytes), their maximum (read 4), less it in
// place (4 + 4), exp in place (4 + 4), summed (4), divided in place (4 + 4): 38 bytes a logit;
// backward, scaled by the loss's gradient in place (4 + 4) and cast back to bf16 (4 + 2): 14.
void add_ends(const EstimateSetup& setup, LayoutLinks& links, int j, StageCost& c) {
    const TransformerShape& m = setup.model;
    const Layout& l = setup.layout;
    const double rate = setup.gpu.peak_bf16_flops * setup.gpu.achievable_fraction, hbm = setup.gpu.memory_bandwidth_Bps;
    const double t = l.tp, tokens = tokens_per_gpu(m, l), h = static_cast<double>(m.hidden), V = static_cast<double>(m.vocab);
    if (c.has_logits) {
        const double flops = 2.0 * V * h * tokens / t, norm = 4.0 * tokens * h / t, logits = tokens * V / t;
        c.forward_compute_s += flops / rate;
        c.backward_compute_s += 2.0 * flops / rate;
        c.forward_memory_s += (2.0 * norm + 38.0 * logits) / hbm;
        c.backward_memory_s += (4.0 * norm + 14.0 * logits) / hbm;
    }
    const bool first = j == 0, last = c.has_logits && (!m.tied_embeddings || l.pp > 1);
    if (l.zero_stage < 2 || !(first || last)) return;
    const double table = V * h / t * ((first ? 1.0 : 0.0) + (last ? 1.0 : 0.0));
    const double gather = links.seconds(GroupKind::shard, CollectiveKind::all_gather, weight_bytes * table);
    const double reduce = links.seconds(GroupKind::shard, CollectiveKind::reduce_scatter, gradient_bytes_of(l) * table);
    c.forward_zero_s += l.zero_stage == 3 ? gather : 0.0;
    c.backward_zero_s += (l.zero_stage == 3 ? gather : 0.0) + reduce;
}

StageCost virtual_stage_cost(const EstimateSetup& setup, ModelWork& work, LayoutLinks& links, int j) {
    const TransformerShape& m = setup.model;
    const Layout& l = setup.layout;
    const int nv = virtual_stages(l);
    StageCost c;
    c.stage = j % l.pp;
    c.chunk = j / l.pp;
    c.layers = layers_of_virtual_stage(m, l, j);
    c.has_logits = j == nv - 1;
    const LayerKinds n = layer_kinds(m, first_layer_of_virtual_stage(m, l, j), c.layers);
    add_layers(c, work.dense, n.dense, l);
    add_layers(c, work.moe, n.moe, l);
    add_ends(setup, links, j, c);
    c.forward_s = c.forward_compute_s + c.forward_memory_s + c.forward_tp_s + c.forward_cp_s + c.forward_ep_s + c.forward_zero_s;
    c.backward_s = c.backward_compute_s + c.backward_memory_s + c.backward_tp_s + c.backward_cp_s + c.backward_ep_s +
                   c.backward_zero_s;
    if (j + 1 < nv) {
        // One s x b x h bf16 tensor per boundary per micro-batch each way; every tensor- and
        // context-parallel rank sends its own slice over its own link [Narayanan sec. 4.1].
        const Route route = links.stage_route(j % l.pp, (j + 1) % l.pp);
        c.send_link = route.type;
        c.send_s = transfer_seconds(route, bf16_bytes * tokens_per_gpu(m, l) * static_cast<double>(m.hidden) / l.tp);
    }
    return c;
}

// [SECTION] the update ----------------------------------------------------------------------

// Megatron-Core's gradient buckets: max(40M, 1M x dp) parameters each (DistributedDataParallelConfig,
// megatron/core/distributed/distributed_data_parallel_config.py). With overlap the last bucket's
// sync is what is left after the backward pass, and the first bucket's gather what the next
// forward waits for.
double bucket_share(const Layout& l, double params) {
    const double bucket = std::max(40e6, 1e6 * weight_replicas(l));
    return params > 0 ? std::min(1.0, bucket / params) : 1.0;
}

// GPU stage k's once-a-step gradient sync, Adam step and (ZeRO 1/2) weight gather, on its first chunk.
void add_update_costs(const EstimateSetup& setup, LayoutLinks& links, int k, std::vector<StageCost>& stages) {
    const Layout& l = setup.layout;
    StageCost& c = stages[static_cast<std::size_t>(k)];
    const StageParameters p = stage_parameters(setup.model, l, k);
    const double shared = gradient_bytes_of(l) * p.shared, experts = gradient_bytes_of(l) * p.experts;
    const int shard = links.size(GroupKind::shard);
    if (l.zero_stage == 0) {
        c.dp_reduce_s = links.seconds(GroupKind::weights, CollectiveKind::all_reduce, shared) +
                        links.seconds(GroupKind::expert_data, CollectiveKind::all_reduce, experts);
    } else if (l.zero_stage == 1) {
        c.dp_reduce_s = links.seconds(GroupKind::shard, CollectiveKind::reduce_scatter, shared) +
                        links.seconds(GroupKind::replicas, CollectiveKind::all_reduce, shared / shard) +
                        links.seconds(GroupKind::expert_data, CollectiveKind::reduce_scatter, experts);
    }
    if (l.zero_stage == 1 || l.zero_stage == 2)  // the updated weights, in bf16 whatever the gradients' type
        c.param_gather_s = links.seconds(GroupKind::shard, CollectiveKind::all_gather, weight_bytes * p.shared) +
                           links.seconds(GroupKind::expert_data, CollectiveKind::all_gather, weight_bytes * p.experts);
    // The sync starts with the last micro-batch's backward through this GPU's layers; the gather of
    // the updated weights runs bucket by bucket ahead of the next step's first forward pass through
    // them (Megatron's --overlap-param-gather), which needs every bucket by its end. Interleaved, a
    // chunk's first forward comes after pp micro-batches have passed the chunk before it.
    double last_backward = 0, first_forward = 0;
    for (const StageCost& s : stages)
        if (s.stage == k) {
            last_backward += s.backward_s;
            first_forward += s.forward_s;
        }
    if (chunks_of(l) > 1) first_forward *= static_cast<double>(std::min<std::int64_t>(l.pp, l.micro_batches()));
    const double share = bucket_share(l, p.total());
    c.dp_exposed_s = l.overlap ? std::max(c.dp_reduce_s * share, c.dp_reduce_s - last_backward) : c.dp_reduce_s;
    c.param_exposed_s =
        l.overlap ? std::max(c.param_gather_s * share, c.param_gather_s - first_forward) : c.param_gather_s;
    if (l.zero_stage >= 2 && l.overlap) {
        // ZeRO 2/3 run their traffic beside compute layer by layer; the last layer's reduce-scatter
        // (and with ZeRO 3 the first layer's gather of the next step) has no compute beside it.
        const double layer = layer_parameters_per_gpu(setup.model, l, setup.model.layers - 1);
        c.dp_exposed_s += links.seconds(GroupKind::shard, CollectiveKind::reduce_scatter, gradient_bytes_of(l) * layer);
        if (l.zero_stage == 3)
            c.param_exposed_s += links.seconds(GroupKind::shard, CollectiveKind::all_gather, weight_bytes * layer);
    }
    // Adam is memory bound: adam_step_bytes_per_parameter (28) per parameter this GPU updates.
    const double updated = p.shared / (l.zero_stage >= 1 ? shard : 1) + p.experts / (l.zero_stage >= 1 ? expert_replicas(l) : 1);
    c.optimizer_s = static_cast<double>(adam_step_bytes_per_parameter) * updated / setup.gpu.memory_bandwidth_Bps;
}

}  // namespace

std::vector<StageCost> stage_costs(const EstimateSetup& setup, LayoutLinks& links) {
    ModelWork work = model_work(setup, links);
    std::vector<StageCost> out;
    out.reserve(static_cast<std::size_t>(virtual_stages(setup.layout)));
    for (int j = 0; j < virtual_stages(setup.layout); ++j) out.push_back(virtual_stage_cost(setup, work, links, j));
    for (int k = 0; k < setup.layout.pp; ++k) add_update_costs(setup, links, k, out);
    return out;
}

// [SECTION] the step's exchanges ------------------------------------------------------------

namespace {

using RowFn = std::function<StepExchange&(const std::string&, GroupKind, CollectiveKind, double, double)>;

// The once-a-step rows of one stage: the gradients' reduction and, sharded, the weights' gather.
void add_once_a_step(const EstimateSetup& setup, const StageCost& u, int stage, const RowFn& row) {
    const TransformerShape& m = setup.model;
    const Layout& l = setup.layout;
    if (u.dp_reduce_s > 0) {
        const bool rs = l.zero_stage == 1;
        StepExchange& e = row(rs ? "gradient reduce-scatter once a step" : "gradient all-reduce once a step",
                              GroupKind::weights, rs ? CollectiveKind::reduce_scatter : CollectiveKind::all_reduce,
                              gradient_bytes_of(l) * stage_parameters(m, l, stage).total(), u.dp_reduce_s);
        e.count = 1;
        e.exposed_s = u.dp_exposed_s;
        e.hidden_s = u.dp_reduce_s - u.dp_exposed_s;
    }
    if (u.param_gather_s > 0) {
        StepExchange& e = row("all-gather of the updated weights", GroupKind::shard, CollectiveKind::all_gather,
                              weight_bytes * stage_parameters(m, l, stage).total(), u.param_gather_s);
        e.count = 1;
        e.exposed_s = u.param_exposed_s;
        e.hidden_s = u.param_gather_s - u.param_exposed_s;
    }
}

// One stage chunk's pipeline sends (in, out, or both), each micro-batch.
void add_sends(const EstimateSetup& setup, const StageCost& c, const RowFn& row) {
    const TransformerShape& m = setup.model;
    const Layout& l = setup.layout;
    if (c.send_s <= 0 && c.chunk == 0 && c.stage == 0) return;
    const double mb = static_cast<double>(l.micro_batches());
    const double sends = (c.send_s > 0 ? 1.0 : 0.0) + (c.chunk > 0 || c.stage > 0 ? 1.0 : 0.0);
    const double bytes = bf16_bytes * tokens_per_gpu(m, l) * static_cast<double>(m.hidden) / l.tp;
    StepExchange& e = row("pipeline sends of activations and their gradients", GroupKind::pipeline, CollectiveKind::send, bytes,
                          c.send_s);
    e.algorithm = "route";
    e.protocol = "";
    e.link = c.send_link == LinkType::local ? e.link : c.send_link;
    e.count += mb * sends;
    (l.overlap ? e.hidden_s : e.exposed_s) += mb * sends * c.send_s;
}

}  // namespace

std::vector<StepExchange> step_exchanges(const EstimateSetup& setup, const std::vector<StageCost>& stages,
                                         LayoutLinks& links, int stage) {
    const TransformerShape& m = setup.model;
    const Layout& l = setup.layout;
    const double mb = static_cast<double>(l.micro_batches());
    ModelWork work = model_work(setup, links);
    std::vector<StepExchange> out;
    std::map<std::string, std::size_t> index;  // one row per description and group
    const RowFn row = [&](const std::string& what, GroupKind g, CollectiveKind op, double bytes, double seconds) -> StepExchange& {
        const std::string key = what + "/" + std::string(group_kind_name(g));
        auto [it, added] = index.emplace(key, out.size());
        if (added) {
            const ExchangeCost c = links.cost(g, op, bytes);
            out.push_back({what, g, op, links.size(g), links.link(g), bytes, 0, seconds, c.algorithm, c.protocol, 0, 0});
        }
        return out[it->second];
    };
    for (const StageCost& c : stages) {
        if (c.stage != stage) continue;
        const LayerKinds kinds = layer_kinds(m, first_layer_of_virtual_stage(m, l, c.chunk * l.pp + c.stage), c.layers);
        for (const auto& [w, n] : {std::pair<const LayerWork*, std::int64_t>{&work.dense, kinds.dense}, {&work.moe, kinds.moe}}) {
            if (n <= 0) continue;
            for (const Traffic& t : w->traffic) {
                StepExchange& e = row(t.what, t.group, t.op, t.bytes, t.seconds);
                const double fwd = pass_exposed(*w, t, true, n, l), bwd = pass_exposed(*w, t, false, n, l);
                const double all = static_cast<double>(n) * (t.forward + t.backward);
                e.count += mb * all;
                e.exposed_s += mb * (fwd + bwd);
                e.hidden_s += mb * (all * t.seconds - fwd - bwd);
            }
        }
        add_sends(setup, c, row);
    }
    add_once_a_step(setup, stages[static_cast<std::size_t>(stage)], stage, row);
    return out;
}

}  // namespace m2m::core
