"""French and German in a real browser: the browser's language picks them, the
header's language menu offers all four and fits a 360 px phone; a game during your
turn, the lobby and a scorepad sheet are written in the language, and none of their
words is cut (a button, a tab, the prompt, a pile's caption, a select) on a phone, the
phone turned or a laptop. Screenshots of a game go to tests/web/artifacts/lang-*.png.
Every wait is on a condition of the page, never on time."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from browsing import KEEP_SOCKETS, SCREENS, TABLE, click_and_wait, on_one_screen
from liveserver import Server
from playwright.sync_api import Browser, BrowserContext, Page, expect
from test_browser_a11y import AXE

LOCALES = {"fr": "fr-FR", "de": "de-AT"}
NARROW = {"width": 360, "height": 740}
#: What a game during your turn says, by language.
TURN = {
    "fr": {
        "prompt": "À toi de jouer\u00a0: prends la carte de la défausse ou pioche une carte",
        "draw": "Piocher une carte",
        "take": r"Prendre le -?\d+",
        "flip": "Défausser et retourner",
        "tabs": ["Points", "Journal", "Chat", "Salle"],
        "bots": ["Bot glouton", "Bot glouton 2"],  # "Greedy bot", "Greedy bot 2" in English
        "title": "Chez Zoë",  # the server's default title, "Zoë's table", in French
    },
    "de": {
        "prompt": "Du bist dran: Nimm die Karte vom Ablagestapel oder zieh eine",
        "draw": "Karte ziehen",
        "take": r"Die -?\d+ nehmen",
        "flip": "Ablegen und aufdecken",
        "tabs": ["Punkte", "Verlauf", "Chat", "Raum"],
        "bots": ["Bot Gierig", "Bot Gierig 2"],
        "title": "Bei Zoë",
    },
}
#: Words that must show whole: the moves, the prompt, the tabs, the piles' captions,
#: the seats' tallies, the header and its language menu.
WORDS = [".choice", ".prompt", ".tab", ".piles figcaption", ".seat .tally", ".top", "select"]

CUT = """(selectors) => {
  const cut = [];
  const measure = document.createElement("canvas").getContext("2d");
  for (const selector of selectors) {
    for (const el of document.querySelectorAll(selector)) {
      const box = el.getBoundingClientRect();
      if (!box.width) continue;  // not shown at this size (a drawer's tab on a laptop)
      const style = getComputedStyle(el);
      let over = el.scrollWidth - el.clientWidth;
      if (el.tagName === "SELECT") {  // the chosen option's words, beside the arrow (16 px)
        measure.font = style.font;
        const words = measure.measureText(el.selectedOptions[0]?.text ?? "").width;
        const padding = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
        over = words - (el.clientWidth - padding - 16);
      }
      if (over > 1 || box.right > innerWidth + 0.5 || box.left < -0.5) {
        cut.push(`${selector}: ${el.textContent.trim().slice(0, 60)} (${Math.round(over)} px)`);
      }
    }
  }
  return cut;
}"""


def nothing_cut(page: Page, selectors: list[str]) -> None:
    assert page.evaluate(CUT, selectors) == []


def in_language(browser: Browser, language: str, problems: list[str]) -> BrowserContext:
    """A browser whose language is French (France) or German (Austria), nothing saved."""
    context = browser.new_context(
        viewport=SCREENS["phone"], locale=LOCALES[language], reduced_motion="reduce"
    )
    context.on("page", lambda page: page.on("pageerror", lambda e: problems.append(str(e))))
    return context


@pytest.mark.parametrize("language", ["fr", "de"])
def test_a_game_during_your_turn_in_french_and_german(
    server: Server, browser: Browser, problems: list[str], artifacts: Path, language: str
) -> None:
    words = TURN[language]
    context = in_language(browser, language, problems)
    page = context.new_page()
    page.goto(server.base)
    assert page.get_attribute("html", "lang") == language  # the browser's language chose it
    page.click("[data-key=count-2]")
    page.fill("#your-name", "Zoë")
    page.click("[data-key=start]")
    page.wait_for_selector(".mine .grid.large")
    for _ in range(2):  # turn up two cards
        page.wait_for_selector(".mine button.card.playable")
        click_and_wait(page, ".mine button.card.playable")
    page.wait_for_selector("[data-key=choice-draw]")
    expect(page.locator(".prompt")).to_have_text(words["prompt"])
    expect(page.locator("[data-key=choice-draw]")).to_have_text(words["draw"])
    expect(page.locator("[data-key=choice-take]")).to_have_text(re.compile(words["take"]))
    assert page.locator(".tab").all_inner_texts() == words["tabs"]
    # the bots' names, the level's word in the page's language, say what a badge would
    assert page.locator(".seat:not(.large) h2 .name").all_inner_texts() == words["bots"]
    assert page.locator(".seat:not(.large) .badge").count() == 0
    expect(page.locator(".room-head h1")).to_have_text(words["title"])
    assert page.title() == f"Skyjo · {words['title']}"
    expect(page.locator("#announce")).to_contain_text(words["bots"][0])  # the region's too
    manifest = page.get_attribute("link[rel=manifest]", "href")
    assert manifest == f"/manifest.{language}.webmanifest"
    assert page.request.get(server.base + manifest).json()["lang"] == language
    for screen, size in SCREENS.items():
        page.set_viewport_size(size)
        on_one_screen(page, TABLE)
        nothing_cut(page, WORDS)
        if screen != "turned":
            page.screenshot(path=artifacts / f"lang-{language}-{screen}.png")
    page.set_viewport_size(SCREENS["phone"])
    click_and_wait(page, "[data-key=choice-draw]")
    if page.locator("[data-key=choice-flip]").count():  # not when the deck's last card came
        expect(page.locator("[data-key=choice-flip]")).to_have_text(words["flip"])
    for size in SCREENS.values():
        page.set_viewport_size(size)
        on_one_screen(page, [*TABLE, ".held .card"])
        nothing_cut(page, WORDS)
    context.close()


LOBBY = {
    "fr": (
        "Invite tes amis",
        "Personne n'a encore pris la place 2.",
        "Retirer la place",
        "Chez Ana",
    ),
    "de": ("Lade deine Freunde ein", "Platz 2 ist noch frei.", "Platz entfernen", "Bei Ana"),
}
#: axe-core's check that a control's accessible name holds its visible words (WCAG 2.5.3;
#: an experimental rule of axe, run by name: the WCAG tags do not run it).
LABEL_IN_NAME = """() => axe.run(document, {
  runOnly: {type: 'rule', values: ['label-content-name-mismatch']}, resultTypes: ['violations'],
}).then((result) => result.violations.flatMap((v) => v.nodes.map((n) => n.target.join(' '))))"""
PAD = {
    "fr": ("Feuille de score", "Enregistrer la manche 1", "Pénalité de qui termine la manche"),
    "de": ("Punkteblock", "Runde 1 speichern", "Strafe fürs Beenden der Runde"),
}


@pytest.mark.parametrize("language", ["fr", "de"])
def test_the_lobby_and_the_scorepad_in_french_and_german_on_a_narrow_phone(
    server: Server, browser: Browser, problems: list[str], language: str
) -> None:
    context = in_language(browser, language, problems)
    room = server.post("/api/rooms", {"seats": [{"name": "Ana"}, {"name": None}]})
    context.add_init_script(  # the host's seat (not on the first about:blank)
        f"location.protocol === 'http:' && localStorage.setItem("
        f"'skyjo:seat:{room['code']}', JSON.stringify({{token: '{room['token']}', seat: 0}}))"
    )
    page = context.new_page()
    page.set_viewport_size(NARROW)
    page.goto(f"{server.base}/r/{room['code']}")
    page.wait_for_selector(".lobby")
    invite, empty, drop, title = LOBBY[language]
    expect(page.locator(".lobby-invite h2")).to_have_text(invite)
    expect(page.locator("[data-key=lobby-empty]")).to_have_text(empty)
    expect(page.locator("[data-key=lobby-drop-1]")).to_have_text(drop)
    expect(page.locator(".lobby h1")).to_have_text(title)  # the room was made with no title
    page.evaluate(AXE.read_text())
    assert page.evaluate(LABEL_IN_NAME) == []  # "Platz entfernen: Ana" names "Platz entfernen"
    nothing_cut(page, ["button", "select", ".top", ".lobby-seat *"])
    name, save, penalty = PAD[language]
    page.goto(f"{server.base}/scorepad")
    page.wait_for_selector("[data-key=new-title]")
    assert page.locator("label", has_text=penalty).count() == 1
    page.fill("[data-key=new-title]", "Soirée")
    for i, player in enumerate(["Ana", "Ben", "Cleo"]):
        page.fill(f"[data-key=new-player-{i}]", player)
    page.click("[data-key=create]")
    page.wait_for_selector("[data-key=round-form]")
    expect(page.locator(".top .pad-name")).to_have_text(name)
    expect(page.locator("[data-key=save-round]")).to_have_text(save)
    nothing_cut(page, ["button", "select", ".top", ".pad-sheet-page th"])
    context.close()


def test_the_header_s_language_menu_offers_four_languages_on_a_narrow_phone(
    server: Server, browser: Browser, problems: list[str]
) -> None:
    context = in_language(browser, "de", problems)
    page = context.new_page()
    page.set_viewport_size(NARROW)
    page.goto(server.base)
    menu = page.locator("#language")
    assert menu.locator("option").all_inner_texts() == ["English", "Español", "Français", "Deutsch"]
    expect(menu).to_have_value("de")
    nothing_cut(page, [".top", ".top *"])
    expect(page.locator("h2#solo-title")).to_have_text("Gegen Bots spielen")
    menu.select_option("fr")
    expect(page.locator("h2#solo-title")).to_have_text("Jouer contre des bots")
    assert page.get_attribute("html", "lang") == "fr"
    nothing_cut(page, [".top", ".top *"])
    page.reload()  # the choice is kept over the browser's German
    expect(page.locator("#language")).to_have_value("fr")
    context.close()


#: An illegal move's refusal, by language: Zoë draws before turning up her two cards,
#: then turns up row 2, column 3 a second time (the engine's 0-based [1, 2]).
ILLEGAL = {
    "fr": (
        "Refusé\u00a0: Tu dois d'abord retourner deux cartes, pas piocher une carte",
        "Refusé\u00a0: Tu ne peux pas retourner la carte en ligne 2, colonne 3\u00a0: elle est"
        " déjà face visible",
    ),
    "de": (
        "Abgelehnt: Du musst zuerst zwei Karten aufdecken und kannst nicht eine Karte ziehen",
        "Abgelehnt: Du kannst die Karte in Zeile 2, Spalte 3 nicht aufdecken: Sie liegt schon"
        " offen",
    ),
}


@pytest.mark.parametrize("language", ["fr", "de"])
def test_an_illegal_move_is_refused_in_the_page_s_language_and_the_cards_words(
    server: Server, browser: Browser, problems: list[str], artifacts: Path, language: str
) -> None:
    """The engine's kind of an illegal move, worded by the page: in the second person,
    the card by row and column from 1 as its label says, the move by name. Screenshots:
    lang-<language>-illegal-phone.png and -desktop.png."""
    context = in_language(browser, language, problems)
    context.add_init_script(KEEP_SOCKETS)
    page = context.new_page()
    page.goto(server.base)
    page.click("[data-key=count-1]")
    page.fill("#your-name", "Zoë")
    page.click("[data-key=start]")
    page.wait_for_selector(".mine button.card.playable")  # Zoë turns up her cards first
    refusal = page.locator(".status .error")
    send = "(action) => window.sockets.at(-1).send(JSON.stringify({type: 'move', action}))"
    page.evaluate(send, 12)  # draw
    expect(refusal).to_have_text(ILLEGAL[language][0])
    click_and_wait(page, "[data-key=cell-0-6]")  # row 2, column 3
    page.evaluate(send, 6)  # the same card again
    expect(refusal).to_have_text(ILLEGAL[language][1])
    label = page.get_attribute("[data-key=cell-0-6]", "aria-label") or ""
    assert ("ligne 2, colonne 3" if language == "fr" else "Zeile 2, Spalte 3") in label
    for screen in ("phone", "desktop"):
        page.set_viewport_size(SCREENS[screen])
        nothing_cut(page, [".status .error"])
        page.screenshot(path=artifacts / f"lang-{language}-illegal-{screen}.png")
    context.close()
