#include "sys/probe/live_values.hpp"

#include "core/base/error.hpp"
#include "core/deployment/bls.hpp"
#include "core/deployment/kernel_config.hpp"
#include "sys/probe/probes.hpp"
#include "sys/store/files.hpp"

#include <fstream>
#include <gio/gio.h>
#include <set>
#include <sstream>

namespace bootbench::sys {

namespace {

namespace fs = std::filesystem;

// Beside every kernel.sched_*: the sysctls a distribution, tuned or a
// gaming image sets that change scheduling, memory or timer behaviour.
constexpr const char* kSysctls[] = {
    "kernel.numa_balancing", "kernel.timer_migration", "kernel.nmi_watchdog",
    "kernel.watchdog", "kernel.split_lock_mitigate", "kernel.perf_event_paranoid",
    "kernel.randomize_va_space", "vm.swappiness", "vm.dirty_ratio",
    "vm.dirty_background_ratio", "vm.dirty_bytes", "vm.dirty_background_bytes",
    "vm.dirty_expire_centisecs", "vm.dirty_writeback_centisecs", "vm.overcommit_memory",
    "vm.vfs_cache_pressure", "vm.zone_reclaim_mode", "vm.compaction_proactiveness",
    "vm.min_free_kbytes", "vm.watermark_scale_factor", "vm.stat_interval", "vm.max_map_count",
    "vm.page-cluster", "vm.nr_hugepages"};

// Runs of blanks as one space: several sysctls separate fields by tabs.
std::string one_line(const std::string& text) {
    std::istringstream in(text);
    std::string word, out;
    while (in >> word)
        out += (out.empty() ? "" : " ") + word;
    return out;
}

void put(LiveValues& out, const std::string& key, const std::optional<std::string>& value) {
    if (value)
        out[key] = one_line(*value);
}

std::string sysctl_path(std::string name) {
    for (char& c : name)
        if (c == '.')
            c = '/';
    return "proc/sys/" + name;
}

void add_sysctls(const fs::path& root, LiveValues& out) {
    for (const char* name : kSysctls)
        put(out, std::string("sysctl.") + name, read_probe(root / sysctl_path(name)));
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(root / "proc/sys/kernel", ec)) {
        std::string name = e.path().filename().string();
        if (name.rfind("sched_", 0) == 0 && e.is_regular_file(ec))
            put(out, "sysctl.kernel." + name, read_probe(e.path()));
    }
}

// "always [madvise] never" -> "madvise": the kernel brackets the choice.
std::optional<std::string> bracketed(const std::optional<std::string>& text) {
    if (!text)
        return std::nullopt;
    size_t open = text->find('['), close = text->find(']');
    if (open == std::string::npos || close == std::string::npos || close < open)
        return text;
    return text->substr(open + 1, close - open - 1);
}

// Every distinct value of a /proc/cpuinfo field ("microcode"), ", "-joined.
std::optional<std::string> cpuinfo_values(const fs::path& root, const std::string& field) {
    std::ifstream in(root / "proc/cpuinfo");
    std::set<std::string> values;
    std::string line;
    while (std::getline(in, line)) {
        size_t colon = line.find(':');
        if (colon != std::string::npos && one_line(line.substr(0, colon)) == field)
            values.insert(one_line(line.substr(colon + 1)));
    }
    if (values.empty())
        return std::nullopt;
    std::string out;
    for (const auto& v : values)
        out += (out.empty() ? "" : ", ") + v;
    return out;
}

// `key=` of a key file's lines ("Profile=" of power-profiles-daemon's state).
std::optional<std::string> key_file_value(const fs::path& file, const std::string& key) {
    std::ifstream in(file);
    std::string line;
    while (std::getline(in, line))
        if (line.rfind(key + "=", 0) == 0)
            return line.substr(key.size() + 1);
    return std::nullopt;
}

void add_vulnerabilities(const fs::path& root, LiveValues& out) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(root / "sys/devices/system/cpu/vulnerabilities", ec))
        put(out, "vulnerability." + e.path().filename().string(), read_probe(e.path()));
}

// A gzip file unpacked with GIO's zlib converter (/proc/config.gz, which
// CONFIG_IKCONFIG_PROC kernels have); nullopt when absent, damaged or larger
// than a kernel config can be.
std::optional<std::string> gunzip(const fs::path& file) {
    constexpr size_t kMaxBytes = 16u << 20;
    g_autoptr(GFile) f = g_file_new_for_path(file.c_str());
    g_autoptr(GFileInputStream) raw = g_file_read(f, nullptr, nullptr);
    if (!raw)
        return std::nullopt;
    g_autoptr(GZlibDecompressor) z = g_zlib_decompressor_new(G_ZLIB_COMPRESSOR_FORMAT_GZIP);
    g_autoptr(GInputStream) in = g_converter_input_stream_new(G_INPUT_STREAM(raw), G_CONVERTER(z));
    std::string out;
    char buf[65536];
    for (gssize n; (n = g_input_stream_read(in, buf, sizeof buf, nullptr, nullptr)) != 0;) {
        if (n < 0 || out.size() + static_cast<size_t>(n) > kMaxBytes)
            return std::nullopt;
        out.append(buf, static_cast<size_t>(n));
    }
    return out;
}

// The running kernel's config: where an ostree deployment keeps it, then
// /boot/config-RELEASE and /proc/config.gz (what the Margine script reads).
std::optional<std::pair<std::string, fs::path>> kernel_config_text(const fs::path& root, const std::string& release) {
    std::error_code ec;
    for (const fs::path& file : {root / "usr/lib/modules" / release / "config", root / "boot" / ("config-" + release)})
        if (fs::is_regular_file(file, ec))
            return std::pair{read_text_file(file), file};
    if (auto text = gunzip(root / "proc/config.gz"))
        return std::pair{*text, root / "proc/config.gz"};
    return std::nullopt;
}

void add_kernel_config(const fs::path& root, const std::string& release, LiveValues& out) {
    try { // a config that cannot be read or is damaged says nothing: its options stay absent
        if (auto config = kernel_config_text(root, release))
            for (const auto& [name, value] : core::parse_kernel_config(config->first, config->second.string()))
                out["config." + name] = value;
    } catch (const Error&) {
    }
}

// The booted deployment's origin: the image (a signed bootc one names
// ostree-image-signed) or the refspec, through the kernel's ostree= path.
std::optional<std::string> booted_origin(const fs::path& root, const std::string& cmdline) {
    std::string ostree = core::ostree_karg(cmdline);
    if (ostree.empty())
        return std::nullopt;
    std::error_code ec;
    fs::path dir = fs::canonical(root / fs::path(ostree).relative_path(), ec);
    if (ec)
        return std::nullopt;
    fs::path origin = dir;
    origin += ".origin";
    if (auto image = key_file_value(origin, "container-image-reference"))
        return image;
    return key_file_value(origin, "refspec");
}

} // namespace

LiveValues probe_live(const fs::path& root) {
    LiveValues out;
    auto cmdline = read_probe(root / "proc/cmdline");
    put(out, "cmdline", cmdline);
    auto release = read_probe(root / "proc/sys/kernel/osrelease");
    put(out, "kernel.release", release);
    add_sysctls(root, out);
    fs::path thp = root / "sys/kernel/mm/transparent_hugepage";
    put(out, "thp.enabled", bracketed(read_probe(thp / "enabled")));
    put(out, "thp.defrag", bracketed(read_probe(thp / "defrag")));
    put(out, "sched_ext.state", read_probe(root / "sys/kernel/sched_ext/state"));
    put(out, "sched_ext.ops", read_probe(root / "sys/kernel/sched_ext/root/ops"));
    put(out, "tuned.profile", read_probe(root / "etc/tuned/active_profile"));
    put(out, "power-profiles-daemon.profile",
        key_file_value(root / "var/lib/power-profiles-daemon/state.ini", "Profile"));
    add_vulnerabilities(root, out);
    put(out, "cpu.microcode", cpuinfo_values(root, "microcode"));
    if (release)
        add_kernel_config(root, *release, out);
    if (cmdline)
        put(out, "deployment.origin", booted_origin(root, *cmdline));
    return out;
}

} // namespace bootbench::sys
