"""The web scorepad at a real table (issue 29), in a real browser: a round is saved by
Save only, after its preview; a grid being typed is progress, not an error; every
sentence counts rows and columns from 1, in English and Spanish; after the game's end
the page says who won, not what is left to go; at 1280x800 the sheet and the round's
form are both in view; the focused field stays in view when the viewport shrinks (a
phone's keyboard) and above the page's keypad; the form's buttons hold their text in
both languages; the chart's target label is clear of the lines. Screenshots go to
tests/web/artifacts/. Every wait is on a condition of the page, never on time."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

from browsing import DESKTOP, PHONE, SCREENS, SMALL
from liveserver import Server
from playwright.sync_api import Browser, Page, expect
from test_scorepad_browser import (
    GRID_14,
    WORKED,
    api,
    create_sheet,
    expected_refusals,
    focused,
    keypad_type,
    open_page,
    revision,
    saved_after,
    table_scores,
)

from skyjo.scorepad.sheet import Sheet

#: Counts the page's requests that save a round (POST .../rounds, PUT .../rounds/n), made
#: synchronously by the handler of the key or click that saves: read right after it.
COUNT_SAVES = """
window.saves = 0;
const fetched = window.fetch;
window.fetch = (input, init) => {
  const method = init?.method ?? "GET";
  if (method !== "GET" && /\\/rounds(\\/\\d+)?$/.test(String(input))) window.saves += 1;
  return fetched(input, init);
};
"""
#: Cleo's grid: 15, no column cleared; its last card (0) is complete by itself.
GRID_15 = "1 2 3 4 / 0 1 2 0 / 0 1 1 0"


def saves(page: Page) -> int:
    return page.evaluate("() => window.saves")


def type_cards(page: Page, i: int, grid: str) -> None:
    """Player `i`'s cards typed from the grid's first card (a `1` needs a space to move on)."""
    page.click(f"[data-key=mode-cards-{i}]")
    page.focus(f"[data-key=card-{i}-0]")
    for k, token in enumerate(grid.replace("/", " ").split()):
        assert focused(page) == f"card-{i}-{k}"
        page.keyboard.type(token)
        if focused(page) == f"card-{i}-{k}" and k < 11:
            page.keyboard.press(" ")


def test_a_round_is_saved_by_save_only_after_its_preview(
    server: Server, browser: Browser, problems: list[str], artifacts: Path
) -> None:
    players = ["Ana", "Ben", "Cleo"]
    page = open_page(browser, DESKTOP, problems)
    page.add_init_script(COUNT_SAVES)
    sheet_id = create_sheet(page, server.base, "Save only", players)
    page.check("[data-key=ender-2]")
    type_cards(page, 0, GRID_14)
    assert focused(page) == "total-1"  # Ana's last card moved on to Ben
    page.keyboard.type("20")
    page.keyboard.press("Enter")
    type_cards(page, 2, GRID_15)
    # the last card of the last player is typed: nothing is saved, the focus stays there
    assert focused(page) == "card-2-11" and saves(page) == 0
    round_one = {"ender": "Cleo", "entries": {"Ana": GRID_14, "Ben": "20", "Cleo": GRID_15}}
    reason = Sheet.new(players, "Save only").preview(round_one, 1).score.reason
    assert reason == (
        "Cleo ended with 15 and Ana has 14, which is not higher: Cleo's score is doubled to 30"
    )
    expect(page.locator("[data-key=round-reason]")).to_have_text(reason)
    expect(page.locator("[data-key=explain-2]")).to_have_text(
        "1 + 0 + 0 = 1; 2 + 1 + 1 = 4; 3 + 2 + 1 = 6; 4 + 0 + 0 = 4: 15 → 30 (\u00d72)"
    )
    # Enter goes to Save, under the preview, both in view: still nothing saved
    page.keyboard.press("Enter")
    assert focused(page) == "save-round" and saves(page) == 0
    expect(page.locator("[data-key=round-reason]")).to_be_in_viewport()
    expect(page.locator("[data-key=save-round]")).to_be_in_viewport()
    page.screenshot(path=artifacts / "scorepad-save-preview-desktop.png")
    assert api(server, "GET", f"/api/scorepad/sheets/{sheet_id}")["revision"] == 1
    assert page.locator("tr[data-round]").count() == 0
    # Enter on Save saves
    page.keyboard.press("Enter")
    saved_after(page, 1)
    assert saves(page) == 1
    assert table_scores(page, 1) == [14, 20, 30]
    assert focused(page) == "total-0"  # the next round's first field


def cards_of(page: Page, i: int) -> list[str]:
    return [page.input_value(f"[data-key=card-{i}-{k}]") for k in range(12)]


def test_a_card_moves_on_once_no_key_can_make_it_another_card(
    server: Server, browser: Browser, problems: list[str]
) -> None:
    """The keypad: -2, -1, 0, 2-9, 10-12 and x move on by themselves; a 1 and a lone
    minus wait; a key that cannot go on from a 1 (a digit but 0-2, the minus, x) leaves
    the 1 and starts the next card; a second minus takes the first back."""
    page = open_page(browser, PHONE, problems)
    create_sheet(page, server.base, "Keys", ["Ana", "Ben"])
    page.click("[data-key=keypad-toggle]")
    page.click("[data-key=mode-cards-0]")
    page.focus("[data-key=card-0-0]")
    steps = [
        ("1", "card-0-0"),  # 10, 11 or 12 may follow
        ("3", "card-0-2"),  # 13 is no card: the 1 stays, the 3 is the next card
        ("1", "card-0-2"),
        ("-", "card-0-3"),  # the minus starts the next card
        ("-", "card-0-3"),  # a second minus takes it back
        ("-", "card-0-3"),
        ("2", "card-0-4"),
        ("0", "card-0-5"),
        ("1", "card-0-5"),
        ("1", "card-0-6"),  # 11
        ("9", "card-0-7"),
        ("1", "card-0-7"),
        ("x", "card-0-9"),  # the 1 stays, the x is the next card
    ]
    for key, where in steps:
        page.click(f"[data-key=key-{'minus' if key == '-' else key}]")
        assert focused(page) == where, (key, where)
    assert cards_of(page, 0)[:9] == ["1", "3", "1", "-2", "0", "11", "9", "1", "x"]


def test_the_keypads_next_from_the_last_field_goes_to_save_and_no_further(
    server: Server, browser: Browser, problems: list[str]
) -> None:
    page = open_page(browser, PHONE, problems)
    page.add_init_script(COUNT_SAVES)
    create_sheet(page, server.base, "Keypad", ["Ana", "Ben"])
    page.click("[data-key=keypad-toggle]")
    page.check("[data-key=ender-0]")
    page.focus("[data-key=total-0]")
    keypad_type(page, "3")
    keypad_type(page, "8")  # Next from the last field: to Save
    assert focused(page) == "save-round" and saves(page) == 0
    page.click("[data-key=key-next]")  # Next again: the round is not saved by the keypad
    page.click("[data-key=key-5]")
    assert focused(page) == "save-round" and saves(page) == 0
    expect(page.locator("[data-key=round-reason]")).to_have_text(
        "Ana ended with 3, the single lowest score: not doubled"
    )
    before = revision(page)
    page.click("[data-key=save-round]")
    saved_after(page, before)
    assert saves(page) == 1 and table_scores(page, 1) == [3, 8]


def test_a_grid_being_typed_is_progress_and_its_error_is_for_save(
    server: Server, browser: Browser, problems: list[str], artifacts: Path
) -> None:
    players = ["Ana", "Ben"]
    page = open_page(browser, PHONE, problems)
    sheet_id = create_sheet(page, server.base, "Progress", players)
    page.check("[data-key=ender-1]")
    page.fill("[data-key=total-1]", "5")
    page.click("[data-key=mode-cards-0]")
    page.focus("[data-key=card-0-0]")
    entry = page.locator(".pad-entry[data-player='0']")
    for k, token in enumerate(GRID_14.replace("/", " ").split()[:11]):
        page.keyboard.type(token)
        if token == "1":
            page.keyboard.press(" ")
        page.locator("[data-key=round-form][data-pending=false]").wait_for()
        if k:  # one card alone reads as a total: the grid's progress from the second
            expect(page.locator("[data-key=explain-0]")).to_have_text(f"{k + 1} of 12 cards")
        expect(page.locator("[data-key=error-0]")).to_have_text("")
        expect(entry).not_to_have_class("pad-entry wrong")
    page.keyboard.type("-")  # the last card's minus sign, alone so far: still being typed
    page.locator("[data-key=round-form][data-pending=false]").wait_for()
    expect(page.locator("[data-key=explain-0]")).to_have_text("11 of 12 cards")
    expect(page.locator("[data-key=error-0]")).to_have_text("")
    page.screenshot(path=artifacts / "scorepad-progress-phone.png")
    page.select_option("#language", "es")
    expect(page.locator("[data-key=explain-0]")).to_have_text("11 de 12 cartas")
    page.select_option("#language", "en")
    page.focus("[data-key=card-0-11]")
    page.keyboard.press("Backspace")
    # Save says what is wrong, next to the grid, which turns red; nothing is saved
    page.click("[data-key=save-round]")
    wrong = (
        "round 1: Ana: 11 cards written, but a grid has 12 (or write one number, the round total)"
    )
    expect(page.locator("[data-key=error-0]")).to_have_text(wrong)
    expect(page.locator("[data-key=round-error]")).to_have_text(f"Not saved: {wrong}")
    expect(entry).to_have_class("pad-entry wrong")
    assert api(server, "GET", f"/api/scorepad/sheets/{sheet_id}")["revision"] == 1
    # the focus on the card still to write (not on the first, whose 7 a key would replace)
    expect(page.locator("[data-key=card-0-11]")).to_be_focused()
    page.keyboard.type("2")  # the last card: the error goes, the grid is scored
    expect(page.locator("[data-key=explain-0]")).to_have_text(
        "three 7s, cleared, so 0; 5 + -1 + 0 = 4; 2 + 3 + -2 = 3; 4 + 1 + 2 = 7: 14"
    )
    expect(page.locator("[data-key=error-0]")).to_have_text("")
    expect(entry).to_have_class("pad-entry")
    # a total's minus sign alone is being typed too; a total that is not one is an error
    page.fill("[data-key=total-1]", "-")
    page.locator("[data-key=round-form][data-pending=false]").wait_for()
    expect(page.locator("[data-key=error-1]")).to_have_text("")
    page.fill("[data-key=total-1]", "5-")
    expect(page.locator("[data-key=error-1]")).to_have_text(
        "Ben: '5-' is not a round total: write a whole number"
    )
    expected_refusals(problems, 400)


def test_rows_and_columns_are_counted_from_1_in_english_and_spanish(
    server: Server, browser: Browser, problems: list[str], artifacts: Path
) -> None:
    """The API counts them from 0 (its params); every sentence a person reads, from 1."""
    players = ["Ana", "Ben"]
    page = open_page(browser, DESKTOP, problems)
    sheet_id = create_sheet(page, server.base, "From 1", players)
    page.check("[data-key=ender-1]")
    page.fill("[data-key=total-1]", "5")
    type_cards(page, 0, "7 5 2 4 / 7 -1 3 1 / 7 0 -2 13")  # the bottom right card is 13
    english = "Ana's cards: the card at row 3, column 4 is 13, but cards go from -2 to 12"
    spanish = (
        "Cartas de Ana: la carta de la fila 3, columna 4 es 13, pero las cartas van de -2 a 12"
    )
    preview = api(
        server,
        "POST",
        f"/api/scorepad/sheets/{sheet_id}/preview",
        {"round": {"ender": "Ben", "entries": {"Ana": "7 5 2 4 7 -1 3 1 7 0 -2 13", "Ben": "5"}}},
    )
    assert preview["entries"]["Ana"]["params"]["row"] == 2  # the API's, from 0
    assert preview["entries"]["Ana"]["params"]["column"] == 3
    expect(page.locator("[data-key=error-0]")).to_have_text(english)
    page.click("[data-key=save-round]")
    expect(page.locator("[data-key=round-error]")).to_have_text(f"Not saved: round 1: {english}")
    expect(page.locator("[data-key=card-0-11]")).to_be_focused()  # the card it names
    labels = {
        "card-0-0": "Ana: row 1, column 1",
        "card-0-6": "Ana: row 2, column 3",
        "card-0-11": "Ana: row 3, column 4",
        "clear-0-0": "Ana: column 1 was cleared",
        "clear-0-3": "Ana: column 4 was cleared",
    }
    for key, label in labels.items():
        expect(page.locator(f"[data-key={key}]")).to_have_attribute("aria-label", label)
    page.select_option("#language", "es")
    expect(page.locator("[data-key=round-error]")).to_have_text(f"No se guardó: ronda 1: {spanish}")
    expect(page.locator("[data-key=error-0]")).to_have_text(f"ronda 1: {spanish}")
    expect(page.locator("[data-key=card-0-11]")).to_have_attribute(
        "aria-label", "Ana: fila 3, columna 4"
    )
    expect(page.locator("[data-key=clear-0-0]")).to_have_attribute(
        "aria-label", "Ana: la columna 1 se eliminó"
    )
    page.screenshot(path=artifacts / "scorepad-from-1-spanish-desktop.png")
    # a column written partly cleared: the first column, in both languages
    page.focus("[data-key=card-0-0]")
    page.keyboard.type("x")
    page.focus("[data-key=card-0-11]")
    page.keyboard.type("2")
    expect(page.locator("[data-key=error-0]")).to_have_text(
        "Cartas de Ana: la columna 1 está eliminada solo en parte (1 de sus 3 cartas escritas"
        " como eliminadas): una columna se elimina con sus tres cartas a la vez"
    )
    page.select_option("#language", "en")
    expect(page.locator("[data-key=error-0]")).to_have_text(
        "Ana's cards: column 1 is partly cleared (1 of its 3 cards written as cleared):"
        " a column is cleared all three cards at once"
    )
    assert "0" not in page.locator("[data-key=round-form] [aria-label]").evaluate_all(
        "els => els.map((el) => el.getAttribute('aria-label').replace(/\\D/g, '')).join('')"
    )  # no label of the form counts from 0
    expected_refusals(problems, 400)


#: The worked example of issue 29: Ana, Ben and Cleo, four rounds (RULES.md 4), then to 100.
FOUR_ROUNDS = [
    ("Cleo", {"Ana": GRID_14, "Ben": "20", "Cleo": "9"}),
    ("Cleo", {"Ana": "9", "Ben": "20", "Cleo": "14"}),
    ("Ana", {"Ana": "3", "Ben": "4", "Cleo": "8"}),
    ("Ben", {"Ana": "9", "Ben": "5", "Cleo": "5"}),
]
TO_100 = [("Ana", {"Ana": "10", "Ben": "30", "Cleo": "12"})]
LAST = ("Cleo", {"Ana": "12", "Ben": "25", "Cleo": "3"})  # Ben 109: Ana wins with 57


def sheet_with(server: Server, title: str, rounds: list, target: int = 100) -> str:
    """A sheet of Ana, Ben and Cleo with `rounds` saved through the API; its id."""
    players = ["Ana", "Ben", "Cleo"]
    body = {"title": title, "players": players, "target_score": target}
    sheet = api(server, "POST", "/api/scorepad/sheets", body)
    for ender, entries in rounds:
        path = f"/api/scorepad/sheets/{sheet['id']}/rounds"
        round_ = {"ender": ender, "entries": entries}
        sheet = api(server, "POST", path, {"revision": sheet["revision"], "round": round_})
    return sheet["id"]


def text_of(page: Page) -> str:
    return page.locator("#main").inner_text().lower()


def test_after_the_games_end_the_page_says_who_won_not_what_is_left_to_go(
    server: Server, browser: Browser, problems: list[str], artifacts: Path
) -> None:
    page = open_page(browser, PHONE, problems)
    sheet_id = sheet_with(server, "To 100", FOUR_ROUNDS + TO_100)
    page.goto(f"{server.base}/scorepad/{sheet_id}")
    page.wait_for_selector("[data-key=round-form]")
    expect(page.locator("[data-key=to-go] li")).to_have_text(
        ["Ana: 55 to go", "Ben: 16 to go", "Cleo: 38 to go"]
    )
    expect(page.locator("[data-key=to-go-row] td")).to_have_text(["55", "16", "38", ""])
    ender, entries = LAST
    page.check(f"[data-key=ender-{['Ana', 'Ben', 'Cleo'].index(ender)}]")
    for i, name in enumerate(["Ana", "Ben", "Cleo"]):
        page.fill(f"[data-key=total-{i}]", entries[name])
    before = revision(page)
    page.click("[data-key=save-round]")
    saved_after(page, before)
    expect(page.locator("[data-key=winners]")).to_have_text("Game over: Ana wins with 57!")
    assert "to go" not in text_of(page)
    assert page.locator("[data-key=to-go], [data-key=to-go-row]").count() == 0
    expect(page.locator("[data-key=won-row]")).to_have_text("Winner★")
    expect(page.locator("[data-key=won-row] td.winner")).to_have_attribute("title", "Ana wins")
    page.screenshot(path=artifacts / "scorepad-won-phone.png", full_page=True)
    page.select_option("#language", "es")
    expect(page.locator("[data-key=winners]")).to_have_text("Fin de la partida: ¡gana Ana con 57!")
    assert "faltan" not in text_of(page)
    expect(page.locator("[data-key=won-row]")).to_have_text("Gana★")
    # a shared win (RULES.md 4's eight rounds to 110: Ana and Cleo at 75)
    page.select_option("#language", "en")
    shared = sheet_with(server, "Shared", WORKED, target=110)
    page.goto(f"{server.base}/scorepad/{shared}")
    expect(page.locator("[data-key=winners]")).to_have_text(
        "Game over: Ana and Cleo share the win with 75!"
    )
    assert "to go" not in text_of(page)
    expect(page.locator("[data-key=won-row] th")).to_have_text("Shared win")
    winners = page.locator("[data-key=won-row] td.winner")
    expect(winners).to_have_count(2)
    assert winners.evaluate_all("els => els.map((el) => el.title)") == [
        "Ana shares the win",
        "Cleo shares the win",
    ]
    assert page.locator("[data-key=won-row] td").all_inner_texts()[:3] == ["★", "", "★"]


#: Whether the focused element is where a person sees it: inside the visual viewport (what a
#: phone's keyboard leaves), above the page's keypad, and on top (a tap at its middle reaches it).
SEEN = """(selector) => {
  const el = selector ? document.querySelector(selector) : document.activeElement;
  const box = el.getBoundingClientRect();
  const view = window.visualViewport;
  let bottom = view.offsetTop + view.height;
  const keypad = document.querySelector(".keypad");
  if (keypad) bottom = Math.min(bottom, keypad.getBoundingClientRect().top);
  const middle = document.elementFromPoint((box.left + box.right) / 2, (box.top + box.bottom) / 2);
  const onTop = middle === el || el.contains(middle);
  return box.top >= view.offsetTop && box.bottom <= bottom && onTop;
}"""


#: A grid whose cards are each one key of the keypad (a 1 then Next).
BOTTOM_ROW_GRID = "7 5 2 4 / 7 9 3 1 / 7 0 8 2".replace("/", " ")


def seen(page: Page, selector: str | None = None) -> bool:
    """Whether the focused element (or `selector`'s) is wholly on screen above the keypad."""
    return page.evaluate(SEEN, selector)


def settled(page: Page) -> None:
    """Wait until the round's preview has answered the last change."""
    page.locator("[data-key=round-form][data-pending=false]").wait_for()


def test_the_focused_field_stays_in_view_above_the_keypad_and_the_keyboard(
    server: Server, browser: Browser, problems: list[str], artifacts: Path
) -> None:
    page = open_page(browser, PHONE, problems)
    page.set_viewport_size(SCREENS["phone"])
    sheet_id = sheet_with(server, "In view", FOUR_ROUNDS)
    page.goto(f"{server.base}/scorepad/{sheet_id}")
    page.wait_for_selector("[data-key=round-form]")
    content = page.get_attribute("meta[name=viewport]", "content") or ""
    assert "interactive-widget=resizes-content" in content  # a phone's keyboard shrinks the page
    # the page's keypad, sticking to the bottom of the screen: every card typed with it is seen
    page.click("[data-key=keypad-toggle]")
    page.check("[data-key=ender-0]")
    for i in range(3):
        page.click(f"[data-key=mode-cards-{i}]")
    page.focus("[data-key=card-0-0]")
    for i in range(3):
        for k, card in enumerate(BOTTOM_ROW_GRID.split()):
            assert focused(page) == f"card-{i}-{k}"
            settled(page)  # the preview's lines above it written: the field has not moved since
            assert seen(page), f"card-{i}-{k} is hidden"
            if (i, k) == (2, 11):  # the last field: Save, its next stop, is in sight too
                assert seen(page, "[data-key=save-round]"), "Save is under the keypad"
                page.screenshot(path=artifacts / "scorepad-keypad-last-field-phone.png")
            if card == "1":
                keypad_type(page, card)  # a 1 waits for Next
            else:
                page.click(f"[data-key=key-{card}]")
            if k == 7 and i == 2:
                page.screenshot(path=artifacts / "scorepad-keypad-bottom-row-phone.png")
    assert focused(page) == "card-2-11" and seen(page)
    page.click("[data-key=key-next]")
    settled(page)  # the preview written above Save (it may have pushed Save down)
    assert focused(page) == "save-round" and seen(page)  # with the preview above it
    expect(page.locator("[data-key=round-reason]")).to_be_in_viewport()
    # no keypad: the phone's keyboard opens and the page is shorter (resizes-content)
    page.click("[data-key=keypad-toggle]")
    page.locator("[data-key=card-2-9]").click()
    assert focused(page) == "card-2-9" and seen(page)
    page.set_viewport_size({"width": 390, "height": 420})
    page.wait_for_function(SEEN)
    page.screenshot(path=artifacts / "scorepad-keyboard-phone.png")
    page.locator("[data-key=card-1-8]").focus()
    page.set_viewport_size({"width": 390, "height": 300})
    page.wait_for_function(SEEN)
    assert focused(page) == "card-1-8"


BOX = "el => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }"


def box(page: Page, selector: str) -> dict[str, float]:
    left, top, right, bottom = page.locator(selector).evaluate(BOX)
    return {"left": left, "top": top, "right": right, "bottom": bottom}


def in_view(page: Page, selector: str) -> None:
    """Every element of `selector` wholly inside the viewport as the page opens (no scroll)."""
    width, height = page.evaluate("() => [innerWidth, innerHeight]")
    for element in page.locator(selector).all():
        seen = element.evaluate(BOX)
        left, top, right, bottom = seen
        assert left >= 0 and top >= 0 and right <= width and bottom <= height, (selector, seen)


def test_at_1280x800_the_sheet_and_the_rounds_form_are_both_in_view(
    server: Server, browser: Browser, problems: list[str], artifacts: Path
) -> None:
    page = open_page(browser, SCREENS["desktop"], problems)
    sheet_id = sheet_with(server, "Laptop", FOUR_ROUNDS)
    page.goto(f"{server.base}/scorepad/{sheet_id}")
    page.wait_for_selector("[data-key=round-form]")
    assert page.evaluate("() => scrollY") == 0
    # the sheet: every round, the totals and the points to go
    in_view(page, "[data-key=rounds]")
    in_view(page, "tr[data-round='4'], [data-key=totals], [data-key=to-go-row]")
    # the round's form beside it: its title, each player's field and ender, and Save
    in_view(page, "#pad-form-title, [data-entry], [name=ender], [data-key=save-round]")
    table, form = box(page, "[data-key=rounds]"), box(page, "[data-key=round-form]")
    assert form["left"] >= table["right"]  # two columns: the sheet, then the form
    assert form["top"] < table["bottom"]
    page.screenshot(path=artifacts / "scorepad-sheet-and-form-1280x800.png")
    # on a phone, one column: the sheet first, then the form
    page.set_viewport_size(SCREENS["phone"])
    table, form = box(page, "[data-key=rounds]"), box(page, "[data-key=round-form]")
    assert form["top"] >= table["bottom"]
    in_view(page, "[data-key=totals]")


#: Each "✕ cleared" button of player 0's grid: [its height, its text's line height, its width,
#: the width of the card above it].
CLEAR_BUTTONS = """() => [0, 1, 2, 3].map((col) => {
  const button = document.querySelector(`[data-key=clear-0-${col}]`);
  const card = document.querySelector(`[data-key=card-0-${8 + col}]`);
  const style = getComputedStyle(button);
  const padding = parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
  const lines = button.clientHeight - padding;
  return [lines, parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.2,
    button.getBoundingClientRect().width, card.getBoundingClientRect().width];
})"""
#: The buttons of the round's form (the keypad's keys too) whose text does not fit them.
CUT = """() => [...document.querySelectorAll("[data-key=round-form] button")]
  .filter((button) => button.scrollWidth > button.clientWidth + 1)
  .map((button) => button.dataset.key)"""


def test_the_forms_buttons_fit_their_text_and_a_cleared_button_its_column(
    server: Server, browser: Browser, problems: list[str], artifacts: Path
) -> None:
    """A column is as wide as its "✕ cleared" button, on one line ("✕ eliminada" is longer
    than a card); the keypad's Next key holds "Siguiente ↵", down to a 320 px phone."""
    for screen, size in {**SCREENS, "small": SMALL}.items():
        page = open_page(browser, size, problems)
        sheet_id = sheet_with(server, "Cleared", [])
        page.goto(f"{server.base}/scorepad/{sheet_id}")
        page.click("[data-key=keypad-toggle]")
        for language in ("en", "es"):
            page.select_option("#language", language)
            page.click("[data-key=mode-cards-0]")
            expect(page.locator("[data-key=clear-0-0]")).to_have_text(
                "✕ cleared" if language == "en" else "✕ eliminada"
            )
            assert page.evaluate(CUT) == [], (screen, language)
            for lines, line, width, card in page.evaluate(CLEAR_BUTTONS):
                if screen != "small":  # on two lines there rather than cut
                    assert lines < 1.5 * line, (screen, language, lines, line)
                assert abs(width - card) < 1, (screen, language, width, card)
            page.locator("[data-key=round-form]").screenshot(
                path=artifacts / f"scorepad-cleared-{language}-{screen}.png"
            )
            page.click("[data-key=mode-total-0]")
        page.context.close()


#: The chart's target label and the players' lines: [label box, [[[x, y], ...] a line]].
CHART = """() => {
  const label = document.querySelector("[data-key=chart] .target-label").getBBox();
  const lines = [...document.querySelectorAll("[data-key=chart] polyline.series")].map(
    (line) => [...line.points].map((point) => [point.x, point.y]));
  return [[label.x, label.y, label.x + label.width, label.y + label.height], lines];
}"""


def test_the_charts_target_label_is_clear_of_the_lines_that_pass_the_target(
    server: Server, browser: Browser, problems: list[str]
) -> None:
    page = open_page(browser, SCREENS["desktop"], problems)
    sheet_id = sheet_with(server, "Chart", [*FOUR_ROUNDS, *TO_100, LAST])  # Ben ends on 109
    page.goto(f"{server.base}/scorepad/{sheet_id}")
    expect(page.locator("[data-key=winners]")).to_have_text("Game over: Ana wins with 57!")
    (left, top, right, bottom), lines = page.evaluate(CHART)
    assert len(lines) == 3
    for points in lines:
        for (x0, y0), (x1, y1) in pairwise(points):
            for step in range(101):  # the segment, a point every 1% of it
                x, y = x0 + (x1 - x0) * step / 100, y0 + (y1 - y0) * step / 100
                assert not (left <= x <= right and top <= y <= bottom), ((x, y), (left, top))
