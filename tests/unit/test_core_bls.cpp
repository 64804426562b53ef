#include "catch.hpp"
#include "core/deployment/bls.hpp"

using namespace bootbench::core;

namespace {

// As libostree 2022.7 writes them (bootloader=none), two deployments.
const char* kEntry1 = "title Debian GNU/Linux 12 (bookworm) (ostree:debian:1)\n"
                      "version 1\n"
                      "options root=LABEL=ostroot rw console=ttyS0 ostree=/ostree/boot.1/debian/"
                      "3b3a4c0f/0\n"
                      "linux /ostree/debian-3b3a4c0f/vmlinuz-6.1.0-28-amd64\n"
                      "initrd /ostree/debian-3b3a4c0f/initramfs-6.1.0-28-amd64.img\n";
const char* kEntry2 = "# comment\n"
                      "title Debian GNU/Linux 12 (bookworm) (ostree:debian:0)\n"
                      "version 2\n"
                      "options root=LABEL=ostroot rw ostree=/ostree/boot.1/debian/9f1e2d3c/0 quiet\n"
                      "linux /ostree/debian-9f1e2d3c/vmlinuz-6.1.0-28-amd64\n";

} // namespace

TEST_CASE("BLS entries parse key and value", "[bls]") {
    BlsEntry e = parse_bls_entry(kEntry1, "ostree-1-debian.conf");
    CHECK(e.version == "1");
    CHECK(e.title == "Debian GNU/Linux 12 (bookworm) (ostree:debian:1)");
    CHECK(e.linux_path == "/ostree/debian-3b3a4c0f/vmlinuz-6.1.0-28-amd64");
    CHECK(ostree_karg(e.options) == "/ostree/boot.1/debian/3b3a4c0f/0");
    CHECK(ostree_karg("root=/dev/sda quiet") == "");
}

TEST_CASE("the bootloader boots the highest version", "[bls]") {
    auto chosen = default_entry({parse_bls_entry(kEntry1, "a.conf"), parse_bls_entry(kEntry2, "b.conf")});
    REQUIRE(chosen);
    CHECK(chosen->file == "b.conf");
    CHECK(ostree_karg(chosen->options) == "/ostree/boot.1/debian/9f1e2d3c/0");
    // Numbers compare as numbers: 10 is above 9.
    BlsEntry nine, ten;
    nine.version = "9";
    ten.version = "10";
    CHECK(default_entry({ten, nine})->version == "10");
    CHECK(default_entry({nine, ten})->version == "10");
    CHECK_FALSE(default_entry({}));
}
