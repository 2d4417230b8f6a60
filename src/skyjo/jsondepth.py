"""How deep a JSON text nests, read from its raw characters before any parser runs.

Python's `json` module parses nested arrays and objects by recursion: a 10 KB
body of ``[[[[...`` raises `RecursionError` deep inside it (a crash, not a
refusal). Every untrusted JSON text (a web request's body, a WebSocket
message, an imported scoresheet) is first measured here and refused beyond
`MAX_DEPTH`, which no document of the project comes near (a game record nests
6 deep, a scoresheet 6, a room request 4).

The scan is one regular expression over the text, linear in its length: a
string (with its escapes: ``"a \\" ["`` holds no bracket) is one token, skipped;
each bracket outside a string counts. An unterminated string runs to the end,
so malformed text never makes the scan slow.
"""

from __future__ import annotations

import re

#: The deepest nesting of arrays and objects accepted in untrusted JSON.
MAX_DEPTH = 32

_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]', re.S)
_BYTE_TOKENS = re.compile(rb'"(?:[^"\\]|\\.)*"?|[\[\]{}]', re.S)


class TooDeep(ValueError):
    """A JSON text nests deeper than `limit` arrays and objects."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"the JSON nests deeper than {limit} levels")
        self.limit = limit


def nesting_depth(text: str | bytes, stop_above: int | None = None) -> int:
    """The deepest nesting of arrays and objects in `text` (0 for a scalar),
    counted outside strings; the scan stops once it passes `stop_above`."""
    tokens = _BYTE_TOKENS if isinstance(text, bytes) else _TOKENS
    opening = (b"[", b"{") if isinstance(text, bytes) else ("[", "{")
    depth = deepest = 0
    for found in tokens.finditer(text):  # type: ignore[arg-type]
        token = found.group()
        if len(token) != 1:
            continue  # a string
        if token in opening:
            depth += 1
            if depth > deepest:
                deepest = depth
                if stop_above is not None and deepest > stop_above:
                    return deepest
        elif token not in (b'"', '"'):
            depth -= 1
    return deepest


def check_depth(text: str | bytes, limit: int = MAX_DEPTH) -> None:
    """Refuse (`TooDeep`) a JSON text nesting deeper than `limit`: the rule every
    untrusted JSON text passes before `json.loads`."""
    if nesting_depth(text, stop_above=limit) > limit:
        raise TooDeep(limit)
