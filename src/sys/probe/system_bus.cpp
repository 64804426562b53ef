#include "sys/probe/system_bus.hpp"

#include <csignal>
#include <initializer_list>
#include <pthread.h>

namespace bootbench::sys {

GDBusConnection* system_bus(GError** error) {
    sigset_t interrupts, before;
    sigemptyset(&interrupts);
    for (int sig : {SIGINT, SIGTERM, SIGHUP})
        sigaddset(&interrupts, sig);
    pthread_sigmask(SIG_BLOCK, &interrupts, &before);
    GDBusConnection* bus = g_bus_get_sync(G_BUS_TYPE_SYSTEM, nullptr, error);
    pthread_sigmask(SIG_SETMASK, &before, nullptr);
    return bus;
}

} // namespace bootbench::sys
