#pragma once
// Which runs of one target are outliers on one metric: the generalized ESD
// test (Rosner 1983; NIST/SEMATECH e-Handbook 1.3.5.17) on the logarithms of
// the values, since run-to-run noise of a benchmark is a factor, not a sum
// (on the values themselves when one is 0 or negative). Step i of the test
// runs at level kOutlierAlpha / i, so that later steps, which find a second
// outlier hidden by the first, add little: 1-1.6% of clean log-normal sets
// get a flag, whatever their size and noise (bench/outliers measures it). Pure.
#include <cstddef>
#include <map>
#include <vector>

namespace bootbench::core {

// The level of the test's first step.
inline constexpr double kOutlierAlpha = 0.01;
// A flagged value also lies more than this far (relative) from the median of
// the values not flagged: the test alone would flag 10.5 among three 10s.
inline constexpr double kOutlierMinDeviation = 0.10;

struct Outliers {
    std::vector<size_t> indices; // ascending; at most (n - 1) / 2 of the n values
    double rest_median = 0;      // the median of the values not flagged
};

// The test's critical values at one level, each set size's computed once
// and kept by the caller (one report, one simulation), never in global state.
class EsdTable {
  public:
    explicit EsdTable(double alpha = kOutlierAlpha) : alpha_(alpha) {}
    // The critical values of steps 1..(n-1)/2 for a set of n values.
    const std::vector<double>& for_size(size_t n);

  private:
    double alpha_;
    std::map<size_t, std::vector<double>> by_size_;
};

// The outliers in `values`: none below 3 values or when a value is not finite.
Outliers find_outliers(const std::vector<double>& values, EsdTable& table);
Outliers find_outliers(const std::vector<double>& values, double alpha = kOutlierAlpha);

// The p-quantile of Student's t distribution with df degrees of freedom
// (0 < p < 1, df > 0), to about 1e-9.
double student_t_quantile(double p, double df);

// The critical value of the generalized ESD test for a step with m values
// left, at level alpha: (m-1) t / sqrt((m-2+t^2) m), t the 1 - alpha/(2m)
// quantile of t with m-2 degrees of freedom (m >= 3).
double esd_critical(size_t m, double alpha);

} // namespace bootbench::core
