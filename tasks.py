#!/usr/bin/env python3
"""Bootstrap: start the referee or run the tests on a machine that has only Python 3.11+.

    python3 tasks.py serve [coup-referee serve options...]
    python3 tasks.py test  [pytest options...]
    python3 tasks.py catalogs [new language codes...]
    python3 tasks.py constraints

Standard library only, for Linux, macOS and Windows. Two virtual environments, so that the
server never carries the test tools: ``.venv`` holds what ``serve`` needs (and ``catalogs``),
``.venv-test`` the same plus the test tools (pytest, hypothesis, ruff, mypy, playwright). Each is
made with ``venv --upgrade-deps`` (current pip and setuptools) when missing, and the project is
(re)installed into it, editable, from the exact versions in ``constraints.txt`` whenever
``pyproject.toml`` or ``constraints.txt`` changed since the last install (a stamp in the
environment holds their hash).

``test`` also makes sure a chromium is there for the browser tests (Debian's package, installed
with apt-get when we are root, after waiting up to 5 minutes for another apt or dpkg to finish),
then runs ``ruff check``, ``mypy --strict`` (over pyproject's ``[tool.mypy]`` files), builds the
wheel (``COUP_WHEEL`` tells the test that installs and serves it), and runs pytest. It exits
with pytest's status, or 1 if pytest passed but a step before it failed.

``catalogs`` runs Babel's ``pybabel extract`` and ``update`` (app/catalogs.py): it re-extracts
the translatable strings into app/translations, updates every language's .po file (keeping its
translations) and lists what is left untranslated or fuzzy, exiting 1 if anything is.
``constraints`` refreshes ``constraints.txt`` (see its header).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, NoReturn

ROOT = Path(__file__).resolve().parent
WINDOWS = os.name == "nt"
VENV = ROOT / ".venv"  # what `serve` runs from: the app's own dependencies only
TEST_VENV = ROOT / ".venv-test"  # the same plus the test tools
CONSTRAINTS = ROOT / "constraints.txt"
WHEELS = TEST_VENV / "wheel"
CHROMIUM = "/usr/bin/chromium"
MIN_PYTHON = (3, 11)
PACKAGE_LOCK_WAIT_S = 300.0
# What apt-get and dpkg lock (fcntl) while they work; any of them held means "wait".
PACKAGE_LOCKS = ("/var/lib/dpkg/lock-frontend", "/var/lib/dpkg/lock",
                 "/var/lib/apt/lists/lock", "/var/cache/apt/archives/lock")


def bin_dir(venv: Path) -> Path:
    return venv / ("Scripts" if WINDOWS else "bin")


def python_of(venv: Path) -> Path:
    return bin_dir(venv) / ("python.exe" if WINDOWS else "python")


# The test environment's interpreter (ensure_chromium writes its apt log beside it).


def say(message: str) -> None:
    print(f"tasks.py: {message}", flush=True)


def die(message: str, code: int = 1) -> NoReturn:
    print(f"tasks.py: error: {message}", file=sys.stderr, flush=True)
    raise SystemExit(code)


def on_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


def run(command: list[str | Path], **kwargs: Any) -> int:
    return subprocess.run([str(part) for part in command], **kwargs).returncode


def run_logged(command: list[str | Path], log: Path) -> int:
    """Run a pip command with its output in ``log`` (setuptools' warnings about an editable
    install are for packagers, not for someone starting the referee); on failure, show the
    log's last lines."""
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("w", encoding="utf-8", errors="replace") as out:
        status = run(command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
    if status != 0:
        lines = log.read_text(encoding="utf-8", errors="replace").splitlines()
        print("\n".join(lines[-30:]), file=sys.stderr, flush=True)
    return status


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
    pip = [python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    if CONSTRAINTS.exists():
        pip += ["--constraint", CONSTRAINTS]
    log = venv / "pip-install.log"
    if run_logged([*pip, "--editable", target], log) != 0:
        die(f"pip install failed (the end of {log} is above); the first install needs PyPI "
            "to be reachable")
    stamp_path.write_text(json.dumps({"digest": digest, "extras": sorted(extras)}),
                          encoding="utf-8")
    return python


def ensure_chromium() -> None:
    """Make /usr/bin/chromium available, or tell the browser tests why they must skip.

    COUP_CHROMIUM may name another Chrome/Chromium binary (macOS, Windows). On CI a missing
    browser fails the run instead of quietly skipping tests.
    """
    chosen = os.environ.get("COUP_CHROMIUM", CHROMIUM)
    if Path(chosen).exists():
        return
    apt = shutil.which("apt-get")
    is_root = hasattr(os, "geteuid") and os.geteuid() == 0
    reason = (
        f"no chromium at {chosen}: install Debian's chromium (as root: apt-get install chromium) "
        "or set COUP_CHROMIUM to a Chrome/Chromium binary"
    )
    if chosen == CHROMIUM and apt and is_root:
        busy = wait_for_package_manager()
        if busy is not None:
            reason = (f"chromium could not be installed: {busy}; "
                      "run the tests again once it has finished")
        elif apt_install_chromium(apt):
            say(f"installed {CHROMIUM}")
            return
    if on_ci():
        die(f"CI must run the browser tests, but there is {reason}")
    say(f"browser tests will be skipped: {reason}")
    os.environ["COUP_BROWSER_SKIP"] = reason


def package_lock_holders(locks: tuple[str, ...] = PACKAGE_LOCKS) -> list[str] | None:
    """None when no apt/dpkg lock is held; else who holds them ("pid 12 apt-get install x"),
    or ["another process"] when that can't be told (no /proc)."""
    import fcntl

    held = []
    for lock in locks:
        try:
            fd = os.open(lock, os.O_RDWR)
        except OSError:
            continue  # no such lock here, or not ours to take
        try:
            fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # taken and let go at once
        except OSError:
            held.append(lock)
        finally:
            os.close(fd)  # closing drops the lock we may have taken
    if not held:
        return None
    return _processes_holding(held) or ["another process"]


def _processes_holding(paths: list[str]) -> list[str]:
    """The processes that have one of ``paths`` open, from /proc (Linux)."""
    found = []
    targets = {os.path.realpath(p) for p in paths}
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            if entry.name == str(os.getpid()):
                continue
            if not any(os.path.realpath(fd) in targets for fd in (entry / "fd").iterdir()):
                continue
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(
                "utf-8", "replace").strip()
        except OSError:
            continue
        found.append(f"pid {entry.name} {command[:100]}".rstrip())
    return found


def wait_for_package_manager(timeout: float = PACKAGE_LOCK_WAIT_S, poll: float = 2.0,
                             locks: tuple[str, ...] = PACKAGE_LOCKS) -> str | None:
    """Wait (at most ``timeout`` seconds) while another apt-get or dpkg holds its locks,
    saying once who holds them. None when they are free; else why we gave up."""
    import time

    holders = package_lock_holders(locks)
    if holders is None:
        return None
    who = "; ".join(holders)
    say(f"waiting up to {timeout / 60:g} min for the package manager, busy with: {who}")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        time.sleep(min(poll, max(0.0, deadline - time.monotonic())))
        holders = package_lock_holders(locks)
        if holders is None:
            say("the package manager is free")
            return None
        who = "; ".join(holders)
    return f"the package manager stayed busy for {timeout / 60:g} min ({who})"


def apt_install_chromium(apt: str) -> bool:
    """apt-get update + install chromium; apt's many lines go to a log, shown only on failure."""
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    log = TEST_VENV / "apt-chromium.log"
    # Should another apt start between our wait and our command, apt itself waits a minute.
    wait = ["-o", "DPkg::Lock::Timeout=60"]
    with log.open("w", encoding="utf-8") as out:
        for step in (["update"], ["install", "-y", "chromium"]):
            say(f"the browser tests need chromium: apt-get {' '.join(step)} (log: {log}) ...")
            options = {"env": env, "stdin": subprocess.DEVNULL, "stdout": out, "stderr": out}
            if run([apt, "-q", *wait, *step], **options) != 0:
                break
    if Path(CHROMIUM).exists():
        return True
    lines = log.read_text(encoding="utf-8", errors="replace").splitlines()
    print("\n".join(lines[-15:]), file=sys.stderr)
    return False


def serve(args: list[str]) -> int:
    ensure_installed(VENV)
    script = bin_dir(VENV) / ("coup-referee.exe" if WINDOWS else "coup-referee")
    command = [str(script), "serve", *args]
    if WINDOWS:  # os.exec* on Windows spawns and exits, which confuses the console and Ctrl+C
        try:
            return subprocess.run(command).returncode
        except KeyboardInterrupt:
            return 130
    os.execv(command[0], command)  # the server becomes this process: Ctrl+C and kill reach it


def ensure_japanese_font() -> None:
    """Chromium needs a Japanese font to draw the Japanese screens (Debian's chromium brings
    none): Debian's IPA Gothic, 3.5 MB, installed with apt-get when we are root. Without it
    the Japanese screenshots show empty boxes, and only those; so it is never fatal."""
    fc_list = shutil.which("fc-list")
    if fc_list is None:
        return
    found = subprocess.run([fc_list, ":lang=ja", "family"], capture_output=True, text=True)
    if found.stdout.strip():
        return
    apt = shutil.which("apt-get")
    if apt and hasattr(os, "geteuid") and os.geteuid() == 0:
        busy = wait_for_package_manager()
        if busy is not None:
            say(f"no Japanese font installed: {busy}")
            return
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        quiet = {"env": env, "stdin": subprocess.DEVNULL, "stdout": subprocess.DEVNULL,
                 "stderr": subprocess.DEVNULL}
        say("the Japanese screens need a font: apt-get install fonts-ipafont-gothic ...")
        install = [apt, "-q", "-o", "DPkg::Lock::Timeout=60", "install", "-y",
                   "fonts-ipafont-gothic"]
        if run(install, **quiet) == 0 or (run([apt, "-q", "update"], **quiet) == 0
                                          and run(install, **quiet) == 0):
            return
    say("no Japanese font: the Japanese screenshots will show boxes "
        "(Debian: apt-get install fonts-ipafont-gothic)")


def build_wheel(python: Path) -> Path | None:
    """Build the project's wheel into .venv-test/wheel, as pipx or pip would (an isolated
    build with setuptools and Babel); None if that failed."""
    shutil.rmtree(WHEELS, ignore_errors=True)
    say(f"building the wheel into {WHEELS.relative_to(ROOT)} ...")
    command = [python, "-m", "pip", "wheel", "--quiet", "--disable-pip-version-check",
               "--no-deps", "--wheel-dir", WHEELS, ROOT]
    if run_logged(command, WHEELS.parent / "wheel-build.log") != 0:
        return None
    built = sorted(WHEELS.glob("coup_referee-*.whl"))
    return built[-1] if built else None


def test(args: list[str]) -> int:
    python = ensure_installed(TEST_VENV, frozenset({"dev"}))
    ensure_chromium()
    if "COUP_BROWSER_SKIP" not in os.environ:
        ensure_japanese_font()
    failed = []
    say("ruff check .")
    if run([python, "-m", "ruff", "check", "."], cwd=ROOT) != 0:
        failed.append("ruff")
    say("mypy --strict (the files in pyproject.toml's [tool.mypy])")
    if run([python, "-m", "mypy", "--strict"], cwd=ROOT) != 0:
        failed.append("mypy")
    wheel = build_wheel(python)
    if wheel is None:
        failed.append("the wheel build")
    else:
        os.environ["COUP_WHEEL"] = str(wheel)
    say("pytest " + " ".join(args))
    tests = run([python, "-m", "pytest", *args], cwd=ROOT)
    if tests == 0 and failed:
        say(f"the tests passed but these failed (above): {', '.join(failed)}")
        return 1
    return tests


def catalogs(args: list[str]) -> int:
    """Re-extract the strings, update every catalogue, list what is untranslated or fuzzy.

    Extra arguments name languages to add (``catalogs de`` creates ``de``). Exits 1 while any
    catalogue is incomplete, so it can guard a commit; the tests in tests/i18n check the same.
    """
    python = ensure_installed(VENV)
    say("updating app/translations from the code and templates (pybabel) ...")
    return run([python, "-m", "app.catalogs", *args], cwd=ROOT)


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


def constraints(args: list[str]) -> int:
    """Re-resolve the dependencies in a scratch venv and write constraints.txt."""
    import tempfile

    if args:
        die("usage: python3 tasks.py constraints (takes no arguments)", 2)
    with tempfile.TemporaryDirectory(prefix="coup-constraints-") as scratch:
        venv = Path(scratch) / "venv"
        python = ensure_venv(venv)
        say("resolving pyproject.toml's dependencies with the test tools (pip install .[dev]) ...")
        pip = [python, "-m", "pip", "--disable-pip-version-check"]
        if run([*pip, "install", "--quiet", f"{ROOT}[dev]"], cwd=scratch) != 0:
            die("pip install failed (see above)")
        frozen = subprocess.run([*map(str, pip), "freeze", "--exclude", "coup-referee"],
                                capture_output=True, text=True, check=True).stdout
    CONSTRAINTS.write_text(CONSTRAINTS_HEADER + frozen, encoding="utf-8")
    say(f"wrote {CONSTRAINTS.name}: {len(frozen.splitlines())} packages")
    return 0


COMMANDS = {"serve": serve, "test": test, "catalogs": catalogs, "constraints": constraints}


def usage() -> str:
    return (f"usage: python3 tasks.py {{{'|'.join(COMMANDS)}}} [args...]\n\n"
            + (__doc__ or "").split("\n\n", 1)[1])


def main(argv: list[str]) -> int:
    if sys.version_info < MIN_PYTHON:
        die(f"Python {'.'.join(map(str, MIN_PYTHON))}+ is needed, this is {sys.version.split()[0]}")
    if argv and argv[0] in ("-h", "--help", "help"):
        print(usage(), end="")
        return 0
    if not argv or argv[0] not in COMMANDS:
        die(f"usage: python3 tasks.py {{{'|'.join(COMMANDS)}}} [args...] "
            "(python3 tasks.py --help says more)", 2)
    os.chdir(ROOT)
    return COMMANDS[argv[0]](argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
