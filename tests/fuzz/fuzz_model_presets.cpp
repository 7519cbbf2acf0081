// Fuzz target: the text of a model preset file (assets/models.json's format). It must parse, or be
// refused with a PresetError; an accepted model's parameter count is then computed as the
// estimator computes it.
#include "fuzz_input.hpp"
#include "m2m/presets/models.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace m2m;
    try {
        const presets::ModelCatalog c = presets::parse_models(fuzz::text(data, size));
        for (const auto& m : c.models)
            if (core::count_parameters(m.shape).total <= 0) fuzz::broken("an accepted model has parameters", m.shape.id);
    } catch (const presets::PresetError&) {
    }
    return 0;
}
