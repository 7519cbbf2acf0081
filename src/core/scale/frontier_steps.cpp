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

bool is_send(TrainingTaskKind k) { return k == TrainingTaskKind::send_forward || k == TrainingTaskKind::send_backward; }

// Which link each (virtual) stage's sends cross, indexed chunk x pp + stage.
std::vector<LinkType> send_links(const EstimateSetup& s, const Estimate& e) {
    const std::size_t pp = static_cast<std::size_t>(s.layout.pp);
    std::vector<LinkType> out(pp * static_cast<std::size_t>(std::max(s.layout.chunks, 1)), LinkType::local);
    for (const StageCost& c : e.stages) {
        const std::size_t j = static_cast<std::size_t>(c.chunk) * pp + static_cast<std::size_t>(c.stage);
        if (j < out.size()) out[j] = c.send_link;
    }
    return out;
}

// A task as a bar: compute (passes; the gradient sync and weight gather sit on the stage's row as
// compute, as the step graph has them), the update, or a transfer: a send on its stage's send link,
// ZeRO traffic on the data-parallel link. (The steady state is add_steady's.)
std::optional<StepBar> bar_of(const TrainingTask& t, const std::vector<LinkType>& sends, std::size_t pp, LinkType dp) {
    StepBar b{t.start_s, t.end_s, StepBarKind::forward, LinkType::local};
    const auto wire = [](bool ib) { return ib ? LinkType::infiniband : LinkType::nvlink; };
    switch (t.kind) {
        case TrainingTaskKind::backward: b.kind = StepBarKind::backward; break;
        case TrainingTaskKind::optimizer: b.kind = StepBarKind::update; break;
        case TrainingTaskKind::send_forward:
        case TrainingTaskKind::send_backward: {
            // A send's row is its sender's, virtual stage j; a backward send crosses the boundary
            // from j - 1 to j (pipeline_timing.cpp), whose link is stage j - 1's send link.
            const std::size_t j = static_cast<std::size_t>(t.chunk) * pp + static_cast<std::size_t>(t.stage);
            const std::size_t boundary = t.kind == TrainingTaskKind::send_forward ? j : j - 1;
            b.kind = StepBarKind::transfer;
            b.link = wire(boundary < sends.size() && sends[boundary] == LinkType::infiniband);
            break;
        }
        case TrainingTaskKind::zero_traffic:
            b.kind = StepBarKind::transfer;
            b.link = wire(dp == LinkType::infiniband);
            break;
        case TrainingTaskKind::join: return std::nullopt;
        case TrainingTaskKind::forward:
        case TrainingTaskKind::dp_reduce:
        case TrainingTaskKind::param_gather:
        case TrainingTaskKind::steady: break;
    }
    return b;
}

// A stage's steady state, summarised by the estimator as one span of `passes` passes, a forward and
// a backward in turn: drawn as that, stripe pairs in the stage's own forward : backward proportion
// (its chunks' average), each stripe followed by its send where the stage sends that way, as the
// fill's and the drain's are. At most 24 pairs, each then standing for several of the real ones,
// which are thinner than a pixel on a long step anyway; the stripes say what the span is, the
// hover how many passes each pair stands for.
void add_steady(StepRow& row, const TrainingTask& t, const Estimate& e, const std::vector<LinkType>& sends, int pp) {
    const std::size_t nv = e.stages.size();
    double f = 0, b = 0, fs = 0, bs = 0;
    int fn = 0, bn = 0;
    bool f_ib = false, b_ib = false;
    for (std::size_t j = static_cast<std::size_t>(t.stage); j < nv; j += static_cast<std::size_t>(pp)) {
        f += e.stages[j].forward_s;
        b += e.stages[j].backward_s;
        if (j + 1 < nv) fs += e.stages[j].send_s, ++fn, f_ib = f_ib || (j < sends.size() && sends[j] == LinkType::infiniband);
        if (j > 0) bs += e.stages[j - 1].send_s, ++bn, b_ib = b_ib || (j - 1 < sends.size() && sends[j - 1] == LinkType::infiniband);
    }
    const auto wire = [](bool ib) { return ib ? LinkType::infiniband : LinkType::nvlink; };
    const std::int64_t pairs = std::clamp<std::int64_t>(t.passes / 2, 1, 24);
    const double period = (t.end_s - t.start_s) / static_cast<double>(pairs), share = f + b > 0 ? f / (f + b) : 0.5;
    for (std::int64_t i = 0; i < pairs; ++i) {
        const double s0 = t.start_s + static_cast<double>(i) * period, mid = s0 + share * period, s1 = s0 + period;
        const std::int64_t n = (i + 1) * t.passes / pairs - i * t.passes / pairs;  // an even share of the passes
        row.bars.push_back({s0, mid, StepBarKind::forward, LinkType::local, n});
        if (fn > 0 && fs > 0) row.bars.push_back({mid, mid + fs / fn, StepBarKind::transfer, wire(f_ib), n});
        row.bars.push_back({mid, s1, StepBarKind::backward, LinkType::local, n});
        if (bn > 0 && bs > 0) row.bars.push_back({s1, s1 + bs / bn, StepBarKind::transfer, wire(b_ib), n});
    }
}

// The rows, and whether any pipeline send crosses NVLink ([0]) or InfiniBand ([1]).
std::vector<StepRow> step_rows(const EstimateSetup& s, const Estimate& e, LinkType dp, bool (&sends_on)[2]) {
    const int pp = s.layout.pp;
    const std::vector<LinkType> sends = send_links(s, e);
    std::vector<StepRow> rows(static_cast<std::size_t>(pp));
    for (int k = 0; k < pp; ++k) rows[static_cast<std::size_t>(k)].label = "stage " + std::to_string(k + 1);
    for (const TrainingTask& t : e.tasks) {
        if (t.stage < 0 || t.stage >= pp) continue;
        if (t.kind == TrainingTaskKind::steady) {
            if (t.passes > 0) add_steady(rows[static_cast<std::size_t>(t.stage)], t, e, sends, pp);
            continue;
        }
        const std::optional<StepBar> b = bar_of(t, sends, static_cast<std::size_t>(pp), dp);
        if (!b) continue;
        if (is_send(t.kind)) sends_on[b->link == LinkType::infiniband ? 1 : 0] = true;
        rows[static_cast<std::size_t>(t.stage)].bars.push_back(*b);
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
    bool sends[2] = {false, false};
    out.rows = step_rows(s, e, links.dp_link(), sends);
    // One legend entry per link: what crosses it.
    const Layout& l = s.layout;
    for (int k = 0; k < 2; ++k) {
        const bool crosses = sends[k], sync = l.dp > 1 && dp_ib == (k == 1);
        if (!crosses && !sync) continue;
        out.link_legend[static_cast<std::size_t>(k)] =
            std::string(k == 1 ? "InfiniBand: " : "NVLink: ") +
            (crosses && sync ? "stage sends, gradient sync" : crosses ? "stage sends" : "gradient sync");
    }
    const std::string pipeline = l.pp <= 1 ? "no link (PP 1)"
                                 : sends[1] ? (sends[0] ? "NVLink and InfiniBand" : "InfiniBand")
                                            : "NVLink";
    out.links_text = std::string("Tensor groups on ") + link_word(l.tp > 1, tp_ib, "no link (TP 1)") +
                     " \xc2\xb7 pipeline sends on " + pipeline + " \xc2\xb7 gradient sync on " +
                     link_word(l.dp > 1, dp_ib, "no link (DP 1)");
    return out;
}

}  // namespace frontier_detail

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
        out.none_fit = "No layout of " + format_count(s.layout.gpus) + " GPUs fits in memory.";
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
