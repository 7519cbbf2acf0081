// Lesson 1's model: the network's work graph, its schedule on both machines, and sweeps.
//
// [SECTION] the network   [SECTION] the roofline per layer   [SECTION] running both machines
// [SECTION] sweeps
#include "m2m/core/layers/layer_run.hpp"
#include "m2m/core/engine/text.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace m2m::core {

// [SECTION] the network ---------------------------------------------------------------

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

std::string validate(const LayerRunSetup& s) {
    if (auto why = validate(s.network); !why.empty()) return why;
    if (s.batch < 1 || s.batch > max_batch)
        return "the batch must be between 1 and " + format_count(max_batch) + " inputs";
    if (s.mode == TimingMode::lesson &&
        (s.batch != 1 || s.precision != Precision::fp32 || s.cache != CacheState::cold || s.cpu_loop != CpuLoop::tuned))
        return "lesson mode runs one input in FP32 at one tick per dot product: batch, precision and cache are "
               "hardware mode's";
    // Hardware mode runs real chips: no more cores than the chip has (more would lift a layer above
    // the chip's own roof).
    if (s.mode == TimingMode::hardware)
        for (const auto& [spec, cores] : {std::pair{&s.cpu, s.cpu_cores}, std::pair{&s.gpu, s.gpu_cores}})
            if (cores < 1 || cores > spec->cores)
                return "in hardware mode the " + spec->name + " has " + format_counted(spec->cores, "core") +
                       ": use 1 to " + format_count(spec->cores) + " of them";
    return {};
}

// [SECTION] the roofline per layer ----------------------------------------------------

namespace {

int widest(const Network& net) { return *std::max_element(net.widths.begin() + 1, net.widths.end()); }

double weight_bytes(const LayerRunSetup& s) {
    double n = 0;
    for (std::size_t l = 1; l < s.network.widths.size(); ++l)
        n += static_cast<double>(s.network.widths[l - 1]) * s.network.widths[l];
    return n * bytes_per_value(s.precision);
}

Roof roof_of(const LayerRunSetup& s, const ComputeSpec& spec, std::uint32_t cores) {
    return machine_roof(spec, cores, s.precision, s.cache, weight_bytes(s), widest(s.network));
}

}  // namespace

Roof cpu_roof(const LayerRunSetup& s) { return roof_of(s, s.cpu, s.cpu_cores); }
Roof gpu_roof(const LayerRunSetup& s) { return roof_of(s, s.gpu, s.gpu_cores); }

LayerTiming layer_time(const LayerRunSetup& s, const ComputeSpec& spec, std::uint32_t cores, const Roof& roof, int n_in,
                       int n_out) {
    if (s.mode == TimingMode::lesson) {
        LayerTiming t;
        t.task = 1;
        t.rounds = (n_out + cores - 1) / cores;
        return t;
    }
    const CpuLoop loop = spec.kind == ResourceKind::cpu_core ? s.cpu_loop : CpuLoop::tuned;
    return layer_timing(spec, cores, roof, n_in, n_out, s.batch, s.precision, loop);
}

std::vector<LayerPoint> layer_points(const LayerRunSetup& s) {
    const Roof cpu = cpu_roof(s), gpu = gpu_roof(s);
    std::vector<LayerPoint> out;
    const auto& w = s.network.widths;
    for (std::size_t l = 1; l < w.size(); ++l)
        out.push_back({w[l - 1], w[l], layer_counts(w[l - 1], w[l], s.batch, s.precision),
                       layer_time(s, s.cpu, s.cpu_cores, cpu, w[l - 1], w[l]),
                       layer_time(s, s.gpu, s.gpu_cores, gpu, w[l - 1], w[l])});
    return out;
}

WorkGraph build_layer_graph(const LayerRunSetup& setup, const ComputeSpec& spec, std::uint32_t cores,
                            std::vector<TaskId>* layer_first_task) {
    const auto& w = setup.network.widths;
    WorkGraph g;
    const std::int64_t neurons = neuron_count(setup.network);
    g.reserve(static_cast<std::size_t>(neurons) + 2 * w.size(), 2 * static_cast<std::size_t>(neurons) + w.size());
    const PoolId pool = g.add_pool(spec.kind == ResourceKind::gpu_core ? "GPU cores" : "CPU cores", spec.kind, cores);
    const Roof roof = roof_of(setup, spec, cores);
    if (layer_first_task) layer_first_task->clear();

    std::optional<TaskId> previous;  // the join that closes the previous layer
    for (std::size_t l = 1; l < w.size(); ++l) {
        const auto width = static_cast<std::uint32_t>(w[l]);
        const LayerTiming t = layer_time(setup, spec, cores, roof, w[l - 1], w[l]);
        std::optional<TaskId> gate = previous;
        if (t.fixed > 0) {
            const TaskId wait = g.add_task(t.fixed, {});
            if (gate) g.add_dependency(*gate, wait);
            gate = wait;
        }
        const TaskId first = static_cast<TaskId>(g.task_count());
        if (layer_first_task) layer_first_task->push_back(first);
        for (std::uint32_t i = 0; i < width; ++i) {
            const TaskId task = g.add_task(t.task, {pool});
            if (gate) g.add_dependency(*gate, task);
        }
        const TaskId join = g.add_join();
        for (std::uint32_t i = 0; i < width; ++i) g.add_dependency(first + i, join);
        previous = join;
    }
    return g;
}

// [SECTION] running both machines -----------------------------------------------------

namespace {

void check(const LayerRunSetup& setup) {
    if (auto why = validate(setup); !why.empty()) throw std::invalid_argument(why);
    if (setup.cpu_cores < 1 || setup.cpu_cores > max_cores || setup.gpu_cores < 1 || setup.gpu_cores > max_cores)
        throw std::invalid_argument("core counts must be between 1 and " + std::to_string(max_cores));
    if (setup.mode == TimingMode::hardware)
        for (const ComputeSpec* s : {&setup.cpu, &setup.gpu})
            if (!(s->flops_per_core > 0) || !(s->memory_bandwidth_Bps > 0) || s->layer_overhead_s < 0 ||
                !(s->efficiency.fraction > 0))
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
    m.fixed_tasks = !m.layer_first_task.empty() && m.layer_first_task.front() == 1;
    m.timeline = schedule(g);
    m.finish = m.timeline.makespan;
    return m;
}

}  // namespace

namespace {

LayerRunSetup with_kinds(const LayerRunSetup& setup) {
    LayerRunSetup k = setup;
    k.cpu = as_kind(setup.cpu, ResourceKind::cpu_core);
    k.gpu = as_kind(setup.gpu, ResourceKind::gpu_core);
    return k;
}

// Everything but the two machines' runs, which the caller fills.
LayerRunResult result_frame(const LayerRunSetup& s) {
    LayerRunResult r;
    r.unit = s.mode == TimingMode::lesson ? TimeUnit::ticks : TimeUnit::picoseconds;
    r.neurons = neuron_count(s.network);
    r.parameters = parameter_count(s.network);
    if (s.mode == TimingMode::hardware) {
        r.cpu_roof = cpu_roof(s);
        r.gpu_roof = gpu_roof(s);
        r.layers = layer_points(s);
    }
    return r;
}

void set_speedup(LayerRunResult& r) {
    r.speedup = static_cast<double>(r.cpu.finish) / static_cast<double>(std::max<SimTime>(r.gpu.finish, 1));
}

}  // namespace

LayerRunResult run_layers(const LayerRunSetup& setup) {
    check(setup);
    const LayerRunSetup s = with_kinds(setup);
    LayerRunResult r = result_frame(s);
    r.cpu = run_machine(s, s.cpu, s.cpu_cores);
    r.gpu = run_machine(s, s.gpu, s.gpu_cores);
    set_speedup(r);
    return r;
}

LayerRunResult summarize_layers(const LayerRunSetup& setup) {
    check(setup);
    const LayerRunSetup s = with_kinds(setup);
    LayerRunResult r = result_frame(s);
    for (bool gpu : {false, true}) {
        MachineRun& m = gpu ? r.gpu : r.cpu;
        m.cores = gpu ? s.gpu_cores : s.cpu_cores;
        m.finish = predicted_makespan(s, gpu ? s.gpu : s.cpu, m.cores);
    }
    set_speedup(r);
    return r;
}

SimTime predicted_makespan(const LayerRunSetup& setup, const ComputeSpec& spec, std::uint32_t cores) {
    const auto& w = setup.network.widths;
    const Roof roof = roof_of(setup, spec, cores);
    SimTime total = 0;
    for (std::size_t l = 1; l < w.size(); ++l) total += layer_time(setup, spec, cores, roof, w[l - 1], w[l]).total();
    return total;
}

// [SECTION] sweeps --------------------------------------------------------------------

namespace {

LayerRunSetup with_uniform_hidden(LayerRunSetup s, int width) {
    auto& w = s.network.widths;
    for (std::size_t l = 1; l + 1 < w.size(); ++l) w[l] = width;
    return s;
}

SpeedupPoint point_of(const LayerRunSetup& s, int x) {
    const double unit_s = s.mode == TimingMode::lesson ? 1.0 : 1.0 / picoseconds_per_second;
    const SimTime cpu = predicted_makespan(s, as_kind(s.cpu, ResourceKind::cpu_core), s.cpu_cores);
    const SimTime gpu = predicted_makespan(s, as_kind(s.gpu, ResourceKind::gpu_core), s.gpu_cores);
    return {x, cpu * unit_s, gpu * unit_s, static_cast<double>(cpu) / std::max<SimTime>(gpu, 1)};
}

}  // namespace

std::vector<SpeedupPoint> speedup_sweep(const LayerRunSetup& setup, const std::vector<int>& widths) {
    check(setup);
    std::vector<SpeedupPoint> out;
    out.reserve(widths.size());
    for (int width : widths) out.push_back(point_of(with_uniform_hidden(setup, std::clamp(width, 1, max_layer_width)), width));
    return out;
}

std::vector<SpeedupPoint> batch_sweep(const LayerRunSetup& setup, const std::vector<int>& batches) {
    check(setup);
    std::vector<SpeedupPoint> out;
    out.reserve(batches.size());
    for (int batch : batches) {
        LayerRunSetup s = setup;
        if (s.mode == TimingMode::hardware) s.batch = std::clamp(batch, 1, max_batch);
        out.push_back(point_of(s, batch));
    }
    return out;
}

std::optional<int> gpu_crossover_width(const LayerRunSetup& setup) {
    check(setup);
    if (setup.network.widths.size() < 3) return std::nullopt;  // no hidden layer to widen
    for (int width = 1; width <= max_layer_width; ++width) {
        const SpeedupPoint p = point_of(with_uniform_hidden(setup, width), width);
        if (p.gpu_time < p.cpu_time) return width;
    }
    return std::nullopt;
}

}  // namespace m2m::core
