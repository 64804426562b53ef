#pragma once
// The GLib boundary: a GError becomes a bootbench::Error whose message says
// what was being done ("Making ... the default: <GLib message>").
#include "core/base/error.hpp"

#include <glib.h>
#include <string>

namespace bootbench::sys {

[[noreturn]] inline void throw_gerror(GError* error, const std::string& doing) {
    std::string msg = doing + ": " + (error ? error->message : "unknown error");
    if (error)
        g_error_free(error);
    throw Error(msg);
}

// Calls `ok` (a gboolean-returning GLib call that fills the GError**) and throws on failure.
template <typename F>
void gcheck(const std::string& doing, F&& call) {
    GError* error = nullptr;
    if (!call(&error))
        throw_gerror(error, doing);
}

} // namespace bootbench::sys
