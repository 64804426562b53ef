#pragma once
// Does a fresh experiment reproduce published numbers? Per metric: the
// published ratio of medians against the fresh ratio and its bootstrap
// interval. Pure.
#include "core/report/report.hpp"

#include <string>
#include <vector>

namespace bootbench::core {

enum class Reproduction { reproduced, not_reproduced, not_comparable, inconclusive };
inline constexpr Named<Reproduction> kReproductionNames[] = {{"reproduced", Reproduction::reproduced},
                                                             {"not reproduced", Reproduction::not_reproduced},
                                                             {"not comparable", Reproduction::not_comparable},
                                                             {"inconclusive", Reproduction::inconclusive}};

struct ReproduceRow {
    std::string key, unit;
    Better better = Better::lower;
    double published_ratio = 1;
    std::optional<Comparison> fresh;
    Reproduction verdict = Reproduction::inconclusive;
    std::string why; // one clause a reader can check
};

// For every metric that the published report compares:
//   reproduced      the published ratio lies in the fresh 95% interval and
//                   the interval excludes 1.00x on the same side (the
//                   direction agrees and is established);
//   not reproduced  the published ratio lies outside the fresh interval;
//   inconclusive    no fresh comparison, fewer than 2 fresh runs of a
//                   target, or an interval that includes 1.00x;
//   not comparable  every metric, whatever the above would say, when the
//                   runs differ in what matters (below).
std::vector<ReproduceRow> compare_reproduction(const Report& published, const Report& fresh);

// What makes the fresh runs another experiment than the published ones:
// a sandbox or --quick on either side, another CPU model or count, another
// kernel booted for the baseline or the subject, a bench run with other
// parameters (its command inside the tools container, word by word: "bench
// sysbench-threads: published --time=30; fresh --time=3"). Empty when nothing
// known differs (a side that does not say is not held against it).
std::vector<std::string> environment_differences(const Report& published, const Report& fresh);

// "A -l 1000; B -l 100": the parameters of a bench's command that each side
// alone has (an option and its value together), or both whole commands when
// they differ only in order. What reproduce and `report` over several
// folders say of a bench run with other parameters.
std::string parameter_difference(const std::string& a_name, const std::string& a_command,
                                 const std::string& b_name, const std::string& b_command);

const char* to_string(Reproduction r);
// A plain-text table for the terminal, one row per metric.
std::string render_reproduction(const std::vector<ReproduceRow>& rows);

} // namespace bootbench::core
