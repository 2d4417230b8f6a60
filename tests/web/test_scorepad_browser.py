"""The scorepad page in a real browser: Playwright driving Debian's chromium
against `skyjo serve` on localhost. Every worked example of RULES.md 4 typed in
through the page and checked against the model (`skyjo.scorepad.sheet`, scored
by `skyjo.scoring`); a whole game on a phone with the page's keypad and an
edited round changing the winner; export and re-import; mistakes refused next to
their field; two devices on one sheet; Spanish; a round saved right before the
server is SIGKILLed still there after a restart. Screenshots go to
tests/web/artifacts/. Every wait is on a condition of the page, never on time."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx2
import pytest
from browsing import DESKTOP, PHONE
from browsing import open_page as fresh_page
from liveserver import Server
from playwright.sync_api import Browser, Page, expect

from skyjo.scorepad.exports import export_json
from skyjo.scorepad.sheet import Sheet, SheetError

GRID_14 = "7 5 2 4 / 7 -1 3 1 / 7 0 -2 2"  # RULES.md 4: column 0 is three 7s, cleared
MINUS_2S = "-2 1 1 2 / -2 3 1 2 / -2 1 0 3"  # RULES.md 4: three -2s cleared, their -6 gone
CLEARED_EARLIER = "x 5 2 4 / x -1 3 1 / x 0 -2 2"
MARKUP = "<img src=x onerror=alert(1)>"
#: The scorepad token of "this browser": every page of this module but a second device's
#: holds it (as the page keeps the one the server issued), and `api` sends it too.
BROWSER = "the-browser-of-the-scorepad-tests-000"


def as_browser(page: Page, token: str = BROWSER) -> Page:
    """`page`, holding the scorepad token `token` in its localStorage from its first script on."""
    page.add_init_script(f"localStorage.setItem('skyjo:scorepad:owner', {json.dumps(token)})")
    return page


def open_page(browser: Browser, viewport: dict[str, int], problems: list[str]) -> Page:
    """A fresh page of "this browser" (`BROWSER`)."""
    return as_browser(fresh_page(browser, viewport, problems))


def expected_refusals(problems: list[str], *statuses: int) -> None:
    """Drop the console's notes of the refusals the test asked for."""
    problems[:] = [p for p in problems if not any(f"status of {s} " in p for s in statuses)]


def create_sheet(
    page: Page, base: str, title: str, players: list[str], target: int | None = None
) -> str:
    """A new sheet from the list page's form; its id."""
    page.goto(f"{base}/scorepad")
    page.wait_for_selector("[data-key=new-title]")
    page.fill("[data-key=new-title]", title)
    for i, name in enumerate(players):
        if i >= 4:
            page.click("[data-key=add-player]")
        page.fill(f"[data-key=new-player-{i}]", name)
    if target is not None:
        page.fill("[data-key=new-target]", str(target))
    page.click("[data-key=create]")
    page.wait_for_selector("[data-key=round-form]")
    return page.url.rsplit("/", 1)[-1]


def revision(page: Page) -> int:
    return int(page.get_attribute(".pad-sheet-page", "data-revision") or 0)


def saved_after(page: Page, before: int) -> None:
    """Wait until the page shows a revision after `before`."""
    page.locator(f".pad-sheet-page[data-revision='{before + 1}']").wait_for()


def cards(entry: str) -> list[str]:
    return entry.replace("/", " ").split()


def type_round(
    page: Page,
    players: list[str],
    ender: str,
    entries: dict[str, str],
    cleared: tuple[tuple[int, int], ...] = (),
    save: bool = True,
) -> None:
    """Enter a round by keys: a total then Enter (to the next player); 12 cards
    one by one (a complete card moves on by itself, a space after a `1`).
    `cleared` (player, column) are set with the column's button first. Then,
    with `save`, Enter goes from the last field to the Save button (nothing is
    saved yet) and Enter on Save saves; without it, the focus stays in the last
    field."""
    for i, name in enumerate(players):
        if len(cards(entries[name])) == 12:
            page.click(f"[data-key=mode-cards-{i}]")
    for i, col in cleared:
        page.click(f"[data-key=clear-{i}-{col}]")
    page.check(f"[data-key=ender-{players.index(ender)}]")
    before = revision(page)
    first = "card-0-0" if len(cards(entries[players[0]])) == 12 else "total-0"
    page.focus(f"[data-key={first}]")
    for i, name in enumerate(players):
        last = i == len(players) - 1
        tokens = cards(entries[name])
        if len(tokens) == 12:
            for k, token in enumerate(tokens):
                assert focused(page) == f"card-{i}-{k}"
                page.keyboard.type(token)
                if focused(page) == f"card-{i}-{k}" and not (last and k == 11):
                    page.keyboard.press(" ")  # a 1 (or a 13) does not move on by itself
        else:
            assert focused(page) == f"total-{i}"
            page.keyboard.type(entries[name])
            if not last:
                page.keyboard.press("Enter")
    if not save:
        return
    if focused(page) != "save-round":
        page.keyboard.press("Enter")  # from the last field to Save, under the round's preview
    assert focused(page) == "save-round"
    assert revision(page) == before
    page.keyboard.press("Enter")  # Enter on the Save button saves
    saved_after(page, before)


def focused(page: Page) -> str | None:
    """The `data-key` of the element with the focus."""
    return page.evaluate("() => document.activeElement?.dataset.key ?? null")


def table_scores(page: Page, number: int) -> list[int]:
    return [int(s) for s in page.locator(f"tr[data-round='{number}'] td .score").all_inner_texts()]


def totals_shown(page: Page) -> list[int]:
    return [int(s) for s in page.locator("tr.totals td").all_inner_texts() if s.strip()]


def api(
    server: Server, method: str, path: str, body: Any = None, token: str = BROWSER
) -> dict[str, Any]:
    headers = {"X-Skyjo-Owner": token}
    response = httpx2.request(
        method, f"{server.base}{path}", json=body, headers=headers, timeout=10
    )
    assert response.status_code in (200, 201), response.text
    return response.json()


WORKED = [  # RULES.md 4, one round each, on Ana, Ben and Cleo to 110
    ("Cleo", {"Ana": GRID_14, "Ben": "20", "Cleo": "9"}),  # the grid: 14, cleared as cards
    ("Cleo", {"Ana": "9", "Ben": "20", "Cleo": "14"}),  # Cleo ends with 14, Ana 9: 28
    ("Ana", {"Ana": "3", "Ben": "4", "Cleo": "8"}),  # Ana ends with the single lowest 3
    ("Ben", {"Ana": "9", "Ben": "5", "Cleo": "5"}),  # Ben 5, Cleo also 5: 10
    ("Ana", {"Ana": "-3", "Ben": "7", "Cleo": "-5"}),  # -3 is not doubled though Cleo has -5
    ("Ana", {"Ana": "10", "Ben": "24", "Cleo": "10"}),  # A 10, B 24, C 10: A writes 20
    ("Ana", {"Ana": "9", "Ben": MINUS_2S, "Cleo": "10"}),  # three -2s cleared: 14, not 8
    ("Cleo", {"Ana": CLEARED_EARLIER, "Ben": "12", "Cleo": "10"}),  # Ana and Cleo tie at 75
]


def test_every_worked_example_of_rules_4_entered_through_the_page(
    server: Server, browser: Browser, problems: list[str], artifacts: Path
) -> None:
    players = ["Ana", "Ben", "Cleo"]
    page = open_page(browser, DESKTOP, problems)
    page.goto(server.base)
    page.click("[data-key=scorepad-link]")  # the front page links to the scorepad
    page.wait_for_selector(".pad-new")
    assert page.url == f"{server.base}/scorepad"
    page.screenshot(path=artifacts / "scorepad-list-empty-desktop.png", full_page=True)
    create_sheet(page, server.base, "RULES.md 4", players, target=110)
    model = Sheet.new(players, "RULES.md 4", 110)
    # round 1: the grid typed card by card, its live explanation before saving
    type_round(page, players, "Cleo", WORKED[0][1], save=False)
    expect(page.locator("[data-key=explain-0]")).to_have_text(
        "three 7s, cleared, so 0; 5 + -1 + 0 = 4; 2 + 3 + -2 = 3; 4 + 1 + 2 = 7: 14"
    )
    expect(page.locator("[data-key=round-reason]")).to_have_text(
        "Cleo ended with 9, the single lowest score: not doubled"
    )
    page.screenshot(path=artifacts / "scorepad-round-cards-desktop.png", full_page=True)
    before = revision(page)
    page.keyboard.press("Enter")  # from the last field to Save: nothing saved yet
    assert focused(page) == "save-round"
    page.keyboard.press("Enter")
    saved_after(page, before)
    model = model.add_round({"ender": "Cleo", "entries": WORKED[0][1]})
    for number, (ender, entries) in enumerate(WORKED, start=1):
        if number > 1:
            cleared = ((0, 0),) if number == 8 else ()
            type_round(page, players, ender, entries, cleared)
            model = model.add_round({"ender": ender, "entries": entries})
        expected = model.summary()["rounds"][number - 1]
        assert table_scores(page, number) == [expected["players"][p]["score"] for p in players]
        explained = page.locator(f"[data-key=explain-round][data-round='{number}']")
        expect(explained.locator("[data-key=reason]")).to_have_text(expected["reason"])
        for grid in explained.locator("[data-key=grid-explain]").all():
            assert grid.inner_text() in {v["explanation"] for v in expected["players"].values()}
    summary = model.summary()
    assert [r["players"]["Ana"]["score"] for r in summary["rounds"]] == [
        14, 9, 3, 9, -3, 20, 9, 14,
    ]  # fmt: skip
    assert summary["rounds"][1]["players"]["Cleo"]["score"] == 28
    assert summary["rounds"][3]["players"]["Ben"]["score"] == 10
    assert summary["rounds"][4]["doubled"] is False
    assert summary["rounds"][6]["players"]["Ben"]["raw"] == 14
    assert totals_shown(page) == [summary["totals"][p] for p in players] == [75, 111, 75]
    expect(page.locator("[data-key=winners]")).to_have_text(
        "Game over: Ana and Cleo share the win with 75!"
    )
    assert summary["winners"] == ["Ana", "Cleo"]
    assert page.locator("[data-key=round-form]").count() == 0  # no round after game over
    page.click("[data-key=pick-7]")
    seven = page.locator("[data-key=explain-round][data-round='7']")
    expect(seven.locator("[data-key=grid-explain]")).to_have_text(
        "three -2s, cleared, so 0; 1 + 3 + 1 = 5; 1 + 1 + 0 = 2; 2 + 2 + 3 = 7: 14"
    )
    page.click("[data-key=pick-8]")
    eight = page.locator("[data-key=explain-round][data-round='8']")
    expect(eight.locator("[data-key=grid-explain]")).to_contain_text("cleared earlier, so 0")
    assert page.locator("[data-key=chart] polyline").count() == 3
    page.screenshot(path=artifacts / "scorepad-game-over-desktop.png", full_page=True)
    page.click("[data-key=pick-4]")
    expect(page.locator("[data-key=reason]")).to_have_text(
        "Ben ended with 5 and Cleo has 5, which is not higher: Ben's score is doubled to 10"
    )
    page.click("[data-key=pick-5]")
    expect(page.locator("[data-key=reason]")).to_have_text(
        "Ana ended with -3: a score of 0 or below is never doubled"
    )
    stored = api(server, "GET", f"/api/scorepad/sheets/{page.url.rsplit('/', 1)[-1]}")
    assert stored["summary"] == summary


def keypad_type(page: Page, text: str) -> None:
    """Type with the page's keypad (minus, digits), then its Next key."""
    for char in text:
        page.click(f"[data-key=key-{'minus' if char == '-' else char}]")
    page.click("[data-key=key-next]")


def test_a_whole_game_on_a_phone_with_an_edited_round_that_changes_the_winner(
    server: Server, browser: Browser, problems: list[str], artifacts: Path
) -> None:
    players = ["Ana", "Ben", MARKUP, "Zoë"]
    page = open_page(browser, PHONE, problems)
    sheet_id = create_sheet(page, server.base, "Phone game", players, target=50)
    assert page.locator("h1[data-key=sheet-title]").inner_text() == "Phone game"
    assert page.locator(".pad-entry .name").all_inner_texts()[2] == MARKUP
    assert page.locator("img").count() == 0
    page.screenshot(path=artifacts / "scorepad-new-round-phone.png", full_page=True)
    type_round(page, players, "Zoë", {"Ana": "10", "Ben": "15", MARKUP: "20", "Zoë": "5"})
    expect(page.locator("[data-key=leader]")).to_have_text("Leader: Zoë with 5")
    # round 2 with the page's keypad: the fields take no system keyboard then
    page.click("[data-key=keypad-toggle]")
    assert page.get_attribute("[data-key=total-0]", "inputmode") == "none"
    page.check("[data-key=ender-1]")
    page.focus("[data-key=total-0]")
    before = revision(page)
    for value in ("12", "4", "15", "9"):
        keypad_type(page, value)
    assert focused(page) == "save-round"  # the last Next goes to Save, which saves
    page.click("[data-key=save-round]")
    saved_after(page, before)
    assert table_scores(page, 2) == [12, 4, 15, 9]
    page.screenshot(path=artifacts / "scorepad-keypad-phone.png", full_page=True)
    # round 3, Ana's -3 by the keypad's minus key: the game is over, Ana wins
    page.check("[data-key=ender-0]")
    page.focus("[data-key=total-0]")
    before = revision(page)
    for value in ("-3", "11", "18", "7"):
        keypad_type(page, value)
    page.click("[data-key=save-round]")
    saved_after(page, before)
    assert table_scores(page, 3) == [-3, 11, 18, 7]
    expect(page.locator("[data-key=winners]")).to_have_text("Game over: Ana wins with 19!")
    assert totals_shown(page) == [19, 30, 53, 21]
    page.screenshot(path=artifacts / "scorepad-game-over-phone.png", full_page=True)
    # round 1 edited: Ana 14, Zoë 0, and Zoë wins instead
    assert not page.locator("[data-key=edit-round-1]").is_visible()  # the table has no room
    page.click("[data-key=pick-1]")
    page.click("[data-key=edit-round-explained]")
    page.click("[data-key=keypad-toggle]")
    expect(page.locator("#pad-form-title")).to_have_text("Editing round 1")
    assert page.input_value("[data-key=total-0]") == "10"
    assert page.is_checked("[data-key=ender-3]")
    page.fill("[data-key=total-0]", "14")
    page.fill("[data-key=total-3]", "0")
    page.screenshot(path=artifacts / "scorepad-edit-phone.png", full_page=True)
    before = revision(page)
    page.press("[data-key=total-3]", "Enter")
    page.keyboard.press("Enter")  # on Save
    saved_after(page, before)
    expect(page.locator("[data-key=winners]")).to_have_text("Game over: Zoë wins with 16!")
    assert totals_shown(page) == [23, 30, 53, 16]
    # round 3 deleted (asked first): no longer over; undo brings it back
    page.click("[data-key=pick-3]")
    page.click("[data-key=delete-round-explained]")
    page.click("[data-key=keep-round-explained]")
    assert page.locator("tr[data-round='3']").count() == 1
    page.click("[data-key=delete-round-explained]")
    page.screenshot(path=artifacts / "scorepad-delete-round-phone.png", full_page=True)
    before = revision(page)
    page.click("[data-key=confirm-delete-round-explained]")
    saved_after(page, before)
    assert page.locator("tr[data-round='3']").count() == 0
    expect(page.locator("[data-key=leader]")).to_have_text("Leader: Zoë with 9")
    assert page.locator("[data-key=round-form]").count() == 1
    before = revision(page)
    page.click("[data-key=undo]")
    saved_after(page, before)
    expect(page.locator("[data-key=winners]")).to_have_text("Game over: Zoë wins with 16!")
    expected = Sheet.new(players, "Phone game", 50)
    for ender, entries in (
        ("Zoë", [14, 15, 20, 0]),
        ("Ben", [12, 4, 15, 9]),
        ("Ana", [-3, 11, 18, 7]),
    ):
        expected = expected.add_round(
            {"ender": ender, "entries": dict(zip(players, entries, strict=True))}
        )
    assert api(server, "GET", f"/api/scorepad/sheets/{sheet_id}")["summary"] == expected.summary()
    page.screenshot(path=artifacts / "scorepad-sheet-phone.png", full_page=True)
    page.set_viewport_size(DESKTOP)
    page.reload()
    page.wait_for_selector("[data-key=winners]")
    page.screenshot(path=artifacts / "scorepad-sheet-desktop.png", full_page=True)


def test_an_exported_sheet_reimported_is_the_same_sheet_and_the_list_manages_sheets(
    server: Server, browser: Browser, problems: list[str], artifacts: Path, tmp_path: Path
) -> None:
    sheet = api(server, "POST", "/api/scorepad/sheets", {
        "players": ["Ana", MARKUP], "title": "To export", "target_score": 60,
    })  # fmt: skip
    for ender, entries in (
        ("Ana", {"Ana": GRID_14, MARKUP: "20"}),
        ("Ana", {"Ana": "-3", MARKUP: "-5"}),
    ):
        body = {"revision": sheet["revision"], "round": {"ender": ender, "entries": entries}}
        sheet = api(server, "POST", f"/api/scorepad/sheets/{sheet['id']}/rounds", body)
    page = open_page(browser, DESKTOP, problems)
    page.goto(f"{server.base}/scorepad")
    row = page.locator(f".pad-sheet[data-id='{sheet['id']}']")
    row.wait_for()
    assert MARKUP in row.inner_text() and page.locator("img").count() == 0
    with page.expect_download() as done:
        page.click(f"[data-key=json-{sheet['id']}]")
    exported = tmp_path / "sheet.json"
    done.value.save_as(exported)
    with page.expect_download() as done_csv:
        page.click(f"[data-key=csv-{sheet['id']}]")
    assert done_csv.value.suggested_filename == f"scoresheet-{sheet['id']}.csv"
    csv_file = tmp_path / "sheet.csv"
    done_csv.value.save_as(csv_file)
    assert csv_file.read_text().startswith("round,player,cards,raw,score,total,ender,doubled\n")
    page.set_input_files("[data-key=import-file]", str(exported))
    page.wait_for_function("id => /^\\/scorepad\\/[a-z0-9]+$/.test(location.pathname) && "
                           "!location.pathname.endsWith(id)", arg=sheet["id"])  # fmt: skip
    page.wait_for_selector("[data-key=sheet-title]")
    new_id = page.url.rsplit("/", 1)[-1]
    assert page.inner_text("[data-key=sheet-title]") == "To export"
    assert totals_shown(page) == [11, 15]
    again = api(server, "GET", f"/api/scorepad/sheets/{new_id}")
    assert again["summary"] == sheet["summary"] and again["can_undo"] is False
    headers = {"X-Skyjo-Owner": BROWSER}
    text = httpx2.get(
        f"{server.base}/api/scorepad/sheets/{new_id}/export.json", headers=headers
    ).text
    assert text == exported.read_text() == export_json(Sheet.from_dict(json.loads(text)))
    # a file that is not a scoresheet is refused with its reason
    page.goto(f"{server.base}/scorepad")
    page.set_input_files("[data-key=import-file]", files=[
        {"name": "bad.json", "mimeType": "application/json", "buffer": b'{"format": "x"}'}
    ])  # fmt: skip
    expect(page.locator("[data-key=import-error]")).to_have_text(
        'not a scoresheet: expected "format": "skyjo-scoresheet", "version": 1'
    )
    expected_refusals(problems, 400)
    # rename and delete from the list (the deletion asked first)
    page.click(f"[data-key=rename-{new_id}]")
    page.fill("[data-key=rename-input]", "Re-imported")
    page.press("[data-key=rename-input]", "Enter")
    expect(page.locator(f".pad-sheet[data-id='{new_id}'] .title")).to_have_text("Re-imported")
    page.click(f"[data-key=delete-{new_id}]")
    expect(page.locator(f".pad-sheet[data-id='{new_id}'] .confirm")).to_have_text(
        "Delete “Re-imported” and its rounds for good?"
    )
    page.screenshot(path=artifacts / "scorepad-list-desktop.png", full_page=True)
    page.click(f"[data-key=keep-{new_id}]")
    assert page.locator(f".pad-sheet[data-id='{new_id}']").count() == 1
    page.click(f"[data-key=delete-{new_id}]")
    page.click(f"[data-key=confirm-delete-{new_id}]")
    expect(page.locator(f".pad-sheet[data-id='{new_id}']")).to_have_count(0)
    assert httpx2.get(f"{server.base}/api/scorepad/sheets/{new_id}").status_code == 404
    phone = open_page(browser, PHONE, problems)
    phone.goto(f"{server.base}/scorepad")
    phone.locator(f".pad-sheet[data-id='{sheet['id']}']").wait_for()
    phone.screenshot(path=artifacts / "scorepad-list-phone.png", full_page=True)
    page.click(f"[data-key=open-{sheet['id']}]")
    page.wait_for_selector("[data-key=sheet-title]")
    assert page.url.endswith(f"/scorepad/{sheet['id']}")


def test_mistakes_are_refused_with_their_message_next_to_the_field_and_nothing_is_saved(
    server: Server, browser: Browser, problems: list[str], artifacts: Path
) -> None:
    players = ["Ana", "Ben"]
    page = open_page(browser, DESKTOP, problems)
    sheet_id = create_sheet(page, server.base, "Mistakes", players)
    model = Sheet.new(players, "Mistakes")
    # a card of 13: said under the field as typed, and refused on saving
    wrong = "7 13 2 4 / 7 -1 3 1 / 7 0 -2 2"
    type_round(page, players, "Ben", {"Ana": wrong, "Ben": "5"}, save=False)
    message = "Ana's cards: the card at row 1, column 2 is 13, but cards go from -2 to 12"
    expect(page.locator("[data-key=error-0]")).to_have_text(message)
    page.click("[data-key=save-round]")
    refusal = f"round 1: {message}"
    expect(page.locator("[data-key=round-error]")).to_have_text(f"Not saved: {refusal}")
    expect(page.locator("[data-key=error-0]")).to_have_text(refusal)
    assert focused(page) == "card-0-1"  # the card of 13, to type again
    page.screenshot(path=artifacts / "scorepad-mistake-desktop.png", full_page=True)
    assert api(server, "GET", f"/api/scorepad/sheets/{sheet_id}")["revision"] == 1
    assert page.locator("tr[data-round]").count() == 0
    # fixed where the focus is (its 13 selected: typed over), the refusal goes, the round is saved
    page.keyboard.type("12")
    expect(page.locator("[data-key=error-0]")).to_have_text("")
    expect(page.locator("[data-key=round-error]")).to_have_text("")
    before = revision(page)
    page.click("[data-key=save-round]")
    saved_after(page, before)
    model = model.add_round(
        {"ender": "Ben", "entries": {"Ana": wrong.replace("13", "12"), "Ben": "5"}}
    )
    # the other mistakes of the issue, each refused with the model's message
    mistakes = [
        ({"Ana": "-2 -2 -2 1 / -2 -2 -2 1 / 3 3 3 1", "Ben": "5"}, "Ben", "Ana"),
        ({"Ana": "9", "Ben": "5"}, None, None),
        ({"Ana": "9", "Ben": ""}, "Ben", "Ben"),
    ]
    for entries, ender, player in mistakes:
        page.goto(f"{server.base}/scorepad/{sheet_id}")
        page.wait_for_selector("[data-key=round-form]")
        for i, name in enumerate(players):
            if len(cards(entries[name])) == 12:
                page.click(f"[data-key=mode-cards-{i}]")
                page.focus(f"[data-key=card-{i}-0]")
                for token in cards(entries[name]):
                    page.keyboard.type(token)
                    if token == "1":
                        page.keyboard.press(" ")
            else:
                page.fill(f"[data-key=total-{i}]", entries[name])
        if ender:
            page.check(f"[data-key=ender-{players.index(ender)}]")
        with pytest.raises(SheetError) as refused:
            model.add_round({"ender": ender, "entries": entries})
        expected = str(refused.value)
        page.click("[data-key=save-round]")
        expect(page.locator("[data-key=round-error]")).to_have_text(f"Not saved: {expected}")
        if player:
            i = players.index(player)
            expect(page.locator(f"[data-key=error-{i}]")).to_have_text(expected)
        assert api(server, "GET", f"/api/scorepad/sheets/{sheet_id}")["revision"] == 2
    expected_refusals(problems, 400)


def test_a_preview_answered_after_a_refusal_leaves_the_refusal_next_to_its_field(
    server: Server, browser: Browser, problems: list[str]
) -> None:
    """The race of a preview asked before a save and answered after its refusal:
    the preview is held by the test until the refusal is shown, then let go."""
    players = ["Ana", "Ben"]
    page = open_page(browser, DESKTOP, problems)
    create_sheet(page, server.base, "Late preview", players)
    wrong = "7 13 2 4 / 7 -1 3 1 / 7 0 -2 2"
    type_round(page, players, "Ben", {"Ana": wrong, "Ben": "5"}, save=False)
    message = "Ana's cards: the card at row 1, column 2 is 13, but cards go from -2 to 12"
    expect(page.locator("[data-key=error-0]")).to_have_text(message)
    held: list[Any] = []
    page.route("**/preview", lambda route: held.append(route))
    page.fill("[data-key=total-1]", "6")
    page.locator("[data-key=round-form][data-pending=true]").wait_for()
    page.click("[data-key=save-round]")
    refusal = f"round 1: {message}"
    expect(page.locator("[data-key=round-error]")).to_have_text(f"Not saved: {refusal}")
    assert len(held) >= 1
    for route in held:
        route.continue_()
    page.locator("[data-key=round-form][data-pending=false]").wait_for()
    expect(page.locator("[data-key=error-0]")).to_have_text(refusal)
    expect(page.locator("[data-key=round-error]")).to_have_text(f"Not saved: {refusal}")
    page.unroute("**/preview")
    expected_refusals(problems, 400)


def test_two_devices_on_one_sheet_a_stale_save_reloads_and_nothing_is_lost(
    server: Server, browser: Browser, problems: list[str], artifacts: Path
) -> None:
    players = ["Ana", "Ben"]
    first = open_page(browser, DESKTOP, problems)
    sheet_id = create_sheet(first, server.base, "Two devices", players)
    second = fresh_page(browser, PHONE, problems)  # another device: by an edit link
    link = api(server, "POST", f"/api/scorepad/sheets/{sheet_id}/share", {"access": "edit"})
    second.goto(f"{server.base}{link['link']}")
    second.wait_for_selector("[data-key=round-form]")
    type_round(first, players, "Ana", {"Ana": "3", "Ben": "8"})
    second.fill("[data-key=total-0]", "6")
    second.fill("[data-key=total-1]", "2")
    second.check("[data-key=ender-1]")
    second.click("[data-key=save-round]")
    expect(second.locator("[data-key=notice]")).to_contain_text("changed elsewhere")
    assert table_scores(second, 1) == [3, 8]
    assert second.input_value("[data-key=total-0]") == "6"  # what was typed is kept
    second.screenshot(path=artifacts / "scorepad-conflict-phone.png", full_page=True)
    before = revision(second)
    second.click("[data-key=save-round]")
    saved_after(second, before)
    assert table_scores(second, 2) == [6, 2]
    expected_refusals(problems, 409)
    # on the desktop, each row has its edit and delete (asked first)
    first.reload()
    first.click("[data-key=edit-round-1]")
    first.fill("[data-key=total-1]", "1")
    before = revision(first)
    first.click("[data-key=save-round]")
    saved_after(first, before)
    assert table_scores(first, 1) == [6, 1]
    first.click("[data-key=delete-round-2]")
    expect(first.locator("tr[data-round='2'] .confirm")).to_have_text(
        "Delete round 2? The later rounds move up one."
    )
    before = revision(first)
    first.click("[data-key=confirm-delete-round-2]")
    saved_after(first, before)
    assert first.locator("tr[data-round]").count() == 1
    assert totals_shown(first) == [6, 1]


def test_the_scorepad_in_spanish(
    server: Server, browser: Browser, problems: list[str], artifacts: Path
) -> None:
    players = ["Ana", "Ben", "Cleo"]
    page = open_page(browser, PHONE, problems)
    create_sheet(page, server.base, "En español", players)
    type_round(page, players, "Ben", {"Ana": GRID_14, "Ben": "5", "Cleo": "5"})
    page.select_option("#language", "es")
    expect(page.locator("#pad-form-title")).to_have_text("Ronda 2")
    expect(page.locator("[data-key=reason]")).to_have_text(
        "Ben cerró con 5 y Cleo tiene 5, que no es más: se dobla a 10"
    )
    expect(page.locator("[data-key=grid-explain]")).to_have_text(
        "tres 7, eliminada: 0; 5 + -1 + 0 = 4; 2 + 3 + -2 = 3; 4 + 1 + 2 = 7: 14"
    )
    expect(page.locator("[data-key=leader]")).to_have_text("Va primero: Cleo con 5")
    page.screenshot(path=artifacts / "scorepad-spanish-phone.png", full_page=True)
    page.goto(f"{server.base}/scorepad")
    expect(page.locator("#pad-new-title")).to_have_text("Una hoja nueva")


def test_a_round_saved_right_before_the_server_is_killed_is_there_after_a_restart(
    browser: Browser, problems: list[str], tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'skyjo.db'}"
    players = ["Ana", "Ben"]
    live = Server(url)
    try:
        page = open_page(browser, DESKTOP, problems)
        sheet_id = create_sheet(page, live.base, "Killed", players)
        type_round(page, players, "Ben", {"Ana": GRID_14, "Ben": "5"})
        assert table_scores(page, 1) == [14, 5]
        page.locator("[data-key=round-form][data-pending=false]").wait_for()
        page.context.close()
    finally:
        live.kill()  # SIGKILL right after the page showed the round saved
    again = Server(url)
    try:
        page = open_page(browser, DESKTOP, problems)
        page.goto(f"{again.base}/scorepad/{sheet_id}")
        page.wait_for_selector("tr[data-round='1']")
        assert table_scores(page, 1) == [14, 5]
        expect(page.locator("[data-key=grid-explain]")).to_contain_text("three 7s, cleared, so 0")
        page.goto(f"{again.base}/scorepad")
        expect(page.locator(f".pad-sheet[data-id='{sheet_id}'] .meta")).to_contain_text("1 round")
    finally:
        again.kill()


def test_a_refusal_is_written_in_spanish_on_a_spanish_page(
    server: Server, browser: Browser, problems: list[str], artifacts: Path
) -> None:
    players = ["Ana", "Ben"]
    context = browser.new_context(viewport=DESKTOP, locale="es-ES", reduced_motion="reduce")
    page = as_browser(context.new_page())
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    page.on("console", lambda m: m.type == "error" and problems.append(f"console: {m.text}"))
    page.goto(f"{server.base}/scorepad")
    page.fill("[data-key=new-player-0]", "Ana")
    page.click("[data-key=create]")
    expect(page.locator("[data-key=new-error]")).to_have_text(
        "Al Skyjo juegan de 2 a 8 jugadores, no 1"
    )
    sheet_id = create_sheet(page, server.base, "Errores", players)
    assert page.get_attribute("html", "lang") == "es"
    wrong = "7 13 2 4 / 7 -1 3 1 / 7 0 -2 2"
    type_round(page, players, "Ben", {"Ana": wrong, "Ben": "5"}, save=False)
    spanish = (
        "Cartas de Ana: la carta de la fila 1, columna 2 es 13, pero las cartas van de -2 a 12"
    )
    expect(page.locator("[data-key=error-0]")).to_have_text(spanish)  # the preview's, as typed
    page.click("[data-key=save-round]")
    expect(page.locator("[data-key=round-error]")).to_have_text(f"No se guardó: ronda 1: {spanish}")
    expect(page.locator("[data-key=error-0]")).to_have_text(f"ronda 1: {spanish}")
    page.screenshot(path=artifacts / "scorepad-mistake-spanish-desktop.png", full_page=True)
    page.select_option("#language", "en")  # in English: the model's sentence, counted from 1
    message = "Ana's cards: the card at row 1, column 2 is 13, but cards go from -2 to 12"
    expect(page.locator("[data-key=round-error]")).to_have_text(f"Not saved: round 1: {message}")
    page.select_option("#language", "es")
    page.goto(f"{server.base}/scorepad/{sheet_id}")
    page.fill("[data-key=total-0]", "9")
    page.fill("[data-key=total-1]", "5")
    page.click("[data-key=save-round]")  # nobody marked as ender
    expect(page.locator("[data-key=round-error]")).to_have_text(
        "No se guardó: ronda 1: No se ha marcado quién cerró: marca quién cerró la ronda"
    )
    assert api(server, "GET", f"/api/scorepad/sheets/{sheet_id}")["revision"] == 1
    expected_refusals(problems, 400)
    context.close()


def test_a_sheet_is_shared_by_a_read_only_link_and_an_edit_link(
    server: Server, browser: Browser, problems: list[str], artifacts: Path
) -> None:
    players = ["Ana", "Ben"]
    owner = open_page(browser, DESKTOP, problems)
    sheet_id = create_sheet(owner, server.base, "Shared", players)
    type_round(owner, players, "Ben", {"Ana": GRID_14, "Ben": "5"})
    owner.click("[data-key=share]")
    read_link = owner.locator("[data-key=share-read]").input_value()
    edit_link = owner.locator("[data-key=share-edit]").input_value()
    assert (
        read_link.startswith(f"{server.base}/scorepad/{sheet_id}#key=") and edit_link != read_link
    )
    owner.screenshot(path=artifacts / "scorepad-share-desktop.png", full_page=True)
    owner.click("[data-key=share]")  # closed, then offered again: the same links
    owner.click("[data-key=share]")
    assert owner.locator("[data-key=share-edit]").input_value() == edit_link

    stranger = fresh_page(browser, PHONE, problems)  # the sheet's address, but no link
    stranger.goto(f"{server.base}/scorepad/{sheet_id}")
    expect(stranger.locator("[role=alert]")).to_have_text(f"There is no scoresheet {sheet_id}.")
    stranger.goto(f"{server.base}/scorepad")
    expect(stranger.locator(".pad-list .notice")).to_have_text("No scoresheet yet.")

    reader = fresh_page(browser, PHONE, problems)
    reader.goto(read_link)
    expect(reader.locator("[data-key=read-only]")).to_be_visible()
    assert "#" not in reader.url  # the key is kept by the page, not left in the address bar
    assert totals_shown(reader) == [14, 5]
    for control in ("round-form", "rename", "undo", "edit-round-1", "delete-round-1"):
        assert reader.locator(f"[data-key={control}]").count() == 0, control
    reader.screenshot(path=artifacts / "scorepad-read-only-phone.png", full_page=True)
    reader.click("[data-key=share]")  # a reader passes on the read-only link only
    reader.locator("[data-key=share-panel]").wait_for()
    assert reader.locator("[data-key=share-read]").count() == 1
    assert reader.locator("[data-key=share-edit]").count() == 0

    editor = fresh_page(browser, PHONE, problems)
    editor.goto(edit_link)
    editor.wait_for_selector("[data-key=round-form]")
    type_round(editor, players, "Ana", {"Ana": "3", "Ben": "8"})
    assert totals_shown(editor) == [17, 13]
    reader.reload()  # the key was remembered: the bare address opens it now
    reader.locator("tr[data-round='2']").wait_for()
    assert totals_shown(reader) == [17, 13]
    editor.goto(f"{server.base}/scorepad")
    expect(editor.locator(".pad-list .notice")).to_have_text("No scoresheet yet.")  # not theirs
    owner.goto(f"{server.base}/scorepad")
    expect(owner.locator(f".pad-sheet[data-id='{sheet_id}'] .meta")).to_contain_text("2 rounds")
    expected_refusals(problems, 404)


def test_undo_is_announced_and_the_skip_link_lands_on_the_rounds_form(
    server: Server, browser: Browser, problems: list[str]
) -> None:
    """Issue 46: after Undo the live region still said "Round 1 saved"; the skip
    link of a sheet landed on Rename, not on the round's form."""
    players = ["Ana", "Ben"]
    page = open_page(browser, DESKTOP, problems)
    create_sheet(page, server.base, "Undo night", players)
    type_round(page, players, "Ben", {"Ana": "10", "Ben": "5"})
    expect(page.locator("#announce")).to_contain_text("Round 1 saved.")
    before = revision(page)
    page.click("[data-key=undo]")
    saved_after(page, before)
    expect(page.locator("#announce")).to_contain_text("The last change is undone.")
    # Undo, now disabled (nothing more to undo), hands the focus to the round's form
    assert not page.is_enabled("[data-key=undo]") and focused(page) == "total-0"
    page.evaluate("() => document.activeElement?.blur()")
    page.focus("#skip")
    page.keyboard.press("Enter")
    assert focused(page) == "total-0"  # the round's first field, not Rename


def test_undo_keeps_the_focus_and_a_doubled_score_s_mark_is_said(
    server: Server, browser: Browser, problems: list[str]
) -> None:
    """Undo with more to undo keeps the focus on Undo (it fell to the page); the ender's
    mark, seen as "\u00d72*" when doubled, is said in words with its doubling."""
    players = ["Ana", "Ben"]
    page = open_page(browser, DESKTOP, problems)
    create_sheet(page, server.base, "Marks", players)
    type_round(page, players, "Ana", {"Ana": "10", "Ben": "5"})  # doubled: 20
    type_round(page, players, "Ben", {"Ana": "10", "Ben": "5"})  # not doubled
    ana, ben = (
        page.locator("tr[data-round='1'] td.ender"),
        page.locator("tr[data-round='2'] td.ender"),
    )
    assert ana.locator(".mark").inner_text().strip() == "\u00d72*"  # times 2
    assert ana.locator(".mark").get_attribute("aria-hidden") == "true"
    assert ana.locator(".sr-only").text_content() == " (Ana ended the round, score doubled)"
    assert ben.locator(".sr-only").text_content() == " (Ben ended the round)"
    before = revision(page)
    page.click("[data-key=undo]")
    saved_after(page, before)
    assert page.locator("tr[data-round='2']").count() == 0
    assert page.is_enabled("[data-key=undo]") and focused(page) == "undo"
    before = revision(page)
    page.keyboard.press("Enter")  # Undo again, from the keyboard
    saved_after(page, before)
    assert page.locator("tr[data-round='1']").count() == 0
    assert focused(page) == "total-0"
