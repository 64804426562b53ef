#include "catch.hpp"
#include "core/host/loader_check.hpp"

using namespace bootbench::core;

TEST_CASE("loader check: ld.so --list is read into the libraries it resolved", "[loader]") {
    auto libs = parse_loader_list("\tlinux-vdso.so.1 (0x00007ffd)\n"
                                  "\tlibstdc++.so.6 => /sysroot/d/usr/lib64/libstdc++.so.6 (0x00007f1)\n"
                                  "\tlibcurl.so.4 => not found\n"
                                  "\t/lib64/ld-linux-x86-64.so.2 (0x00007f2)\n");
    REQUIRE(libs.size() == 2);
    CHECK(libs[0].name == "libstdc++.so.6");
    CHECK(libs[0].path == "/sysroot/d/usr/lib64/libstdc++.so.6");
    CHECK(libs[1].name == "libcurl.so.4");
    CHECK(libs[1].path.empty());
}

TEST_CASE("loader check: a library found outside the deployment is missing from it", "[loader]") {
    std::vector<LoadedLibrary> inside = {{"libc.so.6", "/sysroot/d/usr/lib64/libc.so.6"}};
    CHECK(library_outside(inside, "/sysroot/d").empty());
    CHECK(library_outside({{"libc.so.6", "/sysroot/dd/usr/lib64/libc.so.6"}}, "/sysroot/d") ==
          "libc.so.6 is missing (the loader found only this machine's /sysroot/dd/usr/lib64/libc.so.6)");
    CHECK(library_outside({{"libcurl.so.4", ""}}, "/sysroot/d") == "libcurl.so.4 is missing");
}

TEST_CASE("loader check: the loader's refusal is named by its library and symbol version", "[loader]") {
    CHECK(loader_refusal("/usr/bin/bootbench: /sysroot/d/usr/lib64/libstdc++.so.6: version `GLIBCXX_3.4.32' "
                         "not found (required by /usr/bin/bootbench)\n") ==
          "libstdc++.so.6 has no symbol version GLIBCXX_3.4.32");
    CHECK(loader_refusal("bootbench: error while loading shared libraries: libcurl.so.4: cannot open shared "
                         "object file: No such file or directory\n") == "libcurl.so.4 is missing");
    CHECK(loader_refusal("bootbench: symbol lookup error: bootbench: undefined symbol: curl_easy_ssls_import, "
                         "version CURL_OPENSSL_4\n") ==
          "symbol curl_easy_ssls_import (version CURL_OPENSSL_4) is missing");
    CHECK(loader_refusal("something else\x1b[2J went wrong\nsecond line\n") == "something else\\x1b[2J went wrong");
    CHECK(loader_refusal("").empty());
}

TEST_CASE("loader check: the refusal names the target, its deployment and the fix", "[loader]") {
    CHECK(binary_load_message("gts", "fedora/0123abcd.0", "libstdc++.so.6 has no symbol version GLIBCXX_3.4.32") ==
          "target 'gts': bootbench cannot run in its deployment fedora/0123abcd.0: with that deployment's own "
          "loader and libraries, libstdc++.so.6 has no symbol version GLIBCXX_3.4.32. The one binary runs in "
          "every target: build it on the oldest target's release (./bootstrap in a toolbox of that release) or "
          "leave the target out");
}
