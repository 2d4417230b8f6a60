"""The app offline in a real browser: Playwright driving Debian's chromium against
`skyjo serve` on localhost. The service worker (static/sw.js) registers and controls
the page; after one visit the front page, a room's page, the replay viewer and the
scorepad load with no connection (`context.set_offline`, which also cuts the worker's
own requests: a page it had not kept fails to load); rounds typed offline are kept and
saved when the connection returns; a sheet changed elsewhere meanwhile loses nothing.
Screenshots go to tests/web/artifacts/. Every wait is on a condition of the page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx2
import pytest
from browsing import PHONE, SCREENS, click_and_wait, start_against_bots, step_number
from liveserver import Server
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, Route, expect
from playwright.sync_api import Error as PlaywrightError
from test_browser_a11y import violations

#: The scorepad token of "this browser" (as the page keeps the one the server issued).
BROWSER = "the-browser-of-the-offline-tests-0000"
API = "/api/scorepad/sheets"
WORKER_READY = "navigator.serviceWorker.ready.then((r) => r.active !== null)"


def open_page(
    browser: Browser, viewport: dict[str, int], problems: list[str], token: bool = True
) -> Page:
    """A page in a fresh context holding this browser's scorepad token (as
    browsing.open_page, whose notes it keeps but one: a request the browser could not
    send offline is what these tests ask for)."""
    context = browser.new_context(viewport=viewport, reduced_motion="reduce")
    page = context.new_page()
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    page.on("dialog", lambda box: (problems.append(f"dialog: {box.message}"), box.dismiss()))
    page.on("console", lambda m: note(problems, m))
    if token:
        page.add_init_script(f"localStorage.setItem('skyjo:scorepad:owner', '{BROWSER}')")
    return page


def note(problems: list[str], message: ConsoleMessage) -> None:
    if message.type == "error" and "ERR_INTERNET_DISCONNECTED" not in message.text:
        problems.append(f"console: {message.text}")


def _refused(route: Route) -> None:
    route.abort("internetdisconnected")


def go_offline(context: BrowserContext) -> None:
    """No connection: `set_offline` (navigator.onLine, the page's and the worker's requests),
    and every API request refused as well: Chromium lets a request through while a page
    reloads offline (the old page's, as it unloads), which would reach the server."""
    context.set_offline(True)
    context.route("**/api/**", _refused)


def go_online(context: BrowserContext) -> None:
    context.unroute("**/api/**", _refused)
    context.set_offline(False)


def visit(page: Page, url: str) -> BrowserContext:
    """Open `url` and wait until the service worker is active (its files kept); the context."""
    page.goto(url)
    page.wait_for_function(WORKER_READY)
    return page.context


def sheet_of(server: Server, sheet_id: str) -> dict[str, Any]:
    """The sheet as the server has it (another client: the same owner token)."""
    response = httpx2.get(
        f"{server.base}{API}/{sheet_id}", headers={"X-Skyjo-Owner": BROWSER}, timeout=10
    )
    assert response.status_code == 200, response.text
    return response.json()


def new_sheet(page: Page, base: str, title: str) -> str:
    """A sheet of Ana and Ben made on the list page; its id, once the worker is active."""
    visit(page, f"{base}/scorepad")
    page.fill("[data-key=new-title]", title)
    page.fill("[data-key=new-player-0]", "Ana")
    page.fill("[data-key=new-player-1]", "Ben")
    page.click("[data-key=create]")
    page.wait_for_selector("[data-key=round-form]")
    return page.url.rsplit("/", 1)[-1]


def enter_totals(page: Page, ender: int, *totals: str) -> None:
    """Type each player's total, tick the ender, Save."""
    for i, total in enumerate(totals):
        page.fill(f"[data-key=total-{i}]", total)
    page.check(f"[data-key=ender-{ender}]")
    page.click("[data-key=save-round]")


def pending_in_storage(page: Page) -> dict[str, Any]:
    return page.evaluate("JSON.parse(localStorage.getItem('skyjo:scorepad:pending') || '{}')")


def test_the_worker_registers_keeps_the_app_and_controls_the_page_after_a_reload(
    browser: Browser, server: Server, problems: list[str]
) -> None:
    page = open_page(browser, SCREENS["desktop"], problems)
    visit(page, server.base)
    page.reload()
    script = page.evaluate("navigator.serviceWorker.controller?.scriptURL ?? null")
    assert script == f"{server.base}/sw.js"
    kept = page.evaluate(
        """async () => {
          const names = await caches.keys();
          const cache = await caches.open(names[0]);
          return { names, urls: (await cache.keys()).map((r) => new URL(r.url).pathname) };
        }"""
    )
    build = httpx2.get(f"{server.base}/sw.js", timeout=10).text.partition("\n")[0]
    version = build.split('"version": "')[1].split('"')[0]
    assert kept["names"] == [f"skyjo-{version}"]
    for url in ("/", "/scorepad", "/replay", "/static/main.js", "/static/game.js"):
        assert url in kept["urls"], url
    assert not [url for url in kept["urls"] if url.startswith("/api/")]
    page.context.close()


def test_the_front_page_a_room_and_the_replay_viewer_load_offline(
    browser: Browser, server: Server, problems: list[str], artifacts: Path
) -> None:
    room = server.post("/api/rooms", {"seats": [{"name": "Ana"}, {"name": None}]})
    for name, viewport in (("phone", SCREENS["phone"]), ("desktop", SCREENS["desktop"])):
        page = open_page(browser, viewport, problems)
        context = visit(page, server.base)
        go_offline(context)
        page.goto(server.base)
        page.wait_for_selector("[data-key=start]")
        status = page.locator("#net-status")
        expect(page.locator("#announce")).to_contain_text(status.inner_text())
        expect(status).to_contain_text("You are offline")
        expect(page.locator(".open-games")).to_contain_text("when the connection returns")
        page.screenshot(path=artifacts / f"offline-front-{name}.png", full_page=True)
        page.goto(f"{server.base}/replay")
        page.wait_for_selector("[data-key=record-file]")
        expect(status).to_contain_text("You are offline")
        # a room's page: the app, which says the room opens when the connection returns ...
        page.goto(f"{server.base}/r/{room['code']}")
        expect(page.locator("[data-key=offline-page]")).to_contain_text(room["code"])
        assert page.locator("[data-key=take-seat]").count() == 0
        # ... and does so by itself
        go_online(context)
        page.wait_for_selector("[data-key=take-seat]")
        expect(status).to_contain_text("Back online")
        context.close()


def test_a_room_page_tries_again_by_itself_when_the_server_did_not_answer(
    browser: Browser, server: Server, problems: list[str]
) -> None:
    """The browser online but the server out of reach (down, or the network not up yet when
    the browser said "online"): no "online" event will come, so the page tries again by
    itself and opens the room once the server answers."""
    room = server.post("/api/rooms", {"seats": [{"name": "Ana"}, {"name": None}]})
    page = open_page(browser, PHONE, problems)
    context = visit(page, server.base)
    context.route("**/api/**", _refused)
    page.goto(f"{server.base}/r/{room['code']}")
    expect(page.locator("[data-key=offline-page]")).to_contain_text(room["code"])
    context.unroute("**/api/**", _refused)
    page.wait_for_selector("[data-key=take-seat]", timeout=15000)
    context.close()


def test_a_page_never_visited_is_not_kept(
    browser: Browser, server: Server, problems: list[str]
) -> None:
    """The offline pages come from the worker's cache, not from the network: a browser
    that never ran the worker gets the browser's error offline."""
    page = open_page(browser, PHONE, problems, token=False)
    go_offline(page.context)
    with pytest.raises(PlaywrightError, match="ERR_INTERNET_DISCONNECTED"):
        page.goto(f"{server.base}/scorepad")
    page.context.close()


def test_rounds_entered_offline_are_saved_when_the_connection_returns(
    browser: Browser, server: Server, problems: list[str], artifacts: Path
) -> None:
    for name, viewport in (("phone", SCREENS["phone"]), ("desktop", SCREENS["desktop"])):
        page = open_page(browser, viewport, problems)
        sheet_id = new_sheet(page, server.base, f"Offline {name}")
        context = page.context
        go_offline(context)
        page.reload()  # the sheet's page, offline: as last seen
        page.wait_for_selector("[data-key=round-form]")
        expect(page.locator("[data-key=sheet-title]")).to_have_text(f"Offline {name}")
        status = page.locator("#net-status")
        expect(page.locator("#announce")).to_contain_text(status.inner_text())
        expect(status).to_contain_text("You are offline")
        enter_totals(page, 0, "12", "20")
        expect(page.locator("[data-key=round-form]")).to_have_attribute("data-queued", "1")
        expect(page.locator("#pad-form-title")).to_have_text("Round 2")
        enter_totals(page, 1, "3", "-4")
        expect(page.locator("[data-key=pending] li")).to_have_count(2)
        expect(status).to_contain_text("2 rounds are kept on this device")
        # reloaded offline: the sheet as last seen and the rounds not saved yet
        page.reload()
        pending = page.locator("[data-key=pending]")
        expect(pending.locator("li").nth(0)).to_contain_text("Round 1: Ana *: 12 · Ben: 20")
        expect(pending.locator("li").nth(1)).to_contain_text("Round 2: Ana: 3 · Ben *: -4")
        assert page.get_attribute(".pad-sheet-page", "data-rounds") == "0"
        assert sheet_of(server, sheet_id)["typed"] == []
        page.screenshot(path=artifacts / f"offline-scorepad-{name}.png", full_page=True)
        go_online(context)
        expect(status).to_contain_text("Back online: the 2 rounds kept on this device are saved.")
        expect(page.locator(".pad-sheet-page")).to_have_attribute("data-rounds", "2")
        expect(pending).to_have_count(0)
        assert sheet_of(server, sheet_id)["typed"] == [
            {"ender": "Ana", "entries": {"Ana": "12", "Ben": "20"}},
            {"ender": "Ben", "entries": {"Ana": "3", "Ben": "-4"}},
        ]
        assert pending_in_storage(page) == {}
        page.screenshot(path=artifacts / f"offline-scorepad-saved-{name}.png", full_page=True)
        context.close()


def test_a_sheet_changed_elsewhere_meanwhile_loses_nothing_typed_offline(
    browser: Browser, server: Server, problems: list[str], artifacts: Path
) -> None:
    """Another device saves round 1 while this one, offline, keeps its own round 1. Back
    online, the server refuses this one's (its revision is stale): nothing is saved over
    the other's, the round stays on this device, shown with the fresh sheet and a plain
    sentence, across a reload, until the user saves it as round 2 (or discards it)."""
    page = open_page(browser, PHONE, problems)
    sheet_id = new_sheet(page, server.base, "Two devices")
    context = page.context
    go_offline(context)
    page.reload()
    page.wait_for_selector("[data-key=round-form]")
    enter_totals(page, 0, "12", "20")
    page.wait_for_selector("[data-key=pending]")
    other = sheet_of(server, sheet_id)
    body = {
        "revision": other["revision"],
        "round": {"ender": "Ben", "entries": {"Ana": "9", "Ben": "2"}},
    }
    added = httpx2.post(
        f"{server.base}{API}/{sheet_id}/rounds",
        json=body,
        headers={"X-Skyjo-Owner": BROWSER},
        timeout=10,
    )
    assert added.status_code == 200, added.text
    go_online(context)
    pending = page.locator("[data-key=pending][data-held=conflict]")
    expect(pending).to_contain_text("changed on another device")
    expect(pending.locator("li")).to_contain_text("Round 2: Ana *: 12 · Ben: 20")
    expect(page.locator(".pad-sheet-page")).to_have_attribute("data-rounds", "1")  # the other's
    expect(page.locator("#net-status")).to_contain_text("not saved")
    page.screenshot(path=artifacts / "offline-scorepad-conflict-phone.png", full_page=True)
    assert [r["entries"] for r in sheet_of(server, sheet_id)["typed"]] == [{"Ana": "9", "Ben": "2"}]
    page.reload()  # held, not sent again by itself: still there
    expect(pending.locator("li")).to_contain_text("Round 2: Ana *: 12 · Ben: 20")
    assert list(pending_in_storage(page)) == [sheet_id]
    page.click("[data-key=pending-save]")
    expect(page.locator(".pad-sheet-page")).to_have_attribute("data-rounds", "2")
    expect(page.locator("[data-key=pending]")).to_have_count(0)
    expect(page.locator("#net-status")).to_contain_text("is saved")
    assert [r["entries"] for r in sheet_of(server, sheet_id)["typed"]] == [
        {"Ana": "9", "Ben": "2"},
        {"Ana": "12", "Ben": "20"},
    ]
    problems[:] = [p for p in problems if "status of 409" not in p]
    context.close()


# --- a game and its connection (issue 46) ----------------------------------------------------

BANNER = "[data-key=net-banner]"
FOCUSED = "() => document.activeElement?.dataset?.key ?? null"


def my_draw(page: Page, base: str) -> None:
    """A game against a bot from the front page, my two cards turned up: the draw is mine."""
    start_against_bots(page, base, 1, target=400)
    for _ in range(2):
        page.wait_for_selector(".mine button.card.playable")
        click_and_wait(page, ".mine button.card.playable")
    page.wait_for_selector("[data-key=pile-draw].playable")


def moves_held(page: Page) -> None:
    """The moves wait: marked unavailable; a click on one is not sent, and says why, on the
    board and through the live region, the focus kept on it."""
    expect(page.locator(".prompt")).to_have_text("Your turn, once the connection is back")
    for move in ("pile-draw", "choice-draw", "choice-take"):
        expect(page.locator(f"[data-key={move}]")).to_have_attribute("aria-disabled", "true")
    number = step_number(page)
    page.focus("[data-key=pile-draw]")
    page.keyboard.press("Enter")
    expect(page.locator("[data-key=net-refused]")).to_have_text(
        "Not sent: there is no connection. Play it again once the connection is back."
    )
    expect(page.locator("#announce")).to_contain_text("Not sent: there is no connection")
    assert page.evaluate(FOCUSED) == "pile-draw"
    page.evaluate("document.getElementById('announce').textContent = ''")
    page.click("[data-key=choice-draw]", force=True)  # the mouse too (Playwright waits for no
    expect(page.locator("#announce")).to_contain_text("Not sent")  # aria-disabled control)
    assert step_number(page) == number and page.locator(".held .card").count() == 0


def back_and_playing(page: Page) -> None:
    """The connection back: said, the moves playable again (a draw is played), and the
    banner gone after a few seconds."""
    expect(page.locator(BANNER)).to_have_text("Connected again.")
    expect(page.locator(BANNER)).to_have_attribute("data-state", "back")
    expect(page.locator("#announce")).to_contain_text("Connected again.")
    expect(page.locator("[data-key=net-refused]")).to_have_count(0)
    assert page.locator("[aria-disabled=true]").count() == 0
    click_and_wait(page, "[data-key=choice-draw]")
    expect(page.locator(".held .card")).to_have_count(1)
    expect(page.locator(BANNER)).to_have_count(0, timeout=10_000)


def test_a_game_shows_a_lost_network_holds_the_moves_and_plays_once_it_is_back(
    browser: Browser, server: Server, problems: list[str], artifacts: Path
) -> None:
    for name, viewport in (("phone", SCREENS["phone"]), ("desktop", SCREENS["desktop"])):
        page = open_page(browser, viewport, problems)
        my_draw(page, server.base)
        assert page.locator(BANNER).count() == 0
        go_offline(page.context)
        expect(page.locator(BANNER)).to_have_text(
            "You are offline: moves wait until the connection is back."
            " The game reconnects by itself."
        )
        expect(page.locator(BANNER)).to_have_attribute("data-state", "offline")
        expect(page.locator("#announce")).to_contain_text("You are offline: moves wait")
        moves_held(page)
        assert violations(page) == []  # axe: the banner, the held moves (WCAG 2.1 AA)
        page.screenshot(path=artifacts / f"offline-game-{name}.png")
        go_online(page.context)
        back_and_playing(page)
        page.context.close()


def test_a_game_whose_server_stops_says_so_and_goes_on_when_it_is_back(
    browser: Browser, problems: list[str], tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'skyjo.db'}"
    live = Server(url)
    page = open_page(browser, SCREENS["desktop"], problems)
    my_draw(page, live.base)
    live.kill()
    expect(page.locator(BANNER)).to_have_text(
        "Connection lost: reconnecting… Moves wait until it is back."
    )
    expect(page.locator(BANNER)).to_have_attribute("data-state", "reconnecting")
    moves_held(page)
    live = Server(url, port=live.port)  # the same address: the page finds it again
    try:
        back_and_playing(page)
    finally:
        live.kill()
    problems[:] = [p for p in problems if "WebSocket" not in p]  # the refused reconnections
    page.context.close()


def test_a_game_opened_offline_says_it_needs_the_connection_and_opens_when_it_is_back(
    browser: Browser, server: Server, problems: list[str], artifacts: Path
) -> None:
    """A room this browser holds a seat of, opened with no connection (its first visit: the
    app's files come from the worker): not "Connecting…" for ever, but that a game needs
    the connection, with the scorepad, which works offline; the game once it is back."""
    room = server.post("/api/rooms", {"seats": [{"name": "Ana"}, {"bot": "greedy"}]})
    page = open_page(browser, SCREENS["phone"], problems)
    context = visit(page, server.base)
    seat = {"token": room["token"], "seat": 0}
    page.evaluate(
        "([k, v]) => localStorage.setItem(k, JSON.stringify(v))",
        [f"skyjo:seat:{room['code']}", seat],
    )
    go_offline(context)
    page.goto(f"{server.base}/r/{room['code']}")
    notice = page.locator("[data-key=offline-page]")
    expect(notice).to_contain_text("You are offline, and a game needs the connection")
    expect(notice).to_contain_text(room["code"])
    expect(notice).to_contain_text("The scorepad works offline.")
    expect(page.locator("[data-key=offline-scorepad]")).to_have_attribute("href", "/scorepad")
    assert "Connecting" not in page.inner_text("#main")
    page.screenshot(path=artifacts / "offline-room-first-visit-phone.png")
    go_online(context)
    page.wait_for_selector(".mine .grid.large")
    expect(page.locator(BANNER)).to_have_text("Connected again.")
    context.close()
