// Fuzz target: the text of a hardware preset file (assets/hardware.json's format). It must parse,
// or be refused with a PresetError naming the problem; nothing else may escape.
#include "fuzz_input.hpp"
#include "m2m/presets/presets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace m2m;
    try {
        const presets::Catalog c = presets::parse_catalog(fuzz::text(data, size));
        for (const auto& s : c.systems)
            if (!c.find(s.gpu_id)) fuzz::broken("every system's GPU is a compute preset", s.gpu_id);
    } catch (const presets::PresetError&) {
    }
    return 0;
}
