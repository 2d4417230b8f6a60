"""Fixtures of the web tests: an app with no bot pause and its TestClient, a live
server, a browser, a database (their helpers are in tests/web/webapp.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browsing import ARGS, CHROMIUM, TOUR_SEEN
from liveserver import Server
from playwright.sync_api import Browser, BrowserContext, sync_playwright
from starlette.testclient import TestClient
from webapp import serving
from webclient import Conn

ARTIFACTS = Path(__file__).parent / "artifacts"


@pytest.fixture
def client() -> Iterator[TestClient]:
    with serving() as test_client:
        yield test_client


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    live = Server(f"sqlite:///{tmp_path_factory.mktemp('browser') / 'skyjo.db'}")
    yield live
    live.kill()


@pytest.fixture(scope="module")
def chromium() -> Iterator[Browser]:
    """One chromium a test module. (Not a session's: Playwright's sync API keeps its
    event loop running, and the terminal tests' `asyncio.run` would then refuse to start.)"""
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()


@pytest.fixture
def browser(chromium: Browser) -> Iterator[Browser]:
    """The module's chromium; the pages a test opened (each in its own context:
    `browsing.open_page`) are closed after it, so none goes on running into the next.
    Each context starts as a browser that has seen the first game's tour (tour.js), which
    would stand over the table: `browsing.open_page(tour=True)` opens one that has not."""
    plain = chromium.new_context

    def new_context(**options: Any) -> BrowserContext:
        context = plain(**options)
        context.add_init_script(TOUR_SEEN)
        return context

    new_context.plain = plain  # type: ignore[attr-defined]
    chromium.new_context = new_context  # type: ignore[method-assign]
    try:
        yield chromium
    finally:
        del chromium.new_context
        for context in chromium.contexts:
            context.close()


@pytest.fixture
def problems() -> Iterator[list[str]]:
    found: list[str] = []
    yield found
    assert found == []


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh database's URL: a SQLite file, then a PostgreSQL database."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'skyjo.db'}"
    else:
        yield request.getfixturevalue("postgres").database()
    Conn.close_all()
