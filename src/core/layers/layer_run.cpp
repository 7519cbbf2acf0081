// Lesson 1's model: the network's work graph, its schedule on both machines, and sweeps.
#include "m2m/core/layers/layer_run.hpp"
#include "m2m/core/engine/text.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace m2m::core {

std::string validate(const Network& net) {
    const auto& w = net.widths;
    if (w.size() < 2) return "a network needs an input layer and an output layer (at least 2 widths)";
    if (w.size() - 2 > static_cast<std::size_t>(max_hidden_layers))
        return "at most " + std::to_string(max_hidden_layers) + " hidden layers are supported";
    for (int width : w)
        if (width < 1 || width > max_layer_width)
            return "every layer width must be between 1 and " + std::to_string(max_layer_width);
    return {};
}

std::int64_t neuron_count(const Network& net) {
    std::int64_t n = 0;
    for (std::size_t l = 1; l < net.widths.size(); ++l) n += net.widths[l];
    return n;
}

std::int64_t parameter_count(const Network& net) {
    std::int64_t p = 0;
    for (std::size_t l = 1; l < net.widths.size(); ++l)
        p += static_cast<std::int64_t>(net.widths[l - 1]) * net.widths[l] + net.widths[l];
    return p;
}

double LayerRunResult::cpu_seconds() const { return cpu.finish * seconds_per_step(unit); }
double LayerRunResult::gpu_seconds() const { return gpu.finish * seconds_per_step(unit); }

SimTime dot_product_time(TimingMode mode, const ComputeSpec& spec, int inputs, std::uint32_t busy_cores) {
    if (mode == TimingMode::lesson) return 1;
    const double flops = 2.0 * inputs;  // one multiply and one add per input
    const double bytes = 4.0 * inputs;  // one FP32 weight per input, streamed from memory
    const double compute_s = flops / spec.flops_per_core;
    const double memory_s = bytes / (spec.memory_bandwidth_Bps / std::max<std::uint32_t>(busy_cores, 1));
    return picoseconds_from_seconds(std::max(compute_s, memory_s));
}

SimTime layer_overhead(TimingMode mode, const ComputeSpec& spec) {
    return mode == TimingMode::lesson ? 0 : picoseconds_from_seconds(spec.layer_overhead_s);
}

WorkGraph build_layer_graph(const LayerRunSetup& setup, const ComputeSpec& spec, std::uint32_t cores,
                            std::vector<TaskId>* layer_first_task) {
    const auto& w = setup.network.widths;
    WorkGraph g;
    const std::int64_t neurons = neuron_count(setup.network);
    g.reserve(static_cast<std::size_t>(neurons) + 2 * w.size(), 2 * static_cast<std::size_t>(neurons) + w.size());
    const PoolId pool = g.add_pool(spec.kind == ResourceKind::gpu_core ? "GPU cores" : "CPU cores", spec.kind, cores);
    const SimTime overhead = layer_overhead(setup.mode, spec);
    if (layer_first_task) layer_first_task->clear();

    std::optional<TaskId> previous;  // the join that closes the previous layer
    for (std::size_t l = 1; l < w.size(); ++l) {
        const auto width = static_cast<std::uint32_t>(w[l]);
        std::optional<TaskId> gate = previous;
        if (overhead > 0) {
            const TaskId launch = g.add_task(overhead, {});
            if (gate) g.add_dependency(*gate, launch);
            gate = launch;
        }
        const SimTime dur = dot_product_time(setup.mode, spec, w[l - 1], std::min(cores, width));
        const TaskId first = static_cast<TaskId>(g.task_count());
        if (layer_first_task) layer_first_task->push_back(first);
        for (std::uint32_t i = 0; i < width; ++i) {
            const TaskId t = g.add_task(dur, {pool});
            if (gate) g.add_dependency(*gate, t);
        }
        const TaskId join = g.add_join();
        for (std::uint32_t i = 0; i < width; ++i) g.add_dependency(first + i, join);
        previous = join;
    }
    return g;
}

namespace {

void check(const LayerRunSetup& setup) {
    if (auto why = validate(setup.network); !why.empty()) throw std::invalid_argument(why);
    if (setup.cpu_cores < 1 || setup.cpu_cores > max_cores || setup.gpu_cores < 1 || setup.gpu_cores > max_cores)
        throw std::invalid_argument("core counts must be between 1 and " + std::to_string(max_cores));
    if (setup.mode == TimingMode::hardware)
        for (const ComputeSpec* s : {&setup.cpu, &setup.gpu})
            if (!(s->flops_per_core > 0) || !(s->memory_bandwidth_Bps > 0) || s->layer_overhead_s < 0)
                throw std::invalid_argument("hardware preset '" + s->id + "' has a non-positive rate");
}

ComputeSpec as_kind(ComputeSpec spec, ResourceKind kind) {
    spec.kind = kind;
    return spec;
}

MachineRun run_machine(const LayerRunSetup& setup, const ComputeSpec& spec, std::uint32_t cores) {
    MachineRun m;
    m.cores = cores;
    const WorkGraph g = build_layer_graph(setup, spec, cores, &m.layer_first_task);
    m.timeline = schedule(g);
    m.finish = m.timeline.makespan;
    return m;
}

}  // namespace

LayerRunResult run_layers(const LayerRunSetup& setup) {
    check(setup);
    LayerRunResult r;
    r.unit = setup.mode == TimingMode::lesson ? TimeUnit::ticks : TimeUnit::picoseconds;
    r.neurons = neuron_count(setup.network);
    r.parameters = parameter_count(setup.network);
    r.cpu = run_machine(setup, as_kind(setup.cpu, ResourceKind::cpu_core), setup.cpu_cores);
    r.gpu = run_machine(setup, as_kind(setup.gpu, ResourceKind::gpu_core), setup.gpu_cores);
    r.speedup = static_cast<double>(r.cpu.finish) / static_cast<double>(std::max<SimTime>(r.gpu.finish, 1));
    return r;
}

SimTime predicted_makespan(const LayerRunSetup& setup, const ComputeSpec& spec, std::uint32_t cores) {
    const auto& w = setup.network.widths;
    const SimTime overhead = layer_overhead(setup.mode, spec);
    SimTime total = 0;
    for (std::size_t l = 1; l < w.size(); ++l) {
        const auto width = static_cast<std::uint32_t>(w[l]);
        const SimTime rounds = (width + cores - 1) / cores;
        total += overhead + rounds * dot_product_time(setup.mode, spec, w[l - 1], std::min(cores, width));
    }
    return total;
}

namespace {

LayerRunSetup with_uniform_hidden(LayerRunSetup s, int width) {
    auto& w = s.network.widths;
    for (std::size_t l = 1; l + 1 < w.size(); ++l) w[l] = width;
    return s;
}

}  // namespace

std::vector<SpeedupPoint> speedup_sweep(const LayerRunSetup& setup, const std::vector<int>& widths) {
    check(setup);
    const double unit_s = setup.mode == TimingMode::lesson ? 1.0 : 1.0 / picoseconds_per_second;
    std::vector<SpeedupPoint> out;
    out.reserve(widths.size());
    for (int width : widths) {
        const LayerRunSetup s = with_uniform_hidden(setup, std::clamp(width, 1, max_layer_width));
        const SimTime cpu = predicted_makespan(s, as_kind(s.cpu, ResourceKind::cpu_core), s.cpu_cores);
        const SimTime gpu = predicted_makespan(s, as_kind(s.gpu, ResourceKind::gpu_core), s.gpu_cores);
        out.push_back({width, cpu * unit_s, gpu * unit_s, static_cast<double>(cpu) / std::max<SimTime>(gpu, 1)});
    }
    return out;
}

std::optional<int> gpu_crossover_width(const LayerRunSetup& setup) {
    check(setup);
    if (setup.network.widths.size() < 3) return std::nullopt;  // no hidden layer to widen
    for (int width = 1; width <= max_layer_width; ++width) {
        const LayerRunSetup s = with_uniform_hidden(setup, width);
        if (predicted_makespan(s, as_kind(s.gpu, ResourceKind::gpu_core), s.gpu_cores) <
            predicted_makespan(s, as_kind(s.cpu, ResourceKind::cpu_core), s.cpu_cores))
            return width;
    }
    return std::nullopt;
}

namespace {

std::string time_text(const LayerRunResult& r, SimTime t) {
    if (r.unit == TimeUnit::ticks) return format_count(t) + (t == 1 ? " tick" : " ticks");
    return format_seconds(t * seconds_per_step(r.unit));
}

std::string cores_text(std::uint32_t n) { return format_count(n) + (n == 1 ? " core" : " cores"); }

}  // namespace

LayerRunStory tell(const LayerRunSetup& setup, const LayerRunResult& r) {
    LayerRunStory st;
    st.cpu_time = time_text(r, r.cpu.finish);
    st.gpu_time = time_text(r, r.gpu.finish);
    st.speedup = format_ratio(r.speedup);
    const std::size_t layers = setup.network.widths.size() - 1;
    if (setup.mode == TimingMode::lesson) {
        st.verdict = "Neither machine starts a layer before the last one is done. Inside a layer the GPU's " +
                     cores_text(setup.gpu_cores) + " take up to " + format_count(setup.gpu_cores) +
                     " neurons at once; the CPU's " + cores_text(setup.cpu_cores) +
                     (setup.cpu_cores == 1 ? " takes them one at a time." : " take " + format_count(setup.cpu_cores) + ".");
        st.model_note = "Lesson mode: every dot product costs one tick, however many inputs it has.";
        return st;
    }
    if (r.gpu.finish >= r.cpu.finish) {
        st.verdict = "Here the GPU is no faster: each of its " + std::to_string(layers) + " layers pays " +
                     format_seconds(setup.gpu.layer_overhead_s) + " to launch and synchronise, while the CPU finishes all " +
                     format_count(r.neurons) + " tiny dot products in " + st.cpu_time +
                     ". A GPU only pays off once a layer holds enough work.";
    } else {
        st.verdict = "The GPU finishes sooner by " + st.speedup + ". With one input at a time every weight is read once, "
                     "so memory bandwidth sets both speeds: the GPU's " + cores_text(setup.gpu_cores) + " share " +
                     format_count(static_cast<std::int64_t>(setup.gpu.memory_bandwidth_Bps / 1e9)) + " GB/s, the CPU's " +
                     cores_text(setup.cpu_cores) + " share " +
                     format_count(static_cast<std::int64_t>(setup.cpu.memory_bandwidth_Bps / 1e9)) + " GB/s.";
    }
    const auto cross = gpu_crossover_width(setup);
    if (setup.network.widths.size() < 3)
        st.crossover = "Add a hidden layer to see where the GPU pulls ahead.";
    else if (cross)
        st.crossover = "With these two machines the GPU pulls ahead once the hidden layers are " + format_count(*cross) +
                       " neurons wide.";
    else
        st.crossover = "With these two machines the GPU never pulls ahead below " + format_count(max_layer_width) +
                       " neurons per layer.";
    st.model_note = "Hardware mode: a roofline per dot product (2n FLOPs at one core's peak, or 4n bytes of FP32 weights "
                    "at the cores' share of memory bandwidth, whichever is slower) plus a launch per GPU layer. One "
                    "input at a time, no caches: real libraries batch inputs and reuse weights, which helps the GPU more.";
    return st;
}

}  // namespace m2m::core
