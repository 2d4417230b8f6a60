"""Numba's on-disk cache for the package's compiled code, kept fresh after an edit.

Numba's cache (`njit(cache=True)`) keys a compiled function on its own source
file only (its modification time and size), but the compiled code of a
function holds that of every compiled function it calls, from other modules
too (the playouts inline the table's `place` and the policy's `choose`), and
the module-level values it reads (the encoder's offsets, from `layout`): an
edited callee would leave its callers running stale code. So each compiled
function is cached here under a stamp of its module's source and of every
module of this package, every compiled module of `skyjo` and every plain
module whose functions the kernel compiles (`skyjo.rewards`), that it
imports, directly or through others (a module is compiled when it imports
Numba's `njit`); each part of the stamp is a digest of the file's content.

This is the one fix of the stale cache, and it works however the code is
run: a user who edits a file and runs `pytest`, a benchmark or `skyjo`
directly, without `make`, gets recompiled callers, and only the functions
whose stamp changed are compiled again; in CI a cache carried over from an
earlier run is judged by the files' content, not by the times a checkout
gives them. It also covers every other file whose compiled functions import
the package (`bench/batch.py`'s timing of the deals). With `NUMBA_CACHE_DIR`
set, the cache goes there, with the same stamps.

Importing this module registers the locators; it must come before the first
`njit(cache=True)` of a module that wants them: the package's compiled
modules import it (or `skyjo.kernel.table`, which does) before compiling.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import os
from pathlib import Path
from typing import Any

from numba.core import caching, config

#: The `skyjo` package, whose modules an import names.
_PACKAGE = Path(__file__).resolve().parents[1]


#: The plain modules of `skyjo` whose functions the kernel compiles as they
#: are (`njit(f)`), stamped like the kernel's own: the rewards' arithmetic.
_SHARED = frozenset({"rewards.py"})


@functools.cache
def _imports(path: Path) -> tuple[Path, ...]:
    """The package's modules that `path` imports, as files."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        for name in names:
            parts = name.split(".")
            if parts[0] != _PACKAGE.name:
                continue
            base = _PACKAGE.joinpath(*parts[1:])
            for candidate in (base.with_suffix(".py"), base / "__init__.py"):
                if candidate.is_file() and candidate != path:
                    found.append(candidate)
    return tuple(sorted(set(found)))


@functools.cache
def _compiled(path: Path) -> bool:
    """Whether the module at `path` compiles code: it imports `njit` from Numba."""
    return any(
        isinstance(node, ast.ImportFrom)
        and node.module == "numba"
        and any(alias.name == "njit" for alias in node.names)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
    )


def _stamped_sources(path: Path) -> list[Path]:
    """`path` and the modules it imports, directly or not, that are compiled or
    of this package."""
    seen, todo = {path}, [path]
    while todo:
        for other in _imports(todo.pop()):
            if other not in seen:
                seen.add(other)
                todo.append(other)
    kernel = _PACKAGE / "kernel"
    shared = {_PACKAGE / name for name in _SHARED}
    return sorted(
        p for p in seen if p == path or p.is_relative_to(kernel) or _compiled(p) or p in shared
    )


@functools.cache
def _digest(path: Path, mtime: float, size: int) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


class _PackageStamp:
    """A cache locator's stamp: the digests of the function's module and of the
    modules it imports that are compiled or of this package (see above)."""

    _py_file: str

    def get_source_stamp(self) -> tuple[tuple[str, str], ...]:
        paths = _stamped_sources(Path(self._py_file).resolve())
        stamp = []
        for path in paths:
            st = os.stat(path)
            stamp.append((path.name, _digest(path, st.st_mtime, st.st_size)))
        return tuple(stamp)

    @classmethod
    def _ours(cls, py_file: str) -> bool:
        """Whether a function of `py_file` is stamped here: a module of the
        package, or a file (a benchmark, a test) that imports the package."""
        path = Path(py_file).resolve()
        if path.is_relative_to(_PACKAGE):
            return True
        try:
            return path.suffix == ".py" and bool(_imports(path))
        except (OSError, SyntaxError, ValueError):
            return False


class _InTreeLocator(_PackageStamp, caching.InTreeCacheLocator):
    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> Any:
        if config.CACHE_DIR or not cls._ours(py_file):
            return None
        return super().from_function(py_func, py_file)


class _CacheDirLocator(_PackageStamp, caching.UserProvidedCacheLocator):
    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> Any:
        if not cls._ours(py_file):
            return None
        return super().from_function(py_func, py_file)


if _InTreeLocator not in caching.CacheImpl._locator_classes:
    caching.CacheImpl._locator_classes[:0] = [_CacheDirLocator, _InTreeLocator]
