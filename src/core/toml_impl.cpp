// toml++'s implementation, compiled once into bootbench (TOML_HEADER_ONLY=0
// everywhere else): the binary must not need libtomlplusplus at run time,
// which no Fedora Atomic or bootc image ships.
#define TOML_IMPLEMENTATION
#include <toml++/toml.h>
