// Lesson 3's Frontier story: the whole model against one GPU, the layout's memory per GPU, the
// readouts of its step, and every sentence the Frontier scale tab shows (the step's rows are in
// frontier_steps.cpp).
#include "frontier_parts.hpp"

#include <cctype>
#include <cmath>
#include <stdexcept>

#include "m2m/core/engine/text.hpp"
#include "m2m/core/engine/training_bytes.hpp"

namespace m2m::core {

namespace {

// 3e11 -> "300B", 1.56e13 -> "15.6T": a token count short enough for a readout's label.
std::string short_count(double v) {
    const double scale = v >= 1e12 ? 1e12 : v >= 1e9 ? 1e9 : 1e6;
    return format_significant(v / scale, 3) + (v >= 1e12 ? "T" : v >= 1e9 ? "B" : "M");
}

// The whole model on one GPU, before any split: its weights, gradients and Adam state alone.
void tell_whole(FrontierStory& st) {
    const EstimateSetup& s = st.setup;
    EstimateSetup one = s;
    one.layout = Layout{};
    one.layout.recompute = s.layout.recompute;
    one.layout.attention = s.layout.attention;
    st.whole = memory_use(one);
    st.state_bytes = st.whole.state_bytes();
    const double cap = s.gpu.memory_bytes;
    st.min_gpus = static_cast<int>(std::ceil(st.state_bytes / cap));
    st.fits_one_gpu = st.state_bytes <= cap;
    st.whole_text = "The whole model: " + format_words(st.whole.parameters) + " parameters x " +
                    std::to_string(state_bytes_per_parameter) + " bytes = " + format_bytes(st.state_bytes) +
                    " for its weights, gradients and Adam state.";
    st.whole_legend = {"weights " + format_bytes(st.whole.weights_bytes), "gradients " + format_bytes(st.whole.gradients_bytes),
                       "Adam state " + format_bytes(st.whole.optimizer_bytes), "one GPU: " + format_gpu_memory(cap)};
    st.whole_verdict = !st.fits_one_gpu ? "It does not fit in one " + s.gpu.name + ", which holds " + format_gpu_memory(cap) +
                                              ": these alone need the memory of at least " + format_count(st.min_gpus) +
                                              " GPUs, before any activations."
                                        : "It fits in one GPU's " + format_gpu_memory(cap) + ", with " +
                                              format_bytes(cap - st.state_bytes) + " left for activations.";
}

// The layout in words and as a product that must equal the GPU count.
void tell_layout(FrontierStory& st) {
    const EstimateSetup& s = st.setup;
    const Layout& l = s.layout;
    st.product_text = "TP x CP x PP x DP = " + std::to_string(l.tp) + " x " + std::to_string(l.cp) + " x " +
                      std::to_string(l.pp) + " x " + std::to_string(l.dp) + " = " +
                      format_count(static_cast<std::int64_t>(l.tp) * l.cp * l.pp * l.dp) + " GPUs";
    st.layout_text = s.model.name + " on " + format_count(l.gpus) + " " + s.gpu.name + (l.gpus == 1 ? " GPU, " : " GPUs, ") +
                     format_counted(l.global_batch, "sequence") + " of " + format_count(s.model.seq) +
                     " tokens a step: " + layout_words(l) + ".";
    st.search_button = "Find the best layouts for " + format_counted(l.gpus, "GPU");
}

// The fullest stage's memory per GPU, and when it does not fit, one change that would.
void tell_per_gpu(FrontierStory& st) {
    const MemoryUse& m = st.estimate.memory;
    const std::string in_flight = format_fixed(m.in_flight_micro_batches, 0) +
                                  (std::lround(m.in_flight_micro_batches) == 1 ? " micro-batch" : " micro-batches") +
                                  " in flight";
    st.gpu_head = (st.setup.layout.pp > 1 ? "Each GPU of pipeline stage " + std::to_string(m.stage + 1) + " (the fullest, " +
                                                in_flight + "): "
                                          : "Each GPU (" + in_flight + "): ") +
                  format_bytes(m.total_bytes) +
                  " of " + format_bytes(m.capacity_bytes) + (m.fits ? "" : " \xe2\x80\x94 it does not fit");
    if (!m.fits) {
        const auto change = change_to_fit(st.setup);
        st.gpu_head += change ? ". " + change->sentence
                              : ". No single change fits it on these GPUs: add GPUs, or let the search below find a layout.";
    }
    st.timeline_note = m.fits ? "" : "The step as it would run if it fit in memory; it does not.";
    st.gpu_legend = {"weights " + format_bytes(m.weights_bytes), "gradients " + format_bytes(m.gradients_bytes),
                     "Adam state " + format_bytes(m.optimizer_bytes), "activations " + format_bytes(m.activations_bytes),
                     "framework overhead " + format_bytes(m.framework_bytes), "capacity " + format_bytes(m.capacity_bytes)};
}

void tell_readouts(FrontierStory& st) {
    const Estimate& e = st.estimate;
    st.readouts = {{
        {"STEP TIME", format_seconds(e.step_time_s), ""},
        {"TOKENS / S", format_count(std::llround(e.tokens_per_s)), ""},
        {"MFU", format_percent(e.mfu, 1),
         "Model FLOPs utilization: the model's FLOPs per step over the step time and every GPU's peak."},
        {"HFU", format_percent(e.hfu, 1), "Hardware FLOPs utilization: as MFU, but counting recomputed work too."},
        {"TRAINING, " + short_count(st.setup.train_tokens) + " TOKENS", format_seconds(e.train_days * 86400.0),
         format_fixed(e.train_days, 1) + " days, every step like this one, with no failures or restarts"},
    }};
    // A layout that runs out of memory would not run at all: its figures are what it would take
    // with enough memory, and say so, so nobody quotes a training time for an impossible run.
    if (!e.memory.fits)
        for (FrontierReadout& r : st.readouts) {
            r.label += ", IF IT FIT";
            r.tooltip = "This layout needs more memory than a GPU has, so it would not run: " +
                        std::string(r.tooltip.empty() ? "this is what it would take if it fit."
                                                      : "this is what it would take if it fit. " + r.tooltip);
        }
}

// A refusal in the panel's words: the core names the field as the command line does ("tp",
// "global_batch"); the panel's rows say TP, PP, DP, CP, EP, micro-batch, global batch, ZeRO.
std::string problem_in_words(const SetupProblem& p) {
    static const std::pair<const char*, const char*> names[] = {
        {"gpus", "the GPU count"},           {"tp", "TP"},
        {"pp", "PP"},                        {"dp", "DP"},
        {"cp", "CP"},                        {"ep", "EP"},
        {"micro_batch", "the micro-batch"}, {"global_batch", "the global batch"},
        {"zero_stage", "the ZeRO stage"}};
    std::string message;  // tp x pp x dp -> TP x PP x DP, as the rows write them
    for (std::size_t i = 0; i < p.message.size();) {
        const bool start = i == 0 || !std::isalnum(static_cast<unsigned char>(p.message[i - 1]));
        const bool word = start && i + 2 <= p.message.size() &&
                          (i + 2 == p.message.size() || !std::isalnum(static_cast<unsigned char>(p.message[i + 2])));
        const std::string two = p.message.substr(i, 2);
        if (word && (two == "tp" || two == "pp" || two == "dp" || two == "cp" || two == "ep")) {
            message += static_cast<char>(std::toupper(static_cast<unsigned char>(two[0])));
            message += static_cast<char>(std::toupper(static_cast<unsigned char>(two[1])));
            i += 2;
        } else {
            message += p.message[i++];
        }
    }
    // "must ...", "cannot ...": said of the field; otherwise the message names what it is about.
    const bool of_field = message.rfind("must", 0) == 0 || message.rfind("cannot", 0) == 0;
    for (const auto& [field, name] : names)
        if (p.field == field && of_field) return "This layout cannot run: " + std::string(name) + " " + message + ".";
    if (!message.empty()) message[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(message[0])));
    return "This layout cannot run. " + message + ".";
}

}  // namespace

FrontierStory tell_frontier(const EstimateSetup& setup) {
    FrontierStory st;
    st.setup = setup;
    tell_whole(st);
    tell_layout(st);
    st.problem = check(setup);
    frontier_detail::FrontierSteps steps;
    if (!st.problem) {
        try {
            st.estimate = estimate(setup, true);
            steps = frontier_detail::tell_steps(setup, st.estimate);
        } catch (const std::invalid_argument& x) {  // e.g. links the cluster model cannot build
            st.problem = SetupProblem{"gpus", x.what()};
            st.estimate = Estimate{};
        }
    }
    if (st.problem) {
        st.problem_text = problem_in_words(*st.problem);
        return st;
    }
    st.rows = std::move(steps.rows);
    st.link_legend = std::move(steps.link_legend);
    st.links_text = std::move(steps.links_text);
    tell_per_gpu(st);
    tell_readouts(st);
    return st;
}

}  // namespace m2m::core
