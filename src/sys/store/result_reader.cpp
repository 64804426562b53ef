#include "sys/store/result_reader.hpp"

#include "core/bisect/bisect_config.hpp"
#include "sys/store/results_folder.hpp"

#include "core/base/parallel.hpp"

#include "core/base/error.hpp"
#include "core/base/json_bounds.hpp"
#include "core/report/published.hpp"
#include "core/report/report_formats.hpp"
#include "core/report/report_hosts.hpp"
#include "core/report/report_inputs.hpp"
#include "core/base/text.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <thread>

namespace bootbench::sys {

namespace fs = std::filesystem;

namespace {

// A deleter type, not decltype(&std::fclose): glibc 2.41 declares fclose
// nonnull, and GCC 14 warns that a function pointer type drops the attribute.
struct CloseFile {
    void operator()(std::FILE* f) const { std::fclose(f); }
};
// Why `path` cannot be read (errno `err`), and what to do about it.
Error cannot_read(const fs::path& path, int err) {
    std::string fix = err == ELOOP ? "a symbolic link that points to itself, directly or through others): "
                                     "remove it or point it at a result file"
                                   : "check the path and its permissions)";
    return input_error("cannot read " + path.string() + ": " + std::strerror(err) + " (" + fix);
}

std::string read_input(const fs::path& path) {
    std::unique_ptr<std::FILE, CloseFile> f(std::fopen(path.c_str(), "rb"));
    if (!f)
        throw cannot_read(path, errno);
    std::string text;
    char buf[65536];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f.get())) > 0)
        text.append(buf, n);
    if (std::ferror(f.get()))
        throw input_error("cannot read " + path.string() + ": " + std::strerror(errno));
    return text;
}

// Where a file came from: a report written into a published folder by an
// earlier `bootbench report` is skipped there, but is a mistake when named.
enum class Origin { folder, named };

std::optional<core::RunResult> parse_result(const fs::path& path, Origin origin) {
    const std::string where = path.string();
    nlohmann::json j;
    try {
        j = core::parse_bounded_json(read_input(path), where);
    } catch (const nlohmann::json::exception& e) { // a syntax error, a number out of range (1e999)
        throw input_error(where + ": not valid JSON (" + e.what() + "); fix or remove the file");
    }
    if (!j.is_object() || !j.contains("schema") || !j["schema"].is_string())
        throw input_error(where + ": no \"schema\" field; bootbench reads " + core::kRunSchema +
                          " and " + core::kPublishedSchema + " files");
    std::string schema = j["schema"].get<std::string>();
    if (schema == core::kReportSchema && origin == Origin::folder)
        return std::nullopt;
    if (schema == core::kReportSchema)
        throw input_error(where + ": this is a bootbench report, not a result; pass the results "
                                  "folder or its run files");
    if (schema == core::kPublishedSchema)
        return core::run_from_published(j, path.stem().string(), where);
    if (schema != core::kRunSchema)
        throw input_error(where + ": schema '" + schema + "' is not one bootbench reads (" +
                          core::kRunSchema + " or " + core::kPublishedSchema + ")");
    try {
        return core::run_result_from_json(j, where);
    } catch (const Error& e) {
        throw input_error(e.what());
    } catch (const nlohmann::json::exception& e) {
        throw input_error(where + ": " + e.what());
    }
}

std::vector<fs::path> json_files_in(const fs::path& dir) {
    std::vector<fs::path> out;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        std::error_code type;
        bool regular = it->path().extension() == ".json" && it->is_regular_file(type);
        if (type && type != std::errc::no_such_file_or_directory) // a dangling link is skipped, a loop is not
            throw cannot_read(it->path(), type.value());
        if (regular)
            out.push_back(it->path());
    }
    if (ec)
        throw input_error("cannot list " + dir.string() + ": " + ec.message());
    std::sort(out.begin(), out.end());
    return out;
}

// A results folder has runs/; a published folder has the files at its top.
std::vector<fs::path> files_of(const fs::path& input) {
    std::error_code ec;
    if (!fs::is_directory(input, ec))
        return {input};
    fs::path runs = input / "runs";
    std::vector<fs::path> files = json_files_in(fs::is_directory(runs, ec) ? runs : input);
    if (files.empty())
        throw input_error(input.string() + ": no results (expected runs/*.json or *.json files)");
    return files;
}

// A bisection's file: its experiment without targets (each build's runs name
// theirs), good's build the baseline once bisect.json names it.
core::Experiment bisect_experiment(const fs::path& input, const std::string& text, const fs::path& file) {
    core::Experiment e = core::parse_bisect(text, file.string()).experiment;
    std::error_code ec;
    if (!fs::is_regular_file(input / "bisect.json", ec))
        return e;
    nlohmann::json j = core::parse_bounded_json(read_input(input / "bisect.json"), (input / "bisect.json").string());
    if (j.is_object() && j.contains("builds") && j["builds"].is_array() && !j["builds"].empty() &&
        j["builds"][0].is_object() && j["builds"][0].value("label", nlohmann::json()).is_string())
        e.baseline = j["builds"][0]["label"].get<std::string>();
    return e;
}

void read_experiment(const fs::path& input, LoadedResults& out) {
    std::error_code ec;
    fs::path file = input / "experiment.toml";
    if (out.experiment || !fs::is_directory(input, ec) || !fs::exists(file, ec))
        return;
    std::string text = read_input(file);
    out.experiment = core::names_bisect(text) ? bisect_experiment(input, text, file)
                                              : core::parse_experiment(text, file.string());
    out.experiment_file = file;
}

// An adaptive experiment's adaptive.json (sys/orchestrator): why it stopped;
// "" when the folder has none.
std::string read_stopped(const fs::path& input) {
    std::error_code ec;
    fs::path file = input / "adaptive.json";
    if (!fs::is_regular_file(file, ec))
        return "";
    nlohmann::json j;
    try {
        j = core::parse_bounded_json(read_input(file), file.string());
    } catch (const nlohmann::json::exception& e) {
        throw input_error(file.string() + ": not valid JSON (" + e.what() + "); fix or remove the file");
    }
    if (j.is_object() && j.contains("stopped") && j["stopped"].is_string())
        return j["stopped"].get<std::string>();
    return "";
}

// What start read of the targets' deployments (sys/ostree/arms_record);
// none when the folder has no arms.json (results of versions before).
std::vector<core::ArmFacts> read_arms(const fs::path& input) {
    std::error_code ec;
    fs::path file = input / core::kArmsFile;
    if (!fs::is_regular_file(file, ec))
        return {};
    try {
        return core::arms_from_json(core::parse_bounded_json(read_input(file), file.string()), file.string());
    } catch (const nlohmann::json::exception& e) {
        throw input_error(file.string() + ": not valid JSON (" + e.what() + "); fix or remove the file");
    } catch (const Error& e) {
        throw input_error(std::string(e.what()) + "; fix or remove the file");
    }
}

// A run id already read, from which file and machine.
struct Seen {
    fs::path file;
    core::HostIdentity host;
};

// One run id twice on one machine id: the same file given twice, or two
// machines cloned from one image (one /etc/machine-id, other hostnames).
Error twice_error(const core::RunResult& r, const Seen& first, const fs::path& file) {
    core::HostIdentity host = core::host_of(r);
    if (host.id.empty() || host.hostname.empty() || first.host.hostname.empty() ||
        host.hostname == first.host.hostname)
        return input_error("run '" + r.run_id + "' appears twice: in " + first.file.string() + " and " +
                           file.string() + "; pass only one of them");
    return input_error(first.file.string() + " (host " + first.host.hostname + ") and " + file.string() +
                       " (host " + host.hostname + ") have the same machine id " + host.id +
                       ": the machines were cloned from one image and share /etc/machine-id, so their runs "
                       "cannot be told apart. Give each machine a new id (sudo sh -c 'systemd-id128 new > "
                       "/etc/machine-id', then reboot) and run the experiment again, or report each machine's "
                       "folder on its own");
}

// Parses the files on every core: with thousands of runs, JSON parsing is
// most of a report's time. Results keep the files' order, and when several
// files are bad the error is the first file's, as a sequential read would give.
std::vector<std::optional<core::RunResult>> parse_all(const std::vector<fs::path>& files,
                                                      Origin origin) {
    std::vector<std::optional<core::RunResult>> out(files.size());
    size_t workers = std::clamp<size_t>(files.size() / 256, 1, core::cores());
    core::parallel_indices(files.size(), workers, [&](size_t i) { out[i] = parse_result(files[i], origin); });
    return out;
}

// Several inputs are machines (or nights) of one experiment: another
// experiment's folder is refused, naming what differs from the first's.
void check_same_experiment(const std::vector<fs::path>& inputs, const std::vector<core::RunResult>& runs,
                           const std::vector<size_t>& first_run_of) {
    if (inputs.size() < 2)
        return;
    std::vector<core::InputExperiment> seen;
    for (size_t i = 0; i < inputs.size(); ++i) {
        std::vector<const core::RunResult*> mine;
        for (size_t r = first_run_of[i]; r < (i + 1 < inputs.size() ? first_run_of[i + 1] : runs.size()); ++r)
            mine.push_back(&runs[r]);
        seen.push_back(core::input_experiment(inputs[i].string(), mine));
        auto differences = core::experiment_differences(seen.front(), seen.back());
        if (!differences.empty())
            throw input_error("cannot report " + seen.front().where + " and " + seen.back().where +
                              " together: they are different experiments (" + core::join(differences, "; ") +
                              "); report each folder on its own");
    }
}

} // namespace

LoadedResults read_results(const std::vector<fs::path>& inputs) {
    if (inputs.empty())
        throw input_error("no results given: pass a results folder or result files");
    LoadedResults out;
    std::map<std::string, Seen> seen;
    std::vector<size_t> first_run_of;
    for (const auto& input : inputs) {
        first_run_of.push_back(out.runs.size());
        read_experiment(input, out);
        std::string stopped = read_stopped(input);
        if (out.stopped.empty())
            out.stopped = stopped;
        if (out.arms.empty())
            out.arms = read_arms(input);
        std::error_code ec;
        Origin origin = fs::is_directory(input, ec) ? Origin::folder : Origin::named;
        std::vector<fs::path> files = files_of(input);
        std::vector<std::optional<core::RunResult>> runs = parse_all(files, origin);
        for (size_t i = 0; i < files.size(); ++i) {
            if (!runs[i])
                continue;
            core::RunResult& r = *runs[i];
            const fs::path& file = files[i];
            // Every machine of a lab runs the same run ids: a run is one per machine.
            auto [it, fresh] = seen.emplace(core::host_of(r).id + "/" + r.run_id, Seen{file, core::host_of(r)});
            if (!fresh)
                throw twice_error(r, it->second, file);
            r.source = file.string();
            if (!stopped.empty()) // each machine's folder says why that machine stopped
                out.stopped_by_machine[core::host_of(r).id] = stopped;
            out.runs.push_back(std::move(r));
        }
    }
    check_same_experiment(inputs, out.runs, first_run_of);
    return out;
}

core::ReportInput report_input(const ReportRequest& request, LoadedResults loaded) {
    core::ReportInput in;
    in.runs = std::move(loaded.runs);
    in.title = request.title;
    in.baseline = request.baseline;
    in.subject = request.subject;
    in.stopped = loaded.stopped;
    in.stopped_by_machine = std::move(loaded.stopped_by_machine);
    in.incomplete = request.incomplete;
    in.arms = std::move(loaded.arms);
    for (const auto& [run, reason] : request.exclude)
        in.exclude.push_back({run, reason});
    if (const auto& e = loaded.experiment) {
        if (in.title.empty())
            in.title = e->title;
        if (in.baseline.empty())
            in.baseline = e->baseline;
        if (in.subject.empty() && in.baseline == e->baseline && e->targets.size() > 1)
            in.subject = e->subject().name;
        for (const auto& run : e->report.exclude)
            in.exclude.push_back(
                {run, "listed in " + loaded.experiment_file.string() + " [report] exclude"});
        in.varied_keys = core::varied_environment_keys(*e);
        in.per_watt = e->report.per_watt;
        in.settle_s = e->conditions.settle_s;
    }
    return in;
}

core::Report load_report(const ReportRequest& request) {
    return core::build_report(report_input(request, read_results(request.inputs)));
}

fs::path default_out_prefix(const std::vector<fs::path>& inputs) {
    std::error_code ec;
    bool own_folder = inputs.size() == 1 && (fs::exists(inputs[0] / kResultsMarker, ec) ||
                                             fs::is_directory(inputs[0] / "runs", ec));
    return own_folder ? inputs[0] / core::kReportBase : fs::path(core::kReportBase);
}

} // namespace bootbench::sys
