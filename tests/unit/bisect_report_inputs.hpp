#pragma once
// Bisections for the bisect report's tests (tests/unit/test_core_bisect_report.cpp
// and tests/report/bisect_render.cpp): fake states driven through
// start_bisect and record_run with chosen levels per build, the builds'
// commits, and the trees' diff of the final pair.
#include "core/bisect/bisect_report.hpp"

#include <functional>
#include <string>
#include <vector>

namespace bootbench::test {

// Every pending boot of `s` until it is done: `level(build)`, within +-1%
// from one boot to the next (a fixed pattern: the same boots every time).
inline core::BisectState run_to_end(core::BisectState s, const std::function<double(int)>& level) {
    for (int k = 0; !core::next_action(s).done && k < 2000; ++k) {
        int b = core::next_action(s).order.front();
        s = core::record_run(s, b, level(b) * (1 + 0.002 * ((k * 37) % 11 - 5)));
    }
    return s;
}

inline std::vector<std::string> build_names(int builds) {
    std::vector<std::string> names;
    for (int i = 0; i < builds; ++i)
        names.push_back("b" + std::to_string(i));
    return names;
}

// A bisection of a metric, lower is better unless `better` says otherwise.
inline core::BisectState run_bisect(int builds, const std::function<double(int)>& level,
                                    const core::BisectRules& rules = {},
                                    core::Better better = core::Better::lower) {
    std::string metric = better == core::Better::lower ? "boot_s" : "events_per_s";
    return run_to_end(core::start_bisect(build_names(builds), metric, better, 0.05, 1, rules),
                      level);
}

// 8 builds, b5 and later 10% slower.
inline core::BisectState culprit_bisect() {
    return run_bisect(8, [](int b) { return b >= 5 ? 110.0 : 100.0; });
}

inline core::BisectState no_regression_bisect() {
    return run_bisect(8, [](int) { return 100.0; });
}

// 6 builds; b2 lies halfway between good and bad, so it differs from both
// and stays undecided after its two rounds.
inline core::BisectState undecided_bisect() {
    core::BisectRules rules;
    rules.max_rounds = 2;
    return run_bisect(
        6, [](int b) { return b < 2    ? 100.0
                              : b == 2 ? 105.0
                                       : 110.0; }, rules);
}

inline std::vector<core::BuildInfo> build_infos(int builds,
                                                const std::string& hostile_subject = "") {
    std::vector<core::BuildInfo> out;
    for (int i = 0; i < builds; ++i) {
        std::string d = std::to_string(i + 1);
        out.push_back({"43.2026110" + d + ".0", std::string(64, static_cast<char>('a' + i)),
                       "Update build " + d, "43.2026110" + d + ".0",
                       "2026-11-0" + d + "T04:00:00Z"});
    }
    if (builds > 5)
        out[5].subject = "Add busyloop.service";
    if (builds > 5 && !hostile_subject.empty())
        out[5].subject = out[5].label = hostile_subject;
    return out;
}

inline core::TreeFacts before_tree() {
    core::TreeFacts f;
    f.kernels.push_back({"6.11.4-301.fc43.x86_64", {{"CONFIG_HZ", "1000"}}, ""});
    f.packages = {"rpm",
                  "",
                  {{"kernel", "6.11.4-301.fc43"}, {"bash", "5.2.37-1.fc43"}, {"oldtool", "1.0-1"}}};
    f.units = {{"sshd.service", "preset"}};
    f.sysctl = {{"vm.swappiness", "60"}};
    return f;
}

inline core::TreeFacts after_tree(const std::string& hostile = "") {
    core::TreeFacts f;
    f.kernels.push_back({"6.12.1-200.fc43.x86_64", {{"CONFIG_HZ", "300"}}, ""});
    f.packages = {"rpm",
                  "",
                  {{"kernel", "6.12.1-200.fc43"},
                   {"bash", "5.2.37-1.fc43"},
                   {"busyloop" + hostile, "1.0-1"}}};
    f.units = {{"sshd.service", "preset"}, {"busyloop.service", "usr: multi-user.target.wants"}};
    f.sysctl = {{"vm.swappiness", "10"}};
    return f;
}

// The input the runner gives the report: `state` must outlive it.
inline core::BisectReportInput report_input(const core::BisectState& state,
                                            const std::string& hostile = "") {
    core::BisectReportInput in;
    in.experiment = "which-build" + hostile;
    in.state = &state;
    in.builds = build_infos(static_cast<int>(state.builds.size()), hostile);
    in.changes.diff = core::diff_trees(before_tree(), after_tree(hostile));
    in.changes.cmdline_before = "root=UUID=1 rw ostree=/ostree/boot.1/fedora/aaa/0 quiet";
    in.changes.cmdline_after =
        "root=UUID=1 rw ostree=/ostree/boot.0/fedora/bbb/0 quiet mitigations=off" + hostile;
    return in;
}

// A subject nobody should trust: markup, an entity, quotes, bytes that are not UTF-8.
inline const std::string kHostile = "<script>alert(\"x\")</script> & 'it' \xff\xfe end";

} // namespace bootbench::test
