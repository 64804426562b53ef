#include "core/result/environment_record.hpp"

#include "core/base/json_read.hpp"
#include "core/base/string_table.hpp"
#include "core/base/text.hpp"

namespace bootbench::core {

namespace {

using nlohmann::json;

constexpr Named<EnvField> kFieldKeys[] = {
    {"kernel_release", EnvField::kernel_release},
    {"kernel_version", EnvField::kernel_version},
    {"cmdline", EnvField::cmdline},
    {"cpu_model", EnvField::cpu_model},
    {"nproc", EnvField::nproc},
    {"smt", EnvField::smt},
    {"governor", EnvField::governor},
    {"epp", EnvField::epp},
    {"mitigations", EnvField::mitigations},
    {"sched_ext_state", EnvField::sched_ext_state},
    {"sched_ext_ops", EnvField::sched_ext_ops},
    {"sched_bore", EnvField::sched_bore},
    {"ac_power", EnvField::ac_power},
    {"dmi_product", EnvField::dmi_product},
    {"hostname", EnvField::hostname},
    {"boot_id", EnvField::boot_id},
    {"live", EnvField::live},
    {"temp_start_c", EnvField::temp_start_c},
    {"temp_end_c", EnvField::temp_end_c},
    {"temp_sensor", EnvField::temp_sensor},
    {"energy", EnvField::energy},
    {"boot_times", EnvField::boot_times},
    {"boot_finish_monotonic_us", EnvField::boot_finish_monotonic_us},
    {"benches_start_monotonic_us", EnvField::benches_start_monotonic_us},
    {"cpu_freq_mhz", EnvField::cpu_freq_mhz},
    {"tools_image", EnvField::tools_image},
    {"sandbox", EnvField::sandbox},
    {"quick", EnvField::quick},
    {"sleep_inhibitor", EnvField::sleep_inhibitor},
    {"first_boot_after_switch", EnvField::first_boot_after_switch},
    {"machine_id", EnvField::machine_id},
};

// Calls f(field, member) for every field: the one list that pairs each
// EnvField with its member (probed at boot, then the suite's, then the
// orchestrator's).
template <typename Record, typename F> void visit_fields(Record& e, F&& f) {
    f(EnvField::kernel_release, e.kernel_release);
    f(EnvField::kernel_version, e.kernel_version);
    f(EnvField::cmdline, e.cmdline);
    f(EnvField::cpu_model, e.cpu_model);
    f(EnvField::nproc, e.nproc);
    f(EnvField::smt, e.smt);
    f(EnvField::governor, e.governor);
    f(EnvField::epp, e.epp);
    f(EnvField::mitigations, e.mitigations);
    f(EnvField::sched_ext_state, e.sched_ext_state);
    f(EnvField::sched_ext_ops, e.sched_ext_ops);
    f(EnvField::sched_bore, e.sched_bore);
    f(EnvField::ac_power, e.ac_power);
    f(EnvField::dmi_product, e.dmi_product);
    f(EnvField::hostname, e.hostname);
    f(EnvField::boot_id, e.boot_id);
    f(EnvField::live, e.live);
    f(EnvField::temp_start_c, e.temp_start_c);
    f(EnvField::temp_end_c, e.temp_end_c);
    f(EnvField::temp_sensor, e.temp_sensor);
    f(EnvField::energy, e.energy);
    f(EnvField::boot_times, e.boot_times);
    f(EnvField::boot_finish_monotonic_us, e.boot_finish_monotonic_us);
    f(EnvField::benches_start_monotonic_us, e.benches_start_monotonic_us);
    f(EnvField::cpu_freq_mhz, e.cpu_freq_mhz);
    f(EnvField::tools_image, e.tools_image);
    f(EnvField::sandbox, e.sandbox);
    f(EnvField::quick, e.quick);
    f(EnvField::sleep_inhibitor, e.sleep_inhibitor);
    f(EnvField::first_boot_after_switch, e.first_boot_after_switch);
    f(EnvField::machine_id, e.machine_id);
}

template <typename T> json json_of(const Recorded<T>& f) {
    return f.value ? json(*f.value) : json(nullptr);
}

// A map's values: the type each must have, as a message says it.
bool holds(const json& v, const std::string*) {
    return v.is_string();
}
bool holds(const json& v, const double*) {
    return v.is_number();
}
const char* plural(const std::string*) {
    return "strings";
}
const char* plural(const double*) {
    return "numbers";
}

void read(const JsonReader& r, const char* key, std::optional<std::string>& v) {
    v = r.str(key);
}
void read(const JsonReader& r, const char* key, std::optional<long long>& v) {
    v = r.integer(key);
}
void read(const JsonReader& r, const char* key, std::optional<double>& v) {
    v = r.number(key);
}
void read(const JsonReader& r, const char* key, std::optional<bool>& v) {
    v = r.boolean(key);
}
void read(const JsonReader& r, const char* key, std::optional<json>& v) {
    v = r.raw()[key];
}

template <typename V>
void read(const JsonReader& r, const char* key, std::optional<std::map<std::string, V>>& v) {
    std::map<std::string, V>& m = v.emplace();
    for (const auto& [name, value] : r.object(key).items()) {
        if (!holds(value, static_cast<const V*>(nullptr)))
            r.fail(std::string("field '") + key + "' must be an object of " +
                   plural(static_cast<const V*>(nullptr)));
        m[name] = value.template get<V>();
    }
}

// Absent stays absent, null is present and empty, anything else must be of
// the field's type.
template <typename T> void read_recorded(const JsonReader& r, const char* key, Recorded<T>& f) {
    if (!r.raw().contains(key))
        return;
    f.present = true;
    if (!r.raw()[key].is_null())
        read(r, key, f.value);
}

void make_valid(std::optional<std::string>& v) {
    if (v)
        *v = valid_utf8(*v);
}

void make_valid(std::optional<json>& v) {
    if (v)
        *v = valid_utf8_strings(std::move(*v));
}

template <typename V> void make_valid(std::optional<std::map<std::string, V>>& v) {
    if (v)
        v = valid_utf8_strings(json(*v)).template get<std::map<std::string, V>>();
}

template <typename T> void make_valid(std::optional<T>&) {} // numbers and booleans

} // namespace

const char* key_of(EnvField f) {
    return name_of(kFieldKeys, f);
}

json value_of(const EnvironmentRecord& e, EnvField f) {
    json out;
    visit_fields(e, [&](EnvField field, const auto& member) {
        if (field == f)
            out = json_of(member);
    });
    return out;
}

json to_json(const EnvironmentRecord& e) {
    json j = e.unknown;
    visit_fields(e, [&](EnvField field, const auto& member) {
        if (member.present)
            j[key_of(field)] = json_of(member);
    });
    return j;
}

EnvironmentRecord environment_record_from_json(const json& j, const std::string& where) {
    if (!j.is_object())
        throw Error(where + ": expected an object");
    EnvironmentRecord e;
    JsonReader r(j, where);
    visit_fields(e, [&](EnvField field, auto& member) { read_recorded(r, key_of(field), member); });
    for (const auto& [key, value] : j.items())
        if (!value_of(kFieldKeys, key))
            e.unknown[key] = value;
    return e;
}

void read_field(EnvironmentRecord& e, EnvField f, const json& j, const char* key,
                const std::string& where) {
    JsonReader r(j, where);
    visit_fields(e, [&](EnvField field, auto& member) {
        if (field == f)
            read_recorded(r, key, member);
    });
}

EnvironmentRecord with_valid_text(EnvironmentRecord e) {
    visit_fields(e, [](EnvField, auto& member) { make_valid(member.value); });
    e.unknown = valid_utf8_strings(std::move(e.unknown));
    return e;
}

} // namespace bootbench::core
