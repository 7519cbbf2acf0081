// Lesson 3's split told in sentences: what each GPU holds, what they exchange and why, and where
// the step's time goes; and every task of the timeline in words.
#include <algorithm>

#include "m2m/core/engine/text.hpp"
#include "m2m/core/split/split.hpp"
#include "split_parts.hpp"

namespace m2m::core {

namespace {

using namespace split_detail;

std::string join_and(const std::vector<std::string>& parts) {
    std::string out;
    for (std::size_t i = 0; i < parts.size(); ++i)
        out += (i == 0 ? "" : i + 1 == parts.size() ? " and " : ", ") + parts[i];
    return out;
}

std::string layer_run_text(const std::vector<LayerInfo>& layers, int first, int last) {
    std::vector<std::string> names;
    for (int l = first; l <= last; ++l) names.push_back(layers[static_cast<std::size_t>(l)].name);
    return join_and(names);
}

std::string stage_list(const SplitResult& r) {
    std::vector<std::string> parts;
    const int layers = static_cast<int>(r.layers.size());
    for (int st = 0; st < r.degrees.pipeline; ++st)
        parts.push_back("stage " + std::to_string(st + 1) + ": " +
                        layer_run_text(r.layers, r.stage_first_layer[static_cast<std::size_t>(st)],
                                       stage_last(r.stage_first_layer, layers, st)));
    std::string out;
    for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? "; " : "") + parts[i];
    return out;
}

std::string link_text(bool nvlink, bool ib) {
    return nvlink && ib ? "over NVLink and InfiniBand" : ib ? "over InfiniBand" : "over NVLink";
}

}  // namespace

namespace split_detail {

std::string gpu_sentence(const SplitResult& r, const GpuHolding& g) {
    std::string s = "GPU " + std::to_string(g.gpu) + " (node " + std::to_string(g.node) + ") holds ";
    std::vector<std::string> parts;
    for (int l = g.first_layer; l <= g.last_layer; ++l) {
        const NeuronRange& n = g.neurons[static_cast<std::size_t>(l)];
        const LayerInfo& info = r.layers[static_cast<std::size_t>(l)];
        parts.push_back(n.count == info.neurons ? "all of " + info.name
                                                : info.name + " " + (l == 0 ? "values " : "neurons ") + range_text(n));
    }
    s += join_and(parts) + ": " + format_count(g.parameters) + " parameters, " + format_bytes(static_cast<double>(g.bytes.total())) +
         " in all (weights " + format_bytes(static_cast<double>(g.bytes.weights)) + ", gradients " +
         format_bytes(static_cast<double>(g.bytes.gradients)) + ", Adam state " +
         format_bytes(static_cast<double>(g.bytes.optimizer)) + ", activations " +
         format_bytes(static_cast<double>(g.bytes.activations)) +
         (g.bytes.borrowed > 0 ? ", and room for one borrowed layer, " + format_bytes(static_cast<double>(g.bytes.borrowed)) : "") +
         "); " +
         (g.prompts == step_prompts ? "all " + std::to_string(step_prompts) + " prompts of the step pass through it."
                                    : "it computes " + std::to_string(g.prompts) + " of the step's " +
                                          std::to_string(step_prompts) + " prompts.");
    return s;
}

std::string holds_sentence(const SplitResult& r) {
    const SplitDegrees& d = r.degrees;
    std::int64_t total = 0, lo = r.gpus.front().parameters, hi = lo;
    Bytes most = 0;
    for (const LayerInfo& l : r.layers) total += l.parameters;
    for (const GpuHolding& g : r.gpus) {
        lo = std::min(lo, g.parameters);
        hi = std::max(hi, g.parameters);
        most = std::max(most, g.bytes.total());
    }
    std::string what;
    if (d.tensor > 1 && d.pipeline > 1)
        what = "a 1/" + std::to_string(d.tensor) + " slice of the neurons of one pipeline stage's layers (" +
               stage_list(r) + ")";
    else if (d.tensor > 1)
        what = "a 1/" + std::to_string(d.tensor) + " slice of every layer's neurons";
    else if (d.pipeline > 1)
        what = "whole layers in a row (" + stage_list(r) + ")";
    else if (d.sharded && d.data > 1)
        what = "a 1/" + std::to_string(d.data) + " shard of every layer, borrowing the rest of each layer from the "
               "others only while it computes that layer";
    else
        what = "the whole network";
    const std::string params = lo == total ? "all " + format_count(total) + " parameters"
                               : lo == hi  ? format_count(lo) + " of the " + format_count(total) + " parameters"
                                           : format_count(lo) + " to " + format_count(hi) + " of the " +
                                                 format_count(total) + " parameters";
    std::string s = std::string(r.gpus.size() == 1 ? "The GPU holds: " : "Each GPU holds: ") + what + ", " + params + " (" + (lo == hi ? "" : "up to ") +
                    format_bytes(static_cast<double>(most)) +
                    " with their gradients, Adam state and saved activations); ";
    const int prompts = step_prompts / d.data;
    if (d.data > 1 && d.sharded)
        s += "the whole network passes through every GPU but none keeps it; each works on its own " +
             std::to_string(prompts) + " of the step's " + std::to_string(step_prompts) + " prompts";
    else if (d.data > 1)
        s += "it is one of " + std::to_string(d.data) + " copies, each working on its own " + std::to_string(prompts) +
             " of the step's " + std::to_string(step_prompts) + " prompts";
    else
        s += "all " + std::to_string(step_prompts) + " prompts of the step pass through it";
    if (d.pipeline > 1)
        s += ", in " + format_counted(r.micro_batches, "micro-batch", "micro-batches") + " of " +
             std::to_string(prompts / r.micro_batches);
    return s + ".";
}

std::string exchange_sentence(const SplitResult& r, bool with_bytes) {
    if (r.exchanges.empty()) return "GPUs must exchange: nothing; a single GPU holds everything it needs.";
    long long ag = 0, rs = 0, sends = 0, ar = 0, count = 0;
    bool nv = false, ib = false;
    std::vector<std::string> on_ib;
    for (const Exchange& e : r.exchanges) {
        count += e.times;
        (e.op == ExchangeOp::all_gather ? ag : e.op == ExchangeOp::reduce_scatter ? rs : e.op == ExchangeOp::send ? sends : ar) +=
            e.times;
        (e.link == LinkType::infiniband ? ib : nv) = true;
        // A collective across two nodes with more GPUs than nodes rings inside them too: NVLink
        // carries those hops, InfiniBand only the ones between the nodes.
        if (e.link == LinkType::infiniband && e.op != ExchangeOp::send && e.gpus.size() > 2) nv = true;
        const std::string kind = e.op == ExchangeOp::send         ? "pipeline sends"
                                 : e.op == ExchangeOp::all_reduce ? "gradient all-reduces"
                                 : r.degrees.sharded              ? "FSDP gathers and reduce-scatters"
                                                                  : "tensor-parallel collectives";
        if (e.link == LinkType::infiniband && std::find(on_ib.begin(), on_ib.end(), kind) == on_ib.end())
            on_ib.push_back(kind);
    }
    // Before the step has run, while a guess about bytes is pending, the sizes stay out, and so do
    // the counts: the split with the most exchanges was the one with the most bytes on 2 and 4 GPUs.
    auto counted = [&](long long n, const char* one, const char* many) {
        return with_bytes ? format_counted(n, one, many) : std::string(many);
    };
    std::vector<std::string> parts;
    if (r.degrees.sharded)
        parts.push_back("every layer's weights, gathered from the shards before the layer computes going forward and "
                        "again going back (" + counted(ag, "all-gather", "all-gathers") +
                        "), and the gradients of its weights, summed with each GPU keeping its own shard's (" +
                        counted(rs, "reduce-scatter", "reduce-scatters") + ")");
    else if (ag + rs > 0)
        parts.push_back("every layer's outputs going forward (" + counted(ag, "all-gather", "all-gathers") +
                        ") and the gradients for them coming back (" + counted(rs, "reduce-scatter", "reduce-scatters") + ")");
    if (sends > 0)
        parts.push_back("activations forward and their gradients back between neighbouring stages (" +
                        counted(sends, "point-to-point send", "point-to-point sends") + ")");
    if (ar > 0)
        parts.push_back("the weights' gradients once per step so every copy takes the same update (" +
                        counted(ar, "all-reduce", "all-reduces") + ")");
    std::string s = "GPUs must exchange: " + join_and(parts) + "; " +
                    (with_bytes ? format_counted(count, "exchange", "exchanges") + " per step, " +
                                      format_bytes(static_cast<double>(r.exchanged_bytes)) + " of tensors in all, putting " +
                                      format_bytes(r.wire_bytes) + " on the wires " + link_text(nv, ib) + "."
                                : "they travel " + link_text(nv, ib) + ". How many there are and how many bytes they move shows once the step has run.");
    if (ib) s += " InfiniBand carries the " + join_and(on_ib) + " where they cross from one node to the other.";
    return s;
}

std::string why_sentence(const SplitResult& r, bool compare) {
    const SplitDegrees& d = r.degrees;
    std::vector<std::string> parts;
    if (d.tensor > 1)
        parts.push_back(
            "Tensor parallel uses all-gather going forward because each GPU owns whole neurons (a column split of every "
            "weight matrix): its outputs are finished values, not partial sums, and the next layer needs all of them, so "
            "the pieces only need collecting. Going back, every neuron adds to the gradient of every input, so each GPU "
            "holds partial sums that must be added, and each keeps only the slice it owns: a reduce-scatter. Splitting "
            "each neuron's inputs instead (a row split) would leave partial sums going forward, and those need an "
            "all-reduce.");
    if (d.pipeline > 1)
        parts.push_back("Pipeline parallel sends point to point because only the next stage needs a stage's outputs; "
                        "while the first micro-batches fill the pipeline and the last ones drain it, some stages wait: "
                        "the bubble, (p-1)/(m+p-1) = " +
                        format_percent(r.bubble_fraction, 0) + " of the step here.");
    if (d.data > 1 && d.sharded)
        parts.push_back("FSDP keeps only a 1/" + std::to_string(d.data) +
                        " shard of every layer's weights, gradients and Adam state on each GPU, so the model's memory is "
                        "divided among them. The price: before a layer computes, going forward and again going back, its "
                        "GPUs all-gather its full weights, and free them after; once its backward is done they "
                        "reduce-scatter its gradient, so each gets the sum for its own shard, all its Adam step needs. " +
                        std::string(compare ? "That is three collectives of the weights' size where data parallel needs "
                                              "one all-reduce: three times the tensors exchanged; but an all-reduce is "
                                              "itself a reduce-scatter and an all-gather, so on the wires, where the "
                                              "time goes, FSDP moves 1.5 times the bytes. "
                                            : "") +
                        "Real FSDP fetches the next layer's weights while this one computes; here each gather waits, so "
                        "you see every one.");
    else if (d.data > 1)
        parts.push_back("Data parallel all-reduces the gradients because each copy learned from different prompts: "
                        "adding them gives every copy the same total, so all copies take the same step and stay "
                        "identical.");
    if (parts.empty()) return "One GPU needs no exchange: everything it reads is already in its own memory.";
    std::string out;
    for (const std::string& p : parts) out += (out.empty() ? "" : " ") + p;
    return out;
}

namespace {

// "NVIDIA H100 SXM 80GB GPUs", or on one, "one NVIDIA H100 SXM 80GB GPU".
std::string gpus_text(const SplitResult& r) {
    return r.gpus.size() == 1 ? "one " + r.setup.hardware.gpu.name + " GPU" : r.setup.hardware.gpu.name + " GPUs";
}

}  // namespace

std::string time_sentence(const SplitResult& r) {
    const StepTimeline& t = r.step;
    std::string s = "One training step on " + gpus_text(r) + " takes " + format_seconds(t.step_time_s) +
                    (r.gpus.size() == 1 ? "; the GPU spends " : "; on average each GPU spends ") + format_seconds(t.compute_s) + " computing, " +
                    format_seconds(t.communication_s) + " waiting on exchanges and " +
                    (t.idle_s > 0 ? format_seconds(t.idle_s) + " idle." : "no time idle.");
    if (r.degrees.pipeline > 1)
        s += " The ideal pipeline bubble is " + format_percent(r.bubble_fraction, 0) + " of a step; this step is " +
             format_percent(t.idle_fraction, 0) + " idle.";
    return s + " " + timing_sentence(r.setup);
}

std::string time_sentence_before_run(const SplitResult& r) {
    return "One training step on " + gpus_text(r) + " takes " + format_seconds(r.step.step_time_s) +
           "; how much of it goes to exchanging shows once the step has run. " + timing_sentence(r.setup);
}

std::string timing_sentence(const SplitSetup& setup) {
    if (setup.timing == SplitTiming::lesson)
        return "Lesson timing: each GPU does its arithmetic at " + format_words(lesson_ops_per_s) + " operations a second" +
               " and pays nothing to start a kernel, so its time grows with the prompts and neurons it handles, as a "
               "real model's does; the wires are Lesson 2's. Switch to hardware timing for what this tiny network really "
               "costs.";
    return "Hardware timing: every kernel on " + setup.hardware.gpu.name + " costs " +
           format_seconds(setup.hardware.gpu.layer_overhead_s) +
           " to launch, far more than this tiny network's arithmetic, so splitting it only adds exchanges and the step "
           "gets slower. A real model's layers are millions of times bigger: there the arithmetic dominates and "
           "splitting pays, as lesson timing shows.";
}

}  // namespace split_detail

std::string step_task_text(const SplitResult& r, const StepTask& t) {
    auto layer_name = [&](int l) {
        return l >= 0 && l < static_cast<int>(r.layers.size()) ? r.layers[static_cast<std::size_t>(l)].name : std::string("?");
    };
    const std::string mb = t.micro_batch >= 0 && r.micro_batches > 1
                               ? " \xc2\xb7 micro-batch " + std::to_string(t.micro_batch + 1) + " of " +
                                     std::to_string(r.micro_batches)
                               : "";
    switch (t.kind) {
        case StepTaskKind::forward: return "forward \xc2\xb7 " + layer_name(t.layer) + mb;
        case StepTaskKind::backward: return "backward \xc2\xb7 " + layer_name(t.layer) + mb;
        case StepTaskKind::update: return "update \xc2\xb7 Adam step on its own parameters";
        case StepTaskKind::communication: {
            if (t.exchange < 0 || t.exchange >= static_cast<int>(r.exchanges.size())) return "exchanging";
            const Exchange& e = r.exchanges[static_cast<std::size_t>(t.exchange)];
            return std::string(exchange_op_name(e.op)) + " \xc2\xb7 " + e.what + " \xc2\xb7 " +
                   format_bytes(static_cast<double>(e.bytes)) + " tensor, " + format_bytes(wire_bytes(e)) + " on the wires over " +
                   std::string(link_type_label(e.link)) + mb;
        }
        case StepTaskKind::idle:
            return r.degrees.pipeline > 1 ? "idle \xc2\xb7 waiting for a neighbouring stage (the bubble)"
                                          : "idle \xc2\xb7 waiting for the others";
    }
    return "";
}

}  // namespace m2m::core
