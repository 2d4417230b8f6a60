"""Another game in a real browser: at a game's end the host's "Another game" opens the
table's next game, and every other page is offered it in place: a friend keeps their
seat in one click, a spectator watches; a hot-seat device keeps all its seats. Every
wait is on a condition of the page, never on time."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browsing import SCREENS, on_one_screen, open_page
from liveserver import Server
from playwright.sync_api import Browser, Page, expect
from test_browser_a11y import report, violations
from webclient import play_game

ONE_ROUND = {"target_score": 1, "ender_penalty": "none"}  # over after the first round


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The module's server: its scripted players move as fast as the game goes."""
    live = Server(f"sqlite:///{tmp_path_factory.mktemp('rematch') / 'skyjo.db'}", SKYJO_RATE="1000")
    yield live
    live.kill()


def holding(
    page: Page, base: str, code: str, seat: dict[str, Any], hot: list | None = None
) -> None:
    """Give `page` this browser's seat of room `code` (and its hot seats), as made or joined."""
    page.goto(base)
    keep = "([key, value]) => localStorage.setItem(key, JSON.stringify(value))"
    page.evaluate(keep, [f"skyjo:seat:{code}", seat])
    if hot:
        page.evaluate(keep, [f"skyjo:seats:{code}", hot])


def finish(server: Server, code: str, tokens: dict[int, str]) -> None:
    """Play room `code`'s humans to the game's end over connections of their own tokens."""
    conns = {seat: server.conn(code) for seat in tokens}
    for seat, conn in conns.items():
        conn.hello(tokens[seat])
    play_game(conns[0], conns, random.Random(7))
    errors = [m for conn in conns.values() for m in conn.messages if m["type"] == "error"]
    assert not errors, errors
    for conn in conns.values():
        conn.close()


def test_a_friend_is_offered_the_next_game_and_keeps_their_seat_in_one_click(
    server: Server, browser: Browser, problems: list[str], artifacts: Path
) -> None:
    seats = [{"name": "Ana"}, {"name": "Ben"}, {"bot": "greedy"}]
    room = server.post("/api/rooms", {"seats": seats, "rules": ONE_ROUND, "lobby": False})
    code = room["code"]
    guest = server.post(f"/api/rooms/{code}/join", {"name": "Ben"})
    finish(server, code, {0: room["token"], 1: guest["token"]})
    host = open_page(browser, SCREENS["desktop"], problems)
    holding(host, server.base, code, {"token": room["token"], "seat": 0})
    friend = open_page(browser, SCREENS["phone"], problems)
    holding(friend, server.base, code, {"token": guest["token"], "seat": 1})
    watcher = open_page(browser, SCREENS["phone"], problems)
    second = host.context.new_page()  # the host's second tab
    for page, path in ((host, code), (friend, code), (watcher, f"{code}?watch"), (second, code)):
        page.goto(f"{server.base}/r/{path}")
        page.wait_for_selector(".game-over")
    # before: the host may start another game; the friend is told it will come here
    expect(host.locator("[data-key=again]")).to_have_text("Another game")
    assert host.evaluate("() => document.activeElement.dataset.key") == "again"
    expect(friend.locator("[data-key=rematch-wait]")).to_have_text(
        "When Ana starts another game, you can join it here."
    )
    assert friend.locator("[data-key=again]").count() == 0
    assert watcher.locator("[data-key=again], [data-key=rematch-wait]").count() == 0
    for size in ("desktop", "phone"):
        host.set_viewport_size(SCREENS[size])
        host.screenshot(path=artifacts / f"rematch-host-{size}.png")
    host.set_viewport_size(SCREENS["desktop"])
    host.click("[data-key=again]")
    # the host is taken to the next game's lobby, with the friend's seat kept for them
    host.wait_for_selector(".lobby")
    new = host.inner_text("[data-key=lobby-code]")
    assert new != code and host.url == f"{server.base}/r/{new}"
    expect(host.locator("[data-key=lobby-seat-1]")).to_contain_text("joined, not connected")
    # the friend, on the game-over screen still, is offered it, told once by the live region
    offer = friend.locator("[data-key=rematch-join]")
    expect(offer).to_have_text("Join the next game")
    expect(friend.locator("[data-key=rematch-by]")).to_have_text("Ana started another game.")
    expect(friend.locator("#announce")).to_have_text("Ana started another game.")
    assert friend.evaluate("() => document.activeElement.dataset.key") == "rematch-join"
    expect(watcher.locator("[data-key=rematch-watch]")).to_have_text("Watch the next game")
    expect(second.locator("[data-key=rematch-by]")).to_have_text("You started another game.")
    for size in ("desktop", "phone"):
        second.set_viewport_size(SCREENS[size])
        second.screenshot(path=artifacts / f"rematch-host-offer-{size}.png")
    second.click("[data-key=rematch-join]")
    second.wait_for_selector(".lobby [data-key=lobby-start-bots], .lobby [data-key=lobby-start]")
    for size in ("desktop", "phone"):
        friend.set_viewport_size(SCREENS[size])
        on_one_screen(
            friend, [".game-over .winners", "[data-key=rematch-by]", "[data-key=rematch-join]"]
        )
        friend.screenshot(path=artifacts / f"rematch-friend-{size}.png")
    watcher.screenshot(path=artifacts / "rematch-spectator-phone.png")
    for page, name in ((friend, "friend"), (watcher, "spectator")):  # axe: WCAG 2.1 A and AA
        found = violations(page)
        assert not found, report({name: found})
    offer.click()  # one click: the same seat in the next game
    friend.wait_for_selector("[data-key=lobby-wait]")
    assert friend.url == f"{server.base}/r/{new}"
    expect(friend.locator("[data-key=lobby-seat-1]")).to_contain_text("(you)")
    expect(friend.locator("[data-key=lobby-wait]")).to_have_text(
        "Waiting for Ana to start the game."
    )
    kept = json.loads(friend.evaluate(f"() => localStorage.getItem('skyjo:seat:{new}')"))
    assert kept == {"token": guest["token"], "seat": 1}
    expect(host.locator("[data-key=lobby-seat-1]")).to_contain_text("here")
    watcher.click("[data-key=rematch-watch]")
    watcher.wait_for_selector(".lobby [data-key=lobby-wait]")
    expect(watcher.locator("[data-key=lobby-wait]")).to_contain_text("Ana")
    host.click("[data-key=lobby-start]")
    for page in (host, friend):
        page.wait_for_selector(".mine .grid.large")
    assert friend.get_attribute(".mine .seat", "aria-label") == "Ben"
    watcher.wait_for_selector(".board[data-you=none]")


def test_a_hot_seat_device_takes_all_its_seats_to_the_next_game(
    server: Server, browser: Browser, problems: list[str]
) -> None:
    seats = [{"name": "Ana"}, {"name": "Ben", "hot_seat": True}, {"bot": "greedy"}]
    room = server.post("/api/rooms", {"seats": seats, "rules": ONE_ROUND})
    code, held = room["code"], room["seats"]
    finish(server, code, {one["seat"]: one["token"] for one in held})
    page = open_page(browser, SCREENS["phone"], problems)
    holding(page, server.base, code, {"token": room["token"], "seat": 0}, held)
    page.goto(f"{server.base}/r/{code}")
    page.wait_for_selector(".game-over [data-key=again]")
    page.click("[data-key=again]")
    page.wait_for_selector(".lobby [data-key=lobby-start]")  # both seats held by this device
    new = page.inner_text("[data-key=lobby-code]")
    assert json.loads(page.evaluate(f"() => localStorage.getItem('skyjo:seats:{new}')")) == held
    expect(page.locator("[data-key=lobby-seat-1]")).to_contain_text("here")
    page.click("[data-key=lobby-start]")
    page.wait_for_selector(".mine .grid.large, .pass")  # the game is on, on this device
