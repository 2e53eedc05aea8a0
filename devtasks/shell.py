"""Running commands and speaking for tasks.py (standard library only)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

ROOT = Path(__file__).resolve().parent.parent  # the project: tasks.py's folder
WINDOWS = os.name == "nt"


def say(message: str) -> None:
    print(f"tasks.py: {message}", flush=True)


def die(message: str, code: int = 1) -> NoReturn:
    print(f"tasks.py: error: {message}", file=sys.stderr, flush=True)
    raise SystemExit(code)


def on_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


def run(command: Sequence[str | Path], **kwargs: Any) -> int:
    return subprocess.run([str(part) for part in command], **kwargs).returncode


def run_logged(command: Sequence[str | Path], log: Path) -> int:
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
