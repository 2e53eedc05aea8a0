"""One line naming the machine a benchmark ran on, printed first by each benchmark whose figures
depend on it: the same code reads differently on another processor, and the figures in
docs/PERFORMANCE.md name theirs."""

from __future__ import annotations

import os
import platform
import time
from pathlib import Path


def processor() -> str:
    """The processor's model as Linux names it (``/proc/cpuinfo``), else what Python knows."""
    try:
        for line in Path("/proc/cpuinfo").read_text(errors="replace").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "an unknown processor"


def describe() -> str:
    """When, on what, and how busy: "2026-11-27 11:05 UTC on AMD EPYC, 2 cores, Python 3.11.7,
    load average 0.12"."""
    load = f"{os.getloadavg()[0]:.2f}" if hasattr(os, "getloadavg") else "?"
    return (f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} on {processor()}, "
            f"{os.cpu_count()} cores, Python {platform.python_version()}, load average {load}")
