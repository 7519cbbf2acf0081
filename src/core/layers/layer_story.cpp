// Lesson 1's story: the headers, the verdict and the notes of a run, built from its counts and
// from the bound that actually holds on each machine.
#include "m2m/core/layers/layer_run.hpp"
#include "m2m/core/engine/text.hpp"

#include <algorithm>
#include <array>

namespace m2m::core {

namespace {

std::string time_text(const LayerRunResult& r, SimTime t) {
    if (r.unit == TimeUnit::ticks) return format_counted(t, "tick");
    return format_seconds(t * seconds_per_step(r.unit));
}

std::string flops_text(double flops) {
    return flops >= 1e12 ? format_significant(flops / 1e12, 3) + " TFLOP/s" : format_significant(flops / 1e9, 3) + " GFLOP/s";
}

std::string rate_text(double Bps) {
    return Bps >= 1e12 ? format_significant(Bps / 1e12, 3) + " TB/s" : format_significant(Bps / 1e9, 3) + " GB/s";
}

// The machine's name and how many neurons it takes at once, from its actual core count.
MachineWords words_for(const char* machine, std::uint32_t cores, int widest, bool gpu) {
    MachineWords w;
    w.header = std::string(machine) + " \xc2\xb7 " + format_counted(cores, "core");
    if (cores == 1) w.subtitle = "one neuron at a time";
    else if (cores >= static_cast<std::uint32_t>(widest)) w.subtitle = "a whole layer at once";
    else w.subtitle = "up to " + format_count(cores) + " neurons at once";
    w.waiting = gpu ? "launching the next layer" : "summing the last dot product";
    return w;
}

double fixed_seconds(const std::vector<LayerPoint>& layers, bool gpu) {
    double s = 0;
    for (const auto& l : layers) s += (gpu ? l.gpu : l.cpu).fixed_s;
    return s;
}

std::string bound_words(Bound b, bool gpu) {
    switch (b) {
    case Bound::memory: return "memory-bound";
    case Bound::compute: return "compute-bound";
    case Bound::launch: return gpu ? "launch-bound" : "bound by its chains of dependent adds";
    case Bound::latency: return "bound by the latency of each add";
    }
    return "";
}

// Why one machine takes the time it does, from the bound that holds for most of it.
std::string why(const LayerRunSetup& s, const LayerRunResult& r, bool gpu) {
    const Roof& roof = gpu ? r.gpu_roof : r.cpu_roof;
    const std::string who = gpu ? "the GPU" : "the CPU";
    const double total = gpu ? r.gpu_seconds() : r.cpu_seconds();
    const std::size_t layers = r.layers.size();
    switch (dominant_bound(r.layers, gpu)) {
    case Bound::memory:
        return who + " waits on memory (" + rate_text(roof.bandwidth_Bps) + " from " + roof.level + ")";
    case Bound::compute:
        return who + " is limited by its arithmetic (" + flops_text(roof.compute_flops) + " on " + roof.units + ")";
    case Bound::latency:
        return who + " waits for each add to finish before the next (a plain loop)";
    case Bound::launch:
        break;
    }
    const std::string fixed = format_seconds(fixed_seconds(r.layers, gpu));
    if (gpu)
        return "the GPU spends " + fixed + " of its " + format_seconds(total) + " on " +
               format_counted(static_cast<std::int64_t>(layers), "kernel launch", "kernel launches") + " (" +
               format_seconds(s.gpu.layer_overhead_s) + " each), whatever the work";
    return "the CPU spends " + fixed + " of its " + format_seconds(total) +
           " waiting for each layer's last dot product to add up, a chain of dependent adds";
}

// How much each byte brought, against the two ridge points.
std::string reuse(const LayerRunSetup& s, const LayerRunResult& r) {
    double flops = 0, bytes = 0;
    for (const auto& l : r.layers) flops += l.counts.flops, bytes += l.counts.bytes();
    const double intensity = flops / bytes, cpu = r.cpu_roof.ridge(), gpu = r.gpu_roof.ridge();
    const std::string where = intensity < std::min(cpu, gpu)   ? "below both ridge points"
                              : intensity >= std::max(cpu, gpu) ? "past both ridge points"
                              : intensity >= cpu               ? "past the CPU's ridge point but below the GPU's"
                                                               : "past the GPU's ridge point but below the CPU's";
    return "Each weight is read once for " + format_counted(s.batch, "input") + ", so each byte moved brings about " +
           format_significant(intensity, 2) + " FLOPs, " + where + " (CPU " + format_significant(cpu, 3) + ", GPU " +
           format_significant(gpu, 3) + " FLOP/byte).";
}

std::string units_words(Precision p, const Roof& roof) {
    const std::string name(precision_label(p));
    if (roof.fallback)
        return name + " at its " + std::string(precision_label(roof.runs_as)) + " rate on " + roof.units + " (no " + name + " units)";
    return name + " on " + roof.units;
}

std::string precision_note(const LayerRunSetup& s, const LayerRunResult& r) {
    const std::string name(precision_label(s.precision));
    std::string out = name + ": the CPU runs " + units_words(s.precision, r.cpu_roof) + ", the GPU " +
                      units_words(s.precision, r.gpu_roof) + ".";
    for (const auto* m : {&s.cpu, &s.gpu}) {
        const Roof& roof = m == &s.cpu ? r.cpu_roof : r.gpu_roof;
        if (roof.fallback)
            out += " The " + m->name + " has no " + name + " units, so it computes at its " +
                   std::string(precision_label(roof.runs_as)) + " rate; its weights still take " +
                   format_counted(bytes_per_value(s.precision), "byte") + " each.";
    }
    return out;
}

std::string cache_note(const LayerRunSetup& s, const LayerRunResult& r) {
    if (s.cache == CacheState::cold)
        return "Cold: the weights come from main memory, as on a first pass. The lesson starts cold because a real "
               "model's weights are far larger than any cache, so they stream from memory every pass; choose warm to "
               "see this small network run again from its caches.";
    std::string out = "Warm: the network ran before, and its weights stay where they fit:";
    for (const auto* roof : {&r.cpu_roof, &r.gpu_roof}) {
        const char* who = roof == &r.cpu_roof ? " the CPU's" : " the GPU's";
        out += roof->level_bytes > 0 ? who + std::string(" ") + roof->level + " (" + format_bytes(roof->level_bytes) +
                                           " in play, " + rate_text(roof->bandwidth_Bps) + ")"
                                     : who + std::string(" caches are too small, so main memory");
        out += roof == &r.cpu_roof ? ";" : ".";
    }
    return out;
}

std::string hardware_verdict(const LayerRunSetup& s, const LayerRunResult& r, const std::string& speedup) {
    const bool faster = r.gpu.finish < r.cpu.finish;
    // Slower by a margin, it says how much: "no faster" undersold a GPU that takes 260 times as long.
    const double slower = r.cpu.finish > 0 ? static_cast<double>(r.gpu.finish) / static_cast<double>(r.cpu.finish) : 1.0;
    std::string lead = faster          ? "The GPU finishes sooner by " + speedup + ". "
                       : slower >= 1.05 ? "Here the CPU finishes sooner: the GPU takes " + format_ratio(slower) +
                                              " as long (CPU time / GPU time: " + speedup + "). "
                                        : "Here the GPU is no faster (CPU time / GPU time: " + speedup + "). ";
    std::string gpu = why(s, r, true), cpu = why(s, r, false);
    gpu[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(gpu[0])));
    return lead + reuse(s, r) + " " + gpu + "; " + cpu + ".";
}

std::string crossover_text(const LayerRunSetup& s) {
    if (s.network.widths.size() < 3) return "Add a hidden layer to see where the GPU pulls ahead.";
    const auto cross = gpu_crossover_width(s);
    const std::string at = s.batch > 1 ? " at batch " + format_count(s.batch) : std::string();
    // The sweep gives every hidden layer one width; a network of mixed widths is not on its curve.
    const auto& w = s.network.widths;
    const bool mixed = std::any_of(w.begin() + 1, w.end() - 1, [&](int x) { return x != w[1]; });
    const std::string who = (mixed ? "For hidden layers all of one width (yours differ), with these two machines"
                                   : "With these two machines") + at;
    if (cross && *cross <= 1) return who + " the GPU is ahead at every width, from 1 neuron up.";
    if (cross)
        return who + " the GPU pulls ahead once the hidden layers are " + format_counted(*cross, "neuron") + " wide.";
    return who + " the GPU never pulls ahead below " + format_count(max_layer_width) + " neurons per layer.";
}

}  // namespace

std::string batch_sweep_text(const std::vector<SpeedupPoint>& sweep) {
    if (sweep.empty()) return {};
    const SpeedupPoint &first = sweep.front(), &last = sweep.back();
    const std::string ends = " (" + format_ratio(first.speedup) + " at batch " + format_count(first.width) + ", " +
                             format_ratio(last.speedup) + " at " + format_count(last.width) + ")";
    const auto ahead = std::find_if(sweep.begin(), sweep.end(), [](const SpeedupPoint& p) { return p.speedup > 1; });
    if (ahead == sweep.end())
        return "With these two machines the GPU is not ahead at any batch up to " + format_count(last.width) + ends + ".";
    if (ahead == sweep.begin())
        return "With these two machines the GPU is ahead at every batch" + ends + ".";
    return "With these two machines the GPU pulls ahead from batch " + format_count(ahead->width) +
           " on, once each weight it reads serves that many inputs" + ends + ".";
}

Bound dominant_bound(const std::vector<LayerPoint>& layers, bool gpu) {
    std::array<double, 4> time{};
    for (const auto& l : layers) {
        const LayerTiming& t = gpu ? l.gpu : l.cpu;
        time[static_cast<std::size_t>(t.bound)] += static_cast<double>(t.total());
    }
    return static_cast<Bound>(std::max_element(time.begin(), time.end()) - time.begin());
}

LayerRunStory tell(const LayerRunSetup& setup, const LayerRunResult& r) {
    LayerRunStory st;
    st.cpu_time = time_text(r, r.cpu.finish);
    st.gpu_time = time_text(r, r.gpu.finish);
    st.speedup = format_ratio(r.speedup);
    const int widest = *std::max_element(setup.network.widths.begin() + 1, setup.network.widths.end());
    st.cpu = words_for("CPU", setup.cpu_cores, widest, false);
    st.gpu = words_for("GPU", setup.gpu_cores, widest, true);
    if (setup.mode == TimingMode::lesson) {
        const auto takes = [](std::uint32_t cores) {
            return cores == 1 ? std::string("1 core takes them one at a time")
                              : format_count(cores) + " cores take up to " + format_count(cores) + " neurons at once";
        };
        st.verdict = "Neither machine starts a layer before the last one is done. Inside a layer the GPU's " +
                     takes(setup.gpu_cores) + "; the CPU's " + takes(setup.cpu_cores) + ".";
        st.model_note = "Lesson mode: every dot product costs one tick, however many inputs it has.";
        return st;
    }
    for (bool gpu : {false, true}) {
        MachineWords& w = gpu ? st.gpu : st.cpu;
        w.bound = bound_words(dominant_bound(r.layers, gpu), gpu);
        w.units = units_words(setup.precision, gpu ? r.gpu_roof : r.cpu_roof);
    }
    st.verdict = hardware_verdict(setup, r, st.speedup);
    st.reuse = reuse(setup, r);
    st.crossover = crossover_text(setup);
    st.precision_note = precision_note(setup, r);
    st.cache_note = cache_note(setup, r);
    st.model_note = "Hardware mode: each layer is a roofline, the slower of its FLOPs at the compute roof (the units' peak "
                    "x the chip's one matrix-multiply share: measured, fitted or borrowed, as its source says) and its bytes at the bandwidth of wherever the "
                    "weights are, after a fixed cost per layer (the GPU's kernel launch, measured; the CPU's chain of "
                    "dependent adds). One neuron per core: real libraries tile the work, and small matrix multiplies "
                    "reach less of the peak than large ones.";
    return st;
}

}  // namespace m2m::core
