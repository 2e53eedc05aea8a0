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

The work is done by the ``devtasks`` package beside this file (standard library only too):
``devtasks/venvs.py`` (the environments, the wheel, constraints.txt), ``devtasks/packages.py``
(chromium and a font), ``devtasks/shell.py`` (running commands).

``catalogs`` runs Babel's ``pybabel extract`` and ``update`` (app/catalogs.py): it re-extracts
the translatable strings into app/translations, updates every language's .po file (keeping its
translations) and lists what is left untranslated or fuzzy, exiting 1 if anything is.
``constraints`` refreshes ``constraints.txt`` (see its header).
"""


from __future__ import annotations

import os
import subprocess
import sys

from devtasks.packages import ensure_chromium, ensure_japanese_font
from devtasks.shell import ROOT, WINDOWS, die, run, say
from devtasks.venvs import (
    TEST_VENV,
    VENV,
    bin_dir,
    build_wheel,
    ensure_installed,
    write_constraints,
)

MIN_PYTHON = (3, 11)


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


def constraints(args: list[str]) -> int:
    """Re-resolve the dependencies in a scratch venv and write constraints.txt."""
    if args:
        die("usage: python3 tasks.py constraints (takes no arguments)", 2)
    return write_constraints()


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
