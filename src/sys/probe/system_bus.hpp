#pragma once

#include <gio/gio.h>

namespace bootbench::sys {

// The system bus (g_bus_get_sync), connected with SIGINT, SIGTERM and SIGHUP
// blocked in the calling thread. GDBus starts its worker thread on the first
// connection, the thread inherits the caller's signal mask for the life of
// the process, and a signal it does not block is delivered to it and ends
// bootbench by the default action, past InterruptWatch: Ctrl-C in run-suite,
// or systemd's SIGTERM in resume, would then leave the benches running.
GDBusConnection* system_bus(GError** error);

} // namespace bootbench::sys
