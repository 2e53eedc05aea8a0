"""The two virtual environments, the wheel and constraints.txt (standard library only).

``.venv`` holds what ``serve`` needs (and ``catalogs``), ``.venv-test`` the same plus the test
tools. Each is made with ``venv --upgrade-deps`` when missing, and the project is (re)installed
into it, editable, from the exact versions in constraints.txt whenever pyproject.toml or
constraints.txt changed since the last install (a stamp in the environment holds their hash).
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from .shell import ROOT, WINDOWS, die, run, run_logged, say

VENV = ROOT / ".venv"  # what `serve` runs from: the app's own dependencies only
TEST_VENV = ROOT / ".venv-test"  # the same plus the test tools
CONSTRAINTS = ROOT / "constraints.txt"
WHEELS = TEST_VENV / "wheel"


def bin_dir(venv: Path) -> Path:
    return venv / ("Scripts" if WINDOWS else "bin")


def python_of(venv: Path) -> Path:
    return bin_dir(venv) / ("python.exe" if WINDOWS else "python")


def ensure_venv(venv: Path) -> Path:
    """Create ``venv`` with this Python and current pip and setuptools, or recreate it when its
    interpreter is gone; returns its interpreter."""
    python = python_of(venv)
    if python.exists():
        return python
    try:
        import ensurepip  # noqa: F401  (Debian splits it out into python3-venv)
        import venv as _venv  # noqa: F401
    except ImportError:
        die("this Python lacks venv/ensurepip; on Debian/Ubuntu: apt-get install python3-venv")
    if venv.exists():
        shutil.rmtree(venv)
    say(f"creating {venv.name} with current pip and setuptools ...")
    if run([sys.executable, "-m", "venv", "--upgrade-deps", venv]) != 0 or not python.exists():
        shutil.rmtree(venv, ignore_errors=True)
        die(f"could not create {venv} (see above): the first run needs PyPI to be reachable; "
            "on Debian/Ubuntu, python3-venv must be installed")
    return python


def install_digest() -> str:
    digest = hashlib.sha256()
    for name in ("pyproject.toml", "constraints.txt"):
        path = ROOT / name
        digest.update(path.read_bytes() if path.exists() else b"")
    return digest.hexdigest()


def ensure_installed(venv: Path, extras: frozenset[str] = frozenset()) -> Path:
    """``pip install -c constraints.txt -e .[extras]`` into ``venv`` unless its stamp says this
    pyproject and these constraints are installed; returns the environment's interpreter."""
    python = ensure_venv(venv)
    stamp_path = venv / "coup-referee-install.json"
    digest = install_digest()
    try:
        stamp = json.loads(stamp_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        stamp = {}
    if stamp.get("digest") == digest and set(extras) <= set(stamp.get("extras", [])):
        return python
    target = "." + (f"[{','.join(sorted(extras))}]" if extras else "")
    say(f"installing the project into {venv.name} (pip install -c {CONSTRAINTS.name} "
        f"-e {target}) ...")
    pip: list[str | Path] = [python, "-m", "pip", "install", "--quiet",
                             "--disable-pip-version-check"]
    if CONSTRAINTS.exists():
        pip += ["--constraint", CONSTRAINTS]
    log = venv / "pip-install.log"
    if run_logged([*pip, "--editable", target], log) != 0:
        die(f"pip install failed (the end of {log} is above); the first install needs PyPI "
            "to be reachable")
    stamp_path.write_text(json.dumps({"digest": digest, "extras": sorted(extras)}),
                          encoding="utf-8")
    return python


def build_wheel(python: Path) -> Path | None:
    """Build the project's wheel into .venv-test/wheel, as pipx or pip would (an isolated
    build with setuptools and Babel); None if that failed."""
    shutil.rmtree(WHEELS, ignore_errors=True)
    say(f"building the wheel into {WHEELS.relative_to(ROOT)} ...")
    command: list[str | Path] = [python, "-m", "pip", "wheel", "--quiet",
                                 "--disable-pip-version-check", "--no-deps",
                                 "--wheel-dir", WHEELS, ROOT]
    if run_logged(command, WHEELS.parent / "wheel-build.log") != 0:
        return None
    built = sorted(WHEELS.glob("coup_referee-*.whl"))
    return built[-1] if built else None


CONSTRAINTS_HEADER = """\
# The exact versions `python3 tasks.py serve` and `test` install (pip install -c this file), so
# that every machine runs what CI ran. pyproject.toml holds the ranges (below each next major).
#
# Made by `python3 tasks.py constraints`: a fresh venv, `pip install .[dev]` (the newest
# releases pip's resolver finds within those ranges), then `pip freeze`. Refresh it the same
# way after changing a dependency in pyproject.toml, or to take new releases; run the tests,
# and commit it with the change. It is resolved on Linux: a package that only another system
# needs (say, on Windows) is installed there unpinned.
"""


def write_constraints() -> int:
    """Re-resolve the dependencies in a scratch venv and write constraints.txt."""
    with tempfile.TemporaryDirectory(prefix="coup-constraints-") as scratch:
        venv = Path(scratch) / "venv"
        python = ensure_venv(venv)
        say("resolving pyproject.toml's dependencies with the test tools (pip install .[dev]) ...")
        pip: list[str | Path] = [python, "-m", "pip", "--disable-pip-version-check"]
        if run([*pip, "install", "--quiet", f"{ROOT}[dev]"], cwd=scratch) != 0:
            die("pip install failed (see above)")
        frozen = subprocess.run([*map(str, pip), "freeze", "--exclude", "coup-referee"],
                                capture_output=True, text=True, check=True).stdout
    CONSTRAINTS.write_text(CONSTRAINTS_HEADER + frozen, encoding="utf-8")
    say(f"wrote {CONSTRAINTS.name}: {len(frozen.splitlines())} packages")
    return 0
