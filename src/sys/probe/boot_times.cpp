#include "sys/probe/boot_times.hpp"
#include "sys/probe/system_bus.hpp"

#include "sys/clock.hpp"
#include "sys/process/subprocess.hpp"

#include <gio/gio.h>
#include <memory>

namespace bootbench::sys {

namespace {

constexpr int kCallTimeoutMs = 5000;

using VariantPtr = std::unique_ptr<GVariant, decltype(&g_variant_unref)>;

std::string take_message(GError* error) {
    std::string text = error ? error->message : "unknown error";
    if (error)
        g_error_free(error);
    return text;
}

// The manager's properties as one a{sv}; nullptr with `problem` set.
VariantPtr manager_properties(GDBusConnection* bus, std::string& problem) {
    GError* error = nullptr;
    GVariant* reply = g_dbus_connection_call_sync(
        bus, "org.freedesktop.systemd1", "/org/freedesktop/systemd1", "org.freedesktop.DBus.Properties",
        "GetAll", g_variant_new("(s)", "org.freedesktop.systemd1.Manager"), G_VARIANT_TYPE("(a{sv})"),
        G_DBUS_CALL_FLAGS_NONE, kCallTimeoutMs, nullptr, &error);
    if (!reply) {
        problem = "no systemd manager on the system bus (" + take_message(error) + ")";
        return VariantPtr(nullptr, g_variant_unref);
    }
    VariantPtr all(g_variant_get_child_value(reply, 0), g_variant_unref);
    g_variant_unref(reply);
    return all;
}

uint64_t property_us(GVariant* all, const char* name) {
    guint64 value = 0;
    return g_variant_lookup(all, name, "t", &value) ? value : 0;
}

core::SystemdTimestamps timestamps_of(GVariant* all) {
    core::SystemdTimestamps t;
    t.firmware_us = property_us(all, "FirmwareTimestampMonotonic");
    t.loader_us = property_us(all, "LoaderTimestampMonotonic");
    t.initrd_us = property_us(all, "InitRDTimestampMonotonic");
    t.userspace_us = property_us(all, "UserspaceTimestampMonotonic");
    t.finish_us = property_us(all, "FinishTimestampMonotonic");
    t.security_start_us = property_us(all, "SecurityStartTimestampMonotonic");
    t.soft_reboots = property_us(all, "SoftRebootsCount");
    return t;
}

std::string seconds(double s) { return std::to_string(static_cast<long>(s)) + " s"; }

} // namespace

std::optional<core::SystemdTimestamps> SystemdBootTimes::read(std::string& problem) {
    GError* error = nullptr;
    GDBusConnection* bus = system_bus(&error);
    if (!bus) {
        problem = "no systemd manager on the system bus (" + take_message(error) + ")";
        return std::nullopt;
    }
    VariantPtr all = manager_properties(bus, problem);
    g_object_unref(bus);
    if (!all)
        return std::nullopt;
    return timestamps_of(all.get());
}

BootMeasurement measure_boot(BootTimesSource& source, Clock& clock, double max_wait_s,
                             const InterruptWatch* watch) {
    BootMeasurement out;
    std::string problem;
    double start = clock.monotonic_s();
    std::optional<core::SystemdTimestamps> t = source.read(problem);
    while (t && t->finish_us == 0 && clock.monotonic_s() - start < max_wait_s) {
        if (watch)
            watch->throw_if_interrupted("waiting for the boot to finish");
        clock.sleep_s(1);
        t = source.read(problem);
    }
    if (!t) {
        out.described = "not measured: " + problem;
    } else if (t->finish_us == 0) {
        out.described = "not measured: the boot had not finished after " + seconds(max_wait_s) +
                        " (FinishTimestampMonotonic is 0)";
    } else {
        out.metrics = core::boot_metrics(*t);
        out.described = "systemd: " + core::boot_summary(*t);
        out.finish_monotonic_us = t->finish_us;
    }
    return out;
}

} // namespace bootbench::sys
