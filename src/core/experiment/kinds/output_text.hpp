#pragma once
// What the kinds' output parsers share: lines, and a number beside a label.
#include "core/base/text.hpp"
#include "core/experiment/bench_kind.hpp"

#include <optional>
#include <string_view>
#include <vector>

namespace bootbench::core {

std::vector<std::string_view> lines_of(std::string_view text);

// "LABEL  value" with an optional unit glued to the value ("3.0005s").
std::optional<double> value_after(std::string_view line, std::string_view label,
                                  std::string_view unit = "");
// "value UNIT", as perf prints "4.148500 usecs/op".
std::optional<double> value_before(std::string_view line, std::string_view unit);

// Adds `v` under `key` unless absent or `key` is there already: the first
// report wins (perf prints each line once).
void add(std::vector<MetricValue>& out, const char* key, std::optional<double> v);

} // namespace bootbench::core
