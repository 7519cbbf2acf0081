// Lesson 1's "Real scale" story: the one-chip rows from Lesson 1's roofline, the cluster row from
// the estimator, and every sentence the tab shows.
#include "m2m/core/layers/real_scale_story.hpp"

#include "m2m/core/engine/text.hpp"
#include "m2m/core/engine/training_bytes.hpp"

#include <stdexcept>

namespace m2m::core {

namespace {

std::string flops_text(double flops) { return format_significant(flops / 1e12, 3) + " TFLOP/s"; }

// The Lesson 1 run behind the one-chip rows: layers of real_scale_width at real_scale_batch, in BF16
// (a chip without BF16 units runs it at its FP32 rate, as Lesson 1 does), every core, weights cold.
LayerRunSetup lesson1_setup(const RealScaleInputs& in) {
    LayerRunSetup s;
    s.network.widths = {real_scale_width, real_scale_width};
    s.mode = TimingMode::hardware;
    s.cpu = in.cpu;
    s.gpu = in.gpu;
    s.cpu_cores = in.cpu.cores;
    s.gpu_cores = in.gpu.cores;
    s.batch = real_scale_batch;
    s.precision = Precision::bf16;
    return s;
}

// One chip's row: the training FLOPs at the rate Lesson 1's model gives that chip on a wide layer.
RealScaleRow chip_row(const std::string& who, const ComputeSpec& spec, const Roof& roof, double layer_flops,
                      SimTime layer_time, double flops) {
    const double rate = layer_flops / (static_cast<double>(layer_time) / picoseconds_per_second);
    RealScaleRow row;
    row.label = who + spec.name;
    row.seconds = flops / rate;
    row.duration = format_seconds(row.seconds);
    const std::string rate_of(precision_label(roof.runs_as));
    const std::string units = roof.fallback ? "BF16 at its " + rate_of + " rate on " + roof.units + " (it has no BF16 units)"
                                            : "BF16 on " + roof.units;
    // A CPU's share was found with 32- or 64-bit numbers (assets/hardware.json); its BF16 units are
    // given that share too, which no BF16 measurement backs.
    const std::string carried = spec.kind == ResourceKind::cpu_core && !roof.fallback
                                    ? ", found with 32- or 64-bit numbers and assumed to hold for BF16"
                                    : "";
    row.assumption = units + ": " + flops_text(roof.peak_flops) + " peak x " + format_fixed(spec.efficiency.fraction, 2) +
                     " (" + std::string(efficiency_words(spec.efficiency)) + carried + ") = " + flops_text(roof.compute_flops) +
                     "; Lesson 1's model of a " +
                     format_count(real_scale_width) + "-wide layer at batch " + format_count(real_scale_batch) +
                     " runs at " + flops_text(rate) + " on it, every FLOP as fast as that.";
    return row;
}

std::string layout_words(const EstimateSetup& s, const LayoutScore& best) {
    const Layout& b = best.layout;
    return core::layout_words(b) + ", " + format_counted(b.global_batch, "sequence") + " of " + format_count(s.model.seq) +
           " tokens a step";
}

// The cluster: the fastest layout that fits on this many GPUs, then the estimator's own days for it.
void cluster_row(const RealScaleInputs& in, RealScaleStory& st) {
    EstimateSetup c = in.cluster;
    c.model = in.model;
    Layout& l = c.layout;
    l.gpus = in.cluster_gpus;
    l.tp = l.pp = 1;
    l.dp = in.cluster_gpus;
    l.micro_batch = 1;
    l.global_batch = std::max<std::int64_t>(1, in.tokens_per_step / std::max<std::int64_t>(c.model.seq, 1));
    l.schedule = PipelineSchedule::one_f_one_b;
    l.recompute = Recompute::selective;
    l.attention = AttentionKernel::flash;
    l.zero_stage = 1;
    c.train_tokens = in.tokens;
    const SearchResult found = search_layouts(c, 1);
    RealScaleRow& row = st.rows[2];
    row.label = format_count(in.cluster_gpus) + " GPUs: " + c.gpu.name;
    if (found.best.empty()) {
        row.shown = false;
        st.cluster_note = "No layout of " + format_count(in.cluster_gpus) + " GPUs can hold " + c.model.name +
                          (found.smallest ? ": the smallest still needs " + format_bytes(found.smallest->memory_bytes) +
                                                " per GPU, against " + format_bytes(c.gpu.memory_bytes)
                                          : std::string()) +
                          ". Pick more GPUs.";
        st.cluster_setup = std::move(c);
        return;
    }
    st.cluster_layout = found.best.front();
    l = st.cluster_layout->layout;
    const Estimate e = estimate(c, false);
    row.seconds = e.train_days * 86400.0;
    row.duration = format_seconds(row.seconds);
    row.assumption = format_percent(e.mfu, 0) + " model FLOPs utilization: the estimator's training step on the " +
                     "scheduler for the fastest layout that fits (" + layout_words(c, *st.cluster_layout) +
                     "), so the pipeline bubble, the wires and memory-bound work are in it.";
    st.layout_note = "The cluster row is one training step of " + c.model.name + " on " + format_count(in.cluster_gpus) +
                     " " + c.gpu.name + " GPUs, simulated: " + layout_words(c, *st.cluster_layout) +
                     ". With the batch fixed, more GPUs each get less work and the utilization falls. It assumes every "
                     "step is like that one.";
    st.frontier_note = "Lesson 3's Frontier scale tab runs this same estimate for whatever model, GPU, layout and batch "
                       "are set there; set it to these and it gives the same " + row.duration + ".";
    st.cluster_setup = std::move(c);
}

}  // namespace

RealScaleStory tell_real_scale(const RealScaleInputs& in) {
    if (!(in.tokens > 0)) throw std::invalid_argument("tokens: must be a positive number");
    if (in.cluster_gpus < 1) throw std::invalid_argument("cluster_gpus: must be at least 1");
    RealScaleStory st;
    st.parameters = count_parameters(in.model).total;
    st.flops = model_flops_per_token(in.model) * in.tokens;
    st.lesson1 = lesson1_setup(in);
    const LayerRunResult r = run_layers(st.lesson1);
    st.lesson1_speedup = r.speedup;
    const double layer_flops = r.layers.front().counts.flops;
    st.rows[0] = chip_row("One CPU: ", in.cpu, r.cpu_roof, layer_flops, r.cpu.finish, st.flops);
    st.rows[1] = chip_row("One GPU: ", in.gpu, r.gpu_roof, layer_flops, r.gpu.finish, st.flops);
    cluster_row(in, st);
    st.title = in.model.name + ": one CPU, one GPU or " + format_count(in.cluster_gpus) + " GPUs?";
    st.flops_note = "Training " + in.model.name + " on " + format_words(in.tokens) + " tokens takes " +
                    format_scientific(st.flops) + " FLOPs: the estimator's count per token (6 per parameter, forward "
                    "and backward, plus attention's work over the context) times the tokens.";
    st.factor_note = "One model, one answer: the GPU row is " + format_ratio(st.lesson1_speedup) +
                     " sooner than the CPU row, the factor Lesson 1 gives these two chips for " +
                     format_count(real_scale_width) + "-wide layers at batch " + format_count(real_scale_batch) +
                     " in BF16 (Hardware timing). Both run the same precision; a chip without BF16 units runs it at its "
                     "FP32 rate.";
    const double state = static_cast<double>(state_bytes_per_parameter) * static_cast<double>(st.parameters);
    st.simple = {
        "Its weights, gradients and Adam state alone need " + std::to_string(state_bytes_per_parameter) +
            " bytes per parameter: " + format_bytes(state) + ", against " + format_bytes(in.cluster.gpu.memory_bytes) +
            " on one GPU, so the one-CPU and one-GPU rows are thought experiments: neither could hold the model.",
        "The one-chip rows run every FLOP as fast as a large matrix multiply; attention, normalisation and the "
        "optimizer are slower than that on both, so both rows are optimistic.",
        "Every row runs around the clock with no failures, restarts or evaluation pauses.",
    };
    // A share borrowed from another chip is a stand-in: the row says so where it is most doubtful.
    for (const ComputeSpec* chip : {&in.cpu, &in.gpu})
        if (chip->efficiency.basis == EfficiencyConstant::Basis::borrowed)
            st.simple.push_back("No matrix-multiply measurement of the " + chip->name +
                                " was found, so its row uses another chip's share of peak (" +
                                format_fixed(chip->efficiency.fraction, 2) +
                                "), so its time is rougher than the others: the chip may sustain well less of its peak.");
    return st;
}

std::string_view duration_guess_label(DurationGuess g) {
    switch (g) {
    // Each says where it ends: "days" for 7.87 days was graded wrong (weeks) with no line drawn.
    case DurationGuess::under_a_day: return "under a day";
    case DurationGuess::days: return "1 to 7 days";
    case DurationGuess::weeks: return "a week to a month";
    case DurationGuess::months: return "a month to a year";
    case DurationGuess::years: return "a year or more";
    }
    return "?";
}

DurationGuess duration_bucket(double seconds) {
    const double day = 86400;
    if (seconds < day) return DurationGuess::under_a_day;
    if (seconds < 7 * day) return DurationGuess::days;
    if (seconds < 30.44 * day) return DurationGuess::weeks;
    if (seconds < 365.25 * day) return DurationGuess::months;
    return DurationGuess::years;
}

std::size_t asked_row(const RealScaleStory& s) { return s.rows[2].shown ? 2 : 1; }

namespace {

std::string asked_subject(const RealScaleStory& s) {
    return asked_row(s) == 2 ? s.cluster_setup.layout.gpus > 0 ? format_count(s.cluster_setup.layout.gpus) + " GPUs" : "the cluster"
                             : "one GPU";
}

}  // namespace

std::string real_scale_question(const RealScaleStory& s) { return "How long on " + asked_subject(s) + "?"; }

RealScaleReveal reveal_real_scale(std::optional<DurationGuess> guess, const RealScaleStory& s) {
    RealScaleReveal out;
    if (!guess) return out;
    const RealScaleRow& row = s.rows[asked_row(s)];
    const DurationGuess truth = duration_bucket(row.seconds);
    out.right = *guess == truth;
    std::string took = asked_subject(s) + (asked_row(s) == 2 ? " take " : " takes ") + row.duration;
    if (truth == DurationGuess::weeks) took += " (" + format_fixed(row.seconds / (7 * 86400.0), 1) + " weeks)";
    out.line = out.right ? "Right: " + took + "."
                         : "You guessed " + std::string(duration_guess_label(*guess)) + ": " + took + ", so " +
                               std::string(duration_guess_label(truth)) + ".";
    return out;
}

}  // namespace m2m::core
