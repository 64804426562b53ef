// A stand-in for systemd-logind on a private bus, for the sleep inhibitor's
// tests. As logind does, Inhibit(what, who, why, mode) answers with one end
// of a pipe (logind: a FIFO) and keeps the other: the inhibitor lasts until
// every copy of the returned descriptor is closed, seen here as a hang-up.
//   fake-logind serve ADDRESS   own org.freedesktop.login1, print "ready"
//   fake-logind list ADDRESS    print each held inhibitor: "WHAT WHO MODE: WHY"
#include <gio/gio.h>
#include <gio/gunixfdlist.h>
#include <poll.h>
#include <cstdio>
#include <cstring>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

const char* kXml = "<node><interface name='org.freedesktop.login1.Manager'>"
                   "<method name='Inhibit'><arg type='s' direction='in'/><arg type='s' direction='in'/>"
                   "<arg type='s' direction='in'/><arg type='s' direction='in'/>"
                   "<arg type='h' direction='out'/></method>"
                   "<method name='ListInhibitors'><arg type='a(ssssuu)' direction='out'/></method>"
                   "</interface></node>";

struct Held {
    std::string what, who, why, mode;
    int read_end;
};
std::vector<Held> held;

bool released(int fd) {
    struct pollfd p = {fd, POLLIN, 0};
    return ::poll(&p, 1, 0) > 0 && (p.revents & (POLLHUP | POLLIN));
}

void inhibit(GVariant* params, GDBusMethodInvocation* call) {
    const char *what, *who, *why, *mode;
    g_variant_get(params, "(&s&s&s&s)", &what, &who, &why, &mode);
    int ends[2];
    if (::pipe(ends) != 0) {
        g_dbus_method_invocation_return_error(call, G_IO_ERROR, G_IO_ERROR_FAILED, "pipe failed");
        return;
    }
    held.push_back({what, who, why, mode, ends[0]});
    GUnixFDList* fds = g_unix_fd_list_new_from_array(&ends[1], 1); // takes the write end
    g_dbus_method_invocation_return_value_with_unix_fd_list(call, g_variant_new("(h)", 0), fds);
    g_object_unref(fds);
}

void list(GDBusMethodInvocation* call) {
    GVariantBuilder b;
    g_variant_builder_init(&b, G_VARIANT_TYPE("a(ssssuu)"));
    for (const auto& h : held)
        if (!released(h.read_end))
            g_variant_builder_add(&b, "(ssssuu)", h.what.c_str(), h.who.c_str(), h.why.c_str(), h.mode.c_str(),
                                  0u, 0u);
    g_dbus_method_invocation_return_value(call, g_variant_new("(a(ssssuu))", &b));
}

void on_call(GDBusConnection*, const char*, const char*, const char*, const char* method, GVariant* params,
             GDBusMethodInvocation* call, gpointer) {
    if (std::strcmp(method, "Inhibit") == 0)
        inhibit(params, call);
    else
        list(call);
}

GDBusConnection* connect(const char* address) {
    GError* error = nullptr;
    GDBusConnection* bus = g_dbus_connection_new_for_address_sync(
        address,
        GDBusConnectionFlags(G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
                             G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION),
        nullptr, nullptr, &error);
    if (!bus) {
        std::fprintf(stderr, "fake-logind: %s\n", error->message);
        std::exit(1);
    }
    return bus;
}

int serve(GDBusConnection* bus) {
    GDBusNodeInfo* node = g_dbus_node_info_new_for_xml(kXml, nullptr);
    GDBusInterfaceVTable vtable = {on_call, nullptr, nullptr, {}};
    g_dbus_connection_register_object(bus, "/org/freedesktop/login1", node->interfaces[0], &vtable, nullptr,
                                      nullptr, nullptr);
    GVariant* r = g_dbus_connection_call_sync(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                              "org.freedesktop.DBus", "RequestName",
                                              g_variant_new("(su)", "org.freedesktop.login1", 4u), nullptr,
                                              G_DBUS_CALL_FLAGS_NONE, -1, nullptr, nullptr);
    if (!r)
        return 1;
    g_variant_unref(r);
    std::printf("ready\n");
    std::fflush(stdout);
    g_main_loop_run(g_main_loop_new(nullptr, FALSE));
    return 0;
}

int print_list(GDBusConnection* bus) {
    GError* error = nullptr;
    GVariant* r = g_dbus_connection_call_sync(bus, "org.freedesktop.login1", "/org/freedesktop/login1",
                                              "org.freedesktop.login1.Manager", "ListInhibitors", nullptr,
                                              G_VARIANT_TYPE("(a(ssssuu))"), G_DBUS_CALL_FLAGS_NONE, -1, nullptr,
                                              &error);
    if (!r) {
        std::fprintf(stderr, "fake-logind: %s\n", error->message);
        return 1;
    }
    GVariantIter* it;
    const char *what, *who, *why, *mode;
    g_variant_get(r, "(a(ssssuu))", &it);
    while (g_variant_iter_next(it, "(&s&s&s&suu)", &what, &who, &why, &mode, nullptr, nullptr))
        std::printf("%s %s %s: %s\n", what, who, mode, why);
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 3)
        return 2;
    GDBusConnection* bus = connect(argv[2]);
    return std::strcmp(argv[1], "serve") == 0 ? serve(bus) : print_list(bus);
}
