"""The table zoomed, crowded and offline (issue 46), in a real browser: a phone at 200% zoom
(390x844 at 200% is a 195x422 viewport), a laptop whose root font is 200% (the browser's
font setting), eight seats on a phone, and the connection's banner on a 320 px phone in
each language. At each: the page never scrolls sideways, no text of the bar, the prompt,
the piles or the moves is cut, nothing on the table covers anything else, your twelve cards
can be scrolled to and tapped, and your grid is at least as large as each opponent's.
Screenshots go to tests/web/artifacts/zoom-*.png. Every wait is on a condition of the page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from browsing import (
    PHONE,
    SCREENS,
    SMALL,
    TABLE,
    click_and_wait,
    on_one_screen,
    open_page,
    start_against_bots,
    widths,
)
from liveserver import Server
from playwright.sync_api import Browser, Page, expect
from test_browser_a11y import play, room, scheme, seated, sheet, violations

#: A 390x844 phone at 200% zoom: the CSS viewport is half as wide and half as tall.
ZOOMED = {"width": 195, "height": 422}
#: The smallest another's card may be with 8 seats on a phone (the issue's: 17 px before).
CROWDED = 24
#: The connection's banner on a 320 px phone: three lines at most (four took 75 px of 568).
BANNER_MAX = 60
BANNER = "[data-key=net-banner]"

#: The parts of the table that must never overlap one another (in page coordinates), and
#: the texts that must never be cut (their box inside the viewport, no overflow inside).
MEASURE = """() => {
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return [r.left + scrollX, r.top + scrollY, r.right + scrollX, r.bottom + scrollY];
  };
  const parts = [...document.querySelectorAll(
    '.net-banner, .prompt, .seat, .piles figure, .choice')]
    .map((el) => ({ what: el.className || el.tagName, text: el.textContent.slice(0, 30),
                    box: box(el) }));
  const texts = [...document.querySelectorAll(
    '.tab, .prompt, .net-banner, .piles figcaption, .choice, .seat .name, .seat .badge')]
    .filter((el) => el.getClientRects().length)
    .map((el) => ({ text: el.textContent, box: box(el),
                    overflow: el.scrollWidth > el.clientWidth
                      || el.scrollHeight > el.clientHeight }));
  const page = document.scrollingElement;
  return { width: page.clientWidth, scrollWidth: page.scrollWidth, parts, texts };
}"""


def overlap(a: list[float], b: list[float]) -> float:
    """The area two boxes [left, top, right, bottom] share."""
    across = min(a[2], b[2]) - max(a[0], b[0])
    down = min(a[3], b[3]) - max(a[1], b[1])
    return max(across, 0) * max(down, 0)


def check_table(page: Page) -> dict:
    """No sideways scroll; no text cut (inside the viewport's width, no overflow inside);
    no two parts of the table (the banner, the prompt, each seat, each pile, each move)
    overlapping. Returns the measures."""
    seen = page.evaluate(MEASURE)
    assert seen["scrollWidth"] <= seen["width"], f"scrolls sideways: {seen['scrollWidth']}"
    for text in seen["texts"]:
        left, _, right, _ = text["box"]
        inside = left >= -0.5 and right <= seen["width"] + 0.5
        assert inside and not text["overflow"], f"cut: {text}"
    parts = seen["parts"]
    for i, one in enumerate(parts):
        for other in parts[i + 1 :]:
            assert overlap(one["box"], other["box"]) < 1, f"{one} overlaps {other}"
    return seen


REACH = """(el) => {
  el.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  const r = el.getBoundingClientRect();
  const top = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
  return { box: [r.left, r.top, r.right, r.bottom], hit: top === el || el.contains(top),
           width: innerWidth, height: innerHeight };
}"""


def reachable(page: Page, selector: str, count: int) -> None:
    """Each of the `count` elements `selector` matches, once the page is scrolled to it,
    lies wholly in the viewport and is what a tap at its middle reaches."""
    elements = page.locator(selector)
    assert elements.count() == count, (selector, elements.count())
    for k in range(count):
        seen = elements.nth(k).evaluate(REACH)
        left, top, right, bottom = seen["box"]
        inside = min(left, top) >= -0.5
        inside = inside and right <= seen["width"] + 0.5 and bottom <= seen["height"] + 0.5
        assert inside and seen["hit"], (selector, k, seen)


def yours_largest(page: Page) -> None:
    mine, others = widths(page, ".mine .card"), widths(page, ".others .card")
    assert len(mine) == 12 and others, (mine, others)
    assert min(mine) >= max(others), (mine, others)


def reveal_two(page: Page) -> None:
    for _ in range(2):
        page.wait_for_selector(".mine button.card.playable")
        click_and_wait(page, ".mine button.card.playable")
    page.wait_for_selector("[data-key=pile-draw].playable")


@pytest.mark.parametrize("players", [2, 4])
def test_a_phone_at_200_percent_zoom_scrolls_down_only_and_keeps_every_part_usable(
    server: Server, browser: Browser, problems: list[str], artifacts: Path, players: int
) -> None:
    page = open_page(browser, ZOOMED, problems, scale=4)  # 390x844 at 200%, on a 2x screen
    start_against_bots(page, server.base, players - 1)
    reveal_two(page)
    reachable(page, ".tab", 4)  # all four, none cut by the screen's edge
    check_table(page)
    yours_largest(page)
    reachable(page, ".mine .card", 12)
    reachable(page, ".card.pile", 2)
    reachable(page, ".choice", 2)
    page.screenshot(path=artifacts / f"zoom-phone-200-{players}p.png", full_page=True)
    assert violations(page) == []
    page.click("[data-key=tab-log]")  # the drawer: its close button over no title
    close = page.locator("[data-key=drawer-close]").bounding_box()
    title = page.locator(".side .log h2").bounding_box()
    assert close and title and close["y"] + close["height"] <= title["y"], (close, title)
    assert page.evaluate(MEASURE)["scrollWidth"] <= ZOOMED["width"]
    page.keyboard.press("Escape")
    expect(page.locator(".side")).to_be_hidden()
    click_and_wait(page, "[data-key=pile-draw]")  # the piles work: a card drawn, in hand
    expect(page.locator(".held .card")).to_have_count(1)
    check_table(page)  # the longer prompt and a third pile
    yours_largest(page)
    reachable(page, ".card.pile", 3)
    reachable(page, ".mine button.card.playable", 12)
    page.screenshot(path=artifacts / f"zoom-phone-200-{players}p-held.png", full_page=True)
    click_and_wait(page, ".mine button.card.playable")  # exchanged, at the foot of the page
    expect(page.locator(".held .card")).to_have_count(0)


@pytest.mark.parametrize("players", [2, 4])
def test_a_laptop_with_a_200_percent_root_font_keeps_your_grid_the_largest(
    server: Server, browser: Browser, problems: list[str], artifacts: Path, players: int
) -> None:
    page = open_page(browser, SCREENS["desktop"], problems)
    page.goto(server.base)
    # the browser's font setting at 200%: every rem twice as large (the CSP refuses a <style>)
    page.evaluate("document.documentElement.style.fontSize = '200%'")
    start_against_bots(page, server.base, players - 1)
    page.evaluate("document.documentElement.style.fontSize = '200%'")
    assert page.evaluate("getComputedStyle(document.documentElement).fontSize") == "32px"
    reveal_two(page)
    on_one_screen(page, [*TABLE, ".mine .card"])  # still the whole table on one screen
    check_table(page)
    yours_largest(page)
    page.screenshot(path=artifacts / f"zoom-root-200-{players}p.png")
    click_and_wait(page, "[data-key=choice-draw]")
    on_one_screen(page, [*TABLE, ".mine .card", ".held .card"])
    check_table(page)
    yours_largest(page)
    page.screenshot(path=artifacts / f"zoom-root-200-{players}p-held.png")


@pytest.mark.parametrize("language", ["en", "es"])
def test_eight_seats_on_a_phone_give_the_others_readable_cards_and_names(
    server: Server, browser: Browser, problems: list[str], artifacts: Path, language: str
) -> None:
    page = open_page(browser, SCREENS["phone"], problems)
    page.goto(server.base)
    page.select_option("#language", language)  # kept by the browser for the room
    start_against_bots(page, server.base, 7, target=400)
    assert page.locator(".others .seat").count() == 7
    reveal_two(page)
    for moment in ("turn", "held"):
        if moment == "held":
            click_and_wait(page, "[data-key=choice-draw]")
        on_one_screen(page, [*TABLE, ".mine .card", ".others .seat .name"])
        others = widths(page, ".others .card")
        assert len(others) == 7 * 12 and min(others) >= CROWDED, others
        mine = widths(page, ".mine .card")
        assert min(mine) >= 44, mine  # still a tap target
        check_table(page)  # the names (their level) and badges not cut either
        page.screenshot(path=artifacts / f"zoom-8-seats-{language}-{moment}.png")
    # a shorter phone (360x740): the others' cards as large as four grids a row made them
    # (15 px), the names whole (four a row cut them), your cards still a tap target
    page.set_viewport_size(PHONE)
    on_one_screen(page, [*TABLE, ".mine .card"])
    check_table(page)
    assert min(widths(page, ".mine .card")) >= 44
    assert min(widths(page, ".others .card")) >= 14.9


@pytest.mark.parametrize("language", ["en", "es", "fr", "de"])
def test_the_connection_banner_on_a_320_px_phone_covers_nothing(
    server: Server, browser: Browser, problems: list[str], artifacts: Path, language: str
) -> None:
    """Offline (the longer of its two messages): the banner pushes the table's parts down
    (the grids share what is left), at most three lines high, over none of them."""
    page = open_page(browser, SMALL, problems)
    page.goto(server.base)
    page.select_option("#language", language)
    start_against_bots(page, server.base, 1)
    reveal_two(page)
    page.context.set_offline(True)
    expect(page.locator(BANNER)).to_have_attribute("data-state", "offline")
    banner = page.locator(BANNER).bounding_box()
    assert banner is not None and banner["height"] <= BANNER_MAX, (language, banner)
    on_one_screen(page, [BANNER, ".prompt", ".mine .card", ".seat", ".card.pile", ".choice"])
    check_table(page)
    page.screenshot(path=artifacts / f"zoom-banner-320-{language}.png")
    page.context.set_offline(False)
    expect(page.locator(BANNER)).to_have_attribute("data-state", "back")
    problems[:] = [p for p in problems if "INTERNET_DISCONNECTED" not in p and "WebSocket" not in p]


#: The bar's title and round: never cut (their text wider than their box).
TITLE_CUT = """() => [...document.querySelectorAll('.room-head h1, .room-head .rules')]
  .filter((el) => el.scrollWidth > el.clientWidth + 0.5).map((el) => el.textContent)"""


@pytest.mark.parametrize("language", ["en", "es", "fr", "de"])
def test_at_320_px_the_banner_and_a_refused_tap_keep_the_others_cards_and_the_title_whole(
    server: Server, browser: Browser, problems: list[str], artifacts: Path, language: str
) -> None:
    """Three bots on a 320x568 phone (issue 56): the connection's banner took its lines from
    the others' grids (their cards 21 px, then 10), and a refused tap's line put the moves
    over their last row; the room's title and round were cut in the bar."""
    page = open_page(browser, SMALL, problems)
    page.goto(server.base)
    page.select_option("#language", language)
    start_against_bots(page, server.base, 3)
    assert page.evaluate(TITLE_CUT) == []
    reveal_two(page)
    before = min(widths(page, ".others .card"))
    page.context.set_offline(True)
    expect(page.locator(BANNER)).to_have_attribute("data-state", "offline")
    assert min(widths(page, ".others .card")) >= 0.9 * before, language
    check_table(page)
    page.locator("[data-key=choice-draw]").click(force=True)  # refused: no connection
    expect(page.locator("[data-key=net-refused]")).to_be_visible()
    assert min(widths(page, ".others .card")) >= 0.9 * before, language
    on_one_screen(page, [".prompt", "[data-key=net-refused]", ".seat", ".card.pile", ".choice"])
    check_table(page)  # the moves over no seat
    assert page.evaluate(TITLE_CUT) == []
    page.screenshot(path=artifacts / f"zoom-banner-refused-320-{language}.png")
    page.context.set_offline(False)
    expect(page.locator(BANNER)).to_have_attribute("data-state", "back")
    problems[:] = [p for p in problems if "INTERNET_DISCONNECTED" not in p and "WebSocket" not in p]


def test_eight_german_expected_bots_on_a_phone_keep_their_names_whole(
    server: Server, browser: Browser, problems: list[str], artifacts: Path
) -> None:
    """Seven Expected bots in German (issue 56): "Bot Erwartungswert 2" was cut to
    "Bot Erwartungs…"; drawn smaller, each name is read whole (fit.js)."""
    page = open_page(browser, SCREENS["phone"], problems)
    page.goto(server.base)
    page.select_option("#language", "de")
    page.click("[data-key=count-7]")
    page.select_option("[data-key=level]", "expected")
    page.click("[data-key=start]")
    page.wait_for_selector(".mine .grid.large")
    names = page.locator(".others .seat .name").all_inner_texts()
    assert "Bot Erwartungswert 2" in names, names
    check_table(page)  # no name cut
    sizes = page.eval_on_selector_all(
        ".others .seat .name", "els => els.map((el) => parseFloat(getComputedStyle(el).fontSize))"
    )
    assert min(sizes) >= 8, sizes  # smaller, still readable
    page.screenshot(path=artifacts / "zoom-8-seats-de-expected.png")


#: The smallest another's card may be with 8 seats on a 320x568 phone (its size before the
#: title had a line of its own: 12.6 px in English, 10 in the others, whose bar wrapped).
CROWDED_SMALL = 12.5
#: The least height of the bar's buttons (a tap target: WCAG 2.5.8's 24 px).
TAP = 24


@pytest.mark.parametrize("language", ["en", "fr", "de", "es"])
def test_eight_seats_on_a_phone_show_the_room_s_title_and_round_whole(
    server: Server, browser: Browser, problems: list[str], artifacts: Path, language: str
) -> None:
    """Seven bots on a 390x844 phone (issue 56): the title was cut to "La …" beside the
    bar's buttons; it has a line of its own, and the others' cards keep their size."""
    page = open_page(browser, SCREENS["phone"], problems)
    page.goto(server.base)
    page.select_option("#language", language)
    start_against_bots(page, server.base, 7, target=400)
    for screen, size, smallest in (
        ("phone", SCREENS["phone"], CROWDED),
        ("320", SMALL, CROWDED_SMALL),
    ):
        page.set_viewport_size(size)
        expect(page.locator(".room-head h1")).to_have_text(re.compile("Zoë"))
        assert page.evaluate(TITLE_CUT) == [], (language, screen)
        assert min(widths(page, ".others .card")) >= smallest, (language, screen)
        heights = page.eval_on_selector_all(
            ".room-head :is(.tab, .bar-rules)", "els => els.map((el) => el.offsetHeight)"
        )
        assert len(heights) == 5 and min(heights) >= TAP, heights
        on_one_screen(page, [".seat", ".card.pile", ".prompt", ".room-head h1", ".room-head .tab"])
        for colours in ("light", "dark"):
            scheme(page, colours)
            page.screenshot(
                path=artifacts / f"zoom-8-seats-title-{language}-{screen}-{colours}.png"
            )
        assert violations(page) == []


#: What of the game-over panel sticks out of it sideways (its texts, tables and buttons;
#: the statistics' table scrolls inside its own region, and is measured by that region).
END_CUT = """() => {
  const panel = document.querySelector('.game-over').getBoundingClientRect();
  return [...document.querySelectorAll(
    '.game-over h2, .game-over .your-place, .game-over .places, .game-over .game-story, '
    + '.game-over .after button, .game-over .after a, .end-stats-scroll, .end-chart svg')]
    .filter((el) => el.getClientRects().length)
    .filter((el) => el.getBoundingClientRect().right > panel.right + 0.5)
    .map((el) => `${el.className || el.tagName}: ${el.textContent.slice(0, 30)}`);
}"""


def test_the_game_s_end_on_a_phone_at_200_percent_zoom_cuts_no_text(
    server: Server, browser: Browser, problems: list[str], artifacts: Path
) -> None:
    """The end panel at 195x422 (a phone at 200%): your place's sentence wraps inside the
    panel instead of running past its edge (it was kept on one line), as does every other
    text, table and button of it; then its replay, whose buttons made the page scroll
    sideways (247 px) and whose title cut its "Replay" badge to "…"."""
    created = room(server, [{"name": "Ana"}, {"bot": "greedy"}, {"bot": "random"}])
    ana = server.conn(created["code"])
    ana.hello(created["token"])
    play(ana, 0)
    ana.close()
    page = open_page(browser, ZOOMED, problems, scale=4)
    seated(page, server.base, created)
    page.wait_for_selector(".game-over [data-key=watch-replay]")
    assert page.evaluate(END_CUT) == []
    assert page.evaluate(MEASURE)["scrollWidth"] <= ZOOMED["width"]
    page.screenshot(path=artifacts / "zoom-phone-200-end.png", full_page=True)
    page.click("[data-key=watch-replay]")  # the replay: its five buttons wrap, its title whole
    page.wait_for_selector(".replay-controls [data-key=replay-play]")
    assert page.evaluate(MEASURE)["scrollWidth"] <= ZOOMED["width"]
    title = page.locator(".room-head h1")
    assert title.evaluate("(h) => h.scrollWidth <= h.clientWidth"), title.text_content()
    expect(title.locator(".replay-badge")).to_be_visible()
    page.screenshot(path=artifacts / "zoom-phone-200-replay.png", full_page=True)


#: What sticks out of the page sideways: the page's width, and the first elements past it.
PAST_EDGE = """() => ({ scroll: document.scrollingElement.scrollWidth,
  past: [...document.querySelectorAll('body *')]
    .filter((el) => el.getClientRects().length
      && el.getBoundingClientRect().right > innerWidth + 0.5)
    .map((el) => `${el.tagName.toLowerCase()}.${el.className}: ${el.textContent.slice(0, 30)}`)
    .slice(0, 5) })"""


@pytest.mark.parametrize("language", ["en", "fr", "de", "es"])
def test_every_page_on_a_phone_at_200_percent_zoom_scrolls_down_only(
    server: Server, browser: Browser, problems: list[str], language: str
) -> None:
    """At 195x422 (a 390x844 phone at 200%) no page scrolls sideways in any language: the
    rules' colour families (their words under the cards), a lobby's host tools (the level
    and Remove wrap), a heading's long German word (it breaks), the upload and missing
    pages, the scorepad and a sheet. Each of these ran past the edge (by up to 162 px)."""
    lobby = room(server, [{"name": "Ana"}, {"bot": "greedy"}], lobby=True)
    pages = ("/", "/rules", "/scorepad", f"/scorepad/{sheet(server)}", "/replay", "/no-such-page")
    page = open_page(browser, ZOOMED, problems, scale=2, locale=language)
    wide = {}
    for path in pages:
        page.goto(server.base + path)
        page.wait_for_load_state("networkidle")
        seen = page.evaluate(PAST_EDGE)
        if seen["scroll"] > ZOOMED["width"]:
            wide[path] = seen
    problems[:] = [p for p in problems if "status of 404 " not in p]  # the missing page's
    seated(page, server.base, lobby)
    page.wait_for_selector(".lobby-seat .host-tools select")
    seen = page.evaluate(PAST_EDGE)
    if seen["scroll"] > ZOOMED["width"]:
        wide["lobby"] = seen
    assert wide == {}
