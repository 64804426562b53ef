#pragma once
// A private message bus (GTestDBus runs dbus-daemon) with fake-logind on it,
// and DBUS_SYSTEM_BUS_ADDRESS pointing there for the scope, so the real
// GDBus code of the sleep inhibitor, in this process or in the bootbench
// binary started from it, talks to it. FAKE_LOGIND_BIN comes from meson.
#include <cstdio>
#include <cstdlib>
#include <gio/gio.h>
#include <signal.h>
#include <string>
#include <sys/wait.h>

namespace testing {

class FakeLogind {
public:
    FakeLogind() : bus_(g_test_dbus_new(G_TEST_DBUS_NONE)) {
        g_test_dbus_up(bus_);
        address_ = g_test_dbus_get_bus_address(bus_);
        const char* argv[] = {FAKE_LOGIND_BIN, "serve", address_.c_str(), nullptr};
        int out = -1;
        g_spawn_async_with_pipes(nullptr, const_cast<char**>(argv), nullptr, G_SPAWN_DO_NOT_REAP_CHILD, nullptr,
                                 nullptr, &pid_, nullptr, &out, nullptr, nullptr);
        FILE* ready = ::fdopen(out, "r");
        char line[16] = {};
        ready_ = ready && std::fgets(line, sizeof line, ready) && std::string(line) == "ready\n";
        if (ready)
            std::fclose(ready);
        ::setenv("DBUS_SYSTEM_BUS_ADDRESS", address_.c_str(), 1);
    }
    ~FakeLogind() {
        ::unsetenv("DBUS_SYSTEM_BUS_ADDRESS");
        if (pid_ > 0) {
            ::kill(pid_, SIGTERM);
            ::waitpid(pid_, nullptr, 0);
        }
        g_test_dbus_down(bus_);
        g_object_unref(bus_);
    }
    FakeLogind(const FakeLogind&) = delete;
    FakeLogind& operator=(const FakeLogind&) = delete;

    bool ready() const { return ready_; }
    const std::string& address() const { return address_; }
    // The command that prints the held inhibitors, one "WHAT WHO MODE: WHY" a line.
    std::string list_command() const { return std::string(FAKE_LOGIND_BIN) + " list " + address_; }
    std::string held() const {
        std::string text;
        if (FILE* p = ::popen(list_command().c_str(), "r")) {
            char buf[512];
            while (std::fgets(buf, sizeof buf, p))
                text += buf;
            ::pclose(p);
        }
        return text;
    }

private:
    GTestDBus* bus_;
    std::string address_;
    GPid pid_ = 0;
    bool ready_ = false;
};

} // namespace testing
