#include "sys/probe/sleep_inhibitor.hpp"
#include "sys/probe/system_bus.hpp"

#include <gio/gio.h>
#include <gio/gunixfdlist.h>
#include <unistd.h>

namespace bootbench::sys {

namespace {

constexpr int kCallTimeoutMs = 5000;

std::string problem_of(const char* doing, GError* error) {
    std::string text = std::string("cannot take logind's sleep inhibitor: ") + doing + " (" +
                       (error ? error->message : "unknown error") + ")";
    g_clear_error(&error);
    return text;
}

// The fd at the reply's handle, -1 with `problem` set.
int fd_of(GVariant* reply, GUnixFDList* fds, std::string& problem) {
    gint32 index = -1;
    g_variant_get(reply, "(h)", &index);
    GError* error = nullptr;
    int fd = fds ? g_unix_fd_list_get(fds, index, &error) : -1; // a dup: the list closes its own
    if (fd < 0)
        problem = problem_of("logind's reply carries no file descriptor", error);
    return fd;
}

int inhibit(GDBusConnection* bus, const std::string& why, std::string& problem) {
    GError* error = nullptr;
    GUnixFDList* fds = nullptr;
    GVariant* reply = g_dbus_connection_call_with_unix_fd_list_sync(
        bus, "org.freedesktop.login1", "/org/freedesktop/login1", "org.freedesktop.login1.Manager", "Inhibit",
        g_variant_new("(ssss)", "sleep:idle", "bootbench", why.c_str(), "block"), G_VARIANT_TYPE("(h)"),
        G_DBUS_CALL_FLAGS_NONE, kCallTimeoutMs, nullptr, &fds, nullptr, &error);
    if (!reply) {
        problem = problem_of("Inhibit on org.freedesktop.login1 failed", error);
        return -1;
    }
    int fd = fd_of(reply, fds, problem);
    g_variant_unref(reply);
    if (fds)
        g_object_unref(fds);
    return fd;
}

} // namespace

Inhibition::~Inhibition() {
    if (fd_ >= 0)
        ::close(fd_);
}

Inhibition& Inhibition::operator=(Inhibition&& other) noexcept {
    if (this != &other) {
        if (fd_ >= 0)
            ::close(fd_);
        fd_ = other.fd_;
        other.fd_ = -1;
    }
    return *this;
}

Inhibition LogindInhibitor::take(const std::string& why, std::string& problem) {
    GError* error = nullptr;
    GDBusConnection* bus = system_bus(&error);
    if (!bus) {
        problem = problem_of("no system bus", error);
        return Inhibition();
    }
    int fd = inhibit(bus, why, problem);
    g_object_unref(bus);
    return Inhibition(fd);
}

std::string describe_inhibition(const Inhibition& held, const std::string& problem) {
    return held.held() ? "held (logind block sleep:idle)" : "not held: " + problem;
}

} // namespace bootbench::sys
