"""Another website cannot act through a visitor's browser: a page served on another
port makes chromium send the requests a hostile page can send without asking first
("simple" requests: a form, `fetch` with `Content-Type: text/plain` in no-cors mode,
a WebSocket) to `skyjo serve`, and nothing changes on the server; the same requests
from the server's own page go through (so the test could tell)."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx2
import pytest
from browsing import DESKTOP
from liveserver import Server
from playwright.sync_api import Browser, Page

from skyjo.match import Match, Seat

PAGE = b"<!doctype html><title>Not Skyjo</title><p>A page of another site.</p>"

#: What a hostile page does, run in its own origin: each simple request the browser
#: sends without a preflight, then a WebSocket that tries to take a seat.
ATTACK = """async ([target, code, record]) => {
  const plain = (path, body) => fetch(target + path, {
    method: "POST", mode: "no-cors", headers: { "Content-Type": "text/plain" }, body });
  await plain("/api/rooms", JSON.stringify({
    seats: [{ name: "Eve" }, { bot: "greedy" }], listed: true, title: "Eve's table" }));
  await plain(`/api/rooms/${code}/join`, JSON.stringify({ name: "Mallory" }));
  await plain(`/api/rooms/${code}/join`, "");
  await plain("/api/scorepad/sheets", JSON.stringify({ players: ["Eve", "Mal"] }));
  await plain("/api/replays", record);
  return await new Promise((done) => {
    const said = [];
    const socket = new WebSocket(target.replace("http", "ws") + `/ws/${code}`);
    socket.onopen = () => socket.send(JSON.stringify({ type: "hello", join: true, name: "Wanda" }));
    socket.onmessage = (event) => { said.push(JSON.parse(event.data)); socket.close(); };
    socket.onclose = (event) => done({ said, code: event.code });
  });
}"""


class _Other(BaseHTTPRequestHandler):
    """Another site: one page, on its own port."""

    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(PAGE)))
        self.end_headers()
        self.wfile.write(PAGE)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def other_site() -> Iterator[str]:
    site = ThreadingHTTPServer(("127.0.0.1", 0), _Other)
    thread = threading.Thread(target=site.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{site.server_address[1]}"
    site.shutdown()
    site.server_close()


def _record() -> str:
    """A finished game's record (an upload the server would keep)."""
    match = Match([Seat("A", "random"), Seat("B", "random")], seed=3)
    while not match.over:
        match.play_bot()
    return json.dumps(match.record())


def _counts(server: Server) -> tuple[int, int, int]:
    """Rooms, uploads and score sheets in the server's database."""
    with sqlite3.connect(server.url.removeprefix("sqlite:///")) as db:
        return tuple(  # type: ignore[return-value]
            db.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
            for table in ("rooms", "uploads", "scorepad_sheets")
        )


def _attack(page: Page, server: Server, code: str, record: str) -> dict[str, Any]:
    return page.evaluate(ATTACK, [server.base, code, record])  # type: ignore[no-any-return]


def test_a_page_of_another_origin_changes_nothing_through_the_browser(
    server: Server, browser: Browser, other_site: str
) -> None:
    room = server.post(
        "/api/rooms", {"seats": [{"name": "Ana"}, {"name": None}, {"bot": "greedy"}], "lobby": True}
    )
    code = room["code"]
    record = _record()
    before = _counts(server)
    hostile = browser.new_context(viewport=DESKTOP).new_page()  # its console errors are expected
    hostile.goto(f"{other_site}/")
    socket = _attack(hostile, server, code, record)
    assert socket["said"] == [] and socket["code"] != 1000, socket  # never opened
    form = (
        "(target) => { const form = Object.assign(document.createElement('form'), "
        "{ method: 'post', action: target, enctype: 'text/plain' }); "
        "form.append(Object.assign(document.createElement('input'), "
        '{ name: \'{"name": "Oscar", "x": "\', value: \'"}\' })); '
        "document.body.append(form); form.submit(); }"
    )
    with hostile.expect_navigation():
        hostile.evaluate(form, f"{server.base}/api/rooms/{code}/join")
    answer = json.loads(hostile.inner_text("body"))["error"]
    assert (answer["code"], answer["kind"]) == ("forbidden", "cross_origin"), answer
    assert answer["params"] == {"origin": other_site}
    assert _counts(server) == before  # no room, no upload, no sheet
    info = httpx2.get(f"{server.base}/api/rooms/{code}", timeout=10).json()
    assert info["free_seats"] == [1] and info["seats"][1]["claimed"] is False
    listed = httpx2.get(f"{server.base}/api/rooms", timeout=10).json()["rooms"]
    assert "Eve's table" not in {r["title"] for r in listed}


def test_the_same_requests_from_the_servers_own_page_go_through(
    server: Server, browser: Browser
) -> None:
    """The control: the attack's requests work from the server's own origin (the page
    sends its JSON as text/plain in no-cors mode: only the type is refused, 415)."""
    room = server.post("/api/rooms", {"seats": [{"name": "Ana"}, {"name": None}], "lobby": True})
    own = browser.new_context(viewport=DESKTOP).new_page()  # the 415 is a console error
    own.goto(server.base)
    joined = own.evaluate(
        """async ([code]) => {
          const answer = await fetch(`/api/rooms/${code}/join`, { method: "POST",
            headers: { "Content-Type": "application/json" }, body: '{"name": "Dana"}' });
          const plain = await fetch("/api/rooms", { method: "POST",
            headers: { "Content-Type": "text/plain" }, body: '{"seats": []}' });
          return [answer.status, (await answer.json()).seat, plain.status,
                  (await plain.json()).error.kind];
        }""",
        [room["code"]],
    )
    assert joined == [200, 1, 415, "body_content_type"]
