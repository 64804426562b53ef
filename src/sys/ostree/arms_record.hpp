#pragma once
// What `start` reads of each target's deployment before the first boot (its
// tree facts: sys/ostree/tree_reader; its boot entry's kernel arguments) and
// writes once as results/<experiment>/arms.json (core/deployment/arm_facts),
// for the report's "What differs between the arms". Nothing here stops a
// start: what cannot be read is recorded with why.
#include "core/deployment/arm_facts.hpp"
#include "core/state/state.hpp"

#include <filesystem>
#include <vector>

namespace bootbench::sys {

class Sysroot;

std::vector<core::ArmFacts> read_arms(Sysroot& sysroot, const std::vector<core::TargetState>& targets);

// read_arms into `results`/arms.json; a file that cannot be written is a
// warning on stderr, never an error.
void record_arms(Sysroot& sysroot, const std::vector<core::TargetState>& targets,
                 const std::filesystem::path& results);

} // namespace bootbench::sys
