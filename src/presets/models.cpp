// Parsing and checking the model presets with nlohmann-json; bridging hardware presets to the estimator's GPU spec.
#include "m2m/presets/models.hpp"

#include "sourced_json.hpp"
#include "m2m/core/engine/text.hpp"

#include <cmath>
#include <nlohmann/json.hpp>

namespace m2m::presets {

extern const char* const models_json;  // generated from assets/models.json

namespace {

using nlohmann::json;

// An entry of models.json; each figure read goes on the preset's list with its label.
class ModelReader : public detail::EntryReader {
public:
    ModelReader(const json& entry, std::size_t index, std::vector<SourcedFigure>& figures)
        : EntryReader(entry, "models", index), m_figures(figures) {}

    // A figure is {"value": number, "source": non-empty string}; shape figures are positive whole numbers.
    double figure(const char* key, const char* label, bool required, bool whole) {
        const auto f = raw_figure(key, required);
        if (!f) return 0;
        const double v = f->value;
        if (v <= 0) fail("\"" + std::string(key) + "\" must be a positive number");
        if (whole && (v != std::floor(v) || v > 1e9)) fail("\"" + std::string(key) + "\" must be a whole number");
        m_figures.push_back({label, core::format_significant(v, 4), f->source});
        return v;
    }

private:
    std::vector<SourcedFigure>& m_figures;
};

ModelPreset parse_model(const json& e, std::size_t index) {
    ModelPreset p;
    ModelReader r(e, index, p.figures);
    core::TransformerShape& s = p.shape;
    s.id = r.id("model");
    s.name = r.text("name");
    s.mlp = r.text("mlp", {"gelu", "swiglu"}) == "swiglu" ? core::MlpKind::swiglu : core::MlpKind::gelu;
    s.tied_embeddings = r.text("embeddings", {"tied", "untied"}) == "tied";
    s.learned_positions = r.text("positions", {"learned", "rope"}) == "learned";
    s.biases = r.flag("biases");
    s.dropout = r.flag("dropout");
    if (e.contains("simplified")) p.simplified = r.text("simplified");
    const auto whole = [&](const char* key, const char* label, bool required = true) {
        return static_cast<std::int64_t>(r.figure(key, label, required, true));
    };
    s.layers = whole("layers", "Layers");
    s.hidden = whole("hidden", "Hidden size");
    s.heads = whole("heads", "Attention heads");
    s.kv_heads = whole("kv_heads", "Key/value heads", false);
    s.ffn_hidden = whole("ffn_hidden", "MLP width", false);
    s.vocab = whole("vocab", "Vocabulary");
    s.seq = whole("seq", "Sequence length");
    s.experts = whole("experts", "Routed experts per MoE layer", false);
    s.top_k = whole("top_k", "Experts per token (top-k)", false);
    s.expert_ffn = whole("expert_ffn", "One expert's MLP width", false);
    s.shared_experts = whole("shared_experts", "Shared experts per MoE layer", false);
    s.dense_layers = whole("dense_layers", "Leading dense layers", false);
    p.published_parameters = r.figure("published_parameters", "Published size (parameters)", true, false);
    if (auto why = core::validate(s); !why.empty()) r.fail(why);
    return p;
}

}  // namespace

namespace {

const std::string& model_id(const ModelPreset& m) { return m.shape.id; }

}  // namespace

const ModelPreset* ModelCatalog::find(std::string_view id) const { return detail::find_by_id(models, id, model_id); }

std::vector<std::string> ModelCatalog::ids() const { return detail::ids_of(models, model_id); }

ModelCatalog parse_models(std::string_view json_text) {
    const json doc = detail::open_document(json_text, "the model preset file", "models");
    ModelCatalog c;
    const json& list = doc.at("models");
    for (std::size_t i = 0; i < list.size(); ++i) {
        ModelPreset p = parse_model(list[i], i);
        if (p.shape.id == "custom") throw PresetError("model id 'custom' is reserved for explicit dimensions");
        if (c.find(p.shape.id)) throw PresetError("model '" + p.shape.id + "' appears twice");
        c.models.push_back(std::move(p));
    }
    return c;
}

const ModelCatalog& builtin_models() {
    static const ModelCatalog catalog = parse_models(models_json);
    return catalog;
}

std::string joined_model_ids() { return detail::joined(builtin_models().ids()); }

std::string resolve_gpu_id(std::string_view id) {
    const std::string key = id == "a100-80gb" ? "a100" : std::string(id);
    const ComputePreset* p = builtin().find(key);
    if (!p || p->spec.kind != core::ResourceKind::gpu_core || !(p->bf16_flops > 0) || !(p->memory_bytes > 0))
        return {};
    if (!p->gemm_efficiency) return {};
    if (!builtin().find_system(key == "h200" ? "h100" : key)) return {};
    return key;
}

const std::vector<std::string>& estimator_gpu_ids() {
    static const auto ids = [] {
        std::vector<std::string> out;
        for (const auto& id : builtin().ids(core::ResourceKind::gpu_core))
            if (resolve_gpu_id(id) == id) out.push_back(id);
        return out;
    }();
    return ids;
}

std::string joined_estimator_gpu_ids() {
    std::string out;
    for (const auto& id : builtin().ids(core::ResourceKind::gpu_core)) {
        if (resolve_gpu_id(id).empty()) continue;
        out += (out.empty() ? "" : ", ") + id;
        if (id == "a100") out += ", a100-80gb";
    }
    return out;
}

std::optional<core::GpuSpec> estimator_gpu(std::string_view id) {
    const std::string key = resolve_gpu_id(id);
    if (key.empty()) return std::nullopt;
    const ComputePreset& p = *builtin().find(key);
    core::GpuSpec g;
    g.id = key;
    g.name = p.spec.name;
    g.peak_bf16_flops = p.bf16_flops;
    g.memory_bytes = p.memory_bytes;
    g.memory_bandwidth_Bps = p.spec.memory_bandwidth_Bps;
    g.achievable_fraction = p.gemm_efficiency->fraction;
    g.achievable_source = p.gemm_efficiency->source;
    return g;
}

std::optional<core::SystemSpec> estimator_system(std::string_view gpu_id) {
    const std::string key = resolve_gpu_id(gpu_id);
    if (key.empty()) return std::nullopt;
    const SystemPreset* s = builtin().find_system(key == "h200" ? "h100" : key);
    if (!s) return std::nullopt;
    core::SystemSpec spec = s->spec;
    // An H200 node has the DGX H100's links (NVLink 4 and NVSwitch, NDR InfiniBand): its own name
    // with them, not the H100 node's.
    if (key == "h200") spec.name = "HGX H200: 8x H200 SXM 141GB, NVLink 4 + NVSwitch, InfiniBand NDR (the DGX H100's links)";
    return spec;
}

std::optional<core::EstimateSetup> estimator_setup(const core::TransformerShape& model, std::string_view gpu_id) {
    auto gpu = estimator_gpu(gpu_id);
    auto system = estimator_system(gpu_id);
    if (!gpu || !system) return std::nullopt;
    core::EstimateSetup s;
    s.model = model;
    s.gpu = std::move(*gpu);
    s.system = std::move(*system);
    return s;
}

std::optional<core::SustainedRate> cpu_rate(std::string_view id) {
    const ComputePreset* p = builtin().find(id);
    if (!p || p->spec.kind != core::ResourceKind::cpu_core || !p->gemm_efficiency) return std::nullopt;
    const core::EfficiencyConstant& c = *p->gemm_efficiency;
    return core::SustainedRate{p->spec.name, p->spec.flops_per_core * p->spec.cores, c.fraction, c.source};
}

}  // namespace m2m::presets
