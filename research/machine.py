"""The machine a research script ran on, for its printed figures (the same
`describe` as bench/machine.py: each directory's scripts import it from beside them)."""

from __future__ import annotations

import platform


def describe() -> str:
    """The CPU model (from /proc/cpuinfo where there is one) and Python version."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as info:
            cpu = next(line.split(":", 1)[1].strip() for line in info if "model name" in line)
    except (OSError, StopIteration):
        pass
    return f"{cpu}, Python {platform.python_version()}"
