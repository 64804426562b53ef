#include "core/stats/outliers.hpp"

#include "core/stats/stats.hpp"

#include <algorithm>
#include <cmath>

namespace bootbench::core {

namespace {

// Lentz's continued fraction for the regularized incomplete beta function.
double beta_fraction(double a, double b, double x) {
    const double tiny = 1e-300;
    double c = 1, d = 1 - (a + b) * x / (a + 1);
    d = 1 / (std::fabs(d) < tiny ? tiny : d);
    double h = d;
    for (int m = 1; m <= 400; ++m) {
        for (int odd = 0; odd < 2; ++odd) {
            double num = odd ? -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
                             : m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
            d = 1 + num * d;
            d = 1 / (std::fabs(d) < tiny ? tiny : d);
            c = 1 + num / c;
            c = std::fabs(c) < tiny ? tiny : c;
            h *= d * c;
        }
        if (std::fabs(d * c - 1) < 1e-15)
            break;
    }
    return h;
}

// I_x(a, b).
double incomplete_beta(double a, double b, double x) {
    if (x <= 0)
        return 0;
    if (x >= 1)
        return 1;
    double front = std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) +
                            a * std::log(x) + b * std::log1p(-x));
    if (x < (a + 1) / (a + b + 2))
        return front * beta_fraction(a, b, x) / a;
    return 1 - front * beta_fraction(b, a, 1 - x) / b;
}

double student_t_cdf(double t, double df) {
    double tail = 0.5 * incomplete_beta(df / 2, 0.5, df / (df + t * t));
    return t >= 0 ? 1 - tail : tail;
}

std::vector<double> on_log_scale(const std::vector<double>& v) {
    if (std::any_of(v.begin(), v.end(), [](double x) { return !(x > 0); }))
        return v;
    std::vector<double> out;
    for (double x : v)
        out.push_back(std::log(x));
    return out;
}

struct Extreme {
    size_t index = 0; // into the values still in
    double statistic = 0;
};

// The value farthest from the mean of those still in, in standard deviations.
Extreme most_extreme(const std::vector<double>& y, const std::vector<size_t>& in) {
    double mean = 0, m2 = 0;
    for (size_t i : in)
        mean += y[i] / static_cast<double>(in.size());
    for (size_t i : in)
        m2 += (y[i] - mean) * (y[i] - mean);
    double sd = std::sqrt(m2 / static_cast<double>(in.size() - 1));
    Extreme e;
    for (size_t k = 0; k < in.size() && sd > 0; ++k)
        if (std::fabs(y[in[k]] - mean) / sd > e.statistic)
            e = {k, std::fabs(y[in[k]] - mean) / sd};
    return e;
}

// The indices the test flags, before the kOutlierMinDeviation check.
std::vector<size_t> esd_flags(const std::vector<double>& y, const std::vector<double>& critical) {
    std::vector<size_t> in(y.size()), removed;
    for (size_t i = 0; i < in.size(); ++i)
        in[i] = i;
    size_t flagged = 0;
    for (size_t step = 1; step <= (y.size() - 1) / 2; ++step) {
        Extreme e = most_extreme(y, in);
        if (e.statistic > critical[step - 1])
            flagged = step; // the last step past its critical value counts
        removed.push_back(in[e.index]);
        in.erase(in.begin() + static_cast<long>(e.index));
    }
    removed.resize(flagged);
    return removed;
}

bool far_from(double value, double center) {
    double deviation = std::fabs(value - center);
    return center == 0 ? deviation > 0 : deviation / std::fabs(center) > kOutlierMinDeviation;
}

} // namespace

double student_t_quantile(double p, double df) {
    if (p < 0.5)
        return -student_t_quantile(1 - p, df);
    double lo = 0, hi = 1;
    while (student_t_cdf(hi, df) < p && hi < 1e12)
        hi *= 2;
    for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; ++i) {
        double mid = (lo + hi) / 2;
        (student_t_cdf(mid, df) < p ? lo : hi) = mid;
    }
    return (lo + hi) / 2;
}

double esd_critical(size_t m, double alpha) {
    auto n = static_cast<double>(m);
    double t = student_t_quantile(1 - alpha / (2 * n), n - 2);
    return (n - 1) * t / std::sqrt((n - 2 + t * t) * n);
}

// Step s tests the n - s + 1 values still in at level alpha / s.
const std::vector<double>& EsdTable::for_size(size_t n) {
    auto [it, fresh] = by_size_.try_emplace(n);
    for (size_t step = 1; fresh && step <= (n - 1) / 2; ++step)
        it->second.push_back(esd_critical(n - step + 1, alpha_ / static_cast<double>(step)));
    return it->second;
}

Outliers find_outliers(const std::vector<double>& values, double alpha) {
    EsdTable table(alpha);
    return find_outliers(values, table);
}

Outliers find_outliers(const std::vector<double>& values, EsdTable& table) {
    if (values.size() < 3 || !std::all_of(values.begin(), values.end(),
                                          [](double x) { return std::isfinite(x); }))
        return {};
    std::vector<size_t> flagged = esd_flags(on_log_scale(values), table.for_size(values.size()));
    std::vector<double> rest;
    for (size_t i = 0; i < values.size(); ++i)
        if (std::find(flagged.begin(), flagged.end(), i) == flagged.end())
            rest.push_back(values[i]);
    Outliers out{{}, median(rest)};
    for (size_t i : flagged)
        if (far_from(values[i], out.rest_median))
            out.indices.push_back(i);
    std::sort(out.indices.begin(), out.indices.end());
    return out;
}

} // namespace bootbench::core
