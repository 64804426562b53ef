#include "catch.hpp"
#include "core/deployment/resolve.hpp"

using namespace bootbench::core;

namespace {

DeploymentInfo dep(int index, const std::string& csum, const std::string& image,
                   const std::string& refspec = "") {
    DeploymentInfo d;
    d.index = index;
    d.ref = {"fedora", csum, 0};
    d.image = image;
    d.refspec = refspec;
    return d;
}

Target target(SelectorKind kind, const std::string& value, int index = -1) {
    Target t;
    t.name = "t";
    t.selector = {kind, value, index};
    return t;
}

const std::vector<DeploymentInfo> kDeps = {
    dep(0, "aaaa1111", "ostree-image-signed:docker://ghcr.io/ublue-os/bluefin-dx:stable"),
    dep(1, "bbbb2222", "ostree-unverified-registry:ghcr.io/x/margine:stable"),
    dep(2, "aaaa3333", "", "fedora:fedora/41/x86_64/silverblue"),
};

} // namespace

TEST_CASE("image selectors match with or without the transport prefix", "[resolve]") {
    auto r = resolve_target(target(SelectorKind::image, "ghcr.io/ublue-os/bluefin-dx:stable"), kDeps);
    REQUIRE(r.deployment);
    CHECK(r.deployment->index == 0);
    r = resolve_target(target(SelectorKind::image, "ostree-image-signed:docker://ghcr.io/x/margine:stable"), kDeps);
    REQUIRE(r.deployment);
    CHECK(r.deployment->index == 1);
    CHECK(normalize_image("ostree-remote-image:fedora:docker://quay.io/f/s:41") == "quay.io/f/s:41");
}

TEST_CASE("an image no deployment has can be staged", "[resolve]") {
    auto r = resolve_target(target(SelectorKind::image, "ghcr.io/x/other:stable"), kDeps);
    CHECK_FALSE(r.deployment);
    CHECK(r.not_deployed);
    CHECK(r.error == "no deployment has image ghcr.io/x/other:stable");
}

TEST_CASE("refspec matches exactly or without the remote", "[resolve]") {
    CHECK(resolve_target(target(SelectorKind::refspec, "fedora:fedora/41/x86_64/silverblue"), kDeps).deployment->index == 2);
    CHECK(resolve_target(target(SelectorKind::refspec, "fedora/41/x86_64/silverblue"), kDeps).deployment->index == 2);
}

TEST_CASE("checksum prefixes must be unique", "[resolve]") {
    CHECK(resolve_target(target(SelectorKind::checksum, "bbbb"), kDeps).deployment->index == 1);
    auto r = resolve_target(target(SelectorKind::checksum, "aaaa"), kDeps);
    CHECK_FALSE(r.deployment);
    CHECK(r.error == "2 deployments have checksum aaaa (0, 2): select one with checksum = \"...\" or deployment = N");
    CHECK_FALSE(r.not_deployed);
}

TEST_CASE("deployment index; staged and bootbench's own are never targets", "[resolve]") {
    CHECK(resolve_target(target(SelectorKind::deployment, "", 1), kDeps).deployment->ref.checksum == "bbbb2222");
    CHECK(resolve_target(target(SelectorKind::deployment, "", 7), kDeps).error == "no deployment at index 7");
    auto deps = kDeps;
    deps[1].staged = true;
    deps[0].kargs_for = "x";
    CHECK(resolve_target(target(SelectorKind::deployment, "", 1), deps).error ==
          "no deployment at index 1 that can be used (it is staged)");
    CHECK_FALSE(resolve_target(target(SelectorKind::image, "ghcr.io/ublue-os/bluefin-dx:stable"), deps).deployment);
}

TEST_CASE("deployments are described for people", "[resolve]") {
    auto d = kDeps[0];
    d.booted = true;
    d.pinned = true;
    d.version = "41.20261130";
    CHECK(describe(d) == "0: fedora/aaaa1111.0 image ostree-image-signed:docker://ghcr.io/ublue-os/"
                         "bluefin-dx:stable version 41.20261130 (booted, pinned)");
}

TEST_CASE("all targets must share the running stateroot", "[resolve]") {
    std::vector<Resolution> rs = {{"a", kDeps[0], "", "", false}, {"b", kDeps[1], "", "", false}};
    CHECK(stateroot_problem(rs, kDeps[2]) == "");
    rs[1].deployment->ref.stateroot = "bluefin";
    std::string why = stateroot_problem(rs, kDeps[2]);
    CHECK(why.find("the targets are not all in the stateroot that runs now (fedora): a in fedora, b in "
                   "bluefin. Each stateroot has its own /var") == 0);
}

TEST_CASE("globs: expect_kernel, preset patterns", "[resolve]") {
    CHECK(glob_match("*cachyos*", "7.0.12-cachyos1.fc44.x86_64"));
    CHECK_FALSE(glob_match("*cachyos*", "7.0.8-200.fc44.x86_64"));
    CHECK(glob_match("7.0.?-*", "7.0.8-200.fc44.x86_64"));
    CHECK(glob_match("*.fc4[34].*", "7.0.8-200.fc44.x86_64"));
    CHECK_FALSE(glob_match("*.fc4[!4].*", "7.0.8-200.fc44.x86_64"));
    CHECK(glob_match("*", ""));
    CHECK_FALSE(glob_match("6.*", "7.0"));
    // fnmatch as the preset files use it: ranges, an unclosed bracket
    CHECK(glob_match("systemd-*.service", "systemd-resolved.service"));
    CHECK_FALSE(glob_match("systemd-*.service", "systemd-resolved.socket"));
    CHECK(glob_match("getty@.service", "getty@.service"));
    CHECK(glob_match("?sh*.s[d-f]rvice", "ssh-agent.service")); // a range
    CHECK_FALSE(glob_match("s[!s]hd.service", "sshd.service"));
    CHECK(glob_match("a[b", "a[b")); // an unclosed '[' is itself
    CHECK(glob_match("*a*b*c", "xxaxxbxxbxc"));
    CHECK_FALSE(glob_match("*a*b*c", "xxaxxbxxbx"));
}

namespace {

const std::string kIndex = "sha256:" + std::string(64, '1'), kManifest = "sha256:" + std::string(64, '2'),
                  kOld = "sha256:" + std::string(64, '3');

ResolvedImage recorded() {
    return {"ghcr.io/x/b:stable", kIndex, kManifest, "linux/amd64", "ghcr.io/x/b@" + kIndex};
}

DeploymentInfo with_digest(DeploymentInfo d, const std::string& digest) {
    d.image_digest = digest;
    return d;
}

} // namespace

TEST_CASE("a pin_digest target is the deployment that runs the recorded digest", "[resolve][stage]") {
    Target t = target(SelectorKind::image, "ostree-image-signed:docker://ghcr.io/x/b:stable");
    t.pin_digest = true;
    ResolvedImage image = recorded();
    std::vector<DeploymentInfo> ds = {
        with_digest(dep(0, "aaaa", "ostree-unverified-registry:ghcr.io/x/b:stable"), kOld),
        with_digest(dep(1, "bbbb", "ostree-image-signed:docker://ghcr.io/x/b@" + kIndex), kManifest),
        with_digest(dep(2, "cccc", "ostree-unverified-registry:ghcr.io/x/other:stable"), kManifest)};
    auto r = resolve_target(t, ds, &image);
    REQUIRE(r.deployment);
    CHECK(r.deployment->index == 1); // staged as repo@index, its commit names the platform manifest
    CHECK(r.how == "image ghcr.io/x/b:stable at " + kIndex);

    ds[1].image = "ostree-unverified-registry:ghcr.io/x/b:stable"; // the tag, now at the recorded digest
    CHECK(resolve_target(t, ds, &image).deployment->index == 1);
    ds.erase(ds.begin() + 1);
    r = resolve_target(t, ds, &image);
    CHECK_FALSE(r.deployment); // the tag's deployment runs another image: stage the recorded one
    CHECK(r.not_deployed);
    CHECK(r.error == "no deployment has image ghcr.io/x/b:stable at " + kIndex);

    t.pin_digest = false; // without the pin the tag is the target, checked after boot
    CHECK(resolve_target(t, ds, &image).deployment->index == 0);
    CHECK(resolve_target(t, ds).deployment->index == 0);
}

TEST_CASE("an image target on a layered deployment is refused unless allowed", "[resolve][layered]") {
    Target t = target(SelectorKind::image, "ghcr.io/x/b:stable");
    DeploymentInfo d = dep(0, "aaaa1111", "ostree-unverified-registry:ghcr.io/x/b:stable");
    CHECK(layered_problem(t, d).empty());
    d.layering = {true, {"htop", "vim"}, {"firefox-120.0-1.fc39.x86_64"}, {}};
    CHECK(layered_problem(t, d) ==
          "target 't' is the image ghcr.io/x/b:stable, but its deployment fedora/aaaa1111.0 has packages layered "
          "on the image by rpm-ostree (packages htop, vim; removed firefox-120.0-1.fc39.x86_64): its runs would "
          "measure them as the image. Remove them from that deployment ('rpm-ostree uninstall' or 'rpm-ostree "
          "reset' when it is booted), or set allow_layered = true in target 't' to measure the deployment as it "
          "is (the report names the packages)");
    t.allow_layered = true;
    CHECK(layered_problem(t, d).empty());
    CHECK(layered_problem(target(SelectorKind::refspec, "fedora:x"), d).empty()); // a refspec names no image
}
