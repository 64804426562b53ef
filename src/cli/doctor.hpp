#pragma once
// The host checks of `bootbench doctor`, shared with `start`, which runs them
// before it changes anything and refuses on a fail.
#include "core/deployment/deployment.hpp"
#include "core/host/doctor.hpp"
#include "sys/ostree/sysroot.hpp"

#include <map>

#include <optional>
#include <string>

namespace bootbench::cli {

// The checks of the machine at `root` ("/", or a fake tree in tests) for
// `experiment` (nullptr: the default needs). Off "/", the unit files are the
// sandbox's list (<root>/run/units-installed), never this machine's.
std::vector<core::DoctorCheck> host_checks(const std::string& root,
                                           const core::Experiment* experiment, bool drop_staged);

// start's gate: prints the warnings; throws bootbench::Error (exit 1) with
// the lines that are not ok when any check fails.
void refuse_on_doctor_fail(const std::string& root, const core::Experiment& experiment,
                           bool drop_staged);

// start, on every host (a sandbox too): throws (exit 1) when a target's
// /etc is transient, so the unit written into it would never be seen.
void refuse_transient_etc(sys::Sysroot& sysroot, const std::map<std::string, core::DeploymentRef>& targets);

// The root start checks: "/" when it starts on the running machine; none for
// another sysroot (an offline one, or a test's: not the machine that boots);
// `BOOTBENCH_TEST_HOST_ROOT` names a fake tree for the tests.
std::optional<std::string> start_checks_root(const std::string& sysroot);

} // namespace bootbench::cli
