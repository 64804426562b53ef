#pragma once
// The CPU frequency canary: each bench's average frequency, from
// scaling_cur_freq samples taken while it ran (sys/run/cpu_freq), is recorded in
// the run's environment (cpu_freq_mhz: bench -> MHz; absent where cpufreq is
// not there). A run whose bench ran well below the same bench's median over
// the target's runs had its CPU slowed (thermal or power limits): the report
// marks it like the other noise canaries.
#include "core/result/run_result.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace bootbench::core {

// A run is marked when a bench averaged below this share of its median.
inline constexpr double kFreqDropShare = 0.9;

// The mean of the samples (kHz, as scaling_cur_freq gives them) in MHz;
// nullopt without samples.
std::optional<double> average_mhz(const std::vector<double>& samples_khz);

// Run id -> "CPU frequency during <bench> averaged 2100 MHz, 25% below the
// median of a's runs (2800 MHz)" for every run with such a drop.
std::map<std::string, std::string> frequency_drops(const std::vector<const RunResult*>& runs);

} // namespace bootbench::core
