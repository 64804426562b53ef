#include "sys/ostree/tree_reader.hpp"

#include "core/base/error.hpp"
#include "core/deployment/kernel_config.hpp"
#include "core/deployment/package_db.hpp"
#include "core/deployment/systemd_conf.hpp"
#include "sys/process/subprocess.hpp"
#include "sys/store/files.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace bootbench::sys {

namespace {

constexpr double kRpmTimeoutS = 120;

fs::path join(const fs::path& tree, const std::vector<std::string>& parts) {
    fs::path out = tree;
    for (const std::string& p : parts)
        out /= p;
    return out;
}

void push_reversed(const fs::path& p, std::vector<std::string>& todo) {
    std::vector<std::string> parts;
    for (const fs::path& c : p.relative_path())
        parts.push_back(c.string());
    todo.insert(todo.end(), parts.rbegin(), parts.rend());
}

// The names in folder `dir` (links not followed), sorted; none when it is no folder.
std::vector<std::string> names_in(const fs::path& dir) {
    std::vector<std::string> out;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        out.push_back(it->path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

bool ends_with(const std::string& s, const std::string& tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

bool masked(const fs::path& file) {
    std::error_code ec;
    return fs::is_symlink(file, ec) && fs::read_symlink(file, ec) == "/dev/null";
}

// The deployment's /etc, relative to the tree.
fs::path etc_of(const fs::path& tree) {
    std::error_code ec;
    return fs::is_directory(in_tree(tree, "etc"), ec) ? "etc" : "usr/etc";
}

// ---- kernels

core::KernelFacts kernel_facts(const fs::path& tree, const std::string& version) {
    core::KernelFacts k{version, {}, ""};
    fs::path config = in_tree(tree, "usr/lib/modules/" + version + "/config");
    std::error_code ec;
    if (!fs::exists(config, ec))
        config = in_tree(tree, "boot/config-" + version); // Debian's kernel packages put it there
    if (!fs::exists(config, ec)) {
        k.problem = (tree / "usr/lib/modules" / version / "config").string() +
                    ": no such file (nor boot/config-" + version +
                    "): the kernel config options are unknown";
        return k;
    }
    try {
        k.config = core::parse_kernel_config(read_text_file(config), config.string());
    } catch (const Error& e) {
        k.problem = e.what();
    }
    return k;
}

std::vector<core::KernelFacts> kernels_of(const fs::path& tree) {
    std::vector<std::string> versions = names_in(in_tree(tree, "usr/lib/modules"));
    versions.erase(std::remove_if(versions.begin(), versions.end(),
                                  [&](const std::string& v) {
                                      std::error_code ec;
                                      return !fs::is_directory(
                                          in_tree(tree, "usr/lib/modules/" + v), ec);
                                  }),
                   versions.end());
    std::sort(versions.begin(), versions.end(), core::version_less);
    std::vector<core::KernelFacts> out;
    for (const std::string& v : versions)
        out.push_back(kernel_facts(tree, v));
    return out;
}

// ---- packages

// rpm-ostree's and bootc's place (usr/lib/sysimage/rpm, usr/share/rpm
// before Fedora 36), then a classic tree's; "" when none has a database.
fs::path rpm_db(const fs::path& tree) {
    for (const char* rel : {"usr/lib/sysimage/rpm", "usr/share/rpm", "var/lib/rpm"}) {
        fs::path dir = in_tree(tree, rel);
        std::error_code ec;
        for (const char* db : {"rpmdb.sqlite", "Packages", "Packages.db"})
            if (fs::exists(dir / db, ec))
                return dir;
    }
    return {};
}

// Debian trees made for ostree move var/lib/dpkg to usr/share/dpkg/database
// (apertis, Endless and the debos recipes: /var is not the commit's).
fs::path dpkg_status(const fs::path& tree) {
    for (const char* rel : {"usr/share/dpkg/database/status", "var/lib/dpkg/status"}) {
        fs::path p = in_tree(tree, rel);
        std::error_code ec;
        if (fs::exists(p, ec) || fs::is_symlink(p, ec))
            return p;
    }
    return {};
}

std::string first_line(const std::string& text) {
    std::string line = text.substr(0, text.find('\n'));
    return line.empty() ? "no message" : line;
}

// A copy of a tree's rpm database in a temporary folder, removed with it.
// rpm writes beside the database it reads (sqlite's -shm and -wal files), so
// it fails on a read-only /sysroot and would write into a deployment's /usr
// elsewhere; rpm-ostree queries a commit's rpmdb from such a copy too
// (rpmostree_checkout_only_rpmdb_tempdir).
class DbCopy {
  public:
    explicit DbCopy(const fs::path& db) {
        std::error_code ec;
        fs::path tmp = fs::temp_directory_path(ec);
        if (ec) // TMPDIR names no folder
            throw Error("no temporary folder for a copy of " + db.string() + ": TMPDIR " +
                        std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "(unset)") +
                        ": " + ec.message());
        std::string tmpl = (tmp / "bootbench-rpmdb-XXXXXX").string();
        if (!::mkdtemp(tmpl.data()))
            throw Error("cannot create a temporary folder " + tmpl + " for a copy of " +
                        db.string() + ": " + std::strerror(errno));
        path_ = tmpl;
        for (const std::string& name : names_in(db))
            copy_file(db / name, path_ / name);
    }
    ~DbCopy() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    DbCopy(const DbCopy&) = delete;
    DbCopy& operator=(const DbCopy&) = delete;
    const fs::path& path() const { return path_; }

  private:
    static void copy_file(const fs::path& from, const fs::path& to) {
        std::error_code ec;
        if (!fs::is_regular_file(from, ec))
            return;
        if (!fs::copy_file(from, to, ec))
            throw Error("cannot copy " + from.string() + " to " + to.string() + ": " +
                        ec.message());
    }
    fs::path path_;
};

core::PackageFacts rpm_query(const fs::path& db, const std::string& where) {
    core::PackageFacts p{"rpm", "", {}};
    Captured c = capture_process(
        {"rpm", "--dbpath", db.string(), "-qa", "--qf", core::kRpmQueryFormat}, kRpmTimeoutS);
    if (c.status != 0) {
        p.unknown = where + " " + describe(c.ending) + ": " + first_line(c.err);
        return p;
    }
    p.versions = core::parse_rpm_query(c.out, where);
    return p;
}

core::PackageFacts rpm_packages(const fs::path& db) {
    if (!find_program("rpm"))
        return {
            "rpm", "rpm not found: install rpm to read the tree's rpm database " + db.string(), {}};
    try {
        DbCopy copy(db);
        return rpm_query(copy.path(), "rpm -qa on a copy of " + db.string());
    } catch (const Error& e) {
        return {"rpm", e.what(), {}};
    }
}

core::PackageFacts dpkg_packages(const fs::path& status) {
    core::PackageFacts p{"dpkg", "", {}};
    try {
        p.versions = core::parse_dpkg_status(read_text_file(status), status.string());
    } catch (const Error& e) {
        p.unknown = e.what();
    }
    return p;
}

core::PackageFacts packages_of(const fs::path& tree) {
    if (fs::path db = rpm_db(tree); !db.empty())
        return rpm_packages(db);
    if (fs::path status = dpkg_status(tree); !status.empty())
        return dpkg_packages(status);
    return {"",
            "no package database in " + tree.string() +
                " (looked for usr/lib/sysimage/rpm, usr/share/rpm, var/lib/rpm, "
                "usr/share/dpkg/database/status, var/lib/dpkg/status)",
            {}};
}

// ---- systemd configuration folders

// The files ending in `suffix` in `dirs` (relative to the tree, highest
// precedence first), in systemd's order, with their texts ("" when masked).
std::vector<core::ConfText> conf_texts(const fs::path& tree, const std::vector<fs::path>& dirs,
                                       const std::string& suffix,
                                       std::vector<std::string>& warnings) {
    std::vector<core::ConfFile> found;
    for (size_t rank = 0; rank < dirs.size(); ++rank) {
        fs::path dir = in_tree(tree, dirs[rank]);
        for (const std::string& name : names_in(dir))
            if (ends_with(name, suffix))
                found.push_back({static_cast<int>(rank), name, (dir / name).string()});
    }
    std::vector<core::ConfText> out;
    for (const core::ConfFile& f : core::conf_files_in_order(found)) {
        if (masked(f.path)) {
            out.push_back({f.path, ""});
            continue;
        }
        try {
            out.push_back(
                {f.path, read_text_file(in_tree(tree, fs::path(f.path).lexically_relative(tree)))});
        } catch (const Error& e) {
            warnings.push_back(std::string(e.what()) + "; its settings are left out");
        }
    }
    return out;
}

core::FactMap sysctl_of(const fs::path& tree, std::vector<std::string>& warnings) {
    fs::path etc = etc_of(tree);
    auto files = conf_texts(
        tree, {etc / "sysctl.d", "run/sysctl.d", "usr/local/lib/sysctl.d", "usr/lib/sysctl.d"},
        ".conf", warnings);
    return core::effective_sysctl(files, warnings);
}

// Links in *.wants / *.requires folders: "etc: multi-user.target.wants".
void linked_units(const fs::path& tree, const fs::path& dir, const std::string& label,
                  core::FactMap& units) {
    fs::path root = in_tree(tree, dir);
    for (const std::string& sub : names_in(root))
        if (ends_with(sub, ".wants") || ends_with(sub, ".requires"))
            for (const std::string& unit : names_in(root / sub))
                core::add_fact(units, unit, label + ": " + sub);
}

// The unit files the tree has (not masked), for the presets to judge.
std::vector<std::string> unit_files(const fs::path& tree, const std::vector<fs::path>& dirs) {
    std::vector<std::string> out;
    for (const fs::path& dir : dirs) {
        fs::path root = in_tree(tree, dir);
        std::error_code ec;
        for (const std::string& name : names_in(root))
            if (name.find('.') != std::string::npos && !fs::is_directory(root / name, ec) &&
                !masked(root / name))
                out.push_back(name);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

core::FactMap units_of(const fs::path& tree, std::vector<std::string>& warnings) {
    fs::path etc = etc_of(tree);
    core::FactMap units;
    linked_units(tree, etc / "systemd/system", "etc", units);
    linked_units(tree, "usr/lib/systemd/system", "usr", units);
    auto presets = conf_texts(tree,
                              {etc / "systemd/system-preset", "usr/local/lib/systemd/system-preset",
                               "usr/lib/systemd/system-preset"},
                              ".preset", warnings);
    auto files = unit_files(tree, {etc / "systemd/system", "usr/lib/systemd/system"});
    for (const std::string& unit : core::preset_enabled(presets, files, warnings))
        core::add_fact(units, unit, "preset");
    return units;
}

} // namespace

fs::path in_tree(const fs::path& tree, const fs::path& rel) {
    std::vector<std::string> todo, done;
    push_reversed(rel, todo);
    for (int hops = 0; !todo.empty();) {
        std::string c = todo.back();
        todo.pop_back();
        if (c.empty() || c == ".")
            continue;
        if (c == "..") {
            if (!done.empty())
                done.pop_back();
            continue;
        }
        fs::path here = join(tree, done) / c;
        std::error_code ec;
        if (fs::is_symlink(here, ec) && ++hops <= 40) {
            fs::path target = fs::read_symlink(here, ec);
            if (target.is_absolute())
                done.clear();
            push_reversed(target, todo);
            continue;
        }
        done.push_back(c);
    }
    return join(tree, done);
}

core::TreeFacts read_tree_facts(const fs::path& tree) {
    core::TreeFacts f;
    f.kernels = kernels_of(tree);
    f.packages = packages_of(tree);
    f.units = units_of(tree, f.warnings);
    f.sysctl = sysctl_of(tree, f.warnings);
    return f;
}

} // namespace bootbench::sys
