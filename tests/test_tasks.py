"""`python3 tasks.py` and the devtasks package behind it: its help, waiting for the package
manager, pip's output kept in a log."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from serverkit import BOUND_S, ROOT

from devtasks import packages, shell


def test_tasks_help_prints_the_usage() -> None:
    for option in ("--help", "-h"):
        done = subprocess.run([sys.executable, str(ROOT / "tasks.py"), option],
                              capture_output=True, text=True, timeout=BOUND_S)
        assert done.returncode == 0 and done.stderr == ""
        assert done.stdout.startswith("usage: python3 tasks.py {serve|test|")
        assert "python3 tasks.py test  [pytest options...]" in done.stdout


# -- issue 16, item 1: tasks.py waits for the package manager -----------------------------------


HOLDER = """
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)
fcntl.lockf(fd, fcntl.LOCK_EX)
print("held", flush=True)
sys.stdin.read()  # until the test closes our stdin
"""


@pytest.fixture
def held_lock(tmp_path: Path):
    """A lock file held with fcntl as apt and dpkg hold theirs, by a process that lets go when
    told; yields (path, process)."""
    if not Path("/proc/self/fd").exists():
        pytest.skip("apt and /proc are Linux's")
    lock = tmp_path / "lock-frontend"
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(lock), "apt-get-like"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None and holder.stdout.readline() == "held\n"
    try:
        yield lock, holder
    finally:
        holder.kill()
        holder.wait(timeout=BOUND_S)
        for pipe in (holder.stdin, holder.stdout):
            if pipe is not None:
                pipe.close()


def test_tasks_waits_for_the_package_manager_and_says_who_holds_it(held_lock, monkeypatch):
    import threading

    tasks = packages
    lock, holder = held_lock
    said: list[str] = []
    waiting = threading.Event()

    def say(message: str) -> None:
        said.append(message)
        if message.startswith("waiting"):
            waiting.set()

    monkeypatch.setattr(tasks, "say", say)
    holders = tasks.package_lock_holders((str(lock),))
    assert holders is not None and len(holders) == 1, holders
    assert holders[0].startswith(f"pid {holder.pid} {sys.executable} -c"), holders
    result: list[str | None] = []
    waiter = threading.Thread(target=lambda: result.append(tasks.wait_for_package_manager(
        timeout=BOUND_S, poll=0.05, locks=(str(lock),))))
    waiter.start()
    assert waiting.wait(BOUND_S)
    assert f"pid {holder.pid} " in said[0]  # says what holds the lock
    assert holder.stdin is not None
    holder.stdin.close()  # the other apt-get finishes
    waiter.join(BOUND_S)
    assert result == [None]  # free: go on
    assert tasks.package_lock_holders((str(lock),)) is None


def test_tasks_gives_up_on_a_package_manager_that_stays_busy(held_lock, monkeypatch):
    tasks = packages
    lock, holder = held_lock
    monkeypatch.setattr(tasks, "say", lambda message: None)
    reason = tasks.wait_for_package_manager(timeout=0.2, poll=0.05, locks=(str(lock),))
    assert reason is not None and reason.startswith("the package manager stayed busy")
    assert f"pid {holder.pid} " in reason


def test_tasks_blames_the_busy_package_manager_not_a_missing_chromium(monkeypatch):
    tasks = packages
    monkeypatch.setenv("COUP_CHROMIUM", "/usr/bin/chromium")
    monkeypatch.delenv("COUP_BROWSER_SKIP", raising=False)
    monkeypatch.setenv("CI", "")
    monkeypatch.setattr(tasks, "CHROMIUM", "/nonexistent/chromium")
    monkeypatch.setenv("COUP_CHROMIUM", "/nonexistent/chromium")
    monkeypatch.setattr(tasks.shutil, "which", lambda name: "/usr/bin/apt-get")
    monkeypatch.setattr(tasks.os, "geteuid", lambda: 0, raising=False)
    monkeypatch.setattr(tasks, "wait_for_package_manager",
                        lambda: "the package manager stayed busy for 5 min (pid 7 apt-get)")
    monkeypatch.setattr(tasks, "apt_install_chromium", lambda apt: pytest.fail("ran apt-get"))
    monkeypatch.setattr(tasks, "say", lambda message: None)
    tasks.ensure_chromium()
    reason = os.environ["COUP_BROWSER_SKIP"]
    assert reason.startswith("chromium could not be installed: the package manager stayed busy")


# -- a new user's first start: pip's and setuptools' chatter stays in a log -----------------------


def test_tasks_keeps_pip_output_in_a_log_and_shows_it_only_on_failure(tmp_path, capfd):
    tasks = shell
    noisy = [sys.executable, "-c", "import sys; print('BuildBackendWarning: editable'); "
             "print('warned', file=sys.stderr)"]
    assert tasks.run_logged(noisy, tmp_path / "ok.log") == 0
    out, err = capfd.readouterr()
    assert out == "" and err == ""
    assert "BuildBackendWarning" in (tmp_path / "ok.log").read_text()
    failing = [sys.executable, "-c", "import sys; print('ERROR: no matching distribution'); "
               "sys.exit(1)"]
    assert tasks.run_logged(failing, tmp_path / "bad.log") == 1
    out, err = capfd.readouterr()
    assert "ERROR: no matching distribution" in err
