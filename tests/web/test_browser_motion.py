"""The board's animations in a real browser: a card turned up, a column cleared
(its cards landing on the discard pile) and a reshuffle each get a short animation
(at most 400 ms) from the step's visible events, the board showing the new state at
once; under `prefers-reduced-motion: reduce` the same steps run no animation at all.
(A card drawn, exchanged or discarded travels instead: test_browser_cards.py.)

A script in the page notes, for every card drawn with an animation class, the
animation the stylesheet gives it (`getComputedStyle`, when it is drawn), and
every `animationstart`."""

from __future__ import annotations

import json

import httpx2
import pytest
from browsing import DESKTOP, MY_TURN, click_and_wait, open_page, start_against_bots
from liveserver import Server
from playwright.sync_api import Browser, Page
from webapp import JSON

from skyjo.match import Match, Seat

WATCH_MOTION = """
window.motion = { drawn: [], started: [] };
document.addEventListener("animationstart", (e) => {
  window.motion.started.push(e.animationName);
}, true);
new MutationObserver((records) => {
  for (const record of records) for (const node of record.addedNodes) {
    if (!(node instanceof Element)) continue;
    const found = [...node.querySelectorAll("[class*='anim-']")];
    if (node.matches("[class*='anim-']")) found.push(node);
    for (const card of found) {
      const style = getComputedStyle(card);
      window.motion.drawn.push({
        kind: [...card.classList].find((c) => c.startsWith("anim-")).slice(5),
        name: style.animationName,
        seconds: parseFloat(style.animationDuration),
        label: card.getAttribute("aria-label"),
      });
    }
  }
}).observe(document, { childList: true, subtree: true });
"""
#: The keyframes of each motion (static/style.css).
KEYFRAMES = {
    "flip": "card-flip",
    "land": "card-land",
    "clear": "card-clear",
    "shuffle": "card-shuffle",
}


def eight_bots() -> tuple[dict, int, int]:
    """The record of a game of eight greedy bots (seed 0), the step of its first
    column cleared and the step of its first reshuffle."""
    match = Match([Seat(f"P{i}", "greedy") for i in range(8)], seed=0)
    first: dict[str, int] = {}
    while not match.over:
        update = match.play_bot()
        assert update is not None
        for event in update.events:
            first.setdefault(event.kind, update.number)
    return match.record(), first["column_cleared"], first["reshuffled"]


def play_live(page: Page, base: str) -> None:
    """Against a bot: turn up two cards, then take the discard and exchange it."""
    start_against_bots(page, base, 1)
    for _ in range(2):
        page.wait_for_selector(".mine button.card.playable")
        click_and_wait(page, ".mine button.card.playable")
    page.wait_for_selector(MY_TURN)
    click_and_wait(page, "[data-key=choice-take]")
    click_and_wait(page, ".mine button.card.playable")


def step_through(
    page: Page, base: str, link: str, steps: list[tuple[int, str | None]]
) -> list[dict]:
    """Open the replay at `link` one step before each of `steps` (a step and the
    animation it must start, or None) and step on once; what the page noted of
    each (a new page each time)."""
    noted = []
    for step, animation in steps:
        page.goto(f"{base}{link}?step={step - 1}")
        page.wait_for_selector(".replay-controls")
        page.click("[data-key=replay-next]")
        page.wait_for_function(
            "n => document.getElementById('main').dataset.number === String(n)", arg=step
        )
        noted.append(noted_after_frames(page, animation))
    return noted


def noted_after_frames(page: Page, animation: str | None = None) -> dict:
    """What the page noted, once `animation` (if any) has started and two more
    frames were drawn. (A busy machine can start an animation later than two
    frames after the render that began it: its `animationstart` is awaited.)"""
    if animation is not None:
        page.wait_for_function("name => window.motion.started.includes(name)", arg=animation)
    return page.evaluate(
        "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame("
        "() => done(window.motion))))"
    )


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_each_move_is_animated_unless_the_viewer_asks_for_reduced_motion(
    server: Server, browser: Browser, problems: list[str], motion: str
) -> None:
    record, cleared, reshuffled = eight_bots()
    upload = httpx2.post(
        f"{server.base}/api/replays", content=json.dumps(record), timeout=30, headers=JSON
    )
    assert upload.status_code == 201, upload.text
    page = open_page(browser, DESKTOP, problems, still=motion == "reduce")
    page.context.add_init_script(WATCH_MOTION)
    play_live(page, server.base)
    noted = [noted_after_frames(page)]
    moving = motion != "reduce"  # under "reduce", no animation may start: none is awaited
    steps = [
        (cleared, "card-clear" if moving else None),
        (reshuffled, "card-shuffle" if moving else None),
    ]
    noted += step_through(page, server.base, upload.json()["link"], steps)
    drawn = [entry for seen in noted for entry in seen["drawn"]]
    started = [name for seen in noted for name in seen["started"]]
    kinds = {entry["kind"] for entry in drawn}
    assert kinds == set(KEYFRAMES), kinds  # each step's card got its class...
    flips = [entry for entry in drawn if entry["kind"] == "flip"]
    assert all("face down" not in entry["label"] for entry in flips), flips  # ...on the new state
    if motion == "reduce":
        assert {entry["name"] for entry in drawn} == {"none"}, drawn
        assert started == []
        assert page.evaluate("document.getAnimations().length") == 0
        return
    for entry in drawn:
        assert entry["name"] == KEYFRAMES[entry["kind"]], entry
        assert 0 < entry["seconds"] <= 0.4, entry
    assert {"card-clear", "card-shuffle"} <= set(started), started  # they did run
