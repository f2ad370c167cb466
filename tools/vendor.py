#!/usr/bin/env python3
"""Vendor Paracore's runtime dependencies for pyRevit's CPython 3.12 engine on 64-bit Windows.

Revit loads Paracore into pyRevit's own CPython 3.12, which has no pip and no site-packages of
ours: the packages go into ``<clone>/vendor``, the folder ``Paracore.extension/lib/paracore_boot.py``
puts on ``sys.path``. They must be wheels built for that interpreter — cp312 (or abi3) for
win_amd64, or pure Python — whatever machine runs this script, so pip is told the target
platform instead of using its own.

    python tools/vendor.py            install requirements/revit.txt into vendor/ (replacing it)
    python tools/vendor.py --check    resolve only: every pin has a wheel for the target, and the
                                        lock is complete for Windows; nothing is installed
    python tools/vendor.py --lock [--match-installed]
                                        regenerate requirements/revit.txt from pyproject.toml's
                                        dependencies (pinning the versions installed in this Python
                                        where they fit, with --match-installed)

Needs Python 3.11+ with pip 22.2+ and the package index (PyPI, or the index pip is configured
for). Runs on any OS: on Linux or macOS it downloads the same Windows wheels.

Why the lock is installed with ``--no-deps``: pip evaluates environment markers
(``sys_platform == "win32"``, ``python_version < "3.12"``) for the machine it runs on, not for
``--platform``, so resolving dependencies here would pick Linux-only packages and miss
Windows-only ones. The lock is therefore the whole Windows closure, computed by ``--lock`` with
the markers evaluated for CPython 3.12 on Windows, and ``--check`` verifies that it still is.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path

try:
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name
    from packaging.version import Version
except ImportError:  # pip always carries a copy
    from pip._vendor.packaging.requirements import Requirement
    from pip._vendor.packaging.utils import canonicalize_name
    from pip._vendor.packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = ROOT / "pyproject.toml"
LOCK = ROOT / "requirements" / "revit.txt"
VENDOR = ROOT / "vendor"
STAMP = ".paracore-vendor.json"          # read by paracore.app.doctor

PLATFORM = "win_amd64"
PYTHON_VERSION = "3.12"
IMPLEMENTATION = "cp"
TARGET = ["--platform", PLATFORM, "--python-version", PYTHON_VERSION, "--implementation", IMPLEMENTATION,
          "--only-binary=:all:"]
# The environment markers of pyRevit's engine: CPython 3.12.3, 64-bit Windows.
MARKERS = {
    "implementation_name": "cpython", "implementation_version": "3.12.3", "os_name": "nt",
    "platform_machine": "AMD64", "platform_python_implementation": "CPython", "platform_release": "10",
    "platform_system": "Windows", "platform_version": "10.0.19045", "python_full_version": "3.12.3",
    "python_version": "3.12", "sys_platform": "win32",
}
NETWORK_SIGNS = ("NewConnectionError", "Max retries exceeded", "Temporary failure in name resolution",
                 "Name or service not known", "ConnectTimeout", "ReadTimeout", "Could not fetch URL",
                 "ProxyError", "SSLError", "Connection refused", "Network is unreachable", "getaddrinfo failed")
PIP_NETWORK = ["--retries", "2", "--timeout", "20"]

EXIT_PROBLEM = 1
EXIT_INDEX_UNREACHABLE = 3


class VendorError(Exception):
    """Something the user must fix; the message says what."""

    def __init__(self, message: str, code: int = EXIT_PROBLEM):
        super().__init__(message)
        self.code = code


# -- reading the inputs ----------------------------------------------------------------------------

def pyproject_dependencies(path: Path = PYPROJECT) -> list[str]:
    import tomllib
    return list(tomllib.loads(path.read_text(encoding="utf-8"))["project"]["dependencies"])


def read_lock(path: Path = LOCK) -> dict[str, str]:
    """{canonical name: version} from a lock of ``name==version`` lines."""
    if not path.is_file():
        raise VendorError(f"{path} is missing. Create it with: python tools/vendor.py --lock")
    pins: dict[str, str] = {}
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        requirement = Requirement(line)
        specifiers = list(requirement.specifier)
        if requirement.marker or requirement.extras or len(specifiers) != 1 or specifiers[0].operator != "==":
            raise VendorError(f"{path.name} line {number}: {raw.strip()!r} is not a plain `name==version` pin. "
                              "Regenerate the lock with: python tools/vendor.py --lock")
        pins[canonicalize_name(requirement.name)] = specifiers[0].version
    return pins


def lock_digest(path: Path = LOCK) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# -- pip ----------------------------------------------------------------------------------------------

def check_pip() -> None:
    try:
        version = Version(metadata.version("pip"))
    except metadata.PackageNotFoundError:
        raise VendorError(f"pip is not installed for {sys.executable}. Install it: {sys.executable} -m ensurepip")
    if version < Version("22.2"):
        raise VendorError(f"pip {version} is too old (22.2 or newer is needed for --dry-run --report). "
                          f"Upgrade it: {sys.executable} -m pip install --upgrade pip")


def run_pip(args: list[str]) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "pip", *args, "--disable-pip-version-check", "--no-input"]
    result = subprocess.run(command, capture_output=True, text=True, env={**os.environ, "PIP_NO_INPUT": "1"})
    if result.returncode != 0:
        output = (result.stderr or "") + (result.stdout or "")
        lines = [line for line in output.splitlines() if line.strip()]
        sign = next((line.strip() for line in reversed(lines) if any(s in line for s in NETWORK_SIGNS)), None)
        if sign:
            raise VendorError("The package index could not be reached, so nothing could be resolved. Check the "
                              "network (and HTTPS_PROXY behind a proxy), then run this again.\n"
                              f"pip said: {sign[:300]}", EXIT_INDEX_UNREACHABLE)
        tail = "\n".join(lines[-12:])
        raise VendorError(f"pip failed (exit {result.returncode}):\n{tail}")
    return result


def dry_run(requirements: list[str], *, no_deps: bool, constraints: dict[str, str] | None = None) -> dict:
    """What pip would install for the target platform (nothing is installed): pip's report."""
    with tempfile.TemporaryDirectory(prefix="paracore-vendor-") as folder:
        folder_path = Path(folder)
        requirements_file = folder_path / "requirements.txt"
        requirements_file.write_text("\n".join(requirements) + "\n", encoding="utf-8")
        report = folder_path / "report.json"
        args = ["install", "--dry-run", "--ignore-installed", "--quiet", "--target", str(folder_path / "target"),
                *TARGET, *PIP_NETWORK, "--report", str(report), "-r", str(requirements_file)]
        if no_deps:
            args.append("--no-deps")
        if constraints:
            constraints_file = folder_path / "constraints.txt"
            constraints_file.write_text("".join(f"{n}=={v}\n" for n, v in sorted(constraints.items())),
                                        encoding="utf-8")
            args += ["-c", str(constraints_file)]
        run_pip(args)
        return json.loads(report.read_text(encoding="utf-8"))


def chosen_packages(report: dict) -> dict[str, dict]:
    """{canonical name: {"name", "version", "requires_dist", "wheel"}} from pip's report."""
    chosen = {}
    for item in report.get("install", []):
        data = item.get("metadata", {})
        url = item.get("download_info", {}).get("url", "")
        chosen[canonicalize_name(data["name"])] = {
            "name": data["name"], "version": data["version"],
            "requires_dist": list(data.get("requires_dist") or []),
            "wheel": url.rsplit("/", 1)[-1].split("#", 1)[0],
        }
    return chosen


# -- the Windows closure -------------------------------------------------------------------------------

def applies(requirement: Requirement, extras: set[str]) -> bool:
    """Whether ``requirement`` applies to pyRevit's engine, with these extras of its parent."""
    if requirement.marker is None:
        return True
    return any(requirement.marker.evaluate({**MARKERS, "extra": extra}) for extra in extras | {""})


def closure(top: list[str], chosen: dict[str, dict]) -> tuple[dict[str, set[str]], list[Requirement], list[str]]:
    """Walk the dependencies of ``top`` on Windows / CPython 3.12 through ``chosen``.

    Returns ({name needed: extras asked of it}, requirements with no chosen package,
    conflicts: a chosen version that a dependent's specifier refuses).
    """
    needed: dict[str, set[str]] = {}
    missing: list[Requirement] = []
    conflicts: list[str] = []
    queue = [(Requirement(text), "pyproject.toml") for text in top]
    while queue:
        requirement, wanted_by = queue.pop(0)
        name = canonicalize_name(requirement.name)
        package = chosen.get(name)
        if package is None:
            if all(canonicalize_name(m.name) != name for m in missing):
                missing.append(requirement)
            continue
        if not requirement.specifier.contains(package["version"], prereleases=True):
            conflicts.append(f"{package['name']} {package['version']} does not satisfy "
                             f"{requirement} (required by {wanted_by})")
        new_extras = set(requirement.extras) - needed.get(name, set())
        if name in needed and not new_extras:
            continue
        needed.setdefault(name, set()).update(requirement.extras)
        for text in package["requires_dist"]:
            dependency = Requirement(text)
            if applies(dependency, needed[name]):
                queue.append((dependency, f"{package['name']} {package['version']}"))
    return needed, missing, conflicts


def installed_versions() -> dict[str, str]:
    """{canonical name: version} of what this Python has installed (for --match-installed)."""
    skip = {"paracore", "pip", "setuptools", "wheel"}
    found = {}
    for dist in metadata.distributions():
        name = dist.metadata.get("Name")
        if name and canonicalize_name(name) not in skip:
            found[canonicalize_name(name)] = dist.version
    return found


# -- the commands ----------------------------------------------------------------------------------------

def lock(match_installed: bool, path: Path = LOCK, out=print) -> dict[str, str]:
    """Resolve pyproject's dependencies for the target and write the lock; the pins."""
    top = pyproject_dependencies()
    constraints = installed_versions() if match_installed else None
    added: list[str] = []
    for _ in range(8):
        chosen = chosen_packages(dry_run(top + added, no_deps=False, constraints=constraints))
        needed, missing, conflicts = closure(top, chosen)
        if conflicts:
            raise VendorError("The resolution is inconsistent for Windows:\n  " + "\n  ".join(conflicts))
        if not missing:
            break
        # Windows-only dependencies pip skipped (it evaluated the markers for this machine).
        added += [f"{m.name}{m.specifier}" for m in missing]
    else:
        raise VendorError("Could not complete the Windows closure; missing: " + ", ".join(map(str, missing)))
    pins = {name: chosen[name]["version"] for name in sorted(needed)}
    lines = [
        "# Paracore's runtime dependencies for pyRevit's engine: CPython 3.12, 64-bit Windows.",
        "# Generated by `python tools/vendor.py --lock" + (" --match-installed" if match_installed else "")
        + "` from pyproject.toml; the whole",
        "# closure with Windows markers, installed with --no-deps. Check it: python tools/vendor.py --check",
        *[f"{chosen[name]['name']}=={version}" for name, version in pins.items()],
    ]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out(f"Wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: {len(pins)} packages.")
    return pins


def wheel_tag(wheel: str) -> str:
    """ "cp312-cp312-win_amd64" from a wheel's file name ("" when it is not one)."""
    if not wheel.endswith(".whl"):
        return ""
    return "-".join(wheel[:-4].split("-")[-3:])


def check(path: Path = LOCK, out=print) -> dict[str, dict]:
    """Resolve the lock for the target without installing; raise VendorError on any problem."""
    pins = read_lock(path)
    top = pyproject_dependencies()
    started = time.perf_counter()
    out(f"Resolving {len(pins)} pins of {path.name} for CPython {PYTHON_VERSION} on {PLATFORM} "
        "(pip --dry-run: nothing is installed) ...")
    chosen = chosen_packages(dry_run([f"{n}=={v}" for n, v in pins.items()], no_deps=True))
    problems = []
    for name, version in pins.items():
        package = chosen.get(name)
        if package is None or package["version"] != version:
            problems.append(f"{name}=={version}: pip chose {package['version'] if package else 'nothing'}")
            continue
        tag = wheel_tag(package["wheel"])
        platform_tag = tag.rsplit("-", 1)[-1] if tag else ""
        if platform_tag not in ("any", PLATFORM):
            problems.append(f"{name}=={version}: {package['wheel'] or 'no wheel'} is not for {PLATFORM}")
    needed, missing, conflicts = closure(top, chosen)
    problems += [f"{m} is needed on Windows but not pinned" for m in missing]
    problems += conflicts
    problems += [f"{chosen[n]['name']} is pinned but not needed on Windows" for n in pins if n not in needed]
    width = max(len(chosen[n]["name"]) + len(chosen[n]["version"]) for n in chosen) + 3 if chosen else 0
    for name in sorted(chosen):
        package = chosen[name]
        out(f"  {(package['name'] + ' ' + package['version']).ljust(width)}{wheel_tag(package['wheel'])}")
    if problems:
        raise VendorError("The lock does not fit pyRevit's engine:\n  " + "\n  ".join(problems)
                          + "\nRegenerate it with: python tools/vendor.py --lock --match-installed")
    native = sum(1 for p in chosen.values() if not wheel_tag(p["wheel"]).endswith("-any"))
    out(f"OK: {len(chosen)} packages resolve for cp312-{PLATFORM} ({native} native wheels, "
        f"{len(chosen) - native} pure Python), and the lock holds every dependency Windows needs "
        f"({time.perf_counter() - started:.1f} s).")
    return chosen


def install(path: Path = LOCK, vendor: Path = VENDOR, out=print) -> Path:
    """Install the lock into ``vendor`` (replacing what is there) and stamp it."""
    pins = read_lock(path)
    staging = vendor.with_name(vendor.name + ".new")
    shutil.rmtree(staging, ignore_errors=True)
    out(f"Installing {len(pins)} packages for CPython {PYTHON_VERSION} on {PLATFORM} into {staging} ...")
    args = ["install", "--target", str(staging), "--no-deps", *TARGET, *PIP_NETWORK, "--quiet", "-r", str(path)]
    if sys.version_info[:2] != (3, 12):
        args.append("--no-compile")  # byte code for this Python would be useless to 3.12
    run_pip(args)
    installed = {canonicalize_name(p.name.split("-")[0]): p.name[:-len(".dist-info")].split("-", 1)[1]
                 for p in staging.glob("*.dist-info")}
    absent = [f"{n}=={v}" for n, v in pins.items() if installed.get(n) != v]
    if absent:
        raise VendorError("pip did not install: " + ", ".join(absent))
    stamp = {"requirements_sha256": lock_digest(path), "platform": PLATFORM, "python_version": PYTHON_VERSION,
             "created": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"), "packages": pins}
    (staging / STAMP).write_text(json.dumps(stamp, indent=2) + "\n", encoding="utf-8")
    byte_compile(staging, out)
    _swap(staging, vendor)
    out(f"Vendored {len(pins)} packages into {vendor}. In Revit: pyRevit tab > Reload, then run Paracore's Doctor.")
    return vendor


def python_312() -> str | None:
    """A CPython 3.12 to compile with (pyRevit's engine is 3.12: other versions' byte code is
    ignored by it): this one, ``python3.12`` on PATH, or the Windows launcher's ``py -3.12``."""
    if sys.version_info[:2] == (3, 12) and sys.implementation.name == "cpython":
        return sys.executable
    found = shutil.which("python3.12")
    if found:
        return found
    if shutil.which("py"):
        asked = subprocess.run(["py", "-3.12", "-c", "import sys; print(sys.executable)"],
                               capture_output=True, text=True)
        if asked.returncode == 0 and asked.stdout.strip():
            return asked.stdout.strip()
    return None


def byte_compile(folder: Path, out=print) -> bool:
    """Write the packages' byte code now. pyRevit sets ``sys.dont_write_bytecode``, so inside Revit
    nothing is ever cached: without this every Revit session compiles every vendored module again.
    Returns whether it was done; a missing Python 3.12 is a note, not a failure."""
    python = python_312()
    if python is None:
        out("Note: the packages were not byte-compiled (no Python 3.12 found: pyRevit's engine reads only "
            "3.12 byte code). They work, but Revit compiles them again at every start; run this script "
            "with Python 3.12 to avoid that.")
        return False
    started = time.perf_counter()
    result = subprocess.run([python, "-m", "compileall", "-q", "-j", "0", str(folder)],
                            capture_output=True, text=True)
    if result.returncode != 0:  # a module that does not compile is not imported either: say so, go on
        out(f"Note: some files did not byte-compile:\n{(result.stdout + result.stderr).strip()[-2000:]}")
    out(f"Byte-compiled the packages for Python 3.12 ({time.perf_counter() - started:.1f} s).")
    return True


def _swap(staging: Path, vendor: Path) -> None:
    old = vendor.with_name(vendor.name + ".old")
    shutil.rmtree(old, ignore_errors=True)
    if vendor.exists():
        try:
            vendor.rename(old)
        except OSError as error:
            raise VendorError(f"Could not replace {vendor} ({error.strerror or error}): Revit has its packages "
                              f"loaded. Close Revit and run this again; the new packages are in {staging}.")
    staging.rename(vendor)
    shutil.rmtree(old, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="resolve only; install nothing")
    mode.add_argument("--lock", action="store_true", help="regenerate requirements/revit.txt from pyproject.toml")
    parser.add_argument("--match-installed", action="store_true",
                        help="with --lock: prefer the versions installed in this Python")
    parser.add_argument("--target", type=Path, default=VENDOR, help=f"install folder (default: {VENDOR})")
    parser.add_argument("--requirements", type=Path, default=LOCK, help=f"the lock (default: {LOCK})")
    args = parser.parse_args(argv)
    try:
        check_pip()
        if args.lock:
            lock(args.match_installed, args.requirements)
        elif args.check:
            check(args.requirements)
        else:
            install(args.requirements, args.target)
    except VendorError as error:
        print(f"error: {error}", file=sys.stderr)
        return error.code
    return 0


if __name__ == "__main__":
    sys.exit(main())
