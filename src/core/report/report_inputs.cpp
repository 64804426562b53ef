#include "core/report/report_inputs.hpp"

#include "core/report/render_text.hpp"
#include "core/report/report.hpp"
#include "core/report/report_reproduce.hpp"
#include "core/base/text.hpp"
#include "core/experiment/kinds/kinds.hpp"

#include <algorithm>
#include <set>

namespace bootbench::core {

namespace {

void differ(std::vector<std::string>& out, const std::string& what, const InputExperiment& a,
            const std::string& a_value, const InputExperiment& b, const std::string& b_value) {
    if (a_value != b_value)
        out.push_back(what + ": " + a.where + " " + a_value + "; " + b.where + " " + b_value);
}

using Differences = std::vector<std::pair<std::string, std::vector<std::string>>>;

void add_difference(Differences& out, const std::string& difference, const std::string& target) {
    auto same = std::find_if(out.begin(), out.end(), [&](const auto& d) { return d.first == difference; });
    if (same == out.end())
        same = out.insert(out.end(), {difference, {}});
    same->second.push_back(target);
}

// Each difference of one bench both inputs ran, with the targets it holds
// for, in target order.
Differences bench_differences(const InputExperiment& a, const InputExperiment& b, const std::string& bench) {
    Differences out;
    for (const auto& [target, benches] : a.commands) {
        auto other = b.commands.find(target);
        if (other == b.commands.end() || !benches.count(bench) || !other->second.count(bench))
            continue;
        const auto &mine = benches.at(bench), &theirs = other->second.at(bench);
        if (mine != theirs)
            add_difference(out, parameter_difference(a.where, join(mine, " / "), b.where, join(theirs, " / ")),
                           target);
    }
    return out;
}

void differ_benches(std::vector<std::string>& out, const InputExperiment& a, const InputExperiment& b) {
    std::set<std::string> benches; // every bench of a, in name order
    for (const auto& [target, list] : a.commands)
        for (const auto& [bench, commands] : list)
            benches.insert(bench);
    for (const auto& bench : benches) {
        auto differences = bench_differences(a, b, bench);
        for (const auto& [difference, targets] : differences)
            out.push_back("bench " + ascii_safe(bench) + (differences.size() == 1 ? "" : " of " + join(targets, ", ")) +
                          ": " + difference);
    }
}

// Each bench's command line as its kind compares it across machines of other
// CPU counts (a lab's).
RunResult benches_per_cpu(const RunResult& r) {
    RunResult out;
    out.benches = r.benches;
    const std::optional<long long>& n = r.environment.nproc.value;
    if (!n)
        return out;
    for (auto& b : out.benches)
        bench_kind(b.kind).per_cpu_argv(b.argv, static_cast<int>(*n));
    return out;
}

} // namespace

InputExperiment input_experiment(const std::string& where, const std::vector<const RunResult*>& runs) {
    InputExperiment e{where, runs.empty() ? "" : ascii_safe(runs.front()->experiment),
                      make_caption(runs).provenance_tag, {}};
    for (const RunResult* r : runs)
        note_commands(e.commands[r->target], benches_per_cpu(*r));
    return e;
}

std::vector<std::string> experiment_differences(const InputExperiment& a, const InputExperiment& b) {
    std::vector<std::string> out;
    if (!a.name.empty() && !b.name.empty())
        differ(out, "experiment", a, a.name, b, b.name);
    differ(out, "runs", a, a.provenance.empty() ? "measured" : a.provenance, b,
           b.provenance.empty() ? "measured" : b.provenance);
    differ_benches(out, a, b);
    return out;
}

} // namespace bootbench::core
