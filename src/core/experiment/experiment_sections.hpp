#pragma once
// The readers and checks of the experiment file's sections, each in its own
// file, that parse_experiment (experiment.cpp) calls in order.
#include "core/experiment/toml_reader.hpp"

#include <set>
#include <string>

namespace bootbench::core {

struct Experiment; // not its header: experiment.cpp includes this one
enum class ExperimentFile;

// Every section of the file but [bisect], into `e`, the mistakes kept in `r`:
// what parse_experiment and parse_bisect (core/bisect) share. For a bisect
// file the caller allows the top-level tables.
void read_experiment(TomlReader& r, const toml::table& root, Experiment& e, ExperimentFile file);
// The metrics the benches give, and the system's own figures (the boot's
// times unless [boot] measure = false): experiment_adaptive.cpp.
std::set<std::string> produced_metrics(const Experiment& e);

// Bench tables have per-kind keys: experiment_bench.cpp.
void read_benches(TomlReader& r, const toml::table& root, Experiment& e);
void read_report_and_notify(TomlReader& r, const toml::table& root, Experiment& e);
void check_cross_references(TomlReader& r, const toml::table& root, const Experiment& e);
// runs = { min, max }, until, precision, primary: experiment_adaptive.cpp.
void read_adaptive(TomlReader& r, const toml::table& root, Experiment& e);
void check_adaptive(TomlReader& r, const toml::table& root, const Experiment& e);
// [report] per_watt names higher-is-better metrics of the benches: experiment_per_watt.cpp.
void check_per_watt(TomlReader& r, const toml::table& root, const Experiment& e);

} // namespace bootbench::core
