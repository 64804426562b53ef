#pragma once
// Reading results for a report: results folders (runs/*.json in
// bootbench-run/1, and experiment.toml when present), published folders
// (flat *.json in margine-bench-kernel/1) and single result files.
#include "core/experiment/experiment.hpp"
#include "core/report/report.hpp"
#include "core/result/run_result.hpp"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace bootbench::sys {

struct ReportRequest {
    std::vector<std::filesystem::path> inputs; // results folders and/or result files
    std::string title;                          // "" = from the results
    std::string baseline;                       // "" = from the results / experiment file
    std::string subject;                        // "" = the first target that is not the baseline
    std::vector<std::pair<std::string, std::string>> exclude; // run id, reason
    std::filesystem::path out_prefix;           // e.g. results/x/report -> report.md, report.json...
    std::string incomplete{};                   // why the runs are not all there (core::ReportInput)
};

struct LoadedResults {
    std::vector<core::RunResult> runs;
    std::optional<core::Experiment> experiment; // the first input folder's experiment.toml
    std::filesystem::path experiment_file;
    std::string stopped{}; // the first input folder's adaptive.json: why it stopped
    std::map<std::string, std::string> stopped_by_machine{}; // machine id -> its folder's
    std::vector<core::ArmFacts> arms{}; // the first input folder's arms.json (what start read)
};

// Throws bootbench::Error (exit 2) naming the file: unreadable, not JSON, a
// schema bootbench does not read, a run id given twice, or no results at all.
LoadedResults read_results(const std::vector<std::filesystem::path>& inputs);

// The request merged with the experiment file: title, baseline, subject and
// exclusions (each with its reason) come from the request first.
core::ReportInput report_input(const ReportRequest& request, LoadedResults loaded);

// read_results + core::build_report.
core::Report load_report(const ReportRequest& request);

// <folder>/report for a single results folder of bootbench's (runs/ or its
// marker), else ./report: never into a published folder or one of files.
std::filesystem::path default_out_prefix(const std::vector<std::filesystem::path>& inputs);

} // namespace bootbench::sys
