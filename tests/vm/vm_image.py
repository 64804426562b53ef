"""The built disk image: its manifest, and reading files out of it with
debugfs (no mount, no loop device, never while qemu runs)."""
import contextlib
import json
import subprocess
from pathlib import Path


def read_env(path):
    values = {}
    for line in Path(path).read_text().splitlines():
        if "=" in line:
            k, v = line.split("=", 1)
            values[k] = v
    return values


class Image:
    def __init__(self, workdir):
        self.dir = Path(workdir)
        self.disk = self.dir / "disk.img"
        self.manifest = read_env(self.dir / "manifest.env")
        self.build_times = {k: float(v) for k, v in read_env(self.dir / "build-times.env").items()}
        self.boot_mode = self.manifest["BOOT_MODE"]
        self.os = self.manifest["OS"]
        self.spec = f"{self.disk}?offset={self.manifest['PART_OFFSET']}"
        self.build_seconds = self.build_times.get("TIME_IMAGE_TOTAL", 0.0)

    def commit(self, variant):
        return self.manifest[f"COMMIT_{variant.upper()}"]

    def deployment(self, variant):
        """<checksum>.<serial> of the deployment made from vm/<variant>."""
        return self.manifest[f"DEPLOY_{variant.upper()}"]

    def variant_of_deployment(self, dep):
        for v in ("base", "a", "b"):
            if self.manifest.get(f"DEPLOY_{v.upper()}") == dep:
                return v
        return None

    # --- debugfs -------------------------------------------------------------

    def debugfs(self, command):
        r = subprocess.run(["debugfs", "-R", command, self.spec], capture_output=True, text=True)
        return r.stdout, r.stderr

    def cat(self, path):
        out, err = self.debugfs(f"cat {path}")
        if "File not found" in err or "not found by ext2_lookup" in err:
            return None
        return out

    def listdir(self, path):
        """Names in a directory, None when it does not exist."""
        out, err = self.debugfs(f"ls -p {path}")
        if "not found" in err:
            return None
        names = []
        for line in out.splitlines():
            parts = line.split("/")
            if len(parts) >= 7 and parts[5] not in (".", ".."):
                names.append(parts[5])
        return names

    def rdump(self, path, dest):
        Path(dest).mkdir(parents=True, exist_ok=True)
        self.debugfs(f"rdump {path} {dest}")

    def symlink_target(self, path):
        out, _ = self.debugfs(f"stat {path}")
        for line in out.splitlines():
            if "Fast link dest:" in line:
                return line.split(":", 1)[1].strip().strip('"')
        return None

    # --- ostree's boot entries -------------------------------------------------

    def boot_entries(self):
        """BLS entries of the current boot version, default (highest version) first."""
        loader = self.symlink_target("/boot/loader") or "loader"
        entries = []
        for name in self.listdir(f"/boot/{loader}/entries") or []:
            text = self.cat(f"/boot/{loader}/entries/{name}") or ""
            e = {"file": name}
            for line in text.splitlines():
                if " " in line:
                    k, v = line.split(" ", 1)
                    e[k] = v.strip()
            e["version"] = int(e.get("version", "0"))
            e.setdefault("title", name)
            entries.append(e)
        if not entries:
            raise RuntimeError(f"no boot entries under /boot/{loader}/entries in {self.disk}")
        return sorted(entries, key=lambda e: -e["version"])

    def extract_boot_files(self, entry):
        dest = self.dir / "kernel-boot"
        dest.mkdir(exist_ok=True)
        files = []
        for key in ("linux", "initrd"):
            out = dest / key
            out.unlink(missing_ok=True)
            self.debugfs(f"dump /boot{entry[key]} {out}")
            if not out.exists() or out.stat().st_size == 0:
                raise RuntimeError(f"could not read /boot{entry[key]} from {self.disk}")
            files.append(str(out))
        return files

    @contextlib.contextmanager
    def partition(self):
        """The ext4 file system as a path e2fsck can read: the image itself, or
        a read-only loop device at the partition's offset."""
        offset = int(self.manifest["PART_OFFSET"])
        if offset == 0:
            yield str(self.disk)
            return
        dev = subprocess.run(["losetup", "-f", "--show", "-r", "-o", str(offset), str(self.disk)],
                             capture_output=True, text=True, check=True).stdout.strip()
        try:
            yield dev
        finally:
            subprocess.run(["losetup", "-d", dev])

    # --- after the run -----------------------------------------------------------

    def read_out(self, out):
        """Copies what the checks need out of the image into `out`."""
        out = Path(out)
        var = f"/ostree/deploy/{self.os}/var/lib"
        self.rdump(f"{var}/bootbench-vm", out)
        self.rdump(f"{var}/bootbench", out)
        # The ansible scenario: the results of Ansible's async jobs (start's output).
        self.rdump(f"/ostree/deploy/{self.os}/var/roothome/.ansible_async", out)
        base = f"/ostree/deploy/{self.os}/deploy"
        deployments = {}
        for name in sorted(self.listdir(base) or []):
            if name.endswith(".origin"):
                continue
            units = self.listdir(f"{base}/{name}/etc/systemd/system") or []
            wants = self.listdir(f"{base}/{name}/etc/systemd/system/multi-user.target.wants") or []
            deployments[name] = {
                "origin": self.cat(f"{base}/{name}.origin") or "",
                "units": sorted(units),
                "wants": sorted(wants),
            }
        entries = self.boot_entries()
        (out / "deployments.json").write_text(json.dumps(
            {"deployments": deployments, "boot_entries": entries}, indent=2) + "\n")
        return deployments, entries
