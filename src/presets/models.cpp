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

struct ModelReader {
    const json& entry;
    std::string where;
    std::vector<SourcedFigure>* figures;

    // A figure is {"value": number, "source": non-empty string}; shape figures are positive whole numbers.
    double figure(const char* key, const char* label, bool required, bool whole) {
        const auto f = detail::read_figure(entry, key, where, required);
        if (!f) return 0;
        const double v = f->value;
        if (v <= 0) throw PresetError(where + ": \"" + key + "\" must be a positive number");
        if (whole && (v != std::floor(v) || v > 1e9)) throw PresetError(where + ": \"" + key + "\" must be a whole number");
        figures->push_back({label, core::format_significant(v, 4), f->source});
        return v;
    }
    std::string text(const char* key, std::initializer_list<const char*> allowed = {}) {
        if (!entry.contains(key) || !entry.at(key).is_string() || entry.at(key).get<std::string>().empty())
            throw PresetError(where + ": missing text field \"" + key + "\"");
        std::string v = entry.at(key).get<std::string>();
        if (allowed.size() == 0) return v;
        std::string list;
        for (const char* a : allowed) {
            if (v == a) return v;
            list += (list.empty() ? "" : ", ") + std::string(a);
        }
        throw PresetError(where + ": \"" + key + "\" must be one of " + list);
    }
    bool flag(const char* key) {
        if (!entry.contains(key) || !entry.at(key).is_boolean())
            throw PresetError(where + ": missing true/false field \"" + key + "\"");
        return entry.at(key).get<bool>();
    }
};

ModelPreset parse_model(const json& e, std::size_t index) {
    if (!e.is_object()) throw PresetError("models[" + std::to_string(index) + "] is not an object");
    ModelPreset p;
    ModelReader r{e, "models[" + std::to_string(index) + "]", &p.figures};
    core::TransformerShape& s = p.shape;
    s.id = r.text("id");
    r.where = "model '" + s.id + "'";
    s.name = r.text("name");
    s.mlp = r.text("mlp", {"gelu", "swiglu"}) == "swiglu" ? core::MlpKind::swiglu : core::MlpKind::gelu;
    s.tied_embeddings = r.text("embeddings", {"tied", "untied"}) == "tied";
    s.learned_positions = r.text("positions", {"learned", "rope"}) == "learned";
    s.biases = r.flag("biases");
    s.dropout = r.flag("dropout");
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
    p.published_parameters = r.figure("published_parameters", "Published size (parameters)", true, false);
    if (auto why = core::validate(s); !why.empty()) throw PresetError(r.where + ": " + why);
    return p;
}

}  // namespace

const ModelPreset* ModelCatalog::find(std::string_view id) const {
    for (const auto& m : models)
        if (m.shape.id == id) return &m;
    return nullptr;
}

std::vector<std::string> ModelCatalog::ids() const {
    std::vector<std::string> out;
    for (const auto& m : models) out.push_back(m.shape.id);
    return out;
}

ModelCatalog parse_models(std::string_view json_text) {
    json doc = json::parse(json_text.begin(), json_text.end(), nullptr, false);
    if (doc.is_discarded()) throw PresetError("the model preset file is not valid JSON");
    if (!doc.is_object() || !doc.contains("models") || !doc.at("models").is_array())
        throw PresetError("the model preset file needs a \"models\" list");
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

std::string joined_model_ids() {
    std::string out;
    for (const auto& id : builtin_models().ids()) out += (out.empty() ? "" : ", ") + id;
    return out;
}

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
    return s->spec;
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
