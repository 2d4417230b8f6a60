"""End to end in a real browser: Playwright driving Debian's chromium against
`skyjo serve` on localhost. Screenshots of the main screens go to
tests/web/artifacts/. Every wait is on a condition of the page, never on time."""

from __future__ import annotations

import json
from pathlib import Path

import httpx2
from browsing import (
    DESKTOP,
    KEEP_SOCKETS,
    MY_TURN,
    PHONE,
    SCREENS,
    click_and_wait,
    on_one_screen,
    open_lobby,
    open_page,
    play_my_turn,
    start_against_bots,
    step_number,
)
from liveserver import Server
from playwright.sync_api import Browser, expect


def test_a_human_plays_a_whole_round_against_bots_by_clicking(
    server: Server, browser: Browser, problems: list[str], artifacts: Path
) -> None:
    page = open_page(browser, DESKTOP, problems)
    page.goto(server.base)
    page.wait_for_selector(".solo")
    assert page.locator("h2#solo-title").inner_text() == "Play against bots"
    page.screenshot(path=artifacts / "front-desktop.png", full_page=True)
    start_against_bots(page, server.base, 2, target=400)
    assert page.locator(".others .seat").count() == 2
    assert "First to 400" in page.inner_text(".room-info .rules")
    assert page.get_attribute(".mine button.card >> nth=0", "aria-label") == (
        "Your card row 1 column 1: face down"
    )
    play_my_turn(page)
    play_my_turn(page)
    page.wait_for_selector(MY_TURN)
    page.screenshot(path=artifacts / "board-desktop.png", full_page=True)
    turns = 0
    while play_my_turn(page):
        turns += 1
        assert turns < 200
    explanation = page.inner_text(".round-over .explain")
    assert "ended with" in explanation
    assert page.locator(".scores thead th", has_text="R1").count() == 1
    assert page.locator(".log li").count() > 5
    assert page.locator(".game-over").count() == 0
    page.screenshot(path=artifacts / "round-end-desktop.png", full_page=True)
    click_and_wait(page, "[data-key=choice-next]")  # the next round is dealt
    assert page.locator(".round-over").count() == 0
    assert "Round 2" in page.inner_text(".room-head .rules")


def test_the_game_end_names_the_winners_and_offers_another_game(
    server: Server, browser: Browser, problems: list[str], artifacts: Path
) -> None:
    page = open_page(browser, DESKTOP, problems)
    start_against_bots(page, server.base, 1, target=1)
    while play_my_turn(page):
        pass
    page.wait_for_selector(".game-over")
    totals = {
        row.locator("th").inner_text(): int(row.locator(".total").inner_text())
        for row in page.locator(".scores tbody tr").all()
    }
    best = [name for name, total in totals.items() if total == min(totals.values())]
    expected = {("You",): "You win!", ("Greedy bot",): "Greedy bot wins!"}.get(
        tuple(best), "You and Greedy bot share the win!"
    )
    assert page.inner_text(".game-over .winners") == expected, totals
    # the game is over: no "Next round", the last round's end is still explained, on the
    # table, with every seat's final total, "Another game" and the replay, on one screen
    assert page.locator("[data-key=choice-next]").count() == 0
    assert "ended with" in page.inner_text(".table .game-over .explain")
    finals = page.locator(".game-over .places tbody tr .total").all_inner_texts()
    assert sorted(int(total) for total in finals) == sorted(totals.values())
    for screen, size in SCREENS.items():
        page.set_viewport_size(size)
        on_one_screen(page, [".seat", ".game-over .winners", ".game-over .explain",
                             ".game-over .places tbody tr", "[data-key=again]",
                             "[data-key=watch-replay]"])  # fmt: skip
        page.screenshot(path=artifacts / f"layout-game-end-{screen}.png")
    page.set_viewport_size(DESKTOP)
    page.screenshot(path=artifacts / "game-end-desktop.png", full_page=True)
    code = page.url.rsplit("/", 1)[-1]
    page.click("[data-key=again]")
    page.wait_for_function("c => !location.pathname.endsWith(c)", arg=code)
    page.wait_for_selector(".mine .grid.large")
    assert "First to 1 " in page.inner_text(".rules") + " "


def test_the_phone_layout_plays_a_turn_with_the_keyboard(
    server: Server, browser: Browser, problems: list[str], artifacts: Path
) -> None:
    page = open_page(browser, PHONE, problems, still=False)
    page.goto(server.base)
    page.wait_for_selector(".solo")
    page.screenshot(path=artifacts / "front-phone.png", full_page=True)
    start_against_bots(page, server.base, 3)
    for _ in range(2):  # the two opening cards, chosen with the keyboard
        page.wait_for_selector(".mine button.card.playable")
        number = step_number(page)
        page.locator(".mine button.card.playable").first.focus()
        page.keyboard.press("Enter")
        page.wait_for_function(
            "n => Number(document.getElementById('main').dataset.number) > n", arg=number
        )
    page.wait_for_selector(MY_TURN)
    if page.locator("[data-key=choice-draw]").count():
        number = step_number(page)
        page.keyboard.press("d")  # the shortcut for "Draw a card"
        page.wait_for_function(
            "n => Number(document.getElementById('main').dataset.number) > n", arg=number
        )
        page.screenshot(path=artifacts / "board-phone-holding.png", full_page=True)
        click_and_wait(page, ".mine button.card.playable")
    page.screenshot(path=artifacts / "board-phone.png", full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page scrolls sideways ({width} px)"
    assert page.locator(".log li").count() >= 3


def test_names_stay_text_and_the_page_forbids_inline_scripts(
    server: Server, browser: Browser, problems: list[str]
) -> None:
    evil = "<img src=x onerror=alert(1)>"
    room = server.post(
        "/api/rooms",
        {"seats": [{"name": evil}, {"bot": "greedy"}], "title": "<script>alert(2)</script>"},
    )
    response = httpx2.get(f"{server.base}/r/{room['code']}", timeout=10)
    assert "script-src 'self'" in response.headers["content-security-policy"]
    page = open_page(browser, DESKTOP, problems)
    page.goto(f"{server.base}/r/{room['code']}?watch")
    page.wait_for_selector(".seat")
    assert page.inner_text(".room-head h1") == "<script>alert(2)</script>"
    assert page.locator(".seat .name", has_text=evil).count() == 1
    assert page.locator("main img, main script").count() == 0
    assert page.inner_text(".spectating") == "You are watching"


def test_two_browsers_play_one_room_and_a_reload_keeps_the_seat(
    server: Server, browser: Browser, problems: list[str]
) -> None:
    host = open_page(browser, DESKTOP, problems)
    open_lobby(host, server.base, "Ana", 1, friends=(0,))  # the room waits in its lobby
    link = host.input_value("[data-key=lobby-link]")
    guest = open_page(browser, PHONE, problems)
    guest.goto(link)
    guest.click("text=Take a seat")
    guest.wait_for_selector("[data-key=lobby-wait]")
    host.click("[data-key=lobby-start]")  # every seat taken: "Start" (no bots to choose)
    host.wait_for_selector(".mine .grid.large")
    assert host.input_value("[data-key=link]") == link  # the room's link, in its panel
    guest.wait_for_selector(".mine .grid.large")
    play_my_turn(host)
    play_my_turn(host)
    guest.reload()  # the token in localStorage gives the seat back
    guest.wait_for_selector(".mine .grid.large")
    play_my_turn(guest)
    play_my_turn(guest)
    host.wait_for_function("document.querySelectorAll('.mine .card:not(.down)').length >= 2")
    watcher = open_page(browser, DESKTOP, problems)
    watcher.goto(link + "?watch")
    watcher.wait_for_selector(".others.watching .seat")
    assert watcher.locator(".mine").count() == 0
    assert watcher.locator(".seat .card:not(.down):not(.pile)").count() == 4


def test_the_language_switches_to_spanish(
    server: Server, browser: Browser, problems: list[str]
) -> None:
    page = open_page(browser, DESKTOP, problems)
    page.goto(server.base)
    page.select_option("#language", "es")
    assert page.inner_text("h2#solo-title") == "Jugar contra bots"
    assert page.get_attribute("html", "lang") == "es"
    page.select_option("#language", "en")


def test_a_refusal_of_the_game_server_is_shown_in_spanish_on_a_spanish_page(
    server: Server, browser: Browser, problems: list[str], artifacts: Path
) -> None:
    room = httpx2.post(
        f"{server.base}/api/rooms",
        json={"seats": [{"name": "Ana"}, {"name": "Ben"}], "lobby": False},
        timeout=10,
    ).json()
    context = browser.new_context(viewport=DESKTOP, locale="es-ES", reduced_motion="reduce")
    context.add_init_script(KEEP_SOCKETS)
    page = context.new_page()
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    page.on("console", lambda m: m.type == "error" and problems.append(f"console: {m.text}"))
    page.goto(f"{server.base}/r/{room['code']}")
    page.fill("#join-name", "Bea")
    page.click("[data-key=take-seat]")
    page.wait_for_selector(".mine .grid.large")
    assert page.get_attribute("html", "lang") == "es"
    # Ana (seat 0) turns up her cards first: Bea's move now is out of turn
    page.evaluate("() => window.sockets.at(-1).send(JSON.stringify({type: 'move', action: 0}))")
    refusal = page.locator(".status .error")
    expect(refusal).to_have_text("Rechazado: Le toca a Ana, no a Bea")
    page.screenshot(path=artifacts / "game-refusal-spanish-desktop.png", full_page=True)
    page.evaluate("() => window.sockets.at(-1).send(JSON.stringify({type: 'remove', seat: 0}))")
    expect(refusal).to_have_text("Rechazado: Solo el anfitrión quita a un jugador de su asiento")
    page.select_option("[data-key=room-language]", "en")  # the same refusal, in English
    page.evaluate("() => window.sockets.at(-1).send(JSON.stringify({type: 'move', action: 0}))")
    expect(refusal).to_have_text("Refused: it is Ana's turn, not Bea's")
    context.close()


#: Rewrites the page's facts block as it is parsed, as a server with other defaults
#: (`default_bot`, the `ender_penalty` variant's `default`) would have written it.
OTHER_DEFAULTS = """
new MutationObserver((_, observer) => {
  const block = document.getElementById("skyjo-facts");
  try {
    const facts = JSON.parse(block.textContent);
    const variants = facts.variants.map(
      (v) => v.name === "ender_penalty" ? { ...v, default: "none" } : v);
    block.textContent = JSON.stringify({ ...facts, default_bot: "basic", variants });
    observer.disconnect();
  } catch {}  // not there, or not parsed whole yet
}).observe(document, { childList: true, subtree: true });
"""


def test_the_front_page_offers_the_server_s_default_bot_level_and_penalty(
    server: Server, browser: Browser, problems: list[str]
) -> None:
    """The level and the penalty selected at first are the facts' (`default_bot`,
    the variants' defaults), not the script's: the front page given other defaults selects
    those, and a room started at once seats bots of that level."""
    page = open_page(browser, DESKTOP, problems)
    page.goto(server.base)
    expect(page.locator("[data-key=level]")).to_have_value("greedy")  # the server's own
    page.close()
    context = browser.new_context(viewport=DESKTOP, reduced_motion="reduce")
    context.add_init_script(OTHER_DEFAULTS)
    page = context.new_page()
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    page.goto(server.base)
    expect(page.locator("[data-key=level]")).to_have_value("basic")
    page.click("summary")  # more options
    expect(page.locator("[data-key=penalty]")).to_have_value("none")
    page.click("[data-key=count-1]")
    with page.expect_request(f"{server.base}/api/rooms") as created:
        page.click("[data-key=start]")
    config = json.loads(created.value.post_data or "{}")
    assert [seat.get("bot") for seat in config["seats"]][1:] == ["basic"]
    assert config["rules"]["ender_penalty"] == "none"
    page.wait_for_selector(".mine .grid.large")
    context.close()
