// "Explain it back": the student's own runs in sentences (Lesson 1's speedups across widths and
// batches, Lesson 2's sends, Lesson 3's splits), from the facts each lesson recorded.
#include <algorithm>
#include <optional>

#include "m2m/core/engine/text.hpp"
#include "m2m/core/explain/explain_back.hpp"

namespace m2m::core {

LayerRunFact layer_run_fact(const LayerRunSetup& setup, const LayerRunResult& result) {
    LayerRunFact f;
    f.widths = setup.network.widths;
    f.hardware = setup.mode == TimingMode::hardware;
    f.cpu_name = setup.cpu.name;
    f.gpu_name = setup.gpu.name;
    f.cpu_cores = setup.cpu_cores;
    f.gpu_cores = setup.gpu_cores;
    f.speedup = result.speedup;
    // Hardware timing's batch and precision: without them runs at batch 1 and 4,096 were taken for
    // runs timed alike, and the batch's gain was told as the width's.
    if (f.hardware) {
        f.batch = setup.batch;
        f.precision = std::string(precision_label(setup.precision));
    }
    return f;
}

namespace {

std::vector<int> hidden_of(const LayerRunFact& f) {
    return f.widths.size() > 2 ? std::vector<int>(f.widths.begin() + 1, f.widths.end() - 1) : std::vector<int>{};
}

std::string list_text(const std::vector<int>& v) {
    std::string s;
    for (std::size_t i = 0; i < v.size(); ++i)
        s += (i == 0 ? "" : i + 1 == v.size() ? " and " : ", ") + format_count(v[i]);
    return s;
}

std::string network_text(const LayerRunFact& f) {
    const auto hidden = hidden_of(f);
    if (hidden.empty()) return "with no hidden layer";
    const bool uniform = std::all_of(hidden.begin(), hidden.end(), [&](int w) { return w == hidden.front(); });
    if (!uniform) return "with hidden layers of " + list_text(hidden) + " neurons";
    const std::string w = format_count(hidden.front()) + "-wide";
    return hidden.size() == 1 ? "with one " + w + " hidden layer" : "with " + w + " layers";
}

std::string cores_text(std::uint32_t n, const char* machine) {
    return format_count(n) + " " + machine + (n == 1 ? " core" : " cores");
}

std::string timing_text(const LayerRunFact& f) {
    std::string s = f.hardware ? "hardware timing, " + f.gpu_name + " against " + f.cpu_name
                               : "lesson timing, " + cores_text(f.cpu_cores, "CPU") + " against " + cores_text(f.gpu_cores, "GPU");
    if (f.batch != 1) s += ", batch " + format_count(f.batch);
    if (f.precision != "FP32") s += ", " + f.precision;
    return s;
}

/// Who finished first and by how much: "the GPU was 7× sooner"; `again` says "it" for a GPU named just before.
std::string lead_text(double speedup, bool again = false) {
    if (speedup >= 1.05) return (again ? "it" : "the GPU") + std::string(" was ") + format_ratio(speedup) + " sooner";
    if (speedup > 0 && speedup <= 1 / 1.05) return "the CPU was " + format_ratio(1 / speedup) + " sooner";
    return "the two were about level";
}

/// Runs timed alike: same timing, chips, batch and precision (widths, and in lesson timing the
/// core counts that follow them, may differ).
bool timed_alike(const LayerRunFact& a, const LayerRunFact& b) {
    return a.hardware == b.hardware && a.cpu_name == b.cpu_name && a.gpu_name == b.gpu_name && a.batch == b.batch &&
           a.precision == b.precision;
}

/// The narrowest and the widest run timed like the latest show how the gap grows with width.
std::optional<std::string> width_sentence(const std::vector<const LayerRunFact*>& runs) {
    const LayerRunFact& f = *runs.back();
    const LayerRunFact *narrow = nullptr, *wide = nullptr;
    auto widest = [](const LayerRunFact& r) { const auto h = hidden_of(r); return *std::max_element(h.begin(), h.end()); };
    for (const LayerRunFact* r : runs) {
        if (!timed_alike(*r, f) || hidden_of(*r).empty()) continue;
        if (!narrow || widest(*r) < widest(*narrow)) narrow = r;
        if (!wide || widest(*r) > widest(*wide)) wide = r;
    }
    if (!narrow || !wide || widest(*narrow) == widest(*wide)) return std::nullopt;
    const std::string a = format_ratio(narrow->speedup) + " with " + format_count(widest(*narrow)) + "-wide layers";
    const std::string b = format_ratio(wide->speedup) + " with " + format_count(widest(*wide)) + "-wide layers";
    if (wide->speedup > narrow->speedup * 1.05)
        return "Across your runs the GPU's lead grew with the width of the layers: " + a + ", " + b +
               ". A wider layer is more dot products that can all run at once.";
    return "Across your runs: " + a + ", " + b + ".";
}

/// The same network on the same chips at the smallest and the largest batch the student ran.
std::optional<std::string> batch_sentence(const std::vector<const LayerRunFact*>& runs) {
    const LayerRunFact& f = *runs.back();
    const LayerRunFact *small = nullptr, *large = nullptr;
    for (auto it = runs.rbegin(); it != runs.rend(); ++it) {  // the latest run of each batch
        const LayerRunFact* r = *it;
        if (r->hardware != f.hardware || r->cpu_name != f.cpu_name || r->gpu_name != f.gpu_name ||
            r->precision != f.precision || r->widths != f.widths)
            continue;
        if (!small || r->batch < small->batch) small = r;
        if (!large || r->batch > large->batch) large = r;
    }
    if (!small || !large || small->batch == large->batch) return std::nullopt;
    const bool gpu_both = small->speedup >= 1.05 && large->speedup >= 1.05;
    std::string s = "With the same network and chips, at batch " + format_count(small->batch) + " " +
                    lead_text(small->speedup) + ", at batch " + format_count(large->batch) + " " +
                    lead_text(large->speedup, gpu_both) + ".";
    if (large->speedup > small->speedup * 1.05)
        s += " At batch " + format_count(large->batch) + " each weight read from memory served " +
             format_count(large->batch) + " inputs, work that the GPU's many cores could take on at once.";
    return s;
}

std::vector<std::string> layer_sentences(const std::vector<const LayerRunFact*>& runs) {
    if (runs.empty()) return {};
    const LayerRunFact& f = *runs.back();
    std::string s = "In your Lesson 1 run " + network_text(f);
    if (f.speedup >= 1.05) s += " the GPU finished " + format_ratio(f.speedup) + " sooner than the CPU";
    else if (f.speedup > 0 && f.speedup <= 1 / 1.05) s += " the CPU finished first: the GPU took " + format_ratio(1 / f.speedup) + " as long";
    else s += " both machines finished at about the same time";
    std::vector<std::string> out{s + " (" + timing_text(f) + ")."};
    if (auto w = width_sentence(runs)) out.push_back(*w);
    if (auto b = batch_sentence(runs)) out.push_back(*b);
    return out;
}

std::vector<std::string> transfer_sentences(const std::vector<const TransferFact*>& sends) {
    if (sends.empty()) return {};
    const TransferFact& t = *sends.back();
    const std::string what = "In your Lesson 2 run a " + format_bytes(t.bytes) + " tensor sent over " + t.link;
    if (t.relative_time >= 1.05)
        return {what + " took " + format_seconds(t.time_s) + ", " + format_ratio(t.relative_time) +
                " as long as the same send between two GPUs of one node."};
    if (t.relative_time > 0) return {what + " took " + format_seconds(t.time_s) + " inside one node."};
    return {};
}

std::vector<std::string> split_sentences(const std::vector<const SplitFact*>& splits) {
    // The latest run of each strategy on each GPU count, newest first.
    std::vector<const SplitFact*> latest;
    for (auto it = splits.rbegin(); it != splits.rend(); ++it)
        if (std::none_of(latest.begin(), latest.end(),
                         [&](const SplitFact* s) { return s->strategy == (*it)->strategy && s->gpus == (*it)->gpus; }))
            latest.push_back(*it);
    if (latest.empty()) return {};
    // Compared on one GPU count only, the one with the most splits tried (the newest run's on a
    // tie): the bytes on the wires grow with the GPUs, and 3D on 8 set against FSDP on 2 made 3D
    // "the most", the reverse of Lesson 3's own answer on 8.
    auto tried = [&](int n) { return std::count_if(latest.begin(), latest.end(), [&](const SplitFact* s) { return s->gpus == n; }); };
    int count = latest.front()->gpus;
    for (const SplitFact* s : latest)
        if (tried(s->gpus) > tried(count)) count = s->gpus;
    std::erase_if(latest, [&](const SplitFact* s) { return s->gpus != count; });
    auto gpus = [](const SplitFact& s) { return s.gpus == 1 ? std::string("one GPU") : format_count(s.gpus) + " GPUs"; };
    auto bytes = [](const SplitFact& s) { return s.wire_bytes > 0 ? format_bytes(s.wire_bytes) : std::string("nothing"); };
    if (latest.size() == 1) {
        const SplitFact& s = *latest.front();
        return {"In your Lesson 3 run, " + s.strategy + " on " + gpus(s) + " put " + bytes(s) + " on the wires per training step."};
    }
    const auto [lo, hi] = std::minmax_element(latest.begin(), latest.end(), [](const SplitFact* a, const SplitFact* b) {
        return a->wire_bytes < b->wire_bytes;
    });
    return {"Of the splits you tried in Lesson 3, " + (*hi)->strategy + " on " + gpus(**hi) +
            " put the most on the wires per training step (" + bytes(**hi) + "), " + (*lo)->strategy + " on " + gpus(**lo) +
            " the least (" + bytes(**lo) + ")."};
}

}  // namespace

std::vector<std::string> run_fact_sentences(std::span<const RunFact> facts) {
    std::vector<const LayerRunFact*> runs;
    std::vector<const TransferFact*> sends;
    std::vector<const SplitFact*> splits;
    for (const RunFact& f : facts) {
        if (const auto* l = std::get_if<LayerRunFact>(&f)) runs.push_back(l);
        else if (const auto* t = std::get_if<TransferFact>(&f)) sends.push_back(t);
        else if (const auto* s = std::get_if<SplitFact>(&f)) splits.push_back(s);
    }
    std::vector<std::string> out;
    for (auto&& part : {layer_sentences(runs), transfer_sentences(sends), split_sentences(splits)})
        out.insert(out.end(), part.begin(), part.end());
    return out;
}

}  // namespace m2m::core
