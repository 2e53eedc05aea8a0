"""The system packages the browser tests need (standard library only).

Chromium (Debian's package) and a Japanese font, installed with apt-get when we are root,
after waiting up to 5 minutes for another apt or dpkg to finish.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from .shell import die, on_ci, run, say
from .venvs import TEST_VENV

CHROMIUM = "/usr/bin/chromium"
PACKAGE_LOCK_WAIT_S = 300.0
# What apt-get and dpkg lock (fcntl) while they work; any of them held means "wait".
PACKAGE_LOCKS = ("/var/lib/dpkg/lock-frontend", "/var/lib/dpkg/lock",
                 "/var/lib/apt/lists/lock", "/var/cache/apt/archives/lock")


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
    import fcntl  # Unix only: apt's locks are a Linux matter, and Windows has no fcntl

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
