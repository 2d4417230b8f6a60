"""README's Python example runs as written."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_the_python_example_plays_a_game_to_the_end() -> None:
    block = re.search(r"```python\n(.*?)```", README.read_text(), re.S)
    assert block is not None
    out = io.StringIO()
    namespace: dict[str, object] = {}
    with contextlib.redirect_stdout(out):
        exec(compile(block.group(1), "README.md", "exec"), namespace)
    state = namespace["state"]
    assert state.phase == 4  # type: ignore[attr-defined]
    assert max(state.totals) >= 100  # type: ignore[attr-defined]
    assert "exchange [" in out.getvalue() or "discard and flip [" in out.getvalue()
