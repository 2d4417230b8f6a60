"""The rules page (`/rules`: static/rules.html, rules.js and its words, rules-i18n.js).
Its worked examples and pictures are the engine's own scoring (skyjo.scoring, RULES.md
4); served as a page (facts in, out of /openapi.json); in a real browser (Playwright
driving Debian's chromium against `skyjo serve`) it shows each language's headings, in
order, with no axe violation in light and dark at a phone's and a laptop's size, its
skip link lands on the rules, its pictures' cards are the table's colour families; the
front page, the lobby and a game's room panel link to it (and it leads back to the
game); and after one visit it opens offline. Screenshots go to tests/web/artifacts/.
Every wait is on a condition of the page, never on time."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from browsing import SCREENS, open_page
from i18n_js import run_js
from liveserver import Server
from playwright.sync_api import Browser, Page, expect
from starlette.testclient import TestClient
from test_browser_a11y import audit, report, room, seated
from test_offline_browser import go_offline, visit
from test_offline_browser import open_page as open_offline_page

from skyjo.rules import CARD_VALUES, DEFAULT_TARGET_SCORE
from skyjo.scoring import score_grid, score_round
from skyjo.web import app as web_app

WORDS = Path(web_app.__file__).parent / "static" / "rules-i18n.js"
LOCALES = {"en": "en-US", "es": "es-ES", "fr": "fr-FR", "de": "de-DE"}
#: The page's headings in each language, in order, with their level.
HEADINGS = {
    "en": [
        (1, "The rules of Skyjo"),
        (2, "The cards"),
        (2, "The deal"),
        (3, "Who starts"),
        (2, "A turn"),
        (2, "Clearing a column"),
        (2, "The round's end"),
        (3, "When the ender's score is doubled"),
        (2, "The game's end"),
    ],
    "es": [
        (1, "Las reglas de Skyjo"),
        (2, "Las cartas"),
        (2, "El reparto"),
        (3, "Quién empieza"),
        (2, "Un turno"),
        (2, "Eliminar una columna"),
        (2, "El final de la ronda"),
        (3, "Cuándo se duplica la puntuación de quien cierra"),
        (2, "El final de la partida"),
    ],
    "fr": [
        (1, "Les règles du Skyjo"),
        (2, "Les cartes"),
        (2, "La donne"),
        (3, "Qui commence"),
        (2, "Un tour"),
        (2, "Éliminer une colonne"),
        (2, "La fin de la manche"),
        (3, "Quand le score de celui qui termine est doublé"),
        (2, "La fin de la partie"),
    ],
    "de": [
        (1, "Die Spielregeln von Skyjo"),
        (2, "Die Karten"),
        (2, "Das Austeilen"),
        (3, "Wer beginnt"),
        (2, "Ein Zug"),
        (2, "Eine Spalte abräumen"),
        (2, "Das Ende der Runde"),
        (3, "Wann die Punkte dessen, der beendet, verdoppelt werden"),
        (2, "Das Ende des Spiels"),
    ],
}
#: The page's name in the tab's title.
TITLE = {"en": "Rules", "es": "Reglas", "fr": "Règles", "de": "Regeln"}
#: The sentence of the ender's penalty in each language (RULES.md 2.10, default rules).
DOUBLED = {
    "en": "If the ender's score is above 0 and any other player's score is equal to it or lower",
    "es": "Si la puntuación de quien cierra es mayor que 0 y la de cualquier otro jugador",
    "fr": "Si le score de celui qui a terminé la manche est supérieur à 0",
    "de": "Hat, wer die Runde beendet, mehr als 0 Punkte",
}
HEADINGS_JS = """() => [...document.querySelectorAll('main h1, main h2, main h3, main h4')]
  .map((el) => [Number(el.tagName[1]), el.textContent])"""
#: Per colour family on the page, the faces (background) of its cards.
FACES_JS = """() => [...document.querySelectorAll('[data-key=families] li')].map((li) => ({
  family: li.dataset.family,
  values: [...li.querySelectorAll('.card')].map((c) => Number(c.textContent)),
  faces: [...li.querySelectorAll('.card')].map((c) => {
    const s = getComputedStyle(c);
    return `${s.backgroundColor} ${s.backgroundImage}`;
  }),
}))"""


# --- the page and its facts -------------------------------------------------------------------


def test_the_page_is_served_with_the_server_s_facts_and_is_not_part_of_the_api(
    client: TestClient,
) -> None:
    response = client.get("/rules")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert response.headers["cache-control"] == "no-cache"
    assert '<script type="module" src="/static/rules.js"></script>' in response.text
    facts = '"name":"target_score","key":"target","default":100,"min":1,"max":1000'
    assert facts in response.text  # the facts
    assert '<a id="skip" class="skip-link" href="#main">' in response.text
    assert "/rules" not in client.get("/openapi.json").json()["paths"]


def test_the_worked_examples_are_what_the_engine_scores() -> None:
    """Each example of the ender's penalty is scored by skyjo.scoring as the page says
    (default rules), and covers the four cases of RULES.md 2.10: doubled, doubled on a
    tie, the lowest alone, a score at or below 0."""
    examples = run_js(WORDS, "mod.EXAMPLES")
    assert [example["kind"] for example in examples] == ["doubled", "tie", "lowest", "negative"]
    for example in examples:
        scored = score_round(example["raw"], example["ender"], "positive")
        assert scored.scores == example["writes"], example
        assert scored.doubled == (example["kind"] in ("doubled", "tie")), example
        others = [v for name, v in example["raw"].items() if name != example["ender"]]
        mine = example["raw"][example["ender"]]
        if example["kind"] == "tie":
            assert min(others) == mine
        if example["kind"] == "negative":
            assert mine <= 0 and min(others) < mine  # not the lowest, and still not doubled


def test_the_cleared_column_picture_is_what_the_engine_scores() -> None:
    grid = run_js(WORDS, "mod.CLEARED_GRID")
    scored = score_grid(grid["rows"])
    cleared = [column.index for column in scored.columns if column.cleared]
    assert cleared == [grid["column"]]
    kept = [column.score for column in scored.columns if not column.cleared]
    assert kept == grid["scores"]
    assert scored.total == grid["total"] == 14  # RULES.md 4's first example


def test_the_colour_families_cover_every_card_value_once_in_order() -> None:
    families = run_js(WORDS, "mod.FAMILIES")
    assert [value for family in families for value in family["values"]] == sorted(CARD_VALUES)


def test_the_sentences_word_the_examples_numbers_in_each_language() -> None:
    """The examples' sentences carry their numbers (negative ones with a minus sign) and
    names, in every language; the cleared grid's caption its scores and worth."""
    said = "[mod.EXAMPLES.map(mod.exampleText), mod.clearedText()]"
    for language in LOCALES:
        examples, cleared = run_js(WORDS, said, saved=language)
        assert "Cleo" in examples[0] and "14" in examples[0] and "28" in examples[0]
        assert "Ben" in examples[1] and "10" in examples[1]
        assert "\u22123" in examples[3] and "\u22125" in examples[3] and "-3" not in examples[3]
        assert "4, 3" in cleared and "7" in cleared and "14" in cleared, (language, cleared)


# --- in a browser -----------------------------------------------------------------------------


def rules_page(browser: Browser, server: Server, language: str, problems: list[str]) -> Page:
    """/rules in a fresh page whose browser speaks `language`, at a laptop's size."""
    context = browser.new_context(
        viewport=SCREENS["desktop"], locale=LOCALES[language], reduced_motion="reduce"
    )
    page = context.new_page()
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    page.on("console", lambda m: m.type == "error" and problems.append(f"console: {m.text}"))
    page.goto(f"{server.base}/rules")
    page.wait_for_selector("main h1")
    return page


@pytest.mark.parametrize("language", list(LOCALES))
def test_the_page_in_each_language_has_its_headings_in_order_and_no_violation(
    browser: Browser, server: Server, problems: list[str], artifacts: Path, language: str
) -> None:
    page = rules_page(browser, server, language, problems)
    assert page.evaluate("document.documentElement.lang") == language
    headings = [tuple(heading) for heading in page.evaluate(HEADINGS_JS)]
    assert headings == HEADINGS[language]
    levels = [level for level, _ in headings]
    assert all(b <= a + 1 for a, b in pairwise(levels))  # none skipped
    expect(page.locator("[data-key=double-rule]")).to_contain_text(DOUBLED[language])
    expect(page.locator("#game-end")).to_contain_text(str(DEFAULT_TARGET_SCORE))
    assert page.title() == f"Skyjo · {TITLE[language]}"
    # the pictures are decorative, their meaning said beside them
    pictures = page.locator(".rules-pic")
    assert pictures.count() >= 9  # five families, the deal, the piles, before and after
    for i in range(pictures.count()):
        expect(pictures.nth(i)).to_have_attribute("aria-hidden", "true")
    captions = page.locator("figure figcaption")
    assert captions.count() == 4
    for i in range(captions.count()):
        assert captions.nth(i).inner_text().strip()
    found: dict[str, Any] = {}
    audit(page, f"rules-{language}", found, artifacts, light=True)
    assert not found, report(found)
    page.context.close()


def test_the_skip_link_lands_on_the_rules_and_the_language_switch_rewords_them(
    browser: Browser, server: Server, problems: list[str]
) -> None:
    page = rules_page(browser, server, "en", problems)
    page.keyboard.press("Tab")
    expect(page.locator("#skip")).to_be_focused()
    expect(page.locator("#skip")).to_have_text("Skip to the rules")
    page.keyboard.press("Enter")
    expect(page.locator("main h1")).to_be_focused()
    page.select_option("#language", "fr")
    expect(page.locator("#round-end h2")).to_have_text("La fin de la manche")
    expect(page.locator("#skip")).to_have_text("Aller aux règles")
    page.context.close()


def test_the_pictures_cards_are_the_table_s_colour_families(
    browser: Browser, server: Server, problems: list[str]
) -> None:
    """Each family's cards share one face, and the five families' faces differ; the
    pictures' cards are the table's (a face-down card and the cleared column too)."""
    page = rules_page(browser, server, "en", problems)
    families = page.evaluate(FACES_JS)
    assert [family["family"] for family in families] == ["neg", "zero", "low", "mid", "high"]
    assert [v for family in families for v in family["values"]] == sorted(CARD_VALUES)
    faces = [set(family["faces"]) for family in families]
    assert all(len(face) == 1 for face in faces), faces
    assert len(set().union(*faces)) == 5, faces
    assert page.locator("[data-key=deal-picture] .card.down").count() == 10
    assert page.locator("[data-key=column-after] .card.cleared").count() == 3
    page.context.close()


def test_the_front_page_the_lobby_and_the_game_s_room_panel_lead_to_the_rules(
    browser: Browser, server: Server, problems: list[str], artifacts: Path
) -> None:
    page = open_page(browser, SCREENS["phone"], problems)
    page.goto(server.base)
    page.click("[data-key=rules-link]")
    expect(page.locator("main h1")).to_have_text("The rules of Skyjo")
    assert page.url == f"{server.base}/rules"
    expect(page.locator("[data-key=rules-back]")).to_have_text("Back to the front page")
    expect(page.locator("[data-key=rules-back]")).to_have_attribute("href", "/")
    # the lobby (here its host's page)
    friends = room(server, [{"name": "Ana"}, {"name": None}], lobby=True)
    seated(page, server.base, friends)
    page.wait_for_selector(".lobby [data-key=lobby-code]")
    page.click(".lobby [data-key=rules-link]")
    expect(page.locator("main h1")).to_have_text("The rules of Skyjo")
    expect(page.locator("[data-key=rules-back]")).to_have_attribute("href", f"/r/{friends['code']}")
    # a game: the room's panel (a drawer behind the "Room" tab on a phone) ...
    game = room(server, [{"name": "Ana"}, {"bot": "greedy"}])
    seated(page, server.base, game)
    page.wait_for_selector(".mine .grid.large")
    page.click("[data-key=tab-room]")
    page.locator(".room-info [data-key=rules-link]").click()
    expect(page.locator("main h1")).to_have_text("The rules of Skyjo")
    page.screenshot(path=artifacts / "rules-from-game-phone.png")
    # ... and back to the game
    back = page.locator("[data-key=rules-back]")
    expect(back).to_have_text("Back to the game")
    back.click()
    page.wait_for_selector(".mine .grid.large")
    assert page.url == f"{server.base}/r/{game['code']}"
    # on a laptop the room's panel is in view beside the table
    page.set_viewport_size(SCREENS["desktop"])
    link = page.locator(".room-info [data-key=rules-link]")
    expect(link).to_be_visible()
    expect(link).to_have_attribute("href", f"/rules?back={game['code']}")
    # a spectator goes back to watching, not to the room's join page
    page.goto(f"{server.base}/r/{game['code']}?watch")
    link = page.locator(".room-info [data-key=rules-link]")
    expect(link).to_have_attribute("href", f"/rules?back={game['code']}&watch")
    link.click()
    expect(page.locator("[data-key=rules-back]")).to_have_attribute(
        "href", f"/r/{game['code']}?watch"
    )
    page.context.close()


def test_the_rules_open_offline_after_one_visit(
    browser: Browser, server: Server, problems: list[str], artifacts: Path
) -> None:
    """Opened once online, /rules opens again with no connection (a reload, and in
    French); and the front page's link leads to it offline, kept when the worker
    installed, not only when visited."""
    page = open_offline_page(browser, SCREENS["phone"], problems, token=False)
    context = visit(page, f"{server.base}/rules")
    go_offline(context)
    page.reload()
    expect(page.locator("main h1")).to_have_text("The rules of Skyjo")
    assert page.locator(".rules-pic .card").count() > 30
    page.select_option("#language", "fr")
    expect(page.locator("#round-end h2")).to_have_text("La fin de la manche")
    page.reload()  # French is remembered, and the page is still there
    expect(page.locator("#round-end h2")).to_have_text("La fin de la manche")
    page.screenshot(path=artifacts / "rules-offline-phone.png")
    context.close()
    # a first visit to the front page keeps the rules too
    page = open_offline_page(browser, SCREENS["desktop"], problems, token=False)
    context = visit(page, server.base)
    go_offline(context)
    page.goto(server.base)
    page.click("[data-key=rules-link]")
    expect(page.locator("main h1")).to_have_text("The rules of Skyjo")
    context.close()
