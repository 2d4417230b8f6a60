"""The errors the core raises: each carries its `kind` and `params` where it is raised.

`kind` is a stable snake_case id naming the sentence; `params` holds the facts the
sentence names, JSON-ready. An interface writes the sentence in its own language
from these two and never reads the English message (`str(error)`), which stays
for logs and the command line.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class SkyjoError(ValueError):
    """A refusal of the core: nothing changed. `str()` is the English sentence."""

    def __init__(self, message: str, kind: str, params: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.params = dict(params or {})
