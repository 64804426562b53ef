#pragma once
// What the machine was like during a run, as every result stores it in its
// `environment` object: probed at each boot (sys/probe/probes), added to by
// the suite (temperatures, energy, boot times, CPU frequency, tools) and by
// the orchestrator (sandbox, quick, sleep inhibitor, machine id). Its JSON
// keys are written and read here only; the report compares runs by its
// fields (EnvField names them, key_of gives the key a message shows).
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace bootbench::core {

// One field as a result holds it: absent (a version from before the key, or
// nothing to say), null (looked for, and the machine has none), or a value.
// A file read and written back keeps which.
template <typename T> struct Recorded {
    std::optional<T> value;
    bool present = false; // in the JSON: null there when `value` is empty

    Recorded& operator=(std::optional<T> v) {
        value = std::move(v);
        present = true;
        return *this;
    }
    // The value, made present (default-made when it was empty): for a map
    // filled entry by entry.
    T& set() {
        present = true;
        return value ? *value : value.emplace();
    }
    bool operator==(const Recorded&) const = default;
};

struct EnvironmentRecord {
    // Probed at each boot; null where the machine has none.
    Recorded<std::string> kernel_release, kernel_version, cmdline, cpu_model;
    Recorded<long long> nproc;
    Recorded<std::string> smt;                              // the kernel's word in smt/control
    Recorded<nlohmann::json> governor, epp;                 // a string when every cpufreq policy agrees,
                                                            // else an object policy -> value
    Recorded<std::map<std::string, std::string>> mitigations; // vulnerability -> the kernel's text
    Recorded<std::string> sched_ext_state, sched_ext_ops;
    Recorded<nlohmann::json> sched_bore; // a number, or the file's text when it is none
    Recorded<bool> ac_power;
    Recorded<std::string> dmi_product, hostname, boot_id;
    // What can move a bench and differ between the arms or the boots, by a
    // stable key: "cmdline", "sysctl.vm.swappiness", "thp.enabled",
    // "vulnerability.spectre_v2", "config.CONFIG_HZ", ... (sys/probe/live_values);
    // a key the machine has no file for is absent. Absent in results of
    // versions before.
    Recorded<std::map<std::string, std::string>> live;
    // The suite's.
    Recorded<double> temp_start_c, temp_end_c;
    Recorded<std::string> temp_sensor;
    Recorded<std::string> energy;     // "RAPL: intel-rapl:0 (package-0)" or "no RAPL: why"
    Recorded<std::string> boot_times; // what was measured of the boot, or why nothing
    Recorded<long long> boot_finish_monotonic_us, benches_start_monotonic_us;
    Recorded<std::map<std::string, double>> cpu_freq_mhz; // bench -> average MHz; absent without cpufreq
    Recorded<std::string> tools_image;                     // "host", or the image and its ID
    // The orchestrator's.
    Recorded<bool> sandbox, quick; // present only when true
    Recorded<std::string> sleep_inhibitor;
    Recorded<bool> first_boot_after_switch;
    Recorded<std::string> machine_id; // a digest of /etc/machine-id with the experiment's name
    // Keys this version does not know, from a file another version wrote:
    // kept, and written back as they were.
    nlohmann::json unknown = nlohmann::json::object();

    bool operator==(const EnvironmentRecord&) const = default;
};

// The fields, for code that treats several alike (the report's comparisons,
// an import from another schema).
enum class EnvField {
    kernel_release, kernel_version, cmdline, cpu_model, nproc, smt, governor, epp, mitigations,
    sched_ext_state, sched_ext_ops, sched_bore, ac_power, dmi_product, hostname, boot_id, live,
    temp_start_c, temp_end_c, temp_sensor, energy, boot_times, boot_finish_monotonic_us,
    benches_start_monotonic_us, cpu_freq_mhz, tools_image, sandbox, quick, sleep_inhibitor,
    first_boot_after_switch, machine_id
};

// The field's JSON key, as messages name it.
const char* key_of(EnvField f);
// The field's value as JSON; null when absent or null.
nlohmann::json value_of(const EnvironmentRecord& e, EnvField f);

nlohmann::json to_json(const EnvironmentRecord& e);
// Throws bootbench::Error naming `where` and the field when a field is not of
// its type; keys this version does not know are kept (EnvironmentRecord::unknown).
EnvironmentRecord environment_record_from_json(const nlohmann::json& j, const std::string& where);
// Reads `key` of object `j` into field `f`, for a file of another schema that
// names bootbench's fields its own way: absent stays absent. Throws
// bootbench::Error naming `where` and `key` when it is not of the field's type.
void read_field(EnvironmentRecord& e, EnvField f, const nlohmann::json& j, const char* key, const std::string& where);

// `e` with every string (map keys and open values too) made valid UTF-8.
EnvironmentRecord with_valid_text(EnvironmentRecord e);

} // namespace bootbench::core
