"""The nesting depth of JSON text, measured before parsing (skyjo.jsondepth)."""

from __future__ import annotations

import json
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skyjo.jsondepth import MAX_DEPTH, TooDeep, check_depth, nesting_depth
from skyjo.scorepad.exports import import_json
from skyjo.scorepad.sheet import SheetError


def _depth(value: object) -> int:
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    return 0


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='[]{}"\\ab\n'),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text('[{"\\'), inner, max_size=3)
    ),
    max_leaves=20,
)


@given(JSON)
def test_the_depth_of_any_json_text_is_the_depth_of_its_value(value: object) -> None:
    text = json.dumps(value)
    assert nesting_depth(text) == _depth(value)
    assert nesting_depth(text.encode()) == _depth(value)


def test_strings_and_escapes_hide_their_brackets() -> None:
    assert nesting_depth('["[[[", "\\"[", {"]]": "{"}]') == 2
    assert nesting_depth('"unterminated [[[') == 0
    assert nesting_depth("[" * 40, stop_above=MAX_DEPTH) == MAX_DEPTH + 1


def test_deep_text_is_refused_before_any_parser_recurses() -> None:
    deep = "[" * 100_000 + "]" * 100_000  # json.loads: RecursionError
    with pytest.raises(TooDeep, match=f"deeper than {MAX_DEPTH} levels"):
        check_depth(deep)
    check_depth("[" * MAX_DEPTH + "]" * MAX_DEPTH)
    with pytest.raises(SheetError) as refusal:
        import_json(deep)  # the terminal's --import and the page's import alike
    assert (refusal.value.kind, refusal.value.params) == ("too_deep", {"max": MAX_DEPTH})
    with pytest.raises(SheetError) as huge:
        import_json("9" * 5000)  # json.loads: ValueError, past Python's 4,300 digits
    assert huge.value.kind == "not_json"


def test_the_scan_stays_linear_on_malformed_text() -> None:
    started = time.process_time()
    nesting_depth(b'"\\' * 500_000)  # one unterminated string: read once
    nesting_depth(b'["' * 300_000)
    assert time.process_time() - started < 5
