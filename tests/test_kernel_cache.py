"""Numba's on-disk cache of the compiled game (`skyjo.kernel.cache`): a compiled
function is cached under a stamp of every source its compiled code depends on,
so that an edit of a callee, or of a value it reads, recompiles its callers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from skyjo import kernel
from skyjo.kernel import cache, encoding, playouts


def names(stamped: Any) -> list[str]:
    """The file names of a locator's stamp, in its order (by path)."""
    return [name for name, _ in stamped.get_source_stamp()]


def locator(py_file: Path) -> Any:
    """A stamp as the package's locators make it, for a function of `py_file`."""
    return type("Locator", (cache._PackageStamp,), {"_py_file": str(py_file)})()


def test_a_cached_function_is_stamped_with_the_modules_its_code_depends_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Numba keys a cached function on its own file; the package's locator adds
    every module its module imports, directly or through others, that is
    compiled or of the kernel package, so that editing a callee (a policy, the
    table's rules) or a value it reads recompiles its callers."""
    stamp = kernel.place._cache._impl.locator
    assert isinstance(stamp, cache._PackageStamp)
    assert names(stamp) == ["cache.py", "table.py"]  # engine, rules: neither

    package = tmp_path / "skyjo"
    (package / "bots").mkdir(parents=True)
    (package / "kernel").mkdir()
    (package / "bots" / "__init__.py").write_text("")
    (package / "kernel" / "__init__.py").write_text("")
    files = {
        "caller.py": "from numba import njit\nfrom skyjo.bots import middle\n",
        "bots/middle.py": "import skyjo.callee\nimport skyjo.plain\nimport skyjo.kernel.values\n",
        "callee.py": "from numba import njit\n",
        "plain.py": "x = 1\n",
        "kernel/values.py": "X = 1\n",
        "other.py": "from numba import njit\n",
    }
    for name, text in files.items():
        (package / name).write_text(text)
    monkeypatch.setattr(cache, "_PACKAGE", package)
    stamped = locator(package / "caller.py")
    before = stamped.get_source_stamp()
    assert names(stamped) == ["callee.py", "caller.py", "values.py"]  # by path
    (package / "other.py").write_text("from numba import njit  # edited\n")
    (package / "plain.py").write_text("x = 2\n")
    assert stamped.get_source_stamp() == before
    (package / "kernel" / "values.py").write_text("X = 2\n")
    assert stamped.get_source_stamp() != before
    before = stamped.get_source_stamp()
    (package / "callee.py").write_text("from numba import njit  # edited\n")
    assert stamped.get_source_stamp() != before


def test_a_file_outside_the_package_that_imports_it_is_stamped_too(tmp_path: Path) -> None:
    """A benchmark's compiled function calling the kernel (bench/batch.py) is
    stamped with the kernel's sources too; a file that does not import the
    package is left to Numba's own locators."""
    bench = tmp_path / "bench.py"
    bench.write_text("from numba import njit\nfrom skyjo import kernel\n")
    other = tmp_path / "other.py"
    other.write_text("from numba import njit\nimport numpy\n")
    assert cache._PackageStamp._ours(str(bench))
    assert not cache._PackageStamp._ours(str(other))
    package = Path(kernel.__file__).resolve().parent
    sources = [bench.resolve(), *(package / f for f in ("__init__.py", "cache.py", "table.py"))]
    by_path = [path.name for path in sorted(sources)]  # wherever the clone is
    assert names(locator(bench)) == by_path


def test_the_compiled_loops_go_stale_with_neither_their_callees_nor_their_values() -> None:
    """The playouts inline the policies and the table's rules, the encoder reads
    the layout's offsets: their caches are stamped with those sources too."""
    for function in (playouts.play_out, playouts.first_move, playouts.play_moves):
        stamped = set(names(function._cache._impl.locator))
        wanted = {"playouts.py", "playout_greedy.py", "playout_expected.py", "valuation.py"}
        assert wanted | {"table.py", "twister.py"} <= stamped
    assert {"encoding.py", "layout.py", "table.py"} <= set(
        names(encoding.encode_table._cache._impl.locator)
    )


def test_the_rewards_the_kernel_compiles_from_the_core_are_stamped() -> None:
    """The compiled environments compile the rewards' arithmetic (the stall rule's
    included) from its plain module (`skyjo.rewards`), so their cached code is
    stamped with it: an edit of a reward recompiles them."""
    from skyjo.kernel import vector

    assert "rewards.py" in names(vector._stalled._cache._impl.locator)
    assert "rewards.py" in names(vector._scored._cache._impl.locator)
    assert "rewards.py" in names(vector.stall_growth._cache._impl.locator)
    assert "rewards.py" not in names(kernel.place._cache._impl.locator)
