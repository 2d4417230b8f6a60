"""`describe`, the machine a script ran on: bench/machine.py's, loaded from there
so that the research scripts (which import it from beside them) share one copy."""

from __future__ import annotations

import importlib.util
from pathlib import Path

_SPEC = importlib.util.spec_from_file_location(
    "bench_machine", Path(__file__).resolve().parent.parent / "bench" / "machine.py"
)
assert _SPEC is not None and _SPEC.loader is not None
_MODULE = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(_MODULE)
describe = _MODULE.describe
