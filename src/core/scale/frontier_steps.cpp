// Lesson 3's Frontier story, the step: the estimator's tasks as one timeline row per pipeline stage,
// which link each transfer crosses, and the best layouts the search finds, as a table's cells.
#include "frontier_parts.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>

#include "m2m/core/engine/text.hpp"

namespace m2m::core {

namespace frontier_detail {

namespace {

LinkType wire(bool ib) { return ib ? LinkType::infiniband : LinkType::nvlink; }

// The links the step's traffic takes: each pipeline (virtual) stage's sends, indexed chunk x pp +
// stage, and each group's collectives.
struct StepLinks {
    std::vector<LinkType> sends;
    LinkType dp = LinkType::local, tensor = LinkType::local, context = LinkType::local, experts = LinkType::local;
};

StepLinks step_links(const EstimateSetup& s, const Estimate& e, const LayoutLinks& links) {
    StepLinks out;
    const std::size_t pp = static_cast<std::size_t>(s.layout.pp);
    out.sends.assign(pp * static_cast<std::size_t>(std::max(s.layout.chunks, 1)), LinkType::local);
    for (const StageCost& c : e.stages) {
        const std::size_t j = static_cast<std::size_t>(c.chunk) * pp + static_cast<std::size_t>(c.stage);
        if (j < out.sends.size()) out.sends[j] = c.send_link;
    }
    const auto between_gpus = [](LinkType t) { return wire(t == LinkType::infiniband); };
    out.dp = between_gpus(links.dp_link());
    out.tensor = between_gpus(links.link(GroupKind::tensor));
    out.context = between_gpus(links.link(GroupKind::context));
    out.experts = between_gpus(links.link(GroupKind::experts));
    return out;
}

// A pass's exposed collectives: tensor parallel's, context parallel's ring, expert all-to-alls.
struct Exposed {
    double s[3] = {0, 0, 0};
    double sum() const { return s[0] + s[1] + s[2]; }
};
Exposed exposed_of(const StageCost& c, bool forward) {
    Exposed x;
    x.s[0] = forward ? c.forward_tp_s : c.backward_tp_s;
    x.s[1] = forward ? c.forward_cp_s : c.backward_cp_s;
    x.s[2] = forward ? c.forward_ep_s : c.backward_ep_s;
    return x;
}

// A pass from start to end: its compute, then the exposed collectives it waited for (`exposed`, in
// a pass of `pass_s`), each on its group's link. They run between the pass's kernels; drawn at its
// end, so that the time they take is where a reader sees it, in their links' colours.
void add_pass(StepRow& row, double start, double end, StepBarKind kind, const Exposed& exposed, double pass_s,
              const StepLinks& links, std::int64_t stands_for) {
    const double share = pass_s > 0 ? std::clamp(exposed.sum() / pass_s, 0.0, 1.0) : 0.0;
    const double comm = (end - start) * share;
    row.bars.push_back({start, end - comm, kind, LinkType::local, StepTraffic::none, stands_for});
    const StepTraffic what[3] = {StepTraffic::tensor, StepTraffic::context, StepTraffic::experts};
    const LinkType link[3] = {links.tensor, links.context, links.experts};
    double at = end - comm;
    for (int k = 0; k < 3; ++k) {
        if (!(exposed.s[k] > 0) || !(comm > 0)) continue;
        const double len = comm * exposed.s[k] / exposed.sum();
        row.bars.push_back({at, at + len, StepBarKind::transfer, link[k], what[k], stands_for});
        at += len;
    }
}

// A task as bars: a pass (its compute and its exposed collectives), the update, or a transfer: a
// send on its stage's send link, the gradient sync, the weights' gather and ZeRO traffic on the
// data-parallel link. (The steady state is add_steady's.)
void add_task(StepRow& row, const TrainingTask& t, const Estimate& e, const StepLinks& links, std::size_t pp) {
    const std::size_t j = static_cast<std::size_t>(t.chunk) * pp + static_cast<std::size_t>(t.stage);
    const auto transfer = [&](LinkType link, StepTraffic what) {
        row.bars.push_back({t.start_s, t.end_s, StepBarKind::transfer, link, what, 1});
    };
    switch (t.kind) {
        case TrainingTaskKind::forward:
        case TrainingTaskKind::backward: {
            const bool fwd = t.kind == TrainingTaskKind::forward;
            const StageCost* c = j < e.stages.size() ? &e.stages[j] : nullptr;
            add_pass(row, t.start_s, t.end_s, fwd ? StepBarKind::forward : StepBarKind::backward,
                     c ? exposed_of(*c, fwd) : Exposed{}, c ? (fwd ? c->forward_s : c->backward_s) : 0.0, links, 1);
            return;
        }
        case TrainingTaskKind::optimizer:
            row.bars.push_back({t.start_s, t.end_s, StepBarKind::update, LinkType::local, StepTraffic::none, 1});
            return;
        case TrainingTaskKind::send_forward:
        case TrainingTaskKind::send_backward: {
            // A send's row is its sender's, virtual stage j; a backward send crosses the boundary
            // from j - 1 to j (pipeline_timing.cpp), whose link is stage j - 1's send link.
            const std::size_t boundary = t.kind == TrainingTaskKind::send_forward ? j : j - 1;
            transfer(wire(boundary < links.sends.size() && links.sends[boundary] == LinkType::infiniband), StepTraffic::stage_send);
            return;
        }
        case TrainingTaskKind::dp_reduce: transfer(links.dp, StepTraffic::gradient_sync); return;
        case TrainingTaskKind::param_gather: transfer(links.dp, StepTraffic::weight_gather); return;
        case TrainingTaskKind::zero_traffic: transfer(links.dp, StepTraffic::zero); return;
        case TrainingTaskKind::join:
        case TrainingTaskKind::steady:
        case TrainingTaskKind::steady_forwards:
        case TrainingTaskKind::steady_backwards: return;
    }
}

// What a stage's passes in a summarised steady state are made of: its chunks' forward and backward
// times, their exposed collectives, and its sends each way, with the link they take.
struct SteadyWork {
    double f = 0, b = 0, fs = 0, bs = 0;
    Exposed fx, bx;
    int fn = 0, bn = 0, chunks = 0;
    bool f_ib = false, b_ib = false;
};
SteadyWork steady_work(int stage, const Estimate& e, const StepLinks& links, int pp) {
    const std::size_t nv = e.stages.size();
    const std::vector<LinkType>& sends = links.sends;
    SteadyWork w;
    for (std::size_t j = static_cast<std::size_t>(stage); j < nv; j += static_cast<std::size_t>(pp)) {
        ++w.chunks;
        w.f += e.stages[j].forward_s;
        w.b += e.stages[j].backward_s;
        for (int k = 0; k < 3; ++k) w.fx.s[k] += exposed_of(e.stages[j], true).s[k], w.bx.s[k] += exposed_of(e.stages[j], false).s[k];
        if (j + 1 < nv) w.fs += e.stages[j].send_s, ++w.fn, w.f_ib = w.f_ib || (j < sends.size() && sends[j] == LinkType::infiniband);
        if (j > 0) w.bs += e.stages[j - 1].send_s, ++w.bn, w.b_ib = w.b_ib || (j - 1 < sends.size() && sends[j - 1] == LinkType::infiniband);
    }
    return w;
}

// A stage's steady state, summarised by the estimator as one span of `passes` passes, a forward and
// a backward in turn (1F1B, interleaved): drawn as that, stripe pairs in the stage's own forward :
// backward proportion (its chunks' average), each stripe ending in its exposed collectives and
// followed by its send where the stage sends that way, as the fill's and the drain's are. At most
// 24 pairs, each then standing for several of the real ones, which are thinner than a pixel on a
// long step anyway; the stripes say what the span is, the hover how many passes each pair stands for.
void add_steady(StepRow& row, const TrainingTask& t, const Estimate& e, const StepLinks& links, int pp) {
    const SteadyWork w = steady_work(t.stage, e, links, pp);
    const std::int64_t pairs = std::clamp<std::int64_t>(t.passes / 2, 1, 24);
    const double period = (t.end_s - t.start_s) / static_cast<double>(pairs), share = w.f + w.b > 0 ? w.f / (w.f + w.b) : 0.5;
    // The share of the span the stage computes: its passes' own time (a forward and a backward of
    // its chunks' average each pair) against the span. A stage lighter than the slowest waits for
    // it, and that wait shows as a gap after each pair of stripes, not as stripes stretched over it.
    const double work = static_cast<double>(t.passes) / 2.0 * (w.f + w.b) / std::max(w.chunks, 1);
    const double busy = t.end_s > t.start_s ? std::clamp(work / (t.end_s - t.start_s), 0.0, 1.0) : 1.0;
    for (std::int64_t i = 0; i < pairs; ++i) {
        const double s0 = t.start_s + static_cast<double>(i) * period, mid = s0 + share * busy * period,
                     s1 = s0 + busy * period;
        const std::int64_t n = (i + 1) * t.passes / pairs - i * t.passes / pairs;  // an even share of the passes
        add_pass(row, s0, mid, StepBarKind::forward, w.fx, w.f, links, n);
        if (w.fn > 0 && w.fs > 0) row.bars.push_back({mid, mid + w.fs / w.fn, StepBarKind::transfer, wire(w.f_ib), StepTraffic::stage_send, n});
        add_pass(row, mid, s1, StepBarKind::backward, w.bx, w.b, links, n);
        if (w.bn > 0 && w.bs > 0) row.bars.push_back({s1, s1 + w.bs / w.bn, StepBarKind::transfer, wire(w.b_ib), StepTraffic::stage_send, n});
    }
}

// GPipe's steady state: a stage's forwards one after another (or, after the bubble, its backwards),
// summarised as one span: drawn as at most 24 stripes of that pass, each ending in its exposed
// collectives and followed by its send, a gap after each where the stage waits for a slower one.
void add_steady_run(StepRow& row, const TrainingTask& t, const Estimate& e, const StepLinks& links, int pp) {
    const SteadyWork w = steady_work(t.stage, e, links, pp);
    const bool fwd = t.kind == TrainingTaskKind::steady_forwards;
    const double pass = (fwd ? w.f : w.b) / std::max(w.chunks, 1);
    const std::int64_t stripes = std::clamp<std::int64_t>(t.passes, 1, 24);
    const double period = (t.end_s - t.start_s) / static_cast<double>(stripes);
    const double work = static_cast<double>(t.passes) * pass;
    const double busy = t.end_s > t.start_s ? std::clamp(work / (t.end_s - t.start_s), 0.0, 1.0) : 1.0;
    const double send = fwd ? (w.fn > 0 ? w.fs / w.fn : 0.0) : (w.bn > 0 ? w.bs / w.bn : 0.0);
    for (std::int64_t i = 0; i < stripes; ++i) {
        const double s0 = t.start_s + static_cast<double>(i) * period, s1 = s0 + busy * period;
        const std::int64_t n = (i + 1) * t.passes / stripes - i * t.passes / stripes;
        const std::size_t first = row.bars.size();
        add_pass(row, s0, s1, fwd ? StepBarKind::forward : StepBarKind::backward, fwd ? w.fx : w.bx, fwd ? w.f : w.b, links, n);
        if (send > 0) row.bars.push_back({s1, s1 + send, StepBarKind::transfer, wire(fwd ? w.f_ib : w.b_ib), StepTraffic::stage_send, n});
        for (std::size_t k = first; k < row.bars.size(); ++k) row.bars[k].run = true;
    }
}

// The rows, one per pipeline stage.
std::vector<StepRow> step_rows(const EstimateSetup& s, const Estimate& e, const StepLinks& links) {
    const int pp = s.layout.pp;
    std::vector<StepRow> rows(static_cast<std::size_t>(pp));
    for (int k = 0; k < pp; ++k) rows[static_cast<std::size_t>(k)].label = "stage " + std::to_string(k + 1);
    for (const TrainingTask& t : e.tasks) {
        if (t.stage < 0 || t.stage >= pp) continue;
        StepRow& row = rows[static_cast<std::size_t>(t.stage)];
        if (t.kind == TrainingTaskKind::steady) {
            if (t.passes > 0) add_steady(row, t, e, links, pp);
            continue;
        }
        if (t.kind == TrainingTaskKind::steady_forwards || t.kind == TrainingTaskKind::steady_backwards) {
            if (t.passes > 0) add_steady_run(row, t, e, links, pp);
            continue;
        }
        add_task(row, t, e, links, static_cast<std::size_t>(pp));
    }
    for (StepRow& r : rows)
        std::stable_sort(r.bars.begin(), r.bars.end(), [](const StepBar& a, const StepBar& b) { return a.start_s < b.start_s; });
    return rows;
}

const char* link_word(bool used, bool ib, const char* none) { return !used ? none : ib ? "InfiniBand" : "NVLink"; }

}  // namespace

FrontierSteps tell_steps(const EstimateSetup& s, const Estimate& e) {
    const LayoutLinks links(s);
    const bool dp_ib = links.dp_link() == LinkType::infiniband, tp_ib = links.tp_link() == LinkType::infiniband;
    FrontierSteps out;
    out.rows = step_rows(s, e, step_links(s, e, links));
    // One legend entry per link: what crosses it, in the order of StepTraffic.
    bool crosses[2][8] = {};
    bool sends[2] = {false, false};
    for (const StepRow& r : out.rows)
        for (const StepBar& b : r.bars)
            if (b.kind == StepBarKind::transfer) {
                const int k = b.link == LinkType::infiniband ? 1 : 0;
                crosses[k][static_cast<int>(b.what)] = true;
                sends[k] = sends[k] || b.what == StepTraffic::stage_send;
            }
    for (int k = 0; k < 2; ++k) {
        std::string what;
        for (int x = 1; x < 8; ++x)
            if (crosses[k][x]) what += (what.empty() ? "" : ", ") + std::string(traffic_words(static_cast<StepTraffic>(x)));
        if (!what.empty()) out.link_legend[static_cast<std::size_t>(k)] = std::string(k == 1 ? "InfiniBand: " : "NVLink: ") + what;
    }
    const Layout& l = s.layout;
    const std::string pipeline = l.pp <= 1 ? "no link (PP 1)"
                                 : sends[1] ? (sends[0] ? "NVLink and InfiniBand" : "InfiniBand")
                                            : "NVLink";
    out.links_text = std::string("Tensor groups on ") + link_word(l.tp > 1, tp_ib, "no link (TP 1)") +
                     " \xc2\xb7 pipeline sends on " + pipeline + " \xc2\xb7 gradient sync on " +
                     link_word(l.dp > 1, dp_ib, "no link (DP 1)");
    return out;
}

}  // namespace frontier_detail

std::string_view traffic_words(StepTraffic x) {
    switch (x) {
    case StepTraffic::none: return "";
    case StepTraffic::stage_send: return "stage sends";
    case StepTraffic::gradient_sync: return "gradient sync";
    case StepTraffic::weight_gather: return "weights' gather";
    case StepTraffic::zero: return "ZeRO traffic";
    case StepTraffic::tensor: return "tensor-parallel collectives";
    case StepTraffic::context: return "context ring";
    case StepTraffic::experts: return "expert all-to-alls";
    }
    return "";
}

const std::array<const char*, 7> FrontierSearch::heads = {
    "TP x CP x PP x DP", "micro-batch", "schedule, ZeRO, recompute", "step", "tokens/s", "MFU", "per GPU"};

FrontierSearch search_frontier(const EstimateSetup& setup, int top) {
    EstimateSetup s = setup;
    s.layout.tp = s.layout.pp = 1;
    s.layout.dp = s.layout.gpus;
    s.layout.micro_batch = 1;
    FrontierSearch out;
    out.result = search_layouts(s, top);
    const SearchResult& r = out.result;
    out.summary = format_count(r.candidates) + " valid layouts, " + format_count(r.fitting) +
                  " fit in memory. Click a row to use it.";
    if (r.best.empty()) {
        out.none_fit = "No layout of " + format_counted(s.layout.gpus, "GPU") + " fits in memory.";
        if (r.smallest)
            out.none_fit += " The smallest needs " + format_bytes(r.smallest->memory_bytes) + " per GPU (" +
                            layout_words(r.smallest->layout) + "); more GPUs would let it fit.";
    }
    out.days_head = "days on " + format_words(s.train_tokens);
    for (const LayoutScore& sc : r.best) {
        const Layout& l = sc.layout;
        std::string split = std::to_string(l.tp) + " x " + std::to_string(l.cp) + " x " + std::to_string(l.pp) + " x " +
                            std::to_string(l.dp);
        if (l.ep > 1) split += " (EP " + std::to_string(l.ep) + ")";
        std::string plan(schedule_name(l.schedule));
        if (l.schedule == PipelineSchedule::interleaved) plan += " " + std::to_string(l.chunks) + " chunks";
        plan += ", ZeRO-" + std::to_string(l.zero_stage) + (l.hybrid_shard ? " hybrid" : "") + ", " +
                (l.recompute == Recompute::none ? std::string("no recompute") : std::string(recompute_name(l.recompute)));
        out.cells.push_back({split, std::to_string(l.micro_batch), plan, format_seconds(sc.step_time_s),
                             format_count(std::llround(sc.tokens_per_s)), format_percent(sc.mfu, 1),
                             format_bytes(sc.memory_bytes), format_fixed(s.train_tokens / sc.tokens_per_s / 86400.0, 1)});
    }
    return out;
}

}  // namespace m2m::core
