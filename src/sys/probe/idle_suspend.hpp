#pragma once
// The files that say whether the machine suspends when idle (core/host/idle_suspend
// judges them): logind.conf and its drop-ins, GDM's unit, the power plugin's
// schema and overrides, and the keyfiles of GDM's dconf system databases,
// all under a root folder (fake trees in tests). A file that cannot be read
// is left out.
#include "core/host/idle_suspend.hpp"

#include <filesystem>

namespace bootbench::sys {

core::IdleSuspendFacts probe_idle_suspend(const std::filesystem::path& root);

} // namespace bootbench::sys
