"""Keyboard and screen reader in a real browser (issue 30): after each kind of move the
focus is on the next sensible control, a skip link leads past the bar, each page has
one <h1>, and one live region that is never replaced tells what happened."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from browsing import DESKTOP, MY_TURN, open_page, start_against_bots, step_number
from liveserver import Server
from playwright.sync_api import Browser, Page
from test_scorepad_browser import create_sheet, type_round
from test_scorepad_browser import open_page as pad_page

FOCUSED = "() => { const el = document.activeElement; return el?.dataset?.key ?? el?.id ?? null; }"
IN_MY_GRID = "() => Boolean(document.activeElement?.closest('.mine'))"


def focused(page: Page) -> str | None:
    return page.evaluate(FOCUSED)


def press_and_wait(page: Page, key: str) -> None:
    """Press `key` on the focused control, then wait until the board shows a later step."""
    number = step_number(page)
    page.keyboard.press(key)
    page.wait_for_function(
        "n => Number(document.getElementById('main').dataset.number) > n", arg=number
    )


def said(page: Page) -> str:
    return page.inner_text("#announce")


def play_by_keyboard(page: Page) -> bool:
    """Play my turn with Enter alone, checking where the focus is at each step: one of my
    cards to turn up, else the draw pile, then my grid with the drawn card (the first
    exchange); on a second turn out of two, "discard" (f) moves it to a face-down card.
    False once the round (or the game) is over."""
    page.wait_for_selector(MY_TURN)
    if page.locator(".round-over, .game-over").count():
        return False
    if page.get_attribute(".board", "data-phase") == "reveal":
        assert page.evaluate(IN_MY_GRID), focused(page)
        press_and_wait(page, "Enter")
        return True
    assert focused(page) == "pile-draw"
    assert "Your turn" in said(page)
    press_and_wait(page, "Enter")
    assert page.evaluate(IN_MY_GRID), focused(page)
    if step_number(page) % 2 and page.locator("[data-key=choice-flip]").count():
        swap_target = focused(page)
        page.keyboard.press("f")  # discard the drawn card: the focus goes to a face-down card
        page.wait_for_function(f"() => document.activeElement?.dataset?.key !== {swap_target!r}")
        assert page.evaluate(IN_MY_GRID), focused(page)
        assert page.get_attribute(":focus", "aria-label").endswith("face down")
    press_and_wait(page, "Enter")
    return True


def test_a_round_plays_from_the_keyboard_with_the_focus_always_where_the_next_move_is(
    server: Server, browser: Browser, problems: list[str]
) -> None:
    page = open_page(browser, DESKTOP, problems)
    start_against_bots(page, server.base, 1, target=400)
    turns = 0
    while play_by_keyboard(page):
        turns += 1
        assert turns < 200
    # the round's end: the focus on "next round", the live region explains the round
    assert focused(page) == "choice-next"
    told = said(page)
    assert "Round 1 over" in told and "ended with" in told, told
    assert page.locator("#announce").count() == 1
    press_and_wait(page, "Enter")  # the next round is dealt: turn up a card
    page.wait_for_selector(".board[data-phase=reveal]")
    assert page.evaluate(IN_MY_GRID), focused(page)
    assert problems == []


#: A note, after every redraw of #main, of the step it shows and where the focus is then
#: (its data-key, or "BODY" when it fell to the page); every message of the live region,
#: with the step shown when it came.
WATCH = """() => {
  window.focusNotes = [];
  window.saidNotes = [];
  const main = document.getElementById('main');
  const step = () => Number(main.dataset.number);
  new MutationObserver(() => {
    const el = document.activeElement;
    const where = !el || el === document.body ? 'BODY' : el.dataset.key ?? el.className;
    window.focusNotes.push([step(), where]);
  }).observe(main, { childList: true, attributes: true });
  const region = document.getElementById('announce');
  new MutationObserver(() => window.saidNotes.push([step(), region.textContent]))
    .observe(region, { childList: true, characterData: true, subtree: true });
}"""
MY_DRAW = "() => document.activeElement?.dataset?.key === 'pile-draw'"


@pytest.fixture(scope="module")
def paced(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose bots wait 0.2 s a move (a real one waits longer): each of their
    steps comes on its own, and the board draws it."""
    live = Server(
        f"sqlite:///{tmp_path_factory.mktemp('paced') / 'skyjo.db'}", SKYJO_BOT_DELAY="0.2"
    )
    yield live
    live.kill()


def test_the_focus_stays_on_the_card_you_played_while_the_others_play(
    paced: Server, browser: Browser, problems: list[str]
) -> None:
    """Issue 46: a move that ends your turn (d, then f and Enter: the card turned up)
    leaves the focus on that card through every redraw of the others' turns, never on
    the page itself, until your next turn brings it to the draw pile."""
    page = open_page(browser, DESKTOP, problems)
    start_against_bots(page, paced.base, 2, target=400)
    page.evaluate(WATCH)
    while page.get_attribute(".board", "data-phase") == "reveal":
        play_by_keyboard(page)
    seen = 0
    for _ in range(3):
        page.wait_for_function(MY_DRAW)
        press_and_wait(page, "d")
        played = focused(page)
        if page.locator("[data-key=choice-flip]").count():
            page.keyboard.press("f")
            page.wait_for_function(f"() => document.activeElement?.dataset?.key !== {played!r}")
            played = focused(page)
        assert played and played.startswith("cell-0-"), played
        press_and_wait(page, "Enter")
        done = step_number(page)
        page.wait_for_function(MY_DRAW)
        notes = page.evaluate("window.focusNotes.splice(0)")
        after = [where for number, where in notes if number >= done]
        others = [where for number, where in notes if done <= number < step_number(page)]
        assert "BODY" not in after, notes
        assert set(others) <= {played}, notes  # the card played, a picture now
        seen += len(others)
    assert seen  # the others' turns were drawn (not all in the frame of my move)
    assert problems == []


def test_each_turn_of_a_bot_is_one_message_of_the_live_region(
    paced: Server, browser: Browser, problems: list[str]
) -> None:
    """Issue 46: a bot's turn (its draw, then its exchange or discard and flip; its two
    opening reveals) is told in one message, with your turn's prompt, not a message a
    step."""
    page = open_page(browser, DESKTOP, problems)
    start_against_bots(page, paced.base, 1, target=400)
    page.evaluate(WATCH)
    turns = 0
    while turns < 4 and play_by_keyboard(page):
        if page.get_attribute("#main", "data-focus"):
            continue  # my turn goes on: the second of my opening reveals
        done = step_number(page)
        mine_again = (
            f"n => Number(document.getElementById('main').dataset.number) > n && ({MY_DRAW})()"
        )
        page.wait_for_function(mine_again, arg=done)
        said_now = [
            text for number, text in page.evaluate("window.saidNotes.splice(0)") if number > done
        ]
        assert len(said_now) == 1, said_now
        told = said_now[0]
        assert "Greedy bot" in told and "drew a card." not in told, told
        assert told.rstrip(".").endswith("Take the discard or draw a card"), told
        turns += 1
    assert turns == 4


def test_the_game_end_focuses_its_panel_and_says_who_won(
    server: Server, browser: Browser, problems: list[str]
) -> None:
    page = open_page(browser, DESKTOP, problems)
    start_against_bots(page, server.base, 1, target=1)
    while play_by_keyboard(page):
        pass
    page.wait_for_selector(".game-over")
    assert focused(page) == "again"
    told = said(page)
    winners = page.inner_text(".game-over .winners")
    # the last round explained (with its doubling, if any), then the winners ("!" kept),
    # said once
    assert winners.endswith("!") and f"Game over: {winners}" in told, told
    assert "ended with" in told and "!." not in told, told
    assert told.count("Game over") == 1, told


def test_the_reveal_prompt_is_said_once_then_the_second_card_s_own(
    paced: Server, browser: Browser, problems: list[str]
) -> None:
    """The opening: "Turn up two of your cards" is said (and shown) for the first card
    only; after it, the prompt asks for one more card, and nothing says "two" again."""
    page = open_page(browser, DESKTOP, problems)
    start_against_bots(page, paced.base, 1, target=400)
    page.evaluate(WATCH)
    page.wait_for_selector(".mine button.card.playable")
    assert page.inner_text(".prompt") == "Your turn: Turn up two of your cards"
    assert "Turn up two of your cards" in said(page)
    page.evaluate("window.saidNotes.splice(0)")  # what was said before the first card
    press_and_wait(page, "Enter")
    page.wait_for_selector(".mine button.card.playable")
    assert page.inner_text(".prompt") == "Now turn up one more of your cards"
    told = [text for _, text in page.evaluate("window.saidNotes")]
    assert told and told[-1].rstrip("\u00a0").endswith("Now turn up one more of your cards."), told
    assert not any("two of your cards" in text for text in told), told
    press_and_wait(page, "Enter")
    page.wait_for_selector(".board:not([data-phase=reveal])")
    assert problems == []


def test_the_others_moves_are_told_briefly_through_one_region_that_stays(
    server: Server, browser: Browser, problems: list[str]
) -> None:
    page = open_page(browser, DESKTOP, problems)
    start_against_bots(page, server.base, 1, target=400)
    region = page.locator("#announce").element_handle()
    while (
        page.get_attribute(".board", "data-phase") == "reveal"
        or not page.locator("[data-key=pile-draw].playable").count()
    ):
        play_by_keyboard(page)
    # the bot (Greedy bot) has played a whole turn since: the region says so, then my turn
    told = said(page)
    assert "Greedy bot" in told, told
    assert told.rstrip(".").endswith("Take the discard or draw a card"), told
    assert " at [" not in told  # positions are told as the cards' own words
    assert page.evaluate("r => r.isConnected && r === document.getElementById('announce')", region)
    assert page.locator(".prompt[aria-live], .log [aria-live], .prompt[role]").count() == 0


def test_the_skip_link_leads_to_the_table_and_to_the_first_field(
    server: Server, browser: Browser, problems: list[str]
) -> None:
    page = open_page(browser, DESKTOP, problems)
    page.goto(server.base)
    page.wait_for_selector(".solo")
    page.keyboard.press("Tab")
    assert focused(page) == "skip" and page.inner_text("#skip") == "Skip to the content"
    assert page.eval_on_selector("#skip", "el => el.getBoundingClientRect().top") >= 0
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.closest('#main') !== null")
    start_against_bots(page, server.base, 1, target=400)
    first = "() => document.querySelector('a[href], button, input, select, [tabindex]').id"
    assert page.evaluate(first) == "skip"  # the first stop of the Tab order
    assert page.inner_text("#skip") == "Skip to the table"
    page.focus("#skip")
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.closest('.table') !== null")
    page.goto(f"{server.base}/scorepad")
    page.wait_for_selector(".pad-new")
    page.keyboard.press("Tab")
    assert page.inner_text("#skip") == "Skip to the sheet"
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.matches('#main input')")


def test_every_page_has_one_h1(server: Server, browser: Browser, problems: list[str]) -> None:
    page = open_page(browser, DESKTOP, problems)
    for path, ready in [("/", ".solo"), ("/replay", ".upload"), ("/scorepad", ".pad-new")]:
        page.goto(server.base + path)
        page.wait_for_selector(ready)
        assert page.locator("h1").count() == 1, path
    start_against_bots(page, server.base, 1, target=400)
    assert page.locator("h1").count() == 1
    room = server.post("/api/rooms", {"seats": [{"name": "Ann"}, {"name": "Ben"}]})
    page.goto(f"{server.base}/r/{room['code']}")
    page.wait_for_selector(".lobby, .join-room")
    assert page.locator("h1").count() == 1


def test_the_scorepad_says_a_saved_round_and_who_leads(
    server: Server, browser: Browser, problems: list[str]
) -> None:
    page = pad_page(browser, DESKTOP, problems)
    create_sheet(page, server.base, "Friday", ["Ana", "Ben"])
    type_round(page, ["Ana", "Ben"], "Ana", {"Ana": "5", "Ben": "9"})
    assert said(page) == "Round 1 saved. Leader: Ana with 5"
    assert page.locator("[aria-live]:not(#announce)").count() == 0


def test_the_lobby_says_when_a_friend_joins(
    server: Server, browser: Browser, problems: list[str]
) -> None:
    room = server.post("/api/rooms", {"seats": [{"name": "Ann"}, {"name": "Ben"}]})
    page = open_page(browser, DESKTOP, problems)
    seat = json.dumps({"token": room["token"], "seat": 0})
    page.add_init_script(f"localStorage.setItem('skyjo:seat:{room['code']}', {json.dumps(seat)})")
    page.goto(f"{server.base}/r/{room['code']}")
    page.wait_for_selector("[data-key=lobby-empty]")
    assert said(page) == ""
    server.post(f"/api/rooms/{room['code']}/join", {"name": "Ben"})
    page.wait_for_selector("[data-key=lobby-start]")
    assert said(page) == "Start the game"
