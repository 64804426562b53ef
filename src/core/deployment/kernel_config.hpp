#pragma once
// A kernel's build configuration (usr/lib/modules/VER/config, the text
// `make` writes), kept to the options that matter for scheduling and
// performance: the tick (CONFIG_HZ*, CONFIG_NO_HZ*), preemption
// (CONFIG_PREEMPT*), schedulers (CONFIG_SCHED_*: BORE, sched_ext's
// CONFIG_SCHED_CLASS_EXT, ...), CachyOS's CONFIG_CACHY, and the speculation
// mitigations (CONFIG_SPECULATION_MITIGATIONS, CONFIG_MITIGATION_*). Pure.
#include "core/deployment/tree_facts.hpp"

#include <string>

namespace bootbench::core {

bool kernel_option_matters(const std::string& name);

// The options that matter: "y", "m", a number or a quoted string as
// written, and "n" for "# CONFIG_X is not set". Throws bootbench::Error
// "FILE:LINE: ..." when the text is empty, ends inside a line (truncated) or
// has a line of another shape.
FactMap parse_kernel_config(const std::string& text, const std::string& file);

} // namespace bootbench::core
