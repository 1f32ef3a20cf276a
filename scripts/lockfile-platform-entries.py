#!/usr/bin/env python3
"""
Adds lock entries for optional, platform-specific packages that `npm install` left out.

Why: the npm registry mirror this project's machines use serves only some platforms' native
binaries (e.g. @rollup/rollup-linux-x64-gnu but not -darwin-arm64). `npm install` silently leaves
the unavailable ones out of package-lock.json, and `npm ci` then refuses the lock as "out of sync".
An entry with the package's os/cpu lets `npm ci` accept the lock and skip the package on this
platform without ever fetching it. Run after `npm install` changes the lock:
    python3 scripts/lockfile-platform-entries.py
"""
import json, re, subprocess, sys

LOCK = "package-lock.json"
OS_NAMES = {"android", "darwin", "freebsd", "linux", "openbsd", "openharmony", "win32", "sunos", "aix", "netbsd"}
CPU_NAMES = {"arm64", "x64", "arm", "ia32", "loong64", "ppc64", "riscv64", "s390x", "wasm32", "mips64el"}

def platform_of(name: str):
    parts = re.split(r"[-/]", name.split("/")[-1])
    os_ = next((p for p in parts if p in OS_NAMES), None)
    cpu = next((p for p in parts if p in CPU_NAMES), None)
    libc = "musl" if any(p.startswith("musl") for p in parts) else ("glibc" if os_ == "linux" and any(p.startswith("gnu") for p in parts) else None)
    return os_, cpu, libc

def main() -> int:
    out = subprocess.run(["npm", "ci", "--dry-run", "--ignore-scripts"], capture_output=True, text=True)
    missing = re.findall(r"Missing: (\S+?)@(\S*) from lock file", out.stdout + out.stderr)
    if not missing:
        print("lock file complete")
        return 0
    lock = json.load(open(LOCK))
    packages = lock["packages"]
    added = 0
    for name, _ in missing:
        # Find the parent that declares it optional, to learn the version and dev flag.
        for path, meta in packages.items():
            version = (meta.get("optionalDependencies") or {}).get(name)
            if not version:
                continue
            key = f"node_modules/{name}"
            if key in packages:
                break
            os_, cpu, libc = platform_of(name)
            if not (os_ or cpu):
                print(f"cannot tell the platform of {name}; add it by hand", file=sys.stderr)
                return 1
            entry = {"version": version, "optional": True}
            if meta.get("dev"):
                entry["dev"] = True
            if cpu:
                entry["cpu"] = [cpu]
            if os_:
                entry["os"] = [os_]
            if libc:
                entry["libc"] = [libc]
            packages[key] = entry
            added += 1
            break
    lock["packages"] = dict(sorted(packages.items(), key=lambda kv: (kv[0] != "", kv[0])))
    with open(LOCK, "w") as f:
        json.dump(lock, f, indent=2)
        f.write("\n")
    print(f"added {added} platform entries")
    return 0

if __name__ == "__main__":
    sys.exit(main())
