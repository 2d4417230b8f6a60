"""Play against bots in a real browser (issue 56): the bots' speed chosen on the front
page and changed by the host in the room panel; "Undo my move" beside the prompt, which
takes back your exchange and the bots' replies (the card you drew back in your hand);
the question before an exchange that throws away a lower face-up card (kept or played,
and a setting that turns it off); the turn alert's sound and vibration when the page is in
the background, as the settings and the device's reduced motion say. Screenshots (light
and dark, phones and a laptop) go to tests/web/artifacts/play-*.png; axe finds nothing.
Every wait is on a condition of the page, never on time."""

from __future__ import annotations

from pathlib import Path

import pytest
from browsing import (
    ASK_FIRST,
    DESKTOP,
    MY_TURN,
    SCREENS,
    SMALL,
    click_and_wait,
    open_page,
    start_against_bots,
)
from liveserver import Server
from playwright.sync_api import Browser, Page, expect
from test_browser_a11y import SCHEMES, scheme, violations

#: Stand-ins for the device's tone and vibration, noting each use in `window.alerts`; the
#: page never has the focus (as one in the background).
BACKGROUND = """
window.alerts = [];
window.AudioContext = class {
  constructor() { this.currentTime = 0; this.destination = {}; }
  resume() { return Promise.resolve(); }
  createGain() { return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} },
    connect: (next) => next }; }
  createOscillator() { return { frequency: {}, connect: (next) => next,
    start: () => window.alerts.push("tone"), stop() {} }; }
};
navigator.vibrate = (pattern) => { window.alerts.push("vibrate"); return true; };
document.hasFocus = () => false;
"""


def _to_my_draw(page: Page) -> None:
    """Wait for my turn, turning up my first two cards when the round asks for them."""
    while True:
        page.wait_for_selector(MY_TURN)
        if page.locator("[data-key=choice-draw]").count():
            return
        click_and_wait(page, ".mine button.card.playable")


def _held(page: Page) -> int:
    return int(page.locator(".held .card").first.inner_text().strip())


def _lower_face_up(page: Page, held: int) -> str | None:
    """The selector of a face-up card of mine lower than `held`, if any."""
    for cell in page.locator(".mine button.card.playable[data-value]").all():
        if int(cell.get_attribute("data-value") or 99) < held:
            return f'[data-key="{cell.get_attribute("data-key")}"]'
    return None


def _draw_until_lower(page: Page) -> str:
    """Play turns (exchanging a face-down card) until I hold a card higher than one of my
    face-up cards; that card's selector."""
    for _ in range(30):
        _to_my_draw(page)
        click_and_wait(page, "[data-key=choice-draw]")
        lower = _lower_face_up(page, _held(page))
        if lower is not None:
            return lower
        click_and_wait(page, ".mine button.card.playable.down")
    raise AssertionError("no lower face-up card in 30 turns")


def _shot(page: Page, artifacts: Path, name: str) -> None:
    """Screenshots at each size and scheme, and axe on each: nothing found."""
    for colours in SCHEMES:
        scheme(page, colours)
        for size, viewport in {**SCREENS, "small": SMALL}.items():
            page.set_viewport_size(viewport)
            page.screenshot(path=artifacts / f"play-{name}-{colours}-{size}.png")
            assert violations(page) == [], (name, colours, size)
    page.set_viewport_size(DESKTOP)
    scheme(page, "light")


def test_the_bots_speed_is_chosen_on_the_front_page_and_changed_by_the_host(
    browser: Browser, server: Server, problems: list[str], artifacts: Path
) -> None:
    page = open_page(browser, DESKTOP, problems)
    page.goto(server.base)
    page.select_option("[data-key=speed]", "slow")
    assert page.locator("label[for=speed]").inner_text() == "Bot speed"
    _shot(page, artifacts, "front")
    page.click("[data-key=start]")
    page.wait_for_selector(".mine .grid.large")
    menu = page.locator("[data-key=room-speed]")
    expect(menu).to_have_value("slow")
    assert page.locator("label[for=room-speed]").inner_text() == "Bot speed"
    menu.select_option("fast")
    code = page.url.rsplit("/", 1)[-1]
    page.wait_for_function(
        "code => fetch(`/api/rooms/${code}`).then(r => r.json()).then(r => r.bot_speed === 'fast')",
        arg=code,
    )
    expect(menu).to_have_value("fast")
    page.set_viewport_size(SCREENS["phone"])
    page.click("[data-key=tab-room]")  # on a phone, the room panel is a drawer
    expect(page.locator("[data-key=pref-alertSound]")).to_be_visible()
    _shot(page, artifacts, "room-panel")
    assert problems == []


def test_undo_takes_back_my_exchange_and_the_bots_replies(
    browser: Browser, server: Server, problems: list[str], artifacts: Path
) -> None:
    page = open_page(browser, DESKTOP, problems)
    start_against_bots(page, server.base, 2, target=1000)
    _to_my_draw(page)
    assert page.locator("[data-key=undo]").count() == 0  # the reveals are not undone
    click_and_wait(page, "[data-key=choice-draw]")
    held, before = _held(page), int(page.get_attribute("#main", "data-number") or 0)
    click_and_wait(page, ".mine button.card.playable.down")
    page.wait_for_selector(MY_TURN)  # the bots have replied
    assert int(page.get_attribute("#main", "data-number") or 0) > before + 1
    undo = page.locator("[data-key=undo]")
    expect(undo).to_have_text("↶ Undo my move")
    _shot(page, artifacts, "undo")
    undo.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(
        "n => Number(document.getElementById('main').dataset.number) === n", arg=before
    )
    assert _held(page) == held  # the drawn card is in my hand again
    assert page.locator("[data-key=undo]").count() == 0  # one move back, not two
    expect(page.locator("#announce")).to_contain_text("Your last move was undone")
    focused = page.evaluate("() => document.activeElement.dataset.key || ''")
    assert focused.startswith("cell-0-")  # the focus is on my grid, where the move is
    assert problems == []


def test_an_exchange_that_throws_away_a_lower_card_is_asked_about_first(
    browser: Browser, server: Server, problems: list[str], artifacts: Path
) -> None:
    page = open_page(browser, DESKTOP, problems)
    page.add_init_script(ASK_FIRST)  # as a browser that never turned the question off
    start_against_bots(page, server.base, 1, target=1000)
    lower = _draw_until_lower(page)
    number = int(page.get_attribute("#main", "data-number") or 0)
    page.click(lower)
    ask = page.locator("[data-key=confirm]")
    expect(ask).to_be_visible()
    expect(page.locator("[data-key=confirm-no]")).to_be_focused()
    low = page.locator(lower).get_attribute("data-value")
    assert f"Exchange your {low} for the {_held(page)}?" in ask.inner_text()
    _shot(page, artifacts, "confirm")
    page.keyboard.press("Escape")  # kept: nothing played
    expect(ask).to_have_count(0)
    expect(page.locator(lower)).to_be_focused()
    assert int(page.get_attribute("#main", "data-number") or 0) == number
    page.click(lower)
    click_and_wait(page, "[data-key=confirm-yes]")
    assert (
        page.locator(lower).count() == 0 or page.locator(lower).get_attribute("data-value") != low
    )  # the held card took its place
    page.uncheck("[data-key=pref-confirmLow]")  # asked no more
    assert page.evaluate("() => localStorage.getItem('skyjo:confirm-low')") == "0"
    lower = _draw_until_lower(page)
    click_and_wait(page, lower)
    assert page.locator("[data-key=confirm]").count() == 0
    assert problems == []


@pytest.mark.parametrize("still", [True, False], ids=["reduced-motion", "motion"])
def test_the_turn_alert_sounds_and_vibrates_as_chosen_in_the_background(
    browser: Browser, server: Server, problems: list[str], still: bool
) -> None:
    page = open_page(browser, DESKTOP, problems, still=still)
    page.add_init_script(BACKGROUND)
    start_against_bots(page, server.base, 1, target=1000)
    _to_my_draw(page)
    assert page.evaluate("() => window.alerts") == []  # off until chosen
    page.check("[data-key=pref-alertSound]")
    page.check("[data-key=pref-alertVibrate]")
    click_and_wait(page, "[data-key=choice-draw]")
    click_and_wait(page, ".mine button.card.playable.down")
    page.wait_for_function("() => window.alerts.length > 0")
    page.wait_for_selector("[data-key=choice-draw]")
    alerts = page.evaluate("() => window.alerts")
    assert alerts == (["tone"] if still else ["tone", "vibrate"])  # once a turn
    assert problems == []
