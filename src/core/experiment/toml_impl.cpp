// toml++'s implementation, compiled once into bootbench (TOML_HEADER_ONLY=0
// everywhere else): the binary must not need libtomlplusplus at run time,
// which no Fedora Atomic or bootc image ships.
#define TOML_IMPLEMENTATION
#include <toml++/toml.h>

// The headers are build/tomlpp-fixed (src/build_aux/toml_headers.py): with the
// distribution's toml++ 3.3 this constant evaluation reaches
// __builtin_unreachable() and the build fails, as it must.
static_assert(!toml::impl::is_non_ascii_horizontal_whitespace(U'\u00A7'));
static_assert(!toml::impl::is_non_ascii_horizontal_whitespace(U'\u00E9'));
static_assert(toml::impl::is_non_ascii_horizontal_whitespace(U'\u00A0'));
