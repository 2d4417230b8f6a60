"""Helpers of the browser tests: Playwright driving Debian's chromium (never
Playwright's own download). Every wait is on a condition of the page, never on time."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, Page

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 360, "height": 740}
#: The three screens the table must fit with no page scroll (issue 28): a laptop, a phone
#: held upright, the phone turned.
SCREENS = {
    "desktop": {"width": 1280, "height": 800},
    "phone": {"width": 390, "height": 844},
    "turned": {"width": 844, "height": 390},
}
#: The smallest phone still in use (320 px wide): all in view too, no sideways scroll.
SMALL = {"width": 320, "height": 568}
#: An init script that keeps the page's WebSockets (`window.sockets`), for a test to send
#: what the board never sends (a move out of turn, an illegal move).
KEEP_SOCKETS = """
const Native = window.WebSocket;
window.sockets = [];
window.WebSocket = class extends Native {
  constructor(...args) { super(...args); window.sockets.push(this); }
};
"""
#: An init script: this browser has seen the first game's tour (tour.js) and turned off the
#: question before an exchange that throws away a lower card (confirm.js: a test that plays
#: the first card it may would stop at it), as `conftest.browser` gives every context but
#: `open_page(tour=True)`'s. `ASK_FIRST` turns the question on again.
TOUR_SEEN = (
    "try { localStorage.setItem('skyjo:tour', 'seen');"
    " localStorage.setItem('skyjo:confirm-low', '0'); } catch {}  // (none: about:blank)"
)
ASK_FIRST = "try { localStorage.setItem('skyjo:confirm-low', '1'); } catch {}"
MY_TURN = ".mine button.card.playable, .choices .choice, .round-over, .game-over"
#: The seats' grids, the piles (and a card in hand), the prompt and the moves.
TABLE = [".seat", ".card.pile", ".prompt", ".choice"]


def open_page(
    browser: Browser,
    viewport: dict[str, int],
    problems: list[str],
    still: bool = True,
    scale: float = 1,
    tour: bool = False,
    **options: Any,
) -> Page:
    """A page in a fresh context; script errors and dialogs are noted in `problems`.
    `still` asks for reduced motion (steady screenshots, and the setting honoured);
    `scale` is the device pixels per CSS pixel (a phone zoomed in: 4 for 200% at 2);
    `tour`: a browser that has not seen the first game's tour yet; `options` go to the
    context (a `locale`, a `color_scheme`)."""
    motion = "reduce" if still else "no-preference"
    make = browser.new_context
    if tour:
        make = getattr(make, "plain", make)
    context = make(viewport=viewport, reduced_motion=motion, device_scale_factor=scale, **options)
    page = context.new_page()
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    page.on("dialog", lambda box: (problems.append(f"dialog: {box.message}"), box.dismiss()))
    page.on("console", lambda m: m.type == "error" and problems.append(f"console: {m.text}"))
    return page


def step_number(page: Page) -> int:
    return int(page.get_attribute("#main", "data-number") or -1)


def click_and_wait(page: Page, selector: str) -> None:
    """Click, then wait until the board shows a later step."""
    number = step_number(page)
    page.locator(selector).first.click()
    page.wait_for_function(
        "n => Number(document.getElementById('main').dataset.number) > n", arg=number
    )


def play_my_turn(page: Page) -> bool:
    """Wait for my turn and play it by clicking: turn up a card, or draw, then
    discard and turn up a card (or exchange). False once the round (or the game) is over."""
    page.wait_for_selector(MY_TURN)
    if page.locator(".round-over, .game-over").count():
        return False
    if page.locator("[data-key=choice-draw]").count():
        click_and_wait(page, "[data-key=choice-draw]")
        assert page.locator(".held .card").first.inner_text().strip()  # I see what I drew
        if page.locator("[data-key=choice-flip]").count():
            page.click("[data-key=choice-flip]")
            assert "face-down" in page.inner_text(".prompt")
        click_and_wait(page, ".mine button.card.playable")
    else:
        click_and_wait(page, ".mine button.card.playable")
    return True


def fill_front_page(
    page: Page,
    base: str,
    opponents: int,
    name: str = "Zoë",
    target: int | None = None,
    timer: int | None = None,
    speed: str | None = None,
    friends: tuple[int, ...] = (),
) -> None:
    """On the front page, your name and the opponents (and the target score, the turn timer
    in seconds, the bots' speed, and the other seats, by index, that are a friend's), not
    started yet."""
    page.goto(base)
    page.click(f"[data-key=count-{opponents}]")
    page.fill("#your-name", name)
    if speed is not None:
        page.select_option("[data-key=speed]", speed)
    if target is not None or timer is not None or friends:
        page.click(".more summary")
    if target is not None:
        page.fill("[data-key=target]", str(target))
    if timer is not None:
        page.select_option("[data-key=timer]", str(timer))
    for seat in friends:
        page.select_option(f"[data-key=seat-{seat}]", "friend")


def start_against_bots(
    page: Page,
    base: str,
    opponents: int,
    target: int | None = None,
    timer: int | None = None,
    speed: str | None = None,
) -> None:
    """From the front page: choose the opponents (and the target score, the turn timer in
    seconds, the bots' speed), Start."""
    fill_front_page(page, base, opponents, target=target, timer=timer, speed=speed)
    page.click("[data-key=start]")
    page.wait_for_selector(".mine .grid.large")


def open_lobby(
    page: Page,
    base: str,
    name: str,
    opponents: int,
    friends: tuple[int, ...],
    timer: int | None = None,
) -> None:
    """From the front page: `name` and `opponents` others, the seats `friends` a friend's
    (the others bots), Start: the room waits in its lobby for them."""
    fill_front_page(page, base, opponents, name=name, timer=timer, friends=friends)
    page.click("[data-key=start]")
    page.wait_for_selector(".lobby")


MEASURE = """(selectors) => {
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  };
  const hit = (el) => {  // what a tap at the element's middle reaches: the element itself?
    const r = el.getBoundingClientRect();
    const top = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
    return top === el || el.contains(top);
  };
  const found = {};
  for (const selector of selectors) {
    const elements = [...document.querySelectorAll(selector)];
    found[selector] = elements.map((el) => ({ box: box(el), hit: hit(el) }));
  }
  const page = document.scrollingElement;
  return { width: innerWidth, height: innerHeight, scrollWidth: page.scrollWidth,
           scrollHeight: page.scrollHeight, found };
}"""


def on_one_screen(page: Page, selectors: list[str]) -> dict:
    """Assert that the page does not scroll (either way) and that every element of each
    selector (at least one each) lies inside the viewport, on top where it is (a tap at
    its middle reaches it). Returns the measures."""
    seen = page.evaluate(MEASURE, selectors)
    width, height = seen["width"], seen["height"]
    down, sideways = seen["scrollHeight"], seen["scrollWidth"]
    assert down <= height, f"the page scrolls down: {down} > {height}"
    assert sideways <= width, f"the page scrolls sideways: {sideways} > {width}"
    for selector, elements in seen["found"].items():
        assert elements, f"nothing matches {selector}"
        for element in elements:
            left, top, right, bottom = element["box"]
            inside = min(left, top) >= -0.5 and right <= width + 0.5 and bottom <= height + 0.5
            assert inside and right - left > 0, f"{selector} at {element['box']} is off the screen"
            assert element["hit"], f"{selector} at {element['box']} is covered"
    return seen


def widths(page: Page, selector: str) -> list[float]:
    """The widths in CSS pixels of the elements `selector` matches."""
    script = "els => els.map(e => e.getBoundingClientRect().width)"
    return page.eval_on_selector_all(selector, script)
