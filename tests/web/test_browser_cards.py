"""The table looks like a card game (issue 46), in a real browser, light and dark: a face
shows its value large in the middle and small in two corners (where the card is big
enough), in the face's ink, at least 4.5:1 against the face; the back is one quiet
colour with a frame and an emblem, no stripes, unlike any face; the table is felt lit in
the middle, every word on it at least 4.5:1 against its every shade. A drawn card travels
from its pile to the hand, a placed one from the hand to the grid and the card it
replaced (or the card discarded) to the discard pile, bots' cards too: a copy of the card
flies while the board already shows the new state, a click or a key is taken at once,
the focus stays where it goes; none of it under `prefers-reduced-motion: reduce`.

The travels are held still at their start (an init script pauses every animation the
page makes while `window.freezeMotion` is set), so what the page shows mid-flight is
checked without any timing. Every wait is on a condition of the page, never on time."""

from __future__ import annotations

import re

import pytest
from browsing import DESKTOP, MY_TURN, SCREENS, click_and_wait, open_page, start_against_bots
from liveserver import Server
from playwright.sync_api import Browser, Page
from test_browser_a11y import SCHEMES, contrast, rgb, room, scheme, seated
from test_browser_focus import IN_MY_GRID, focused, press_and_wait

#: Every value's card, made by board.js, in your grid (large) and on the piles; then a
#: card too small for corners; and what the stylesheet draws of each, corners included.
EVERY_FACE = """async () => {
  const { card } = await import("/static/board.js");
  const drawn = (shown) => {
    const style = getComputedStyle(shown);
    const corner = (which) => {
      const pseudo = getComputedStyle(shown, which);
      return {content: pseudo.content, display: pseudo.display, color: pseudo.color,
              size: parseFloat(pseudo.fontSize), transform: pseudo.transform};
    };
    return {text: shown.textContent, color: style.color, background: style.backgroundColor,
            image: style.backgroundImage, size: parseFloat(style.fontSize),
            radius: parseFloat(style.borderTopLeftRadius), shadow: style.boxShadow,
            before: corner("::before"), after: corner("::after")};
  };
  const found = [];
  const places = [["mine", ".mine .grid", ""], ["pile", ".piles", " pile"]];
  for (const [place, selector, extra] of places) {
    for (let value = -2; value <= 12; value++) {
      const shown = card(value, {label: String(value), extra});
      shown.classList.add("probe");
      document.querySelector(selector).append(shown);
      found.push({place, value, ...drawn(shown)});
    }
  }
  const tiny = card(7, {label: "7"});
  tiny.classList.add("probe");
  tiny.style.setProperty("--card", "30px");
  document.querySelector(".mine .grid").append(tiny);
  const back = card(null, {label: "down"});
  back.classList.add("probe");
  document.querySelector(".mine .grid").append(back);
  const frame = getComputedStyle(back, "::before");
  const emblem = getComputedStyle(back, "::after");
  const result = {faces: found, tiny: drawn(tiny),
    back: {...drawn(back),
           frame: {border: parseFloat(frame.borderTopWidth), style: frame.borderTopStyle},
           emblem: {width: parseFloat(emblem.width), height: parseFloat(emblem.height),
                    border: parseFloat(emblem.borderTopWidth), transform: emblem.transform}}};
  document.querySelectorAll(".probe").forEach((c) => c.remove());
  return result;
}"""

#: The table's background and the colours of the words drawn straight on it.
FELT = """() => {
  const table = document.querySelector(".table");
  const words = [".status .prompt", ".seat .name", ".seat .tally", ".piles figcaption"]
    .map((selector) => getComputedStyle(document.querySelector(selector)).color);
  const turn = getComputedStyle(document.documentElement).getPropertyValue("--turn-text").trim();
  const style = getComputedStyle(table);
  return {image: style.backgroundImage, colour: style.backgroundColor, words, turn};
}"""


def hex_rgb(css: str) -> str:
    """A "#rrggbb" colour as getComputedStyle writes one: "rgb(r, g, b)"."""
    assert re.fullmatch(r"#[0-9a-fA-F]{6}", css), css
    return "rgb({}, {}, {})".format(*(int(css[k : k + 2], 16) for k in (1, 3, 5)))


def chroma(css: str) -> float:
    """How colourful an opaque colour is: its channels' spread, 0 for a grey, 1 for a pure hue."""
    channels = rgb(css)
    return (max(channels) - min(channels)) / 255


def opening(page: Page, server: Server) -> None:
    """Ana's table against a bot, at the opening (nothing redraws the board until she plays)."""
    seated(page, server.base, room(server, [{"name": "Ana"}, {"bot": "greedy"}]))
    page.wait_for_selector(".mine button.card.playable")


@pytest.mark.parametrize("colours", SCHEMES)
def test_a_face_shows_its_value_in_the_middle_and_in_two_corners_4_5_to_1_against_it(
    server: Server, browser: Browser, problems: list[str], colours: str
) -> None:
    page = open_page(browser, DESKTOP, problems)
    opening(page, server)
    scheme(page, colours)
    seen = page.evaluate(EVERY_FACE)
    assert [face["text"] for face in seen["faces"]] == [str(v) for v in range(-2, 13)] * 2
    for face in seen["faces"]:
        value = f'"{face["value"]}"'
        for corner in (face["before"], face["after"]):
            assert corner["content"] == value and corner["display"] != "none", face
            assert corner["color"] == face["color"], face  # the face's own ink...
            assert contrast(corner["color"], face["background"]) >= 4.5, face  # ...legible
            assert 8 <= corner["size"] <= face["size"] / 2, face  # small beside the middle
        assert face["before"]["transform"] == "none"
        assert face["after"]["transform"].startswith("matrix(-1, "), face  # upside down
        assert face["image"] == "none" and contrast(face["color"], face["background"]) >= 4.5
        assert face["radius"] > 0 and "rgba(0, 0, 0" in face["shadow"], face  # a card's lift
    tiny = seen["tiny"]
    assert tiny["before"]["display"] == "none" and tiny["after"]["display"] == "none", tiny


@pytest.mark.parametrize("colours", SCHEMES)
def test_the_back_is_one_quiet_colour_with_a_frame_and_an_emblem_unlike_any_face(
    server: Server, browser: Browser, problems: list[str], colours: str
) -> None:
    page = open_page(browser, DESKTOP, problems)
    opening(page, server)
    scheme(page, colours)
    seen = page.evaluate(EVERY_FACE)
    back = seen["back"]
    assert back["image"] == "none", back  # no stripes: one colour
    assert back["text"] == "" and back["before"]["content"] != '"7"', back
    assert back["frame"]["style"] == "solid" and back["frame"]["border"] >= 1, back
    emblem = back["emblem"]
    assert emblem["width"] > 4 and emblem["height"] > 4 and emblem["border"] >= 1, back
    assert emblem["transform"].startswith("matrix("), back  # a diamond: a turned square
    # a neutral back among coloured faces
    assert chroma(back["background"]) < 0.15, back["background"]
    faces = {face["background"] for face in seen["faces"]}
    assert len(faces) == 5 and all(chroma(face) > 0.25 for face in faces), faces


@pytest.mark.parametrize("colours", SCHEMES)
def test_the_table_is_felt_lit_in_the_middle_and_every_word_on_it_stays_4_5_to_1(
    server: Server, browser: Browser, problems: list[str], colours: str
) -> None:
    page = open_page(browser, SCREENS["phone"], problems)
    opening(page, server)
    scheme(page, colours)
    felt = page.evaluate(FELT)
    assert felt["image"].startswith("radial-gradient("), felt
    shades = re.findall(r"rgb\(\d+, \d+, \d+\)", felt["image"])
    assert len(shades) >= 3 and len(set(shades)) >= 3, felt  # lit middle, felt, rim
    assert felt["colour"] in shades, felt
    for words in [*felt["words"], hex_rgb(felt["turn"])]:
        for shade in shades:
            assert contrast(words, shade) >= 4.5, (words, shade)


# --- the travels ---------------------------------------------------------------------------

#: Notes every travelling copy the page adds (`window.ghosts`: where from, where to, its
#: animation's name and state); pauses every animation made while `window.freezeMotion`.
WATCH_TRAVEL = """
window.ghosts = [];
new MutationObserver((records) => {
  for (const record of records) for (const node of record.addedNodes) {
    if (!(node instanceof Element) || !node.classList.contains("ghost")) continue;
    window.ghosts.push({from: node.dataset.from, to: node.dataset.to,
      hidden: node.getAttribute("aria-hidden"), pointer: getComputedStyle(node).pointerEvents,
      flights: node.getAnimations().map((a) => `${a.id}:${a.playState}`)});
  }
}).observe(document, {childList: true, subtree: true});
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  const animation = animate.apply(this, args);
  if (window.freezeMotion) animation.pause();
  return animation;
};
"""

#: The card in hand as the board shows it: its label, its opacity, its animations.
HELD = """() => {
  const held = document.querySelector("[data-key=pile-held]");
  return {label: held.getAttribute("aria-label"), opacity: getComputedStyle(held).opacity,
          flights: held.getAnimations().map((a) => a.id)};
}"""


def ghosts(page: Page) -> list[dict]:
    return page.evaluate("() => window.ghosts")


def turn_up_two(page: Page) -> None:
    for _ in range(2):
        page.wait_for_selector(".mine button.card.playable")
        click_and_wait(page, ".mine button.card.playable")


def my_draw(page: Page) -> None:
    """Wait for my turn to draw (the bot may play first): the focus is on the draw pile."""
    page.wait_for_selector(MY_TURN)
    page.wait_for_selector("[data-key=choice-draw]")
    page.wait_for_function("() => document.activeElement?.dataset?.key === 'pile-draw'")


def test_a_drawn_card_travels_to_the_hand_and_the_exchanged_one_to_the_discard_at_no_delay(
    server: Server, browser: Browser, problems: list[str]
) -> None:
    page = open_page(browser, DESKTOP, problems, still=False)
    page.context.add_init_script(WATCH_TRAVEL)
    start_against_bots(page, server.base, 1, target=400)
    turn_up_two(page)
    my_draw(page)
    page.evaluate("() => { window.freezeMotion = true; window.ghosts = []; }")
    press_and_wait(page, "Enter")  # draw: the card travels from the draw pile to the hand
    drew = ghosts(page)
    assert [(g["from"], g["to"]) for g in drew] == [("pile-draw", "pile-held")], drew
    assert drew[0]["flights"] == ["travel:paused"], drew  # in flight (held at its start)...
    assert drew[0]["hidden"] == "true" and drew[0]["pointer"] == "none", drew  # ...untouchable
    held = page.evaluate(HELD)
    assert held["label"].startswith("In hand: "), held  # the state is on the board already
    assert held["opacity"] == "0" and held["flights"] == ["travel-hidden"], held  # once, not twice
    assert page.evaluate(IN_MY_GRID), focused(page)  # and the focus went on to your grid
    swap = focused(page)
    press_and_wait(page, "Enter")  # the next move, taken while the card is still in flight
    placed = [(g["from"], g["to"]) for g in ghosts(page)[1:3]]
    assert placed == [("pile-held", swap), (swap, "pile-discard")], ghosts(page)
    assert focused(page) in (swap, "pile-draw")  # the card played, or your next turn's pile
    my_draw(page)  # the bot played: its card went to the discard pile too
    landed = [g for g in ghosts(page) if g["to"] == "pile-discard"]
    assert len(landed) >= 2, ghosts(page)
    page.evaluate("() => document.getAnimations().forEach((a) => a.finish())")
    page.wait_for_function("() => !document.querySelector('.ghost')")  # each copy lands, gone


def test_no_card_travels_under_reduced_motion(
    server: Server, browser: Browser, problems: list[str]
) -> None:
    page = open_page(browser, DESKTOP, problems, still=True)
    page.context.add_init_script(WATCH_TRAVEL)
    start_against_bots(page, server.base, 1, target=400)
    turn_up_two(page)
    my_draw(page)
    press_and_wait(page, "Enter")
    assert page.evaluate("() => document.getAnimations().length") == 0
    held = page.evaluate(HELD)
    assert held["opacity"] == "1" and held["flights"] == [], held
    press_and_wait(page, "Enter")
    my_draw(page)
    assert ghosts(page) == []
    assert page.evaluate("() => document.getAnimations().length") == 0


#: motion.js alone, on a board of its own (four cards at known places): a bot's card drawn
#: and placed before a frame showed it in hand, the board before holding an older card in
#: hand; then the same board drawn again with a card in hand. The copies that flew.
BURST = """async () => {
  const { motionsOf, places, fly } = await import("/static/motion.js");
  const board = (keys) => {
    const root = document.createElement("div");
    keys.forEach(([key, left]) => {
      const card = document.createElement("span");
      card.className = "card low";
      card.dataset.key = key;
      card.style.position = "fixed";
      card.style.left = `${left}px`;
      card.style.top = "100px";
      root.append(card);
    });
    return root;
  };
  const piles = [["pile-draw", 0], ["pile-discard", 100]];
  const root = board([...piles, ["pile-held", 200], ["cell-1-3", 300]]);
  document.body.append(root);
  const before = {source: null}, drawing = {source: "deck"};
  const motions = [
    ...motionsOf([{kind: "drew", player: 1}], before, drawing),
    ...motionsOf([{kind: "exchanged", player: 1, position: [0, 3]}], drawing, before),
  ];
  const flown = () => [...document.querySelectorAll(".ghost")]
    .map((ghost) => `${ghost.dataset.from}>${ghost.dataset.to}`);
  let first = places(root, motions);
  root.replaceChildren(...board([...piles, ["cell-1-3", 300]]).children);
  fly(root, motions, first, () => null);
  const burst = flown();
  first = places(root, motions);
  root.replaceChildren(...board([...piles, ["pile-held", 200], ["cell-1-3", 300]]).children);
  fly(root, motions, first, () => null);
  const again = flown();
  root.remove();
  return {burst, again};
}"""


def frozen_front_page(browser: Browser, server: Server, problems: list[str]) -> Page:
    """The front page, its travels watched (`WATCH_TRAVEL`) and held at their start: where
    motion.js's own pieces are run on boards a test makes."""
    page = open_page(browser, DESKTOP, problems, still=False)
    page.context.add_init_script(WATCH_TRAVEL)
    page.goto(server.base)
    page.wait_for_selector(".solo")
    page.evaluate("() => { window.freezeMotion = true; }")
    return page


def test_a_card_drawn_and_placed_within_one_frame_travels_from_its_pile_once(
    server: Server, browser: Browser, problems: list[str]
) -> None:
    seen = frozen_front_page(browser, server, problems).evaluate(BURST)
    # from the draw pile, not from the older card in hand; its draw to the hand never flies
    assert seen["burst"] == ["pile-draw>cell-1-3", "cell-1-3>pile-discard"], seen
    assert seen["again"] == seen["burst"], seen  # a board drawn again flies nothing more


#: motion.js alone: a card placed where its column was then cleared (the step's events:
#: exchanged, column_cleared). The copy that flew to the cleared place, and that place.
CLEARED = """async () => {
  const { motionsOf, places, fly } = await import("/static/motion.js");
  const { card } = await import("/static/board.js");
  const place = (key, left, value) => {
    const shown = card(value, {label: key, key});
    shown.style.position = "fixed";
    shown.style.left = `${left}px`;
    shown.style.top = "100px";
    return shown;
  };
  const root = document.createElement("div");
  root.append(place("pile-held", 0, 5), place("cell-0-3", 200, 7), place("pile-discard", 400, 3));
  document.body.append(root);
  const events = [{kind: "exchanged", player: 0, position: [0, 3], card: 5, cards: [7]},
                  {kind: "column_cleared", player: 0, position: [0, 3], card: 5, cards: [5, 5, 5]}];
  const motions = motionsOf(events, {source: "deck"}, {source: null});
  const first = places(root, motions);
  root.replaceChildren(place("cell-0-3", 200, "x"), place("pile-discard", 400, 5));
  fly(root, motions, first, (value) => card(value, {label: ""}));
  const ghost = document.querySelector(".ghost[data-to='cell-0-3']");
  const slot = document.querySelector("[data-key='cell-0-3']");
  const seen = {ghost: ghost && {look: ghost.className, value: ghost.dataset.value},
                slot: slot.getAnimations().map((a) => a.id)};
  root.remove();
  return seen;
}"""


def test_a_card_placed_in_a_column_then_cleared_flies_as_itself_to_the_cleared_place(
    server: Server, browser: Browser, problems: list[str]
) -> None:
    seen = frozen_front_page(browser, server, problems).evaluate(CLEARED)
    assert seen["ghost"] == {"look": "card ghost mid", "value": "5"}, seen  # the 5 placed
    assert seen["slot"] == [], seen  # the cleared place stays in view
