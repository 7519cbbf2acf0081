// Parsing and checking the hardware presets; nlohmann-json does the reading.
//
// [SECTION] compute presets   [SECTION] system presets   [SECTION] the catalog
#include "m2m/presets/presets.hpp"

#include "sourced_json.hpp"
#include "m2m/core/engine/text.hpp"

#include <cmath>
#include <nlohmann/json.hpp>

namespace m2m::presets {

extern const char* const hardware_json;  // generated from assets/hardware.json

namespace {

using nlohmann::json;

// [SECTION] compute presets -----------------------------------------------------------

// An entry of hardware.json; each figure read goes on the preset's list with its label and unit.
class Reader : public detail::EntryReader {
public:
    Reader(const json& entry, const char* list, std::size_t index, std::vector<SourcedFigure>& figures)
        : EntryReader(entry, list, index), m_figures(figures) {}

    // A figure is {"value": positive-or-zero number, "source": non-empty string}.
    double figure(const char* key, const char* label, const char* unit, bool required = true,
                  bool allow_zero = false) {
        const auto f = raw_figure(key, required);
        if (!f) return 0;
        const double v = f->value;
        if (!std::isfinite(v) || v < 0 || (v == 0 && !allow_zero))
            fail("\"" + std::string(key) + "\" must be a positive number");
        m_figures.push_back({label, core::format_significant(v, 3) + " " + unit, f->source});
        return v;
    }

private:
    std::vector<SourcedFigure>& m_figures;
};

// The units a figure names ("tensor cores"), or `fallback` when it names none.
std::string units_of(const json& e, const char* key, const char* fallback) {
    if (!e.contains(key) || !e.at(key).is_object() || !e.at(key).contains("units")) return fallback;
    const json& u = e.at(key).at("units");
    return u.is_string() && !u.get<std::string>().empty() ? u.get<std::string>() : fallback;
}

// "caches": the levels nearest the cores first, each {"name", "KB", "cores_sharing", and
// "read_GBps_per_core" (scales with the cores in play) or "read_GBps" (one instance's total)}.
void parse_caches(const json& e, Reader& r, ComputePreset& p) {
    if (!e.contains("caches")) return;
    if (!e.at("caches").is_array()) r.fail("\"caches\" must be a list");
    const json& list = e.at("caches");
    for (std::size_t i = 0; i < list.size(); ++i) {
        std::vector<SourcedFigure> ignored;
        core::CacheLevel c;
        try {
            Reader level(list[i], "caches", i, ignored);
            c.name = level.text("name");
            c.bytes = level.figure("KB", "capacity", "KB") * 1024;
            const json& sharing = list[i].contains("cores_sharing") ? list[i].at("cores_sharing") : json();
            if (!sharing.is_number_unsigned() || sharing.get<std::uint64_t>() < 1 || sharing.get<std::uint64_t>() > 1000000)
                level.fail("\"cores_sharing\" must be a whole number of cores, at least 1");
            c.cores_sharing = sharing.get<std::uint32_t>();
            c.per_core = list[i].contains("read_GBps_per_core");
            const auto bw = level.raw_figure(c.per_core ? "read_GBps_per_core" : "read_GBps", true);
            if (!(bw->value > 0)) level.fail("its read bandwidth must be a positive number");
            c.bandwidth_Bps = bw->value * 1e9;
            c.source = "capacity: " + ignored.front().source + "; bandwidth: " + bw->source;
        } catch (const PresetError& err) {
            r.fail(err.what());
        }
        p.figures.push_back({c.name + " cache" + (c.cores_sharing > 1 ? " (shared by " + core::format_count(c.cores_sharing) + " cores)" : " (per core)"),
                             core::format_bytes(c.bytes) + ", " + core::format_significant(c.bandwidth_Bps / 1e9, 3) +
                                 (c.per_core ? " GB/s per core" : " GB/s"),
                             c.source});
        p.spec.caches.push_back(std::move(c));
    }
}

core::PrecisionRate& rate(ComputePreset& p, core::Precision precision) {
    return p.spec.rates[static_cast<std::size_t>(precision)];
}

// A CPU's peaks: cores x clock x FLOP per cycle, per precision it has units for; and the add
// latency that sets a dependent chain's pace.
void parse_cpu_rates(const json& e, Reader& r, ComputePreset& p, double cores) {
    const double ghz = r.figure("clock_GHz", "Clock", "GHz");
    const double per_cycle = r.figure("fp32_flops_per_cycle", "FP32 FLOP per cycle per core", "");
    p.spec.flops_per_core = ghz * 1e9 * per_cycle;
    p.spec.clock_Hz = ghz * 1e9;
    rate(p, core::Precision::fp32) = {cores * p.spec.flops_per_core, units_of(e, "fp32_flops_per_cycle", "vector FMA units"),
                                      p.figures.back().source};
    p.figures.push_back({"Peak FP32 (cores x clock x FLOP/cycle)",
                         core::format_significant(cores * ghz * per_cycle, 3) + " GFLOP/s", "derived from the three figures above"});
    const double bf16 = r.figure("bf16_flops_per_cycle", "BF16 FLOP per cycle per core", "", false);
    if (bf16 > 0)
        rate(p, core::Precision::bf16) = {cores * ghz * 1e9 * bf16, units_of(e, "bf16_flops_per_cycle", "BF16 units"),
                                          p.figures.back().source};
    p.spec.add_latency_cycles = r.figure("fp_add_latency_cycles", "Floating-point add latency", "cycles", false);
}

// A GPU's peaks per precision, whole chip.
void parse_gpu_rates(const json& e, Reader& r, ComputePreset& p, double cores) {
    const double tflops = r.figure("fp32_tflops", "Peak FP32", "TFLOP/s");
    p.spec.flops_per_core = tflops * 1e12 / cores;
    rate(p, core::Precision::fp32) = {tflops * 1e12, units_of(e, "fp32_tflops", "CUDA cores"), p.figures.back().source};
    p.bf16_flops = r.figure("bf16_tflops", "Peak dense BF16 (tensor cores)", "TFLOP/s", false) * 1e12;
    if (p.bf16_flops > 0)
        rate(p, core::Precision::bf16) = {p.bf16_flops, units_of(e, "bf16_tflops", "tensor cores"), p.figures.back().source};
    const double fp8 = r.figure("fp8_tflops", "Peak dense FP8 (tensor cores)", "TFLOP/s", false) * 1e12;
    if (fp8 > 0) rate(p, core::Precision::fp8) = {fp8, units_of(e, "fp8_tflops", "tensor cores"), p.figures.back().source};
    p.memory_bytes = r.figure("memory_GB", "Memory", "GB", false) * 1e9;
}

ComputePreset parse_compute(const json& e, std::size_t index) {
    ComputePreset p;
    Reader r(e, "compute", index, p.figures);
    p.spec.id = r.id("preset");
    p.spec.name = r.text("name");
    const std::string kind = r.text("kind");
    if (kind != "cpu" && kind != "gpu") r.fail("\"kind\" must be \"cpu\" or \"gpu\"");
    p.spec.kind = kind == "cpu" ? core::ResourceKind::cpu_core : core::ResourceKind::gpu_core;
    const double cores = r.figure("cores", "Cores", "");
    if (cores != std::floor(cores) || cores > 1e6) r.fail("\"cores\" must be a whole number");
    p.spec.cores = static_cast<std::uint32_t>(cores);
    if (p.spec.kind == core::ResourceKind::cpu_core) parse_cpu_rates(e, r, p, cores);
    else parse_gpu_rates(e, r, p, cores);
    p.spec.memory_bandwidth_Bps = r.figure("memory_bandwidth_GBps", "Memory bandwidth", "GB/s") * 1e9;
    p.spec.layer_overhead_s = r.figure("layer_overhead_us", "Per-layer kernel launch", "us", true, true) * 1e-6;
    p.spec.launch_source = p.figures.back().source;
    parse_caches(e, r, p);
    // Not one of the figures listed with the spec: the views show it beside them as the sustained share.
    if (const auto f = r.raw_figure("gemm_efficiency", false)) {
        if (!(f->value > 0 && f->value <= 1)) r.fail("\"gemm_efficiency\" must be a share of peak above 0 and at most 1");
        // Its source's first word says how it was found, and the views say so in their words.
        using Basis = core::EfficiencyConstant::Basis;
        const auto basis = f->source.rfind("measured", 0) == 0  ? Basis::measured
                           : f->source.rfind("fitted", 0) == 0  ? Basis::fitted
                           : f->source.rfind("borrowed", 0) == 0 ? Basis::borrowed
                                                                 : Basis::peak;
        if (basis == Basis::peak)
            r.fail("\"gemm_efficiency\"'s source must start with how the share was found: \"measured\", \"fitted\" or \"borrowed\"");
        p.gemm_efficiency = core::EfficiencyConstant{f->value, f->source, basis};
        p.spec.efficiency = *p.gemm_efficiency;
    }
    std::string src;
    for (const auto& f : p.figures) src += f.label + ": " + f.value + " (" + f.source + ")\n";
    p.spec.source = src;
    return p;
}

// [SECTION] system presets ------------------------------------------------------------

// What NCCL's collective model needs beyond the wires: its tuning row (from the GPU's compute
// capability), the host CPU's maker, and whether the NVSwitch can add (NVLink SHARP).
void read_nccl_facts(Reader& r, SystemPreset& p) {
    const double cc = r.figure("compute_capability", "GPU compute capability (NCCL's tuning row)", "");
    if (cc < 8 || cc >= 13) r.fail("\"compute_capability\" must be 8.0 (Ampere) to 12.x (Blackwell)");
    p.spec.generation = cc >= 10 ? core::GpuGeneration::blackwell
                        : cc >= 9 ? core::GpuGeneration::hopper
                                  : core::GpuGeneration::ampere;
    const double sharp = r.figure("nvlink_sharp", "NVSwitch adds in the switch (NVLink SHARP): 1 yes, 0 no", "", true, true);
    if (sharp != 0 && sharp != 1) r.fail("\"nvlink_sharp\" must be 0 or 1");
    p.spec.nvls = sharp == 1;
    const auto [vendor, source] = r.sourced_text("host_cpu_vendor", {"intel", "amd"});
    p.spec.host_cpu = vendor == "amd" ? core::HostCpu::amd : core::HostCpu::intel;
    p.figures.push_back({"Host CPU maker (NCCL's network overhead: Intel 1 us, AMD 2 us)", vendor, source});
}

// A node generation's wires. Rates are stored as the sources quote them (NVLink both
// directions together, InfiniBand in Gb/s) and turned into the core's one-direction GB/s here.
SystemPreset parse_system(const json& e, std::size_t index) {
    SystemPreset p;
    Reader r(e, "systems", index, p.figures);
    p.spec.id = r.id("system");
    p.spec.name = r.text("name");
    p.gpu_id = r.text("gpu");
    const double chips = r.figure("nvswitch_chips", "NVSwitch chips per node", "");
    if (chips != std::floor(chips) || chips > 64) r.fail("\"nvswitch_chips\" must be a whole number");
    p.nvswitch_chips = static_cast<std::uint32_t>(chips);

    core::LinkSpec& nv = p.spec.nvlink;
    nv.name = r.text("nvlink_name");
    const double nv_both = r.figure("nvlink_bidirectional_GBps", "NVLink per GPU, both directions together", "GB/s");
    const double nv_links = r.figure("nvlink_links", "NVLink links per GPU", "");
    const double nv_per_link = r.figure("nvlink_nccl_GBps_per_link", "NCCL's achievable NVLink rate per link, one direction", "GB/s");
    nv.latency_s = r.figure("nvlink_latency_us", "NVLink send latency (GPU -> NVSwitch -> GPU)", "us") * 1e-6;
    nv.raw_GBps = nv_both / 2;
    nv.efficiency = nv_per_link * nv_links / nv.raw_GBps;
    if (nv.efficiency > 1) r.fail("NCCL's NVLink rate x links exceeds the raw one-way rate");
    p.figures.push_back({"NVLink per GPU, one direction", core::format_significant(nv.raw_GBps, 3) + " GB/s",
                         "derived: half of the both-directions figure; a tensor sent one way gets at most this"});
    p.figures.push_back({"NVLink achievable, one direction", core::format_fixed(nv.effective_GBps(), 1) + " GB/s (" +
                             core::format_percent(nv.efficiency, 1) + " of raw)",
                         "derived: NCCL's per-link rate x links (NVIDIA/nccl src/graph/topo.h)"});

    core::LinkSpec& pcie = p.spec.pcie;
    pcie.name = r.text("pcie_name");
    pcie.raw_GBps = r.figure("pcie_GBps", "PCIe GPU <-> NIC, one direction", "GB/s");

    core::LinkSpec& ib = p.spec.infiniband;
    ib.name = r.text("infiniband_name");
    ib.raw_GBps = r.figure("infiniband_Gbps", "InfiniBand per NIC (one per GPU), one direction", "Gb/s") / 8;
    ib.efficiency = r.figure("infiniband_efficiency", "InfiniBand achievable share of raw", "");
    if (ib.efficiency > 1) r.fail("\"infiniband_efficiency\" must be at most 1");
    p.figures.push_back({"InfiniBand achievable, one direction", core::format_fixed(ib.effective_GBps(), 1) + " GB/s",
                         "derived: Gb/s / 8 x the achievable share"});
    ib.latency_s = r.figure("network_latency_us", "Network send latency (NIC + first switch)", "us") * 1e-6;
    p.spec.switch_latency_s = r.figure("switch_latency_us", "Each further switch (spine, far leaf)", "us") * 1e-6;
    read_nccl_facts(r, p);
    std::string src;
    for (const auto& f : p.figures) src += f.label + ": " + f.value + " (" + f.source + ")\n";
    p.spec.source = src;
    return p;
}

}  // namespace

namespace {

const std::string& system_id(const SystemPreset& p) { return p.spec.id; }
const std::string& compute_id(const ComputePreset& p) { return p.spec.id; }

}  // namespace

const SystemPreset* Catalog::find_system(std::string_view id) const { return detail::find_by_id(systems, id, system_id); }

std::vector<std::string> Catalog::system_ids() const { return detail::ids_of(systems, system_id); }

const ComputePreset* Catalog::find(std::string_view id) const { return detail::find_by_id(compute, id, compute_id); }

std::vector<std::string> Catalog::ids(core::ResourceKind kind) const {
    std::vector<std::string> out;
    for (const auto& p : compute)
        if (p.spec.kind == kind) out.push_back(p.spec.id);
    return out;
}

// [SECTION] the catalog ---------------------------------------------------------------

Catalog parse_catalog(std::string_view json_text) {
    const json doc = detail::open_document(json_text, "the preset file", "compute");
    Catalog c;
    const json& list = doc.at("compute");
    for (std::size_t i = 0; i < list.size(); ++i) {
        ComputePreset p = parse_compute(list[i], i);
        if (c.find(p.spec.id)) throw PresetError("preset '" + p.spec.id + "' appears twice");
        c.compute.push_back(std::move(p));
    }
    if (doc.contains("systems")) {  // optional: Lesson 2's node generations
        const json& systems = doc.at("systems");
        if (!systems.is_array()) throw PresetError("\"systems\" must be a list");
        for (std::size_t i = 0; i < systems.size(); ++i) {
            SystemPreset p = parse_system(systems[i], i);
            if (c.find_system(p.spec.id)) throw PresetError("system '" + p.spec.id + "' appears twice");
            if (!c.find(p.gpu_id))
                throw PresetError("system '" + p.spec.id + "': \"gpu\" names no compute preset ('" + p.gpu_id + "')");
            c.systems.push_back(std::move(p));
        }
    }
    return c;
}

const Catalog& builtin() {
    static const Catalog catalog = parse_catalog(hardware_json);
    return catalog;
}

std::string joined_ids(core::ResourceKind kind) { return detail::joined(builtin().ids(kind)); }

std::optional<core::EfficiencyConstant> gemm_efficiency(std::string_view id) {
    const ComputePreset* p = builtin().find(id);
    if (!p) return std::nullopt;
    return p->gemm_efficiency;
}

std::string joined_system_ids() { return detail::joined(builtin().system_ids()); }

}  // namespace m2m::presets
