"""A first game that teaches and an end that tells (issue 56), in a real browser: the tour
of a first game (skippable, remembered, shown again from the Room panel), the Rules link in
the bar, the hint against bots (its move outlined), your place at the end, the points left
in 9-12s and the same table with easier or harder bots (its timer and bots' speed kept).
Screenshots go to tests/web/artifacts/teach-*.png. Every wait is on a condition of the page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from browsing import (
    DESKTOP,
    MY_TURN,
    SCREENS,
    SMALL,
    click_and_wait,
    open_lobby,
    open_page,
    play_my_turn,
    start_against_bots,
)
from liveserver import Server
from playwright.sync_api import Browser, expect
from test_browser_a11y import scheme, violations

TITLES = [
    "The lowest total wins",
    "Turn up two cards",
    "Draw or take",
    "Three equal cards vanish",
    "Ending the round",
]


@pytest.mark.parametrize("screen", ["phone", "small", "desktop"])
def test_a_first_game_shows_the_tour_once_and_the_room_panel_shows_it_again(
    server: Server, browser: Browser, problems: list[str], artifacts: Path, screen: str
) -> None:
    size = {"phone": SCREENS["phone"], "small": SMALL, "desktop": DESKTOP}[screen]
    page = open_page(browser, size, problems, tour=True)
    start_against_bots(page, server.base, 2)
    tour = page.locator("dialog.tour")
    expect(tour).to_be_visible()
    expect(page.locator("#tour-title")).to_have_text(TITLES[0])
    expect(tour).to_contain_text("reaches 100")  # this room's target
    expect(page.locator("[data-key=tour-next]")).to_be_focused()
    for scheme_name in ("light", "dark"):
        scheme(page, scheme_name)
        assert violations(page) == [], scheme_name
        page.screenshot(path=artifacts / f"teach-tour-{screen}-{scheme_name}.png")
    for title in TITLES[1:]:  # by the keyboard: Next keeps the focus
        page.keyboard.press("Enter")
        expect(page.locator("#tour-title")).to_have_text(title)
    expect(tour).to_contain_text("doubled if above 0 and not the lowest")  # the ender's penalty
    page.click("[data-key=tour-back]")
    expect(page.locator("#tour-title")).to_have_text(TITLES[3])
    page.click("[data-key=tour-next]")
    page.click("[data-key=tour-done]")
    expect(tour).to_have_count(0)
    assert page.evaluate("localStorage.getItem('skyjo:tour')") == "seen"
    page.reload()  # seen: not again
    page.wait_for_selector(".mine .grid.large")
    expect(page.locator("[data-key=tour-next]")).to_have_count(0)
    # the Rules, in the bar on every screen, lead back to this room
    code = page.url.rsplit("/", 1)[-1]
    rules = page.locator(".room-head [data-key=bar-rules]")
    expect(rules).to_be_visible()
    assert rules.get_attribute("href") == f"/rules?back={code}"
    # shown again from the Room panel (a drawer on a phone), skipped by Escape
    if screen != "desktop":
        page.click("[data-key=tab-room]")
    page.click("[data-key=tour-again]")
    expect(page.locator("#tour-title")).to_have_text(TITLES[0])
    page.keyboard.press("Escape")
    expect(tour).to_have_count(0)
    expect(page.locator("[data-key=tour-again]")).to_be_focused()  # back where it was


#: Each text of the tour's step and each of its buttons, scrolled to (the dialog scrolls):
#: wholly inside the dialog's box and the viewport, nothing cut inside it, and what a tap at
#: its middle reaches. Returns what is wrong, as strings.
TOUR_PARTS = """() => {
  const dialog = document.querySelector("dialog.tour");
  const wrong = [];
  const page = document.scrollingElement;
  if (dialog.scrollWidth > dialog.clientWidth + 0.5) wrong.push(`the tour scrolls sideways`);
  if (page.scrollWidth > page.clientWidth + 0.5) wrong.push(`the page scrolls sideways`);
  for (const el of dialog.querySelectorAll(".tour-label, h2, p, button")) {
    el.scrollIntoView({ block: "nearest", inline: "nearest" });
    const r = el.getBoundingClientRect();
    const d = dialog.getBoundingClientRect();
    const what = `${el.tagName} ${el.textContent.slice(0, 30)} at ${[r.left, r.right]}`;
    if (r.left < Math.max(0, d.left) - 0.5 || r.right > Math.min(innerWidth, d.right) + 0.5
        || r.top < Math.max(0, d.top) - 0.5 || r.bottom > Math.min(innerHeight, d.bottom) + 0.5) {
      wrong.push(`${what}: outside the tour or the screen`);
    }
    if (el.scrollWidth > el.clientWidth + 0.5) wrong.push(`${what}: cut`);
    const top = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
    const hit = top === el || el.contains(top);
    if (el.tagName === "BUTTON" && !hit) wrong.push(`${what}: covered`);
  }
  return wrong;
}"""
#: 200% zoom: a 1280x800 laptop and a 390x844 phone (2x) show half as many CSS pixels.
ZOOMED = {
    "laptop": ({"width": 640, "height": 400}, 2),
    "phone": ({"width": 195, "height": 422}, 4),
}


@pytest.mark.parametrize(
    ("screen", "language"),
    [("phone", "en"), ("phone", "fr"), ("phone", "de"), ("phone", "es"), ("laptop", "de")],
)
def test_the_tour_at_200_percent_zoom_is_read_and_pressed_to_its_end(
    server: Server,
    browser: Browser,
    problems: list[str],
    artifacts: Path,
    screen: str,
    language: str,
) -> None:
    size, scale = ZOOMED[screen]
    page = open_page(browser, size, problems, scale=scale, tour=True)
    page.goto(server.base)
    page.select_option("#language", language)
    start_against_bots(page, server.base, 1)
    tour = page.locator("dialog.tour")
    expect(tour).to_be_visible()
    for step in range(len(TITLES)):
        expect(page.locator(".tour-label")).to_contain_text(f"{step + 1}")
        for colours in ("light", "dark"):
            scheme(page, colours)
            wrong = page.evaluate(TOUR_PARTS)
            assert wrong == [], (step, colours, *wrong)
            page.screenshot(
                path=artifacts / f"teach-tour-200-{screen}-{language}-{step}-{colours}.png"
            )
        assert violations(page) == []
        if step == 1:  # Back, then Next again: both pressed where they are
            page.click("[data-key=tour-back]")
            expect(page.locator("[data-key=tour-skip]")).to_be_visible()
            page.click("[data-key=tour-next]")
        page.click("[data-key=tour-done]" if step == len(TITLES) - 1 else "[data-key=tour-next]")
    expect(tour).to_have_count(0)
    assert page.evaluate("localStorage.getItem('skyjo:tour')") == "seen"


#: How long a hint may take when the server compiles the bot's kernel first (ms).
COMPILE_WAIT = 60_000


def test_the_tour_speaks_the_page_s_language(
    server: Server, browser: Browser, problems: list[str]
) -> None:
    page = open_page(browser, SCREENS["phone"], problems, tour=True)
    page.goto(server.base)
    page.select_option("#language", "fr")
    start_against_bots(page, server.base, 1)
    expect(page.locator("#tour-title")).to_have_text("Le plus petit total gagne")
    page.click("[data-key=tour-skip]")
    expect(page.locator("dialog.tour")).to_have_count(0)
    assert page.evaluate("localStorage.getItem('skyjo:tour')") == "seen"


def test_a_hint_outlines_the_expected_bot_s_move_and_says_it(
    server: Server, browser: Browser, problems: list[str], artifacts: Path
) -> None:
    page = open_page(browser, SCREENS["phone"], problems)
    start_against_bots(page, server.base, 2)
    for step in range(4):  # the two reveals, then a turn's two steps: each its own hint
        page.wait_for_selector("[data-key=hint], [data-key=hint-line]")
        if page.locator(".held .card").count():  # a card in hand: its hint asked by itself
            expect(page.locator("[data-key=hint]")).to_have_count(0)
        else:
            page.click("[data-key=hint]")
        line = page.locator("[data-key=hint-line]")
        # the server's first hint of a path may compile the bot's kernel (a cold cache)
        expect(line).to_contain_text("Hint: the Expected bot would ", timeout=COMPILE_WAIT)
        expect(page.locator("#announce")).to_contain_text("Hint: the Expected bot would ")
        hinted = page.locator(".table .hinted")
        expect(hinted.first).to_be_visible()
        keys = hinted.evaluate_all("els => els.map((el) => el.dataset.key)")
        piles = ({"pile-draw", "choice-draw"}, {"pile-discard", "choice-take"})
        assert set(keys) in piles or keys[-1].startswith("cell-0-"), keys
        page.screenshot(path=artifacts / "teach-hint-phone.png")
        assert violations(page) == []
        if keys[0] == "choice-flip":  # discard the drawn card first, then turn up the hinted one
            page.click("[data-key=choice-flip]")
        click_and_wait(page, f"[data-key={keys[-1]}]")
        # (the step tells, not the table: once the turn is played, a bot's drawn card may be
        # the one in hand, and no hint comes for it)
        if step == 2:  # a card in hand: where to put it, told by itself
            expect(page.locator("[data-key=hint-line]")).to_be_visible(timeout=COMPILE_WAIT)
        else:  # the hint was for that step alone
            expect(page.locator(".table .hinted")).to_have_count(0)


#: Whatever a hint shows: its button, its line.
HINT_CONTROLS = "[data-key=hint], .hint-ask, [data-key=hint-line]"
#: The label of the seat whose turn it is, once it is a person's (a bot's turn: waited out).
PERSON_TO_MOVE = """() => {
  const seat = document.querySelector(".seat.turn");
  const name = seat?.getAttribute("aria-label");
  return name && !name.endsWith(" bot") ? name : null;
}"""


def test_a_room_with_a_friend_never_offers_the_hint_and_one_against_bots_does(
    server: Server, browser: Browser, problems: list[str], artifacts: Path
) -> None:
    host = open_page(browser, DESKTOP, problems)
    open_lobby(host, server.base, "Ana", 2, friends=(0,))  # and a bot: not every seat a person
    friend = open_page(browser, SCREENS["phone"], problems)
    friend.goto(server.base)  # joins by the room's code
    friend.fill("[data-key=code]", host.inner_text("[data-key=lobby-code]"))
    friend.click(".join .row button >> nth=0")
    friend.fill("[data-key=join-name]", "Ben")
    friend.click("[data-key=take-seat]")
    friend.wait_for_selector("[data-key=lobby-wait]")
    host.click("[data-key=lobby-start]")
    pages = {"Ana": host, "Ben": friend}
    for moves in range(8):  # the four reveals, then two turns each: never a hint, either side
        page = pages[host.wait_for_function(PERSON_TO_MOVE).json_value()]
        page.wait_for_selector(MY_TURN)
        for each in pages.values():
            expect(each.locator(".prompt")).to_be_visible()
            expect(each.locator(HINT_CONTROLS)).to_have_count(0)
        if moves == 4:
            for name, each in pages.items():
                for colours in ("light", "dark"):
                    scheme(each, colours)
                    each.screenshot(path=artifacts / f"teach-friend-{name}-{colours}.png")
        assert play_my_turn(page)
    start_against_bots(host, server.base, 2)  # alone against bots: offered
    expect(host.locator("[data-key=hint]")).to_be_visible()
    expect(host.locator("[data-key=hint]")).to_have_accessible_name("Hint")


def test_the_end_says_your_place_and_offers_easier_and_harder_bots(
    server: Server, browser: Browser, problems: list[str], artifacts: Path
) -> None:
    page = open_page(browser, SCREENS["phone"], problems)
    start_against_bots(page, server.base, 1, target=1, timer=120, speed="fast")
    while play_my_turn(page):
        pass
    page.wait_for_selector(".game-over")
    totals = [int(x) for x in page.locator(".scores tbody tr .total").all_inner_texts()]
    place = "1st" if totals[0] <= totals[1] else "2nd"
    tied = ", tied with Greedy bot" if totals[0] == totals[1] else ""
    expect(page.locator("[data-key=your-place]")).to_have_text(f"You finished {place} of 2{tied}")
    high = page.locator("[data-key=end-stats] [data-stat=high]")
    expect(high.first).to_have_text(re.compile(r"^\d+$"))  # counted from the game's replay
    code = page.url.rsplit("/", 1)[-1]
    frames = page.request.get(f"{server.base}/api/rooms/{code}/replay").json()["frames"]
    assert [int(text) for text in high.all_inner_texts()] == _high_points(frames, 2)
    page.screenshot(path=artifacts / "teach-end-phone.png", full_page=True)
    assert violations(page) == []
    page.click("[data-key=harder]")  # the same table, its greedy bot now basic
    page.wait_for_function("c => !location.pathname.endsWith(c)", arg=code)
    page.wait_for_selector(".mine .grid.large")
    expect(page.locator(".others .seat .name")).to_have_text("Basic bot")
    assert "First to 1 " in (page.text_content(".room-info .rules") or "")
    # the turn timer and the bots' speed carried over too
    expect(page.locator("[data-key=timer]")).to_contain_text(re.compile(r"\b1[01]\d\b"))
    new = page.url.rsplit("/", 1)[-1]
    assert page.request.get(f"{server.base}/api/rooms/{new}").json()["bot_speed"] == "fast"


def _high_points(frames: list[dict], seats: int) -> list[int]:
    """Per seat, the points of the 9s to 12s in each round's final grid (every card up)."""
    ends = {
        f["observation"]["round"]: f["observation"]["grids"]
        for f in frames
        if f["observation"]["phase"] in ("round_over", "game_over")
    }
    cards = [[v for grids in ends.values() for row in grids[s] for v in row] for s in range(seats)]
    return [sum(v for v in mine if isinstance(v, int) and v >= 9) for mine in cards]
