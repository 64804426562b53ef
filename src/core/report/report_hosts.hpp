#pragma once
// The report across machines: when results come from more than one machine
// (environment.machine_id), a comparison per machine (core::build_report on
// that machine's runs) and a pooled one where machines are the top level.
// Pure.
#include "core/report/report.hpp"

#include <optional>
#include <string>
#include <vector>

namespace bootbench::core {

struct HostIdentity {
    std::string id;       // environment.machine_id; "" for results that have none
    std::string hostname; // "" when unknown
    std::string cpu_model;
    int cpus = 0;         // 0 when unknown
    std::string label;    // the name in the report: hostname, with the id when two share it
};

struct HostReport {
    HostIdentity host;
    size_t runs = 0;
    std::optional<Report> report; // absent when this machine's runs compare nothing
    std::string error;            // why the report is absent
};

// A metric over every machine that compared it.
struct PooledMetric {
    std::string key, label, unit;
    Better better = Better::lower;
    std::vector<std::string> hosts; // labels of the machines pooled
    std::vector<double> ratios;     // each machine's ratio, in the order of hosts
    std::vector<Verdict> verdicts;  // each machine's verdict
    double ratio = 1;               // geometric mean of ratios: > 1 the subject is better
    Interval ci;                    // NaN when there is none: see no_interval
    // Why there is no interval: a value is 0 or below, or a machine has
    // fewer than kMinRunsForInterval runs of a target (as on one machine).
    std::string no_interval;
    RankTest test;         // stratified by machine (stratified_rank_test)
    double p_adjusted = 1; // test.p_value by Holm over the pooled metrics
    // verdict_of, as on one machine: p_adjusted below kAlpha and the
    // interval, where there is one, excluding 1.00x.
    Verdict verdict = Verdict::same;
};

struct HostsReport {
    std::string title, baseline, subject;
    std::vector<HostReport> hosts; // by label
    std::vector<PooledMetric> pooled;
    std::vector<std::string> warnings;
};

// The identity a run's environment records.
HostIdentity host_of(const RunResult& r);
// Whether the runs come from more than one machine (by machine_id; runs
// without one count as one unknown machine).
bool spans_hosts(const std::vector<RunResult>& runs);

// Throws bootbench::Error (exit 2) like build_report when no machine's runs
// compare (the first machine's message), or for an excluded run that no
// machine has. An exclusion names a run id and applies on every machine.
HostsReport build_hosts_report(const ReportInput& input);

// "machine 'lab1' (Intel i7, 8 CPUs)".
std::string host_caption(const HostIdentity& h);

} // namespace bootbench::core
