"""What a game tells its players (issue 56), in a real browser: what the others did last
(their last changed card marked until their next turn, and that turn in one line under
their grid, in every language, never a live region of its own); a game's end that tells
(the places, ties shared; why it stopped; the running totals as a chart with a table for
screen readers; each player's numbers); and a finished game's replay that shows every card
(the record's decks), says "you" for this browser's seat and jumps to a player's turns."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from browsing import DESKTOP, SCREENS, SMALL, click_and_wait, on_one_screen, open_page
from i18n_js import run_js
from liveserver import Server
from playwright.sync_api import Browser, Page
from webclient import play_game

from skyjo.engine import DRAW, REVEAL, TAKE_DISCARD
from skyjo.web import app as web_app

STATIC = Path(web_app.__file__).parent / "static"
BOTS = [{"bot": "greedy"}, {"bot": "basic"}, {"bot": "expected"}]
BOT_NAMES = ["Greedy bot", "Basic bot", "Expected bot"]
#: Every `update` the page's WebSockets receive, kept in `window.updates` (what the board
#: was told, for a test to compare the marks with).
KEEP_UPDATES = """
window.updates = [];
const Native = window.WebSocket;
window.WebSocket = class extends Native {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "update") window.updates.push(message);
    });
  }
};
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The live server, its scripted player free to move as fast as it likes (SKYJO_RATE),
    its bots thinking in threads (no worker processes to wait for)."""
    live = Server(
        f"sqlite:///{tmp_path_factory.mktemp('story') / 'skyjo.db'}",
        SKYJO_RATE="1000",
        SKYJO_BOT_PROCESSES="0",
    )
    yield live
    live.kill()


@pytest.fixture(scope="module")
def finished(server: Server) -> dict[str, Any]:
    """A finished game of four: seat 0 a person who typed no name (the server's "Player 1",
    random legal moves), three bots, to 70, over more than one round (a game ending in its
    first is set aside); its code and seat token, its replay and its record."""
    for attempt in range(6):
        room = server.post(
            "/api/rooms", {"seats": [{}, *BOTS], "rules": {"target_score": 70}, "lobby": False}
        )
        player = server.conn(room["code"])
        player.hello(room["token"])
        play_game(player, {0: player}, random.Random(attempt))
        player.close()
        base = f"{server.base}/api/rooms/{room['code']}"
        replay = httpx2.get(f"{base}/replay", timeout=10).json()
        if len(replay["rounds"]) > 1:
            record = httpx2.get(f"{base}/record", timeout=10).json()
            return {
                "code": room["code"],
                "token": room["token"],
                "replay": replay,
                "record": record,
            }
    raise AssertionError("six games to 70 in a row ended in their first round")


def seated(page: Page, code: str, token: str, language: str = "en", theme: str = "light") -> Page:
    """`page` as the browser that holds seat 0 of room `code`, in `language` and `theme`."""
    page.add_init_script(
        f"localStorage.setItem('skyjo:seat:{code}', JSON.stringify({{token: '{token}', seat: 0}}));"
        f"localStorage.setItem('skyjo:language', '{language}');"
        f"localStorage.setItem('skyjo:theme', '{theme}');"
    )
    return page


# --- what the others did last ------------------------------------------------------------------


def last_turns(updates: list[dict[str, Any]]) -> dict[int, list[dict[str, Any]]]:
    """Each seat's last finished turn of the round, from the updates the page received: its
    opening reveals, or a card taken (or drawn) and placed, with what that placing did."""
    done: dict[int, list[dict[str, Any]]] = {}
    playing: dict[int, list[dict[str, Any]]] = {}
    for event in (e for update in updates for e in update["events"]):
        seat = event.get("player")
        if event["kind"] == "dealt":
            done, playing = {}, {}
        elif event["kind"] == "revealed" and "position" in event:
            before = done.get(seat, [])
            pair = len(before) == 1 and before[0]["kind"] == "revealed"
            done[seat] = [*before, event] if pair else [event]
        elif event["kind"] in ("drew", "took_discard"):
            playing[seat] = [event]
        elif event["kind"] in ("discarded", "exchanged", "flipped") and seat in playing:
            playing[seat].append(event)
            if event["kind"] != "discarded":
                done[seat] = playing.pop(seat)
        elif event["kind"] in ("column_cleared", "final_turns") and seat in done:
            done[seat].append(event)
    return done


def a_card(card: int) -> str:
    return f"an {card}" if card in (8, 11) else f"a {card}"


def english_line(turn: list[dict[str, Any]]) -> str:
    """The line the board writes under a seat for its turn `turn`, in English."""
    first, second = turn[0], turn[1] if len(turn) > 1 else None
    if first["kind"] == "revealed":
        cards = [a_card(e["card"]) for e in turn if e["kind"] == "revealed"]
        line = "Turned up " + " and ".join(cards)
    elif first["kind"] == "took_discard":
        line = (
            f"Took the {second['card']} from the discard, swapped it for the {second['cards'][0]}"
        )
    elif second["kind"] == "exchanged":
        line = f"Drew {a_card(second['card'])}, swapped it for the {second['cards'][0]}"
    else:
        line = f"Drew {a_card(second['card'])}, discarded it, turned up {a_card(turn[2]['card'])}"
    if any(e["kind"] == "column_cleared" for e in turn):
        line += ", cleared a column"
    if any(e["kind"] == "final_turns" for e in turn):
        line += ": every card up"
    return line


def placed(turn: list[dict[str, Any]]) -> int:
    """The grid index of the card a turn changed last."""
    row, col = [e for e in turn if e["kind"] in ("revealed", "exchanged", "flipped")][-1][
        "position"
    ]
    return row * 4 + col


def check_marks(page: Page) -> None:
    """Each bot's last changed card, and only it, is marked (a ring, a tag, and its name
    says so), its turn written under its grid; your own grid has no mark."""
    turns = last_turns(page.evaluate("() => window.updates"))
    for seat in (1, 2, 3):
        grid = page.locator(f".seat:has([data-key=cell-{seat}-0])")
        marked = grid.locator(".card.last-move")
        assert marked.count() == 1, seat
        assert marked.get_attribute("data-key") == f"cell-{seat}-{placed(turns[seat])}"
        assert marked.get_attribute("aria-label").endswith("(changed last)")
        assert marked.locator(".last-tag").count() == 1
        line = page.locator(f"[data-key=last-{seat}]")
        assert line.inner_text() == english_line(turns[seat])
        # the live region tells each turn once; the line is no live region of its own
        assert line.evaluate("el => el.closest('[aria-live], [role=status], [role=log]')") is None
    assert page.locator(".mine .card.last-move").count() == 0


def my_turn(page: Page) -> None:
    """Wait until it is my turn to take a card (every bot has played since my last one)."""
    page.wait_for_selector("[data-key=choice-draw]")


def test_the_others_last_moves_stay_marked_and_are_told_in_a_line(
    server: Server, browser: Browser, problems: list[str], artifacts: Path
) -> None:
    room = server.post(
        "/api/rooms",
        {"seats": [{"name": "Zoë"}, *BOTS], "rules": {"target_score": 400}, "lobby": False},
    )
    page = seated(open_page(browser, SCREENS["phone"], problems), room["code"], room["token"])
    page.add_init_script(KEEP_UPDATES)
    page.goto(f"{server.base}/r/{room['code']}")
    for _ in range(2):  # the opening: two cards turned up
        page.wait_for_selector(".mine button.card.playable")
        click_and_wait(page, ".mine button.card.playable")
    my_turn(page)
    check_marks(page)
    page.screenshot(path=artifacts / "story-last-moves-phone.png")
    for _ in range(2):  # each bot plays again: its mark moves to its new card
        click_and_wait(page, "[data-key=choice-draw]")
        click_and_wait(page, ".mine button.card.playable")
        my_turn(page)
        check_marks(page)
    for name, size in [*SCREENS.items(), ("small", SMALL)]:
        page.set_viewport_size(size)
        on_one_screen(page, [".seat", ".card.last-move", "[data-key=choice-draw]"])
        page.screenshot(path=artifacts / f"story-last-moves-{name}.png")
    page.evaluate("() => { document.documentElement.dataset.theme = 'dark'; }")
    page.set_viewport_size(SCREENS["phone"])
    page.screenshot(path=artifacts / "story-last-moves-phone-dark.png")


#: A seat's turns, as the server tells them to another seat (the drawn card hidden).
TURNS = [
    [{"kind": "revealed", "player": 1, "card": 5, "position": [0, 0]},
     {"kind": "revealed", "player": 1, "card": 8, "position": [1, 2]}],
    [{"kind": "took_discard", "player": 1, "card": 3},
     {"kind": "exchanged", "player": 1, "card": 3, "position": [2, 1], "cards": [10]}],
    [{"kind": "drew", "player": 1},
     {"kind": "exchanged", "player": 1, "card": 7, "position": [0, 3], "cards": [12]},
     {"kind": "column_cleared", "player": 1, "card": 7, "position": [0, 3], "cards": [7, 7, 7]}],
    [{"kind": "drew", "player": 1},
     {"kind": "discarded", "player": 1, "card": 9},
     {"kind": "flipped", "player": 1, "card": 11, "position": [1, 1]},
     {"kind": "final_turns", "player": 1}],
]  # fmt: skip


@pytest.mark.parametrize("language", ["en", "es", "fr", "de"])
def test_a_last_move_is_one_line_in_every_language(language: str) -> None:
    """moves.js: a turn's line, without the name (it is under the player's grid), naming
    its cards; a turn still being played keeps the previous one shown, a new deal none."""
    lines = run_js(
        STATIC / "moves.js",
        "input.map((events) => mod.moveLine(mod.lastMoves(events).get(1).events))",
        TURNS,
        saved=language,
    )
    english = run_js(
        STATIC / "moves.js",
        "input.map((events) => mod.moveLine(mod.lastMoves(events).get(1).events))",
        TURNS,
    )
    for line, turn in zip(lines, TURNS, strict=True):
        cards = {str(e["card"]) for e in turn if "card" in e and e["kind"] != "column_cleared"}
        assert all(card in line for card in cards), (language, line)
        assert "Greedy" not in line and line[0].isupper()
    assert len(set(lines)) == len(TURNS)
    assert (lines == english) == (language == "en")
    kept = run_js(
        STATIC / "moves.js",
        "[...mod.lastMoves(input).entries()].map(([seat, m]) => [seat, m.position])",
        [*TURNS[1], {"kind": "drew", "player": 1}],  # a card drawn, not placed yet
    )
    assert kept == [[1, [2, 1]]]
    dealt = run_js(STATIC / "moves.js", "mod.lastMoves(input).size", [*TURNS[1], {"kind": "dealt"}])
    assert dealt == 0


# --- the game's end ----------------------------------------------------------------------------


def final(replay: dict[str, Any]) -> dict[str, Any]:
    """The last frame's observation: the totals and every round's result."""
    return replay["frames"][-1]["observation"]


#: Every player's columns cleared counted (the room's replay came): no cell without its number.
COUNTED = """() => [...document.querySelectorAll('[data-stat=columns]')]
  .every((cell) => /^[0-9]+$/.test(cell.textContent))"""


def test_the_game_end_tells_the_places_why_it_stopped_the_totals_and_the_numbers(
    finished: dict[str, Any], server: Server, browser: Browser, problems: list[str], artifacts: Path
) -> None:
    code, replay = finished["code"], finished["replay"]
    obs = final(replay)
    totals, results = obs["totals"], obs["results"]
    target = replay["rules"]["target_score"]
    names = ["You", *BOT_NAMES]
    page = seated(open_page(browser, SCREENS["phone"], problems), code, finished["token"])
    page.goto(f"{server.base}/r/{code}")
    page.wait_for_selector(".game-over .places")
    # the places, best first, seats of equal totals sharing the better place
    shown = [
        [cell.strip() for cell in row.split("\t")]
        for row in page.locator(".places tbody tr").all_inner_texts()
    ]
    suffix = {1: "st", 2: "nd", 3: "rd"}
    expected = sorted(
        (
            [1 + sum(t < total for t in totals), names[seat], total]
            for seat, total in enumerate(totals)
        ),
        key=lambda place: (place[0], names.index(place[1])),
    )
    assert shown == [[f"{p}{suffix.get(p, 'th')}", name, str(total)] for p, name, total in expected]
    assert page.locator(".places tr.first").count() == sum(t == min(totals) for t in totals)
    # why it stopped: who reached the target, with their totals
    over = [f"{names[seat]} ({total})" for seat, total in enumerate(totals) if total >= target]
    assert over, totals
    reason = page.inner_text("[data-key=end-reason]")
    assert reason == f"The game ends when a total reaches {target}: " + (
        over[0] if len(over) == 1 else ", ".join(over[:-1]) + " and " + over[-1]
    )
    # the running totals: a line a player on the chart, and the numbers in a table
    assert page.locator("[data-key=end-chart] polyline").count() == 4
    running = [[sum(r["scores"][seat] for r in results[: n + 1]) for n in range(len(results))]
               for seat in range(4)]  # fmt: skip
    table = page.locator("[data-key=end-chart-table] tbody tr")
    assert [row.locator("td").all_inner_texts() for row in table.all()] == [
        [str(v) for v in values] for values in running
    ]
    assert [row.locator("th").inner_text() for row in table.all()] == names
    # the game's numbers; the columns cleared counted from the room's replay, once it came
    page.wait_for_function(COUNTED)
    cleared = [
        e["player"] for f in replay["frames"] for e in f["events"] if e["kind"] == "column_cleared"
    ]
    stats = page.locator("[data-key=end-stats]")  # a row a statistic, a column a player
    assert stats.locator("thead th").all_inner_texts() == names
    assert stats.evaluate("(t) => t.parentElement.scrollWidth <= t.parentElement.clientWidth")
    for seat in range(4):
        numbers = {key: stats.locator(f"[data-stat={key}][data-seat='{seat}']").inner_text()
                   for key in ("won", "ended", "doubled", "columns", "bestRound")}  # fmt: skip
        scores = [r["scores"][seat] for r in results]
        assert numbers == {
            "won": str(sum(r["scores"][seat] == min(r["scores"]) for r in results)),
            "ended": str(sum(r["ender"] == seat for r in results)),
            "doubled": str(sum(r["ender"] == seat and r["doubled"] for r in results)),
            "columns": str(cleared.count(seat)),
            "bestRound": str(min(scores)),
        }, seat
    page.screenshot(path=artifacts / "story-end-phone.png")
    page.locator("[data-key=game-story]").scroll_into_view_if_needed()
    page.screenshot(path=artifacts / "story-end-phone-chart.png")
    for name, size in [("desktop", SCREENS["desktop"]), ("small", SMALL)]:
        page.set_viewport_size(size)
        page.screenshot(path=artifacts / f"story-end-{name}.png")


@pytest.mark.parametrize(("language", "theme"), [("es", "dark"), ("fr", "light"), ("de", "dark")])
def test_the_game_end_tells_it_in_every_language(
    finished: dict[str, Any],
    server: Server,
    browser: Browser,
    problems: list[str],
    artifacts: Path,
    language: str,
    theme: str,
) -> None:
    code = finished["code"]
    target = str(finished["replay"]["rules"]["target_score"])
    page = seated(open_page(browser, DESKTOP, problems), code, finished["token"], language, theme)
    page.goto(f"{server.base}/r/{code}")
    page.wait_for_selector(".game-over .places")
    ordinal = {"es": "1.º", "fr": "1er", "de": "1."}[language]
    assert page.locator(".places tbody tr").first.locator(".place").inner_text() == ordinal
    reason = page.inner_text("[data-key=end-reason]")
    assert target in reason and "The game ends" not in reason
    assert "Totals" not in page.inner_text("#end-chart-title")
    page.screenshot(path=artifacts / f"story-end-{language}-{theme}-desktop.png")
    page.set_viewport_size(SCREENS["phone"])
    page.screenshot(path=artifacts / f"story-end-{language}-{theme}-phone.png")


# --- the replay ---------------------------------------------------------------------------------


def turn_starts(replay: dict[str, Any], seat: int) -> list[int]:
    """The frames where `seat`'s turns begin: the one before each of its first moves of a
    turn (its first opening reveal, a card drawn or the discard taken)."""
    frames = replay["frames"]
    starts = []
    for i in range(1, len(frames)):
        action, before = frames[i]["action"], frames[i - 1]
        if frames[i]["seat"] != seat or action is None:
            continue
        reveal = REVEAL <= action < REVEAL + 12
        again = (
            reveal
            and before["seat"] == seat
            and before["action"] is not None
            and before["action"] < 12
        )
        if (reveal and not again) or action in (DRAW, TAKE_DISCARD):
            starts.append(i - 1)
    return starts


def shown_step(page: Page) -> int:
    return int(page.get_attribute("#main", "data-number") or -1)


def wait_step(page: Page, step: int) -> None:
    page.wait_for_function(
        "n => Number(document.getElementById('main').dataset.number) === n", arg=step
    )


def test_a_finished_game_s_replay_shows_every_card_says_you_and_follows_turns(
    finished: dict[str, Any], server: Server, browser: Browser, problems: list[str], artifacts: Path
) -> None:
    code, replay, record = finished["code"], finished["replay"], finished["record"]
    page = seated(open_page(browser, DESKTOP, problems), code, finished["token"])
    page.goto(f"{server.base}/r/{code}/replay?step=40")
    page.wait_for_selector(".replay-controls")
    wait_step(page, 40)
    # every card: those face down at the table shown from the record's deck, framed apart
    assert page.locator(".seat .card.down").count() == 0
    deck = record["rounds"][replay["frames"][40]["observation"]["round"]]["deck"]
    grids = replay["frames"][40]["observation"]["grids"]
    hidden = [
        (s, k)
        for s, grid in enumerate(grids)
        for k, v in enumerate(cell for row in grid for cell in row)
        if v is None
    ]
    assert hidden and page.locator(".seat .card.peek").count() == len(hidden)
    for seat, k in hidden:
        card = page.locator(f".seat [data-key=cell-{seat}-{k}]")
        assert card.get_attribute("data-value") == str(deck[seat * 12 + k])
        assert "face down at the table" in card.get_attribute("aria-label")
    # this browser's seat is "you", by its name on its grid
    assert page.inner_text(".seat:has([data-key=cell-0-0]) .name") == "Player 1"
    assert page.inner_text(".seat:has([data-key=cell-0-0]) .you") == "(you)"
    assert page.locator("[data-key=replay-follow] option:checked").inner_text() == "You"
    page.screenshot(path=artifacts / "story-replay-desktop.png")
    # your turns, by the keyboard (Page Down, Page Up) and by the buttons
    mine = turn_starts(replay, 0)
    later = [i for i in mine if i > 40]
    page.keyboard.press("PageDown")
    wait_step(page, later[0])
    page.click("[data-key=replay-next-turn]")
    wait_step(page, later[1])
    page.click("[data-key=replay-prev-turn]")
    wait_step(page, later[0])
    assert replay["frames"][later[0]]["observation"]["current_player"] == 0
    # another player's turns
    page.select_option("[data-key=replay-follow]", "2")
    basic = turn_starts(replay, 2)
    page.click("[data-key=replay-prev-turn]")
    wait_step(page, [i for i in basic if i < later[0]][-1])
    page.click("[data-key=replay-first]")
    wait_step(page, 0)
    assert page.is_disabled("[data-key=replay-prev-turn]")
    page.keyboard.press("PageDown")
    wait_step(page, basic[0])
    assert shown_step(page) == basic[0]
    for name, size in [("phone", SCREENS["phone"]), ("small", SMALL)]:
        page.set_viewport_size(size)
        page.screenshot(path=artifacts / f"story-replay-{name}.png")
