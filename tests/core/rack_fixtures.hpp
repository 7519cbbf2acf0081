// What Lesson 2's core tests share: a preset's system by id, whole 8-GPU nodes, and short names
// for NCCL's algorithms and protocols.
#pragma once

#include <catch2/catch.hpp>

#include "m2m/core/rack/collective_cost.hpp"
#include "m2m/presets/presets.hpp"

namespace m2m::test {

inline core::SystemSpec system_of(const char* id) {
    const auto* p = presets::builtin().find_system(id);
    REQUIRE(p);
    return p->spec;
}

/// The first `nodes` whole nodes of 8 GPUs.
inline core::CollectiveGroup nodes_of_8(std::uint32_t nodes) { return core::first_gpus_group(8 * nodes, 8); }

inline constexpr core::CollectiveAlgorithm ring = core::CollectiveAlgorithm::ring, tree = core::CollectiveAlgorithm::tree,
                                           nvls = core::CollectiveAlgorithm::nvls,
                                           nvls_tree = core::CollectiveAlgorithm::nvls_tree;
inline constexpr core::CollectiveProtocol ll = core::CollectiveProtocol::ll, ll128 = core::CollectiveProtocol::ll128,
                                          simple = core::CollectiveProtocol::simple;

}  // namespace m2m::test
