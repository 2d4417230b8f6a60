"""The table on one screen (issue 28), in a real browser at a laptop's 1280x800, a
phone's 390x844 and the phone turned (844x390): during play no page scroll, every
grid, both piles, the card in hand, the prompt and the moves in view (at 8 seats too),
your own cards big enough to tap; the side panels in a column on a wide screen and in
a drawer on a phone; the round end on the table, waiting for "Next round". Screenshots
of each state go to tests/web/artifacts/layout-*.png. Every wait is on a condition of
the page, never on time."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from browsing import (
    SCREENS,
    SMALL,
    TABLE,
    click_and_wait,
    on_one_screen,
    open_page,
    play_my_turn,
    start_against_bots,
    step_number,
    widths,
)
from liveserver import Server
from playwright.sync_api import Browser, Page, expect
from webclient import Conn
from websockets.exceptions import ConnectionClosed

from skyjo.engine import DRAW, FLIP, NEXT_ROUND

#: The smallest a card of your own may be on a phone: a tap target (WCAG 2.5.5).
TAP = 44


def reveal_two(page: Page) -> None:
    """The round's opening: turn up two cards by clicking them."""
    for _ in range(2):
        page.wait_for_selector(".mine button.card.playable")
        click_and_wait(page, ".mine button.card.playable")


def check_screens(
    page: Page,
    artifacts: Path,
    name: str,
    selectors: list[str],
    tap: bool = True,
    small: list[str] | None = None,
) -> None:
    """At each of the three screens: nothing scrolls, `selectors` are all in view, your
    cards are big enough to tap on a phone (`tap`); a screenshot of each. On a 320 px
    phone too, all in view (`small` if given; your cards may be smaller there)."""
    page.set_viewport_size(SMALL)
    on_one_screen(page, selectors if small is None else small)
    page.screenshot(path=artifacts / f"layout-{name}-small.png")
    for screen, size in SCREENS.items():
        page.set_viewport_size(size)
        on_one_screen(page, selectors)
        if tap and screen != "desktop":
            mine = widths(page, ".mine .card")
            assert len(mine) == 12 and min(mine) >= TAP, (screen, mine)
        page.screenshot(path=artifacts / f"layout-{name}-{screen}.png")


@pytest.mark.parametrize(("players", "language"), [(2, "en"), (4, "en"), (4, "es")])
def test_the_whole_table_is_on_one_screen_during_your_turn(
    server: Server,
    browser: Browser,
    problems: list[str],
    artifacts: Path,
    players: int,
    language: str,
) -> None:
    page = open_page(browser, SCREENS["phone"], problems)
    page.goto(server.base)
    page.select_option("#language", language)  # kept by the browser for the room
    start_against_bots(page, server.base, players - 1)
    name = f"{players}p" + ("" if language == "en" else f"-{language}")
    assert page.locator(".seat").count() == players
    reveal_two(page)
    page.wait_for_selector("[data-key=choice-draw]")
    check_screens(page, artifacts, f"{name}-your-turn", TABLE)
    assert page.locator(".card.pile").count() == 2  # the draw and discard piles
    click_and_wait(page, "[data-key=choice-draw]")
    assert page.locator(".held .card").count() == 1
    check_screens(page, artifacts, f"{name}-card-in-hand", [*TABLE, ".held .card"])
    assert page.locator(".card.pile").count() == 3  # the card in hand is in view too


def test_at_eight_seats_the_others_are_condensed_and_yours_stay_big(
    server: Server, browser: Browser, problems: list[str], artifacts: Path
) -> None:
    page = open_page(browser, SCREENS["phone"], problems)
    start_against_bots(page, server.base, 7, target=400)  # the first round does not end it
    assert page.locator(".others .seat").count() == 7
    reveal_two(page)
    page.wait_for_selector("[data-key=choice-draw]")
    # your grid, the piles, the prompt and the moves; the others' grids fit as well
    check_screens(page, artifacts, "8p-your-turn", [".mine .card", *TABLE])
    for screen, size in SCREENS.items():
        page.set_viewport_size(size)
        others, mine = widths(page, ".others .card"), widths(page, ".mine .card")
        assert max(others) < min(mine), (screen, others, mine)  # condensed, not pushed away
    click_and_wait(page, "[data-key=choice-draw]")
    check_screens(page, artifacts, "8p-card-in-hand", [".mine .card", *TABLE, ".held .card"])
    turns = 0
    while play_my_turn(page):  # to the round's end: eight grids and eight rows of scores
        turns += 1
        assert turns < 100
    assert page.locator(".seat").count() == 8
    assert page.locator(".seat .card.down").count() == 0
    assert page.locator(".round-over tbody tr").count() == 8
    # on a 320 px phone the summary's table scrolls inside it, the grids keep their room
    shown = [".prompt", ".seat", ".round-over .explain", "[data-key=choice-next]"]
    check_screens(
        page, artifacts, "8p-round-end", [*shown, ".round-over tbody tr"], tap=False, small=shown
    )


def test_someone_else_s_turn_is_on_one_screen(
    server: Server, browser: Browser, problems: list[str], artifacts: Path
) -> None:
    """Ben, a human who joined by the link, is to move: the board waits for him."""
    seats = [{"name": "Ana"}, {"name": "Ben"}, {"bot": "greedy"}]
    room = server.post("/api/rooms", {"seats": seats, "lobby": False})
    ben = server.conn(room["code"])
    ben.hello(server.post(f"/api/rooms/{room['code']}/join")["token"])
    page = open_page(browser, SCREENS["phone"], problems)
    page.goto(server.base)
    keep = "([code, seat]) => localStorage.setItem(`skyjo:seat:${code}`, JSON.stringify(seat))"
    page.evaluate(keep, [room["code"], {"token": room["token"], "seat": 0}])  # Ana's browser
    page.goto(f"{server.base}/r/{room['code']}")
    reveal_two(page)
    expect(page.locator(".prompt")).to_have_text("Ben is turning up two cards")
    check_screens(page, artifacts, "others-turn", [".seat", ".card.pile", ".prompt"])
    assert page.locator(".choice, .mine button.card").count() == 0  # nothing to play
    ben.close()


def test_the_side_panels_are_a_drawer_on_a_phone_and_a_column_on_a_laptop(
    server: Server, browser: Browser, problems: list[str], artifacts: Path
) -> None:
    page = open_page(browser, SCREENS["phone"], problems)
    start_against_bots(page, server.base, 2)
    reveal_two(page)
    page.wait_for_selector("[data-key=choice-draw]")
    log = page.locator(".log")
    expect(log).to_be_hidden()  # the table has the whole screen
    tab = page.locator("[data-key=tab-log]")
    assert tab.get_attribute("aria-expanded") == "false"
    assert tab.get_attribute("aria-controls") == "side"
    tab.click()
    expect(log).to_be_visible()
    assert tab.get_attribute("aria-expanded") == "true"
    expect(page.locator("[data-key=drawer-close]")).to_be_focused()
    assert page.locator(".log li").count() >= 6
    on_one_screen(page, [".side", ".log"])  # the drawer scrolls inside itself, not the page
    page.screenshot(path=artifacts / "layout-drawer-log-phone.png")
    page.keyboard.press("Escape")  # closes it, and the focus goes back to its button
    expect(log).to_be_hidden()
    expect(page.locator("[data-key=tab-log]")).to_be_focused()
    page.click("[data-key=tab-scores]")
    expect(page.locator(".side .scores")).to_be_visible()
    expect(log).to_be_hidden()  # one panel at a time
    page.click("[data-key=tab-chat]")
    page.fill("[data-key=chat-input]", "hello table")
    page.keyboard.press("Enter")
    expect(page.locator(".chat li")).to_have_text("Zoë: hello table")
    page.click("[data-key=drawer-close]")
    expect(page.locator(".side")).to_be_hidden()
    page.click("[data-key=tab-room]")
    assert "First to 100" in page.inner_text(".room-info .rules")
    page.screenshot(path=artifacts / "layout-drawer-room-phone.png")
    page.click("[data-key=tab-room]")  # its button closes it too
    expect(page.locator(".side")).to_be_hidden()
    page.set_viewport_size(SCREENS["desktop"])
    for panel in (".room-info", ".scores", ".log", ".chat"):
        expect(page.locator(panel)).to_be_visible()  # side by side with the table
    expect(page.locator("[data-key=tab-log]")).to_be_hidden()
    on_one_screen(page, [*TABLE, ".side"])
    page.screenshot(path=artifacts / "layout-side-desktop.png")


#: Per row of the round's table with tags: the middle heights of the name and of its last tag.
ONE_LINE = """() => [...document.querySelectorAll(".round-scores tbody th")]
  .filter((th) => th.querySelector(".tag"))
  .map((th) => {
    const middle = (el) => { const r = el.getBoundingClientRect(); return (r.top + r.bottom) / 2; };
    return [middle(th.querySelector(".who")), middle([...th.querySelectorAll(".tag")].at(-1))];
  })"""


def test_the_round_end_is_on_the_table_and_waits_for_next_round(
    server: Server, browser: Browser, problems: list[str], artifacts: Path
) -> None:
    """Against a bot: the round end shows every grid face up, each seat's cards, score
    and total and the ender's explanation on one screen, and the next round is dealt
    only once the human says "Next round" (docs/web-protocol.md, `ready`)."""
    page = open_page(browser, SCREENS["phone"], problems)
    start_against_bots(page, server.base, 1, target=400)
    turns = 0
    while play_my_turn(page):
        turns += 1
        assert turns < 200
    end = step_number(page)
    panel = page.locator(".table .round-over")
    expect(panel).to_be_visible()
    assert "ended with" in panel.locator(".explain").inner_text()
    assert page.locator(".seat .card.down").count() == 0  # every grid revealed
    rows = panel.locator("tbody tr")
    assert rows.count() == 2 and rows.first.locator("th").inner_text().startswith("You")
    # the server waits for Zoë: a chat line goes there and back, a spectator who comes
    # in now is told the room waits for her, and still nothing was dealt
    page.click("[data-key=tab-chat]")
    page.fill("[data-key=chat-input]", "seen it?")
    page.keyboard.press("Enter")
    expect(page.locator(".chat li")).to_have_text("Zoë: seen it?")
    page.keyboard.press("Escape")
    watcher = server.conn(page.url.rsplit("/", 1)[-1])
    state = watcher.hello()
    watcher.close()
    assert (state["number"], state["waiting"], state["ready"]) == (end, [0], [])
    assert state["observation"]["phase"] == "round_over"
    assert step_number(page) == end
    assert page.inner_text(".prompt").startswith("Round over: press Next round")
    check_screens(
        page, artifacts, "round-end", [".prompt", ".seat", ".round-over", ".round-over .explain",
                                       ".round-over tbody tr", "[data-key=choice-next]"],
        tap=False,
    )  # fmt: skip
    for size in SCREENS.values():  # a seat's tags beside its name, not under it (on a small
        page.set_viewport_size(size)  # phone they may go under it together)
        lines = page.evaluate(ONE_LINE)
        assert lines and all(abs(who - tags) < 4 for who, tags in lines), (size, lines)
    page.set_viewport_size(SCREENS["phone"])
    assert step_number(page) == end
    page.keyboard.press("n")  # "Next round"
    page.wait_for_function(
        "n => Number(document.getElementById('main').dataset.number) > n", arg=end
    )
    expect(panel).to_have_count(0)
    page.wait_for_selector(".mine button.card.playable")  # the next round's opening
    assert page.locator(".seat .card.down").count() == 24


def plays_for(conn: Conn, seat: int, failures: list[BaseException]) -> None:
    """Ben's client, in a thread of its own: on his turn, turn up a card whenever he may
    (the round ends sooner), else draw or place; never "next round" (the test says it).
    Ends when its connection is closed."""
    try:
        while True:
            try:
                message = conn.receive()
            except TimeoutError:
                continue  # nothing for 30 s: Ana's browser is thinking
            obs = conn.obs
            if message["type"] not in ("state", "update") or obs is None:
                continue
            legal = obs["legal_actions"]
            if obs["current_player"] != seat or not legal or obs["phase"] == "round_over":
                continue
            flips = [a for a in legal if FLIP <= a < NEXT_ROUND]
            conn.move(flips[0] if flips else DRAW if DRAW in legal else legal[0])
    except ConnectionClosed:
        return
    except BaseException as failure:  # handed to the test's thread
        failures.append(failure)


def test_the_round_end_waits_for_each_connected_human_and_says_for_whom(
    server: Server, browser: Browser, problems: list[str], artifacts: Path
) -> None:
    """Ana (this browser) and Ben (a client of his own) at a round end: each sees "Next
    round"; once Ana said it she and a spectator see "Waiting for Ben…", and the next
    round is dealt when Ben says it too."""
    seats = [{"name": "Ana"}, {"name": "Ben"}]
    room = server.post(
        "/api/rooms", {"seats": seats, "rules": {"target_score": 400}, "lobby": False}
    )
    code = room["code"]
    ben = server.conn(code)
    ben.hello(server.post(f"/api/rooms/{code}/join")["token"])
    failures: list[BaseException] = []
    thread = threading.Thread(target=plays_for, args=(ben, 1, failures), daemon=True)
    thread.start()
    page = open_page(browser, SCREENS["phone"], problems)
    page.goto(server.base)
    keep = "([code, seat]) => localStorage.setItem(`skyjo:seat:${code}`, JSON.stringify(seat))"
    page.evaluate(keep, [code, {"token": room["token"], "seat": 0}])
    page.goto(f"{server.base}/r/{code}")
    page.wait_for_selector(".mine .grid.large")
    turns = 0
    while play_my_turn(page):
        turns += 1
        assert turns < 100 and not failures, failures
    end = step_number(page)
    waiting = page.locator(".round-over .waiting")
    expect(waiting).to_have_text("Waiting for Ben…")  # Ana has not said it yet either
    expect(page.locator("[data-key=choice-next]")).to_be_visible()
    page.click("[data-key=choice-next]")
    expect(page.locator("[data-key=choice-next]")).to_have_count(0)
    expect(page.locator(".prompt")).to_have_text("Waiting for Ben…")
    rows = page.locator(".round-over tbody tr")
    expect(rows.filter(has_text="You")).to_contain_text("✓ ready")
    expect(rows.filter(has_text="Ben")).to_contain_text("not yet")
    on_one_screen(page, [".seat", ".round-over", ".round-over .waiting"])
    page.screenshot(path=artifacts / "layout-round-end-waiting-phone.png")
    watcher = open_page(browser, SCREENS["turned"], problems)
    watcher.goto(f"{server.base}/r/{code}?watch")
    expect(watcher.locator(".round-over .waiting")).to_have_text("Waiting for Ben…")
    assert watcher.locator("[data-key=choice-next]").count() == 0  # a spectator only watches
    watcher.screenshot(path=artifacts / "layout-round-end-spectator-turned.png")
    assert step_number(page) == end and step_number(watcher) == end
    ben.ready()
    page.wait_for_function(
        "n => Number(document.getElementById('main').dataset.number) > n", arg=end
    )
    expect(page.locator(".round-over")).to_have_count(0)
    expect(watcher.locator(".round-over")).to_have_count(0)
    assert "Round 2" in page.inner_text(".room-head .rules")
    ben.close()
    thread.join(timeout=30)
    assert not thread.is_alive() and not failures, failures


def test_the_chat_drawer_counts_new_lines_and_keeps_what_you_type(
    server: Server, browser: Browser, problems: list[str]
) -> None:
    """On a phone the chat is behind a button that counts the lines not read yet; a line
    that comes while Ana types redraws the board without losing her words."""
    room = server.post("/api/rooms", {"seats": [{"name": "Ana"}, {"name": "Ben"}], "lobby": False})
    code = room["code"]
    ben = server.conn(code)
    ben.hello(server.post(f"/api/rooms/{code}/join")["token"])
    page = open_page(browser, SCREENS["phone"], problems)
    page.goto(server.base)
    keep = "([code, seat]) => localStorage.setItem(`skyjo:seat:${code}`, JSON.stringify(seat))"
    page.evaluate(keep, [code, {"token": room["token"], "seat": 0}])
    page.goto(f"{server.base}/r/{code}")
    page.wait_for_selector(".mine .grid.large")
    tab = page.locator("[data-key=tab-chat]")
    ben.send({"type": "chat", "text": "hello"})
    ben.send({"type": "chat", "text": "anyone?"})
    expect(tab.locator(".unread")).to_have_text("2")
    assert tab.locator(".unread").get_attribute("aria-label") == "2 new messages"
    tab.click()
    expect(page.locator(".chat li")).to_have_text(["Ben: hello", "Ben: anyone?"])
    expect(tab.locator(".unread")).to_have_count(0)  # read now
    page.click("[data-key=chat-input]")
    page.keyboard.type("hi B")
    ben.send({"type": "chat", "text": "still there?"})
    expect(page.locator(".chat li")).to_have_count(3)  # the board was drawn again...
    page.keyboard.type("en")  # ...and Ana types on where she was
    assert page.input_value("[data-key=chat-input]") == "hi Ben"
    page.keyboard.press("Enter")
    expect(page.locator(".chat li").last).to_have_text("Ana: hi Ben")
    ben.close()
