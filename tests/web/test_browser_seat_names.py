"""Free seats and bots as a person sees them (docs/web-protocol.md, the names): a seat
nobody has taken says "Seat 2, free" in the page's language, in the lobby, on the join
page and in the front page's open games, never a made-up person's name; a bot is
named from its level; a newcomer who types no name becomes "Player 2". The
screenshots (desktop 1280x800, phone 390x844) are left in tests/web/artifacts/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from browsing import SCREENS, open_page
from liveserver import Server
from playwright.sync_api import Browser, Page, expect


def _as_host(page: Page, room: dict[str, Any]) -> None:
    """Keep the host's token in the page's storage (as the front page would)."""
    page.add_init_script(
        f"location.protocol === 'http:' && localStorage.setItem('skyjo:seat:{room['code']}', "
        f"JSON.stringify({{token: '{room['token']}', seat: 0}}))"
    )


def test_free_seats_say_so_and_bots_are_named_from_their_level(
    server: Server, browser: Browser, problems: list[str], artifacts: Path
) -> None:
    seats = [{"name": "Ana"}, {}, {"bot": "greedy"}, {}]
    room = server.post("/api/rooms", {"seats": seats, "listed": True, "title": "Seat names"})
    code = room["code"]
    host = open_page(browser, SCREENS["desktop"], problems)
    _as_host(host, room)
    host.goto(f"{server.base}/r/{code}")
    host.wait_for_selector(".lobby")
    names = host.locator(".lobby-seat .lobby-name")
    expect(names).to_have_text(["Ana(you)host", "Seat 2, free", "Greedy bot", "Seat 4, free"])
    expect(host.locator("[data-key=lobby-empty]")).to_have_text(
        "Nobody has taken seat 2 and seat 4 yet."
    )
    host.screenshot(path=artifacts / "names-lobby-desktop.png", full_page=True)
    host.set_viewport_size(SCREENS["phone"])
    host.screenshot(path=artifacts / "names-lobby-phone.png")  # the start bar sticks at the foot

    front = open_page(browser, SCREENS["phone"], problems)
    front.goto(server.base)
    expect(front.locator(f"[data-key=open-seats-{code}]")).to_have_text(
        "Ana · Seat 2, free · Greedy bot · Seat 4, free"
    )
    front.screenshot(path=artifacts / "names-front-phone.png", full_page=True)

    guest = open_page(browser, SCREENS["phone"], problems)
    guest.goto(f"{server.base}/r/{code}")
    seat_list = guest.locator("[data-key=join-seats] li")
    expect(seat_list).to_have_text(
        ["Ana", "Seat 2, free", "Greedy botbot: Greedy (easy)", "Seat 4, free"]
    )
    assert guest.get_attribute("[data-key=join-name]", "placeholder") is None
    guest.screenshot(path=artifacts / "names-join-phone.png", full_page=True)
    guest.set_viewport_size(SCREENS["desktop"])
    guest.screenshot(path=artifacts / "names-join-desktop.png", full_page=True)
    guest.click("[data-key=take-seat]")  # no name typed: the server names the newcomer
    guest.wait_for_selector("[data-key=lobby-wait]")
    expect(host.locator("[data-key=lobby-seat-1] .lobby-name")).to_have_text("Player 2")
    host.set_viewport_size(SCREENS["desktop"])
    host.select_option("[data-key=lobby-level]", "search")
    host.click("[data-key=lobby-start-bots]")
    host.wait_for_selector(".mine .grid.large")
    board = host.locator(".seat .name")
    expect(board).to_have_text(["Player 2", "Greedy bot", "Search bot", "Ana"])  # others, then mine
    assert not problems, problems


def test_the_join_page_names_free_seats_in_its_language(
    server: Server, browser: Browser, problems: list[str]
) -> None:
    room = server.post("/api/rooms", {"seats": [{"name": "Ana"}, {}, {"bot": "basic"}]})
    context = browser.new_context(viewport=SCREENS["phone"], locale="es-ES")
    page = context.new_page()
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    page.goto(f"{server.base}/r/{room['code']}")
    expect(page.locator("[data-key=join-seats] li")).to_have_text(
        ["Ana", "Asiento 2, libre", "Bot básicobot: Básico (fácil)"]  # the bot's name too
    )
    context.close()
    assert not problems, problems
