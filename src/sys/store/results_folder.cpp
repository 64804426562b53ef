#include "sys/store/results_folder.hpp"

#include "core/base/error.hpp"
#include "core/base/json_bounds.hpp"
#include "core/deployment/arm_facts.hpp"
#include "core/report/report_formats.hpp"
#include "core/result/environment_record.hpp"
#include "sys/store/files.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <set>
#include <vector>

namespace bootbench::sys {

namespace {

// What bootbench writes at the top of a results folder: its files and a
// report in every format (core/report/report_formats).
std::set<std::string> own_names() {
    std::set<std::string> names = {kResultsMarker, "runs", "bootbench.log", "experiment.toml", "adaptive.json", core::kArmsFile};
    for (const auto& f : core::report_formats())
        names.insert(core::kReportBase + std::string(f.suffix));
    return names;
}

// Entries of `dir` that bootbench would not have written there: at the top,
// names it does not use; in runs/, anything but <run>.json files and <run>/
// folders.
std::vector<std::string> foreign_entries(const fs::path& dir) {
    std::vector<std::string> out;
    std::error_code ec;
    const std::set<std::string> own = own_names();
    for (const auto& e : fs::directory_iterator(dir, ec)) {
        std::string name = e.path().filename().string();
        if (!own.contains(name) || (name == "runs") != e.is_directory())
            out.push_back(name);
    }
    for (const auto& e : fs::directory_iterator(dir / "runs", ec)) {
        bool json = e.is_regular_file() && e.path().extension() == ".json";
        if (!json && !e.is_directory())
            out.push_back("runs/" + e.path().filename().string());
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::string listed(const std::vector<std::string>& names) {
    std::string s;
    for (size_t i = 0; i < names.size() && i < 5; ++i)
        s += (i ? ", " : "") + names[i];
    return names.size() > 5 ? s + " and " + std::to_string(names.size() - 5) + " more" : s;
}

bool is_own_folder(const fs::path& dir) {
    return fs::exists(dir / kResultsMarker) ||
           (fs::is_directory(dir / "runs") && fs::exists(dir / "bootbench.log"));
}

fs::path make_sibling(const fs::path& to, const std::string& tag) {
    std::string tmpl = to.string() + "." + tag + "-XXXXXX";
    if (!::mkdtemp(tmpl.data()))
        throw Error("cannot create folder " + tmpl + ": " + std::strerror(errno));
    return tmpl;
}

void copy_into(const fs::path& from, const fs::path& tmp, const fs::path& to) {
    std::error_code ec;
    fs::copy(from, tmp, fs::copy_options::recursive, ec);
    if (!ec) {
        try {
            write_file_atomic(tmp / kResultsMarker,
                              "bootbench results, copied from " + from.string() +
                                  "; bootbench replaces this folder whole when it is "
                                  "given as the results folder again\n");
            return;
        } catch (const Error&) {
            ec = std::make_error_code(std::errc::io_error);
        }
    }
    std::error_code ignored;
    fs::remove_all(tmp, ignored);
    throw Error("cannot copy the results from " + from.string() + " to " + tmp.string() + ": " +
                ec.message() + "; " + to.string() + " is unchanged");
}

// Swaps `tmp` in for the existing `to` with one atomic rename; where the file
// system cannot exchange, moves `to` aside first. Returns where the old is.
fs::path swap_in(const fs::path& tmp, const fs::path& to) {
    if (::renameat2(AT_FDCWD, tmp.c_str(), AT_FDCWD, to.c_str(), RENAME_EXCHANGE) == 0)
        return tmp;
    if (errno != EINVAL && errno != ENOSYS)
        throw Error("cannot replace " + to.string() + " with " + tmp.string() + ": " +
                    std::strerror(errno));
    fs::path old = make_sibling(to, "old");
    if (::rename(to.c_str(), old.c_str()) != 0 || ::rename(tmp.c_str(), to.c_str()) != 0)
        throw Error("cannot replace " + to.string() + " with " + tmp.string() + ": " +
                    std::strerror(errno) + "; the previous results are in " + old.string());
    return old;
}

// Where the folder is, without a trailing '/', so that the temp folder
// beside it is not made inside it ("out/" + ".new-XXXXXX").
fs::path folder_path(const fs::path& given) {
    fs::path p = fs::absolute(given).lexically_normal();
    return !p.has_filename() && p != p.root_path() ? p.parent_path() : p;
}

bool ran_on_sandbox(const fs::path& run_file) {
    try {
        nlohmann::json j = core::parse_bounded_json(read_text_file(run_file), run_file.string());
        return core::environment_record_from_json(j.at("environment"), run_file.string()).sandbox.value == true;
    } catch (const std::exception&) {
        return false;
    }
}

} // namespace

bool holds_measured_runs(const fs::path& dir) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir / "runs", ec))
        if (e.path().extension() == ".json" && !ran_on_sandbox(e.path()))
            return true;
    return false;
}

std::optional<fs::path> move_results_aside(const fs::path& dir, const std::string& now) {
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(dir, ec)))
        return std::nullopt;
    std::string base = folder_path(dir).string() + ".before-" + now;
    fs::path aside = base;
    for (int n = 2; fs::exists(fs::symlink_status(aside, ec)); ++n)
        aside = base + "-" + std::to_string(n);
    fs::rename(dir, aside, ec);
    if (ec)
        throw Error("cannot move the earlier results " + dir.string() + " aside to " + aside.string() + ": " +
                    ec.message() + "; nothing was changed");
    return aside;
}

std::optional<std::string> results_destination_problem(const fs::path& given) {
    fs::path dir = folder_path(given);
    std::error_code ec;
    fs::file_status st = fs::symlink_status(dir, ec);
    if (!fs::exists(st))
        return std::nullopt;
    if (!fs::is_directory(st))
        return dir.string() + " exists and is not a folder";
    if (fs::is_empty(dir, ec))
        return std::nullopt;
    if (ec)
        return "cannot read " + dir.string() + ": " + ec.message();
    if (!is_own_folder(dir))
        return dir.string() + " is not empty and is not a bootbench results folder (it has no " +
               kResultsMarker + ", nor runs/ and bootbench.log)";
    std::vector<std::string> foreign = foreign_entries(dir);
    if (!foreign.empty())
        return dir.string() + " holds files bootbench did not write (" + listed(foreign) + ")";
    return std::nullopt;
}

void check_results_destination(const fs::path& dir) {
    if (auto problem = results_destination_problem(dir))
        throw input_error(
            "cannot put the results in " + dir.string() + ": " + *problem +
            "; bootbench replaces only a results folder of its own: give a new or empty "
            "folder with --results, or move those files out");
}

void install_results_folder(const fs::path& from, const fs::path& given) {
    check_results_destination(given);
    fs::path to = folder_path(given);
    make_dirs(to.parent_path().empty() ? "." : to.parent_path());
    fs::path tmp = make_sibling(to, "new");
    copy_into(from, tmp, to);
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(to, ec))) {
        if (::rename(tmp.c_str(), to.c_str()) != 0)
            throw Error("cannot rename " + tmp.string() + " to " + to.string() + ": " +
                        std::strerror(errno) + "; the results are in " + tmp.string());
        return;
    }
    fs::path old = swap_in(tmp, to);
    fs::remove_all(old, ec);
    if (ec)
        throw Error("the results are in " + to.string() + ", but the previous ones in " +
                    old.string() + " could not be removed: " + ec.message());
}

} // namespace bootbench::sys
