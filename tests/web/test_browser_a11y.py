"""Accessibility in a real browser: axe-core (bundled by axe-playwright-python, injected
from its file: nothing is fetched) finds no WCAG 2.1 A/AA violation on any page, at a
laptop's and a phone's size, in the light and the dark colour scheme; every card's digit
is at least 4.5:1 against its face and the focus ring 3:1 against the table and the cards;
nothing scrolls sideways on a 320 px phone; the colour scheme's switch is remembered.
Screenshots of the dark scheme (and of the light scheme's cards) go to
tests/web/artifacts/dark-*.png. Every wait is on a condition of the page, never on time."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import axe_playwright_python
import httpx2
from browsing import SCREENS, SMALL, click_and_wait, open_page
from liveserver import Server
from playwright.sync_api import Browser, Page, expect
from webclient import Conn

from skyjo.engine import DRAW, FLIP, NEXT_ROUND

AXE = Path(axe_playwright_python.__file__).parent / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
SIZES = {"desktop": SCREENS["desktop"], "phone": SCREENS["phone"]}
SCHEMES = ("light", "dark")
#: The scorepad token of the pages of this module (as test_scorepad_browser.py's).
OWNER = "the-browser-of-the-a11y-tests-000000"
GRID_14 = "7 5 2 4 / 7 -1 3 1 / 7 0 -2 2"
#: Found violations: "page, scheme, size" -> axe's violations there.
Found = dict[str, list[dict[str, Any]]]


# --- helpers ----------------------------------------------------------------------------------


def violations(page: Page) -> list[dict[str, Any]]:
    """axe-core's WCAG 2.1 A and AA violations on the page as it is now."""
    if not page.evaluate("() => typeof axe === 'object'"):
        # evaluated by the browser's devtools protocol, which the page's CSP (script-src
        # 'self') allows, where a <script> tag of the file would be refused
        page.evaluate(AXE.read_text())
    script = """tags => axe.run(document, {
      runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']})"""
    return page.evaluate(script, TAGS)["violations"]


def scheme(page: Page, name: str) -> None:
    """Show the page in the system's colour scheme `name` (its switch left on "system")."""
    page.emulate_media(color_scheme=name)  # type: ignore[arg-type]
    page.wait_for_function("s => document.documentElement.dataset.theme === s", arg=name)


def audit(
    page: Page, name: str, found: Found, shots: Path | None = None, light: bool = False
) -> None:
    """Run axe on the page in both schemes at both sizes, noting what it finds in `found`;
    with `shots`, a screenshot of the dark scheme at each size (dark-NAME-SIZE.png), and
    of the light one too with `light` (light-NAME-SIZE.png)."""
    for colours in SCHEMES:
        scheme(page, colours)
        for size, viewport in SIZES.items():
            page.set_viewport_size(viewport)
            seen = violations(page)
            if seen:
                found[f"{name}, {colours}, {size}"] = seen
            if shots is not None and (colours == "dark" or light):
                page.screenshot(path=shots / f"{colours}-{name}-{size}.png")
    scheme(page, "light")


def report(found: Found) -> str:
    """axe's violations: each rule's id and summary, and every element it failed on."""
    lines = []
    for where, seen in found.items():
        for violation in seen:
            lines.append(f"{where}: {violation['id']} ({violation['impact']}): {violation['help']}")
            for node in violation["nodes"]:
                lines.append(f"    {node['target']}: {node['failureSummary']}".replace("\n", " "))
    return "\n".join(lines)


def room(server: Server, seats: list[dict[str, Any]], **fields: Any) -> dict[str, Any]:
    """A room of the server (no lobby unless asked): its code, and the first seat's token."""
    return server.post("/api/rooms", {"seats": seats, "lobby": False, **fields})


def seated(page: Page, base: str, created: dict[str, Any]) -> None:
    """Open the room in `page` as its first seat (the browser that created it)."""
    page.goto(base)
    keep = "([code, seat]) => localStorage.setItem(`skyjo:seat:${code}`, JSON.stringify(seat))"
    page.evaluate(keep, [created["code"], {"token": created["token"], "seat": 0}])
    page.goto(f"{base}/r/{created['code']}")


def play(conn: Conn, seat: int, until: str = "game_over") -> None:
    """Play `seat` over its connection (turning up cards whenever it may: the round ends
    sooner) until the phase is `until`: one move per step it sees, "next round" at a
    round's end."""
    played = -1
    while conn.obs is None or conn.obs["phase"] != until:
        obs = conn.obs
        if obs is not None and conn.number > played:
            legal = obs["legal_actions"]
            if obs["phase"] == "round_over":
                conn.ready()
                played = conn.number
            elif obs["current_player"] == seat and legal:
                flips = [a for a in legal if a < DRAW or FLIP <= a < NEXT_ROUND]
                conn.move(flips[0] if flips else DRAW if DRAW in legal else legal[0])
                played = conn.number
        conn.receive()


def owned(page: Page) -> Page:
    """`page`, holding the scorepad token OWNER from its first script on."""
    page.add_init_script(f"localStorage.setItem('skyjo:scorepad:owner', {json.dumps(OWNER)})")
    return page


def sheet(server: Server) -> str:
    """A scorepad sheet of OWNER with two rounds (one of them entered card by card); its id."""
    headers = {"X-Skyjo-Owner": OWNER}
    body: dict[str, Any] = {
        "players": ["Ana", "Ben", "Cleo"],
        "title": "Sunday",
        "target_score": 60,
    }
    url = f"{server.base}/api/scorepad/sheets"
    made = httpx2.post(url, json=body, headers=headers, timeout=10).json()
    for ender, entries in (
        ("Ben", {"Ana": "12", "Ben": "5", "Cleo": "9"}),
        ("Cleo", {"Ana": GRID_14, "Ben": "20", "Cleo": "9"}),
    ):
        body = {"revision": made["revision"], "round": {"ender": ender, "entries": entries}}
        response = httpx2.post(f"{url}/{made['id']}/rounds", json=body, headers=headers, timeout=10)
        assert response.status_code in (200, 201), response.text
        made = response.json()
    return str(made["id"])


def reveal_two(page: Page) -> None:
    for _ in range(2):
        page.wait_for_selector(".mine button.card.playable")
        click_and_wait(page, ".mine button.card.playable")


# --- axe on every page ----------------------------------------------------------------------


def test_the_front_page_the_lobby_and_the_replay_upload_have_no_violations(
    server: Server, browser: Browser, problems: list[str], artifacts: Path
) -> None:
    found: Found = {}
    page = open_page(browser, SIZES["desktop"], problems)
    page.goto(server.base)
    page.wait_for_selector(".solo [data-key=start]")
    audit(page, "front", found, artifacts)
    page.goto(f"{server.base}/replay")
    page.wait_for_selector(".upload")
    audit(page, "upload", found)
    friends = room(server, [{"name": "Ana"}, {"name": "Ben"}, {"bot": "greedy"}], lobby=True)
    seated(page, server.base, friends)
    page.wait_for_selector(".lobby [data-key=lobby-code]")
    audit(page, "lobby", found, artifacts)
    assert not found, report(found)


def test_a_game_has_no_violations_on_your_turn_with_a_card_in_hand_and_at_the_round_end(
    server: Server, browser: Browser, problems: list[str], artifacts: Path
) -> None:
    found: Found = {}
    created = room(server, [{"name": "Ana"}, {"bot": "greedy"}], rules={"target_score": 400})
    page = open_page(browser, SIZES["phone"], problems)
    seated(page, server.base, created)
    reveal_two(page)
    page.wait_for_selector("[data-key=choice-draw]")
    audit(page, "your-turn", found, artifacts)
    watcher = open_page(browser, SIZES["phone"], problems)
    watcher.goto(f"{server.base}/r/{created['code']}?watch")
    watcher.wait_for_selector(".board[data-you=none] .seat .card")
    audit(watcher, "spectator", found)
    click_and_wait(page, "[data-key=choice-draw]")
    page.wait_for_selector(".held .card")
    audit(page, "card-in-hand", found)
    ana = server.conn(created["code"])  # Ana's moves to the round's end, quicker than clicks
    ana.hello(created["token"])
    play(ana, 0, until="round_over")
    page.wait_for_selector(".round-over [data-key=choice-next]")
    audit(page, "round-end", found, artifacts, light=True)
    ana.close()
    assert not found, report(found)


def test_the_game_end_and_its_replay_have_no_violations(
    server: Server, browser: Browser, problems: list[str], artifacts: Path
) -> None:
    found: Found = {}
    created = room(server, [{"name": "Ana"}, {"bot": "greedy"}], rules={"target_score": 1})
    ana = server.conn(created["code"])
    ana.hello(created["token"])
    play(ana, 0)
    ana.close()
    page = open_page(browser, SIZES["desktop"], problems)
    seated(page, server.base, created)
    page.wait_for_selector(".game-over [data-key=watch-replay]")
    audit(page, "game-end", found, artifacts)
    page.goto(f"{server.base}/r/{created['code']}/replay?step=12")
    page.wait_for_selector(".replay-controls")
    audit(page, "replay", found, artifacts)
    assert not found, report(found)


def test_the_scorepad_has_no_violations(
    server: Server, browser: Browser, problems: list[str], artifacts: Path
) -> None:
    found: Found = {}
    sheet_id = sheet(server)
    page = owned(open_page(browser, SIZES["desktop"], problems))
    page.goto(f"{server.base}/scorepad")
    page.wait_for_selector("[data-key=new-title]")
    audit(page, "scorepad", found, artifacts)
    page.goto(f"{server.base}/scorepad/{sheet_id}")
    page.wait_for_selector("[data-key=round-form]")
    page.wait_for_selector("[data-key=chart]")
    audit(page, "sheet", found, artifacts)
    assert not found, report(found)


# --- the cards' colours and the focus ring ------------------------------------------------

#: Every card of the game, as board.js draws it, in your grid, in another's and on the piles;
#: then each one's digit colour and face colour (and what might draw over the face).
DEAL_EVERY_VALUE = """async () => {
  const { card } = await import("/static/board.js");
  const places = {mine: ".mine .grid", others: ".others .grid", pile: ".piles"};
  const found = [];
  for (const [place, selector] of Object.entries(places)) {
    const where = document.querySelector(selector);
    for (let value = -2; value <= 12; value++) {
      const extra = place === "pile" ? " pile" : "";
      const shown = card(value, {label: String(value), action: () => {}, extra});
      shown.classList.add("probe");
      where.append(shown);
      const style = getComputedStyle(shown);
      found.push({place, value, text: shown.textContent, color: style.color,
                  background: style.backgroundColor, image: style.backgroundImage,
                  size: parseFloat(style.fontSize)});
    }
  }
  return found;
}"""

#: The scorepad's small cards of a round explained, one of each band.
MINI_CARDS = """() => {
  const where = document.querySelector(".pad-columns");
  return ["neg", "zero", "low", "mid", "high"].map((band) => {
    const mini = document.createElement("span");
    mini.className = `pad-mini ${band}`;
    mini.textContent = "7";
    where.append(mini);
    const style = getComputedStyle(mini);
    return {place: "scorepad", value: band, text: "7", color: style.color,
            background: style.backgroundColor, image: style.backgroundImage, size: 14};
  });
}"""

#: The focus ring of your card with the keyboard's focus: its outline and its box-shadow's colour.
FOCUS_RING = """() => {
  const focused = document.querySelector(".mine button.card.playable");
  focused.focus();
  const style = getComputedStyle(focused);
  return {visible: focused.matches(":focus-visible"), outline: style.outlineColor,
          outlineStyle: style.outlineStyle, outlineWidth: parseFloat(style.outlineWidth),
          shadow: style.boxShadow,
          table: getComputedStyle(document.querySelector(".table")).backgroundColor};
}"""


def rgb(css: str) -> tuple[float, float, float]:
    """An opaque colour of getComputedStyle ("rgb(r, g, b)") as its three channels."""
    assert css.startswith("rgb(") and "/" not in css, f"not an opaque colour: {css}"
    red, green, blue = (float(part) for part in css[4:-1].split(","))
    return red, green, blue


def contrast(first: str, second: str) -> float:
    """WCAG 2's contrast ratio of two opaque colours."""

    def luminance(css: str) -> float:
        linear = [c / 255 / 12.92 if c / 255 <= 0.04045 else ((c / 255 + 0.055) / 1.055) ** 2.4
                  for c in rgb(css)]  # fmt: skip
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def low_contrast(cards: list[dict[str, Any]]) -> list[str]:
    """The cards whose digit is under 4.5:1 against their face (or drawn over a picture)."""
    return [
        f"{c['place']} {c['value']}: {c['color']} on {c['background']}: "
        f"{contrast(c['color'], c['background']):.2f}"
        for c in cards
        if c["image"] != "none" or contrast(c["color"], c["background"]) < 4.5
    ]


def test_every_card_s_digit_is_4_5_to_1_and_the_focus_ring_3_to_1_in_both_schemes(
    server: Server, browser: Browser, problems: list[str], artifacts: Path
) -> None:
    created = room(server, [{"name": "Ana"}, {"bot": "greedy"}])
    page = open_page(browser, SIZES["desktop"], problems)
    seated(page, server.base, created)
    # the opening, Ana to turn up two: nothing redraws the board until she does
    page.wait_for_selector(".mine button.card.playable")
    sheet_page = owned(open_page(browser, SIZES["desktop"], problems))
    sheet_page.goto(f"{server.base}/scorepad/{sheet(server)}")
    sheet_page.wait_for_selector(".pad-columns .pad-mini")
    for colours in SCHEMES:
        scheme(page, colours)
        scheme(sheet_page, colours)
        cards = page.evaluate(DEAL_EVERY_VALUE)
        assert [c["text"] for c in cards] == [str(v) for v in range(-2, 13)] * 3
        cards += sheet_page.evaluate(MINI_CARDS)
        assert low_contrast(cards) == [], colours
        page.evaluate("() => document.querySelectorAll('.probe').forEach((c) => c.remove())")
        page.keyboard.press("Tab")  # the keyboard's focus: the ring shows
        ring = page.evaluate(FOCUS_RING)
        assert ring["visible"] and ring["outlineStyle"] == "solid" and ring["outlineWidth"] >= 2
        dark = ring["shadow"][: ring["shadow"].index(")") + 1]  # the shadow's first colour
        assert contrast(ring["outline"], ring["table"]) >= 3, (colours, ring)
        assert contrast(ring["outline"], dark) >= 3, (colours, ring)
        for face in {c["background"] for c in cards}:
            best = max(contrast(ring["outline"], face), contrast(dark, face))
            assert best >= 3, (colours, face, ring)
        page.screenshot(path=artifacts / f"{colours}-focus-desktop.png")
        page.evaluate("() => document.activeElement.blur()")


# --- a 320 px phone ------------------------------------------------------------------------

SIDEWAYS = """() => ({width: innerWidth, scroll: document.scrollingElement.scrollWidth,
  wide: [...document.querySelectorAll("body *")]
    .filter((el) => el.getBoundingClientRect().right > innerWidth + 0.5)
    .map((el) => `${el.tagName.toLowerCase()}.${el.className}`).slice(0, 8)})"""


#: A laptop's 1280x800 at 400% zoom: the page may scroll down there, never sideways.
ZOOMED = {"width": 320, "height": 200}


def sideways(page: Page, name: str, wide: dict[str, Any]) -> None:
    """Note in `wide` if the page scrolls sideways (and what sticks out), on a 320x568 phone
    and at a laptop's 400% zoom."""
    for viewport in (SMALL, ZOOMED):
        page.set_viewport_size(viewport)
        seen = page.evaluate(SIDEWAYS)
        if seen["scroll"] > seen["width"]:
            wide[f"{name} at {viewport['width']}x{viewport['height']}"] = seen
    page.set_viewport_size(SMALL)


def test_nothing_scrolls_sideways_on_a_320_px_phone(
    server: Server, browser: Browser, problems: list[str]
) -> None:
    wide: dict[str, Any] = {}
    page = owned(open_page(browser, SMALL, problems))
    page.goto(server.base)
    page.wait_for_selector(".solo [data-key=start]")
    sideways(page, "front", wide)
    page.click(".more summary")
    sideways(page, "front, more", wide)
    created = room(server, [{"name": "Ana"}, {"bot": "greedy"}, {"bot": "greedy"}])
    seated(page, server.base, created)
    page.wait_for_selector(".mine button.card.playable")
    sideways(page, "the opening", wide)
    reveal_two(page)
    page.wait_for_selector("[data-key=choice-draw]")
    sideways(page, "your turn", wide)
    click_and_wait(page, "[data-key=choice-draw]")
    sideways(page, "card in hand", wide)
    for tab in ("room", "scores", "log", "chat"):
        page.click(f"[data-key=tab-{tab}]")
        sideways(page, f"the {tab} drawer", wide)
        page.click("[data-key=drawer-close]")
    over = room(server, [{"name": "Ana"}, {"bot": "greedy"}], rules={"target_score": 1})
    ana = server.conn(over["code"])
    ana.hello(over["token"])
    play(ana, 0)
    ana.close()
    seated(page, server.base, over)
    page.wait_for_selector(".game-over [data-key=watch-replay]")
    sideways(page, "the game's end", wide)
    page.goto(f"{server.base}/scorepad")
    page.wait_for_selector("[data-key=new-title]")
    sideways(page, "scorepad", wide)
    page.goto(f"{server.base}/scorepad/{sheet(server)}")
    page.wait_for_selector("[data-key=round-form]")
    sideways(page, "sheet", wide)
    assert wide == {}


# --- the switch ----------------------------------------------------------------------------

BACKGROUND = "() => getComputedStyle(document.documentElement).backgroundColor"
#: What the first frame the page draws shows: its scheme, noted before any paint.
FIRST_FRAME = """window.__firstFrame = new Promise((done) => requestAnimationFrame(() =>
  done(document.documentElement.dataset.theme ?? null)));"""


def test_the_colour_scheme_s_switch_is_remembered_and_shown_from_the_first_frame(
    server: Server, browser: Browser, problems: list[str]
) -> None:
    context = browser.new_context(viewport=SIZES["phone"], color_scheme="light")
    context.add_init_script(FIRST_FRAME)
    page = context.new_page()
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    page.goto(server.base)
    page.wait_for_selector(".solo")
    light = page.evaluate(BACKGROUND)
    assert page.input_value("#theme") == "system"
    assert page.evaluate("() => window.__firstFrame") == "light"
    page.select_option("#theme", "dark")
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    dark = page.evaluate(BACKGROUND)
    assert contrast(light, dark) > 10  # the page itself went dark
    page.reload()
    assert page.evaluate("() => window.__firstFrame") == "dark"  # no light frame first
    assert page.input_value("#theme") == "dark"
    assert page.evaluate(BACKGROUND) == dark
    page.goto(f"{server.base}/scorepad")  # the scorepad too
    assert page.evaluate("() => window.__firstFrame") == "dark"
    assert page.input_value("#theme") == "dark"
    page.select_option("#theme", "system")  # back to the system's: light here
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    assert page.evaluate("() => localStorage.getItem('skyjo:theme')") is None
    page.emulate_media(color_scheme="dark")  # and it follows the system as it changes
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    page.select_option("#theme", "light")  # a choice wins over the system's
    page.reload()
    assert page.evaluate("() => window.__firstFrame") == "light"
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    context.close()
