"""Fixtures shared by the tests (their helpers are in tests/helpers.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from postgres import Postgres, running


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    """A PostgreSQL server of Debian's package (tests/postgres.py), started once
    for the test session (once per xdist worker) and stopped after it."""
    with running() as server:
        yield server
