// Links libtomlplusplus as a shared library on purpose: the NEEDED check must
// refuse this binary, or it could not catch the real one needing it.
#include <toml++/toml.h>

int main() {
    return toml::parse("a = 1")["a"].value_or(0) == 1 ? 0 : 1;
}
