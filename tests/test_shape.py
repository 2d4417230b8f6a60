"""The code's shape, checked on the source (`ast`): no class of the web app over
`MAX_CLASS` lines, no function of the package over `MAX_FUNCTION` lines (a long
one does many things: split it by concern, as the room was, issue 54)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "skyjo"
MAX_CLASS = 400
MAX_FUNCTION = 150


def _defined(path: Path, kinds: tuple[type, ...]) -> Iterator[tuple[str, int]]:
    """Each definition of `kinds` in `path`: its name and its length in lines
    (decorators and docstring included)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, kinds):
            start = min([node.lineno, *(d.lineno for d in node.decorator_list)])  # type: ignore[attr-defined]
            yield node.name, node.end_lineno - start + 1  # type: ignore[attr-defined, operator]


def _too_long(root: Path, kinds: tuple[type, ...], limit: int) -> dict[str, int]:
    return {
        f"{path.relative_to(SRC).as_posix()}:{name}": lines
        for path in sorted(root.rglob("*.py"))
        for name, lines in _defined(path, kinds)
        if lines > limit
    }


def test_no_class_of_the_web_app_is_over_400_lines() -> None:
    assert _too_long(SRC / "web", (ast.ClassDef,), MAX_CLASS) == {}


def test_no_function_is_over_150_lines() -> None:
    assert _too_long(SRC, (ast.FunctionDef, ast.AsyncFunctionDef), MAX_FUNCTION) == {}


def test_the_check_sees_a_long_class_and_a_long_function(tmp_path: Path) -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_FUNCTION))
    (tmp_path / "long.py").write_text(
        f"class Big:\n    def f(self):\n    {body.replace(chr(10), chr(10) + '    ')}\n"
        + "\n".join(f"    y{i} = {i}" for i in range(MAX_CLASS))
        + f"\n\ndef short():\n    return 1\n\n@staticmethod\ndef g():\n{body}\n",
        encoding="utf-8",
    )
    classes = dict(_defined(tmp_path / "long.py", (ast.ClassDef,)))
    functions = dict(_defined(tmp_path / "long.py", (ast.FunctionDef,)))
    assert classes["Big"] > MAX_CLASS
    assert functions["f"] > MAX_FUNCTION and functions["g"] == MAX_FUNCTION + 2
    assert functions["short"] == 2
