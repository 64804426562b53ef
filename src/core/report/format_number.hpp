#pragma once
// Numbers as the report writes them, locale-free: the renderers' and the
// explanations' (core/report/explain). Pure; it knows nothing of a report.
#include <string>

namespace bootbench::core {

// A value as a reader wants it: 4.45, 21.5, 2940, 88.2k, 1.25M.
std::string format_value(double v);
// Fixed decimals, "." as the decimal point whatever the locale.
std::string format_fixed(double v, int decimals);
// Every digit the value has, shortest form: 7.990634, 57207.
std::string format_exact(double v);
// A ratio as "1.79x".
std::string format_ratio(double ratio);
// A p-value: "0.029", "<0.001".
std::string format_p(double p);
// "p = 0.029", "p < 0.001".
std::string p_clause(double p);

} // namespace bootbench::core
