#!/usr/bin/env python3
"""Bootstrap: start the referee or run the tests on a machine that has only Python 3.11+.

    python3 tasks.py serve [coup-referee serve options...]
    python3 tasks.py test  [pytest options...]
    python3 tasks.py catalogs [new language codes...]

Standard library only, for Linux, macOS and Windows. Both commands create ``.venv`` when it is
missing and (re)install the project into it when ``pyproject.toml`` changed since the last
install (a stamp in ``.venv`` holds its hash). ``test`` also makes sure a chromium is there for the
browser tests (Debian's package, installed with apt-get when we are root), runs ``ruff check``
and then pytest, and exits with pytest's status (or 1 if only ruff failed). ``catalogs``
re-extracts the translatable strings into app/translations, updates every language's .po file
(keeping its translations) and lists what is left untranslated or fuzzy, exiting 1 if anything is.
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
VENV = ROOT / ".venv"
WINDOWS = os.name == "nt"
BIN = VENV / ("Scripts" if WINDOWS else "bin")
PYTHON = BIN / ("python.exe" if WINDOWS else "python")
STAMP = VENV / "coup-referee-install.json"
CHROMIUM = "/usr/bin/chromium"
MIN_PYTHON = (3, 11)


def say(message: str) -> None:
    print(f"tasks.py: {message}", flush=True)


def die(message: str, code: int = 1) -> NoReturn:
    print(f"tasks.py: error: {message}", file=sys.stderr, flush=True)
    raise SystemExit(code)


def on_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


def run(command: list[str | Path], **kwargs: Any) -> int:
    return subprocess.run([str(part) for part in command], **kwargs).returncode


def ensure_venv() -> None:
    """Create .venv with this Python, or recreate it when its interpreter is gone."""
    if PYTHON.exists():
        return
    try:
        import ensurepip  # noqa: F401  (Debian splits it out into python3-venv)
        import venv  # noqa: F401
    except ImportError:
        die("this Python lacks venv/ensurepip; on Debian/Ubuntu: apt-get install python3-venv")
    if VENV.exists():
        shutil.rmtree(VENV)
    say(f"creating {VENV.name} ...")
    if run([sys.executable, "-m", "venv", VENV]) != 0 or not PYTHON.exists():
        die(f"could not create {VENV}; on Debian/Ubuntu: apt-get install python3-venv")


def ensure_installed(extras: set[str]) -> None:
    """pip install -e .[extras] unless the stamp says this pyproject is installed with them."""
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    try:
        stamp = json.loads(STAMP.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        stamp = {}
    if stamp.get("pyproject") == digest and extras <= set(stamp.get("extras", [])):
        return
    wanted = extras | (set(stamp.get("extras", [])) if stamp.get("pyproject") == digest else set())
    target = "." + (f"[{','.join(sorted(wanted))}]" if wanted else "")
    say(f"installing the project into {VENV.name} (pip install -e {target}) ...")
    pip = [PYTHON, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    if run([*pip, "--editable", target], cwd=ROOT) != 0:
        die("pip install failed (see above); the first install needs PyPI to be reachable")
    STAMP.write_text(json.dumps({"pyproject": digest, "extras": sorted(wanted)}), encoding="utf-8")


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
    if chosen == CHROMIUM and apt and is_root:
        if apt_install_chromium(apt):
            say(f"installed {CHROMIUM}")
            return
    reason = (
        f"no chromium at {chosen}: install Debian's chromium (as root: apt-get install chromium) "
        "or set COUP_CHROMIUM to a Chrome/Chromium binary"
    )
    if on_ci():
        die(f"CI must run the browser tests, but there is {reason}")
    say(f"browser tests will be skipped: {reason}")
    os.environ["COUP_BROWSER_SKIP"] = reason


def apt_install_chromium(apt: str) -> bool:
    """apt-get update + install chromium; apt's many lines go to a log, shown only on failure."""
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    log = VENV / "apt-chromium.log"
    with log.open("w", encoding="utf-8") as out:
        for step in (["update"], ["install", "-y", "chromium"]):
            say(f"the browser tests need chromium: apt-get {' '.join(step)} (log: {log}) ...")
            options = {"env": env, "stdin": subprocess.DEVNULL, "stdout": out, "stderr": out}
            if run([apt, "-q", *step], **options) != 0:
                break
    if Path(CHROMIUM).exists():
        return True
    lines = log.read_text(encoding="utf-8", errors="replace").splitlines()
    print("\n".join(lines[-15:]), file=sys.stderr)
    return False


def serve(args: list[str]) -> int:
    ensure_venv()
    ensure_installed(set())
    script = BIN / ("coup-referee.exe" if WINDOWS else "coup-referee")
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
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        quiet = {"env": env, "stdin": subprocess.DEVNULL, "stdout": subprocess.DEVNULL,
                 "stderr": subprocess.DEVNULL}
        say("the Japanese screens need a font: apt-get install fonts-ipafont-gothic ...")
        install = [apt, "-q", "install", "-y", "fonts-ipafont-gothic"]
        if run(install, **quiet) == 0 or (run([apt, "-q", "update"], **quiet) == 0
                                          and run(install, **quiet) == 0):
            return
    say("no Japanese font: the Japanese screenshots will show boxes "
        "(Debian: apt-get install fonts-ipafont-gothic)")


def test(args: list[str]) -> int:
    ensure_venv()
    ensure_installed({"dev"})
    ensure_chromium()
    if "COUP_BROWSER_SKIP" not in os.environ:
        ensure_japanese_font()
    say("ruff check .")
    lint = run([PYTHON, "-m", "ruff", "check", "."], cwd=ROOT)
    say("pytest " + " ".join(args))
    tests = run([PYTHON, "-m", "pytest", *args], cwd=ROOT)
    if tests == 0 and lint != 0:
        say("the tests passed but ruff found problems (above)")
        return 1
    return tests


def catalogs(args: list[str]) -> int:
    """Re-extract the strings, update every catalogue, list what is untranslated or fuzzy.

    Extra arguments name languages to add (``catalogs de`` creates ``de``). Exits 1 while any
    catalogue is incomplete, so it can guard a commit; the tests in tests/i18n check the same.
    """
    ensure_venv()
    ensure_installed(set())
    say("updating app/translations from the code and templates ...")
    return run([PYTHON, "-m", "app.web.i18n", *args], cwd=ROOT)


COMMANDS = {"serve": serve, "test": test, "catalogs": catalogs}


def main(argv: list[str]) -> int:
    if sys.version_info < MIN_PYTHON:
        die(f"Python {'.'.join(map(str, MIN_PYTHON))}+ is needed, this is {sys.version.split()[0]}")
    if not argv or argv[0] not in COMMANDS:
        die(f"usage: python3 tasks.py {{{'|'.join(COMMANDS)}}} [args...]", 2)
    os.chdir(ROOT)
    return COMMANDS[argv[0]](argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
