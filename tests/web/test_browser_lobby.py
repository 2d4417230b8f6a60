"""The lobby of a friends' room in a real browser: the host shares the link, code and
QR code; a friend joins from a phone and waits; nothing is dealt into play until
the host starts, and then both play."""

from __future__ import annotations

import re
from pathlib import Path

from browsing import DESKTOP, PHONE, open_lobby, open_page, play_my_turn
from liveserver import Server
from playwright.sync_api import Browser, expect


def test_a_friend_joins_the_lobby_and_the_host_starts_with_a_bot_in_the_empty_seat(
    server: Server, browser: Browser, problems: list[str], artifacts: Path
) -> None:
    host = open_page(browser, DESKTOP, problems)
    open_lobby(host, server.base, "Ana", 2, friends=(0, 1))
    code = host.inner_text("[data-key=lobby-code]")
    link = host.input_value("[data-key=lobby-link]")
    assert link == f"{server.base}/r/{code}"
    qr = host.locator("[data-key=lobby-qr]")
    expect(qr).to_have_js_property("complete", True)
    assert qr.evaluate("img => img.naturalWidth") > 0  # the server drew it
    assert host.locator(".lobby-seat.empty").count() == 2
    guest = open_page(browser, PHONE, problems)
    guest.goto(link)
    guest.fill("[data-key=join-name]", "Ben")
    guest.click("[data-key=take-seat]")
    guest.wait_for_selector("[data-key=lobby-wait]")
    assert guest.locator("[data-key=lobby-start], [data-key=lobby-start-bots]").count() == 0
    expect(host.locator("[data-key=lobby-seat-1]")).to_contain_text("Ben")
    expect(host.locator("[data-key=lobby-seat-2]")).to_contain_text("Seat 3, free")
    expect(host.locator("[data-key=lobby-empty]")).to_have_text("Nobody has taken seat 3 yet.")
    assert int(host.get_attribute("#main", "data-number") or -1) == 0  # nothing was played
    host.screenshot(path=artifacts / "lobby-host-desktop.png")
    guest.screenshot(path=artifacts / "lobby-guest-phone.png")
    host.select_option("[data-key=lobby-level]", "basic")
    host.click("[data-key=lobby-start-bots]")
    for page in (host, guest):
        page.wait_for_selector(".mine .grid.large")
    # the seat's name says it is a bot and its level: no badge repeats it
    expect(host.locator(".seat[aria-label='Basic bot'] h2")).to_have_text("Basic bot")
    expect(host.locator(".seat[aria-label='Basic bot'] .badge")).to_have_count(0)
    assert play_my_turn(host)  # Ana turns up her first cards: the game is on


def test_the_lobby_in_spanish(server: Server, browser: Browser, problems: list[str]) -> None:
    room = server.post("/api/rooms", {"seats": [{"name": "Ana"}, {"name": None}]})
    context = browser.new_context(viewport=PHONE, locale="es-ES", reduced_motion="reduce")
    context.add_init_script(
        f"localStorage.setItem('skyjo:seat:{room['code']}', "
        f"JSON.stringify({{token: '{room['token']}', seat: 0}}))"
    )
    page = context.new_page()
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    page.goto(f"{server.base}/r/{room['code']}")
    page.wait_for_selector(".lobby")
    assert page.inner_text(".lobby-invite h2") == "Invita a tus amigos"
    assert page.inner_text("[data-key=lobby-empty]") == "Nadie ha tomado el asiento 2 todavía."
    assert page.inner_text("[data-key=lobby-seat-1] .lobby-name") == "Asiento 2, libre"
    assert page.inner_text(".lobby-seat .badge >> nth=1") == "anfitrión"
    drop = page.locator("[data-key=lobby-drop-1]")
    expect(drop).to_have_text("Quitar asiento")
    expect(drop).to_be_disabled()  # two seats are the least a game has
    expect(page.locator("[data-key=lobby-start-bots]")).to_have_text(
        "Empezar con bots en los asientos vacíos"
    )
    context.close()


def test_the_host_frees_a_seat_a_stranger_took(
    server: Server, browser: Browser, problems: list[str], artifacts: Path
) -> None:
    """A listed lobby's seat squatted by a stranger: the host's "Free seat" sends the
    stranger away and the seat waits for a friend again; the stranger's page says so."""
    room = server.post(
        "/api/rooms",
        {"seats": [{"name": "Ana"}, {"name": None}, {"name": None}], "listed": True},
    )
    code = room["code"]
    host = open_page(browser, DESKTOP, problems)
    host.add_init_script(
        f"localStorage.setItem('skyjo:seat:{code}', "
        f"JSON.stringify({{token: '{room['token']}', seat: 0}}))"
    )
    host.goto(f"{server.base}/r/{code}")
    host.wait_for_selector(".lobby")
    assert host.locator("[data-key=lobby-free-1]").count() == 0  # nobody to free yet
    stranger = open_page(browser, PHONE, problems)
    stranger.goto(f"{server.base}/r/{code}")
    stranger.fill("[data-key=join-name]", "Squatter")
    stranger.click("[data-key=take-seat]")
    stranger.wait_for_selector("[data-key=lobby-wait]")
    free = host.locator("[data-key=lobby-free-1]")
    expect(free).to_have_text("Free seat")
    expect(free).to_have_attribute("aria-label", "Free seat: Squatter")
    host.screenshot(path=artifacts / "lobby-free-seat-desktop.png")
    free.click()
    expect(host.locator("[data-key=lobby-seat-1]")).to_have_class(re.compile(r"\bempty\b"))
    expect(host.locator("[data-key=lobby-free-1]")).to_have_count(0)
    expect(stranger.locator("#main")).to_contain_text("the host freed your seat for someone else")
    stranger.screenshot(path=artifacts / "lobby-freed-stranger-phone.png")
    stranger.reload()  # the token was forgotten and no longer holds the seat: the join page
    stranger.wait_for_selector("[data-key=take-seat]")


def test_the_join_page_s_two_choices_line_up(
    server: Server, browser: Browser, problems: list[str]
) -> None:
    room = server.post("/api/rooms", {"seats": [{"name": "Ana"}, {"name": None}]})
    page = open_page(browser, DESKTOP, problems)
    page.goto(f"{server.base}/r/{room['code']}")
    take, watch = (
        page.locator(s).bounding_box()
        for s in ("[data-key=take-seat]", ".join-room .row button >> nth=1")
    )
    assert take is not None and watch is not None
    assert abs((take["y"] + take["height"] / 2) - (watch["y"] + watch["height"] / 2)) <= 1, (
        take,
        watch,
    )
    assert watch["height"] <= take["height"]  # not stretched taller than the main choice
    assert watch["x"] > take["x"] + take["width"]  # beside it, on one line
