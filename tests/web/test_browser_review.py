"""A finished game's review (the coach) in a real browser: asked for from its replay,
followed while the server makes it, shown (each player's accuracy, points lost and
luck; the chances to win as a chart; the costliest decisions, each a jump to the table
it was decided at with the better move marked on the board), on a desktop and on a
phone, in English and in French; offered at a live room's end; a busy server said and
asked again. The review's routes are stubbed with the review `skyjo.analysis` makes of
the same record (fast, and what the server answers), and tried for real once."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx2
import pytest
from browsing import DESKTOP, PHONE, open_page
from i18n_js import run_js
from liveserver import Server
from playwright.sync_api import Browser, Page, Route

from skyjo.analysis import review
from skyjo.match import Match, Seat
from skyjo.rules import Rules
from skyjo.web import app as web_app

STATIC = Path(web_app.__file__).parent / "static"
REVIEWED = re.compile(r".*/api/(rooms|replays)/[^/]+/review$")


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    """A short game of two bots (to 20), with costly decisions to look at."""
    match = Match([Seat("Ana", "greedy"), Seat("Ben", "expected")], Rules(target_score=20), seed=3)
    while not match.over:
        match.advance()
    return match.record()


@pytest.fixture(scope="module")
def reviewed(record: dict[str, Any]) -> dict[str, Any]:
    """The record's review as the server keeps it (no playout checks: fast)."""
    return review(record, worlds=0).to_dict()


@pytest.fixture(scope="module")
def uploaded(server: Server, record: dict[str, Any]) -> dict[str, Any]:
    """The record uploaded: its replay, at its stable link."""
    return server.post("/api/replays", record)


def costliest(reviewed: dict[str, Any]) -> list[dict[str, Any]]:
    """The costly decisions (inaccuracies, mistakes, blunders), the costliest first."""
    costly = [
        d for d in reviewed["decisions"] if d["label"] in ("inaccuracy", "mistake", "blunder")
    ]
    return sorted(costly, key=lambda d: (-d["loss"], d["step"]))


def cell(decision: dict[str, Any], which: str) -> str:
    """The board's data-key of the card of a decision's move (`move` or `best`)."""
    (kind, place), = decision[which].items()  # fmt: skip
    assert kind != "take", "a placement is looked at here"
    return f"cell-{decision['seat']}-{place[0] * 4 + place[1]}"


class Stub:
    """The review's routes answered by the page's own route: POST starts it (202 and
    `answers[0]`), each GET answers the next of `answers` (the last one again after),
    every request noted in `asked`."""

    def __init__(self, page: Page, answers: list[tuple[int, dict[str, Any]]]) -> None:
        self.answers = answers
        self.asked: list[str] = []
        page.route(REVIEWED, self.answer)

    def answer(self, route: Route) -> None:
        self.asked.append(route.request.method)
        status, body = self.answers[min(len(self.asked) - 1, len(self.answers) - 1)]
        headers = {"Retry-After": "30"} if status == 503 else {}
        route.fulfill(
            status=status, headers=headers, content_type="application/json", body=json.dumps(body)
        )


def progress(done: int, total: int) -> tuple[int, dict[str, Any]]:
    return 202, {"status": "running", "done": done, "total": total}


def done(reviewed: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    return 200, {"status": "done", "review": reviewed}


#: An init script noting every text the review's progress line shows (`window.progress`),
#: for a test to read once the review is shown (no race with the polls).
PROGRESS = """
window.progress = [];
new MutationObserver(() => {
  const line = document.getElementById("review-progress-text");
  if (line && line.textContent !== window.progress.at(-1)) window.progress.push(line.textContent);
}).observe(document, { subtree: true, childList: true, characterData: true });
"""


def focused(page: Page) -> str | None:
    return page.evaluate("document.activeElement?.dataset?.key ?? null")


def test_a_review_is_asked_for_followed_and_shown(
    server: Server, browser: Browser, problems: list[str], uploaded: dict, reviewed: dict
) -> None:
    total = len(reviewed["decisions"])
    last = len(uploaded["frames"]) - 1
    page = open_page(browser, DESKTOP, problems)
    stub = Stub(
        page,
        [(202, {"status": "queued", "done": 0, "total": 0}), progress(73, total), done(reviewed)],
    )
    page.add_init_script(PROGRESS)
    page.goto(f"{server.base}{uploaded['link']}")
    page.wait_for_selector(".replay-controls")
    assert page.inner_text("[data-key=review-toggle]") == "Review the game"
    page.focus("[data-key=review-toggle]")
    page.keyboard.press("Enter")  # every control by keyboard
    page.wait_for_selector("[data-key=review-progress]")
    page.wait_for_selector(".review-players")
    assert stub.asked == ["POST", "GET", "GET"]  # one look a second until it is made
    assert page.evaluate("window.progress") == [
        "Asking the server for the review…",
        "Waiting for the server: other reviews come first…",
        f"Reviewing: 73 of {total} decisions",
    ]
    assert focused(page) == "review-title"  # the panel's heading, once it is there
    assert page.inner_text("[data-key=review-toggle]") == "Hide the review"

    names = page.locator(".review-players tbody th").all_inner_texts()
    assert [name.strip() for name in names] == ["Ana", "Ben"]
    ana = page.locator(".review-players tbody tr").first.locator("td").all_inner_texts()
    first = reviewed["players"][0]
    labels = first["labels"]
    assert ana == [f"{first['accuracy']:.1f}", f"{first['points_lost']:.2f}",
                   str(labels["inaccuracy"]), str(labels["mistake"]), str(labels["blunder"]),
                   f"{first['luck']:+.1f}"]  # fmt: skip
    assert page.locator(".review-chart polyline.series").count() == 2  # one line a player
    assert page.get_attribute(".review-chart", "role") == "img"
    assert "Ana, Ben" in (page.get_attribute(".review-chart", "aria-label") or "")
    rounds = len(uploaded["rounds"])
    assert page.locator("[data-key=review-chances] thead th").count() == 1 + rounds
    assert page.locator(".review-chart .round-line").count() == rounds - 1

    costly = costliest(reviewed)
    assert len(costly) > 10
    assert page.locator(".review-moment").count() == 10  # the ten costliest, then "Show all"
    page.click("[data-key=review-more]")
    assert page.locator(".review-moment").count() == len(costly)
    assert focused(page) == "review-more"
    page.click("[data-key=review-more]")
    assert page.locator(".review-moment").count() == 10

    worst = next(d for d in costly if "take" not in d["move"] and "take" not in d["best"])
    moment = f"[data-key=review-at-{worst['step']}]"
    words = page.inner_text(moment)
    when = f"Round {worst['round'] + 1}, turn {worst['turn'] + 1}"
    assert f"{when} · {worst['player']} · {worst['label']} (" in words
    page.focus(moment)
    page.keyboard.press("Enter")
    page.wait_for_selector(".card.review-better")
    assert page.inner_text(".replay-step") == f"Move {worst['step'] - 1} of {last}"
    assert f"step={worst['step'] - 1}" in page.url and "review" in page.url
    assert page.inner_text("[data-key=replay-rating]") == f"{worst['player']}: {worst['label']}"
    better, played = cell(worst, "best"), cell(worst, "move")
    assert "review-better" in (page.get_attribute(f".table [data-key={better}]", "class") or "")
    assert "review-played" in (page.get_attribute(f".table [data-key={played}]", "class") or "")
    assert (page.get_attribute(f".table [data-key={better}]", "aria-label") or "").endswith(
        "(the better move)"
    )
    (kind, (row, col)), = worst["best"].items()  # fmt: skip
    note = page.inner_text("[data-key=review-note]")
    assert f"Better: {kind_words(kind)} row {row + 1}, column {col + 1}" in note, note
    assert focused(page) == f"review-at-{worst['step']}"  # the focus stays on the list
    assert page.get_attribute(moment, "aria-current") == "step"

    page.keyboard.press("ArrowRight")  # the replay's keys still step it
    assert page.inner_text(".replay-step") == f"Move {worst['step']} of {last}"
    marked = any(d["step"] == worst["step"] + 1 for d in costly)  # the next decision's table
    assert page.locator(".card.review-better, .pile.review-better").count() == int(marked)
    page.click("[data-key=review-hide]")
    assert page.locator(".review").count() == 0
    assert focused(page) == "review-toggle"
    assert page.inner_text("[data-key=review-toggle]") == "Show the review"
    page.click("[data-key=review-toggle]")
    page.wait_for_selector(".review-players")
    assert stub.asked == ["POST", "GET", "GET"]  # shown again, not asked again


def kind_words(kind: str) -> str:
    return {"swap": "exchange the card at", "flip": "discard it and turn up the card at",
            "reveal": "turn up the card at"}[kind]  # fmt: skip


def test_a_review_on_a_phone_in_french(
    server: Server, browser: Browser, problems: list[str], uploaded: dict, reviewed: dict
) -> None:
    page = open_page(browser, PHONE, problems)
    page.add_init_script("localStorage.setItem('skyjo:language', 'fr')")
    stub = Stub(page, [done(reviewed)])  # a review the server has already: at once
    page.goto(f"{server.base}{uploaded['link']}?review")  # the address asks for it
    page.wait_for_selector(".review-players")
    assert stub.asked == ["POST"]
    assert page.inner_text("#review-title") == "Analyse de la partie"
    assert focused(page) == "review-title"
    first = reviewed["players"][0]
    accuracy = page.locator(".review-players tbody tr").first.locator("td").first.inner_text()
    assert accuracy == f"{first['accuracy']:.1f}".replace(".", ",")  # French decimals
    worst = costliest(reviewed)[0]
    button = page.locator(f"[data-key=review-at-{worst['step']}]")
    assert button.inner_text().startswith(
        f"?? Manche {worst['round'] + 1}, tour {worst['turn'] + 1} · Ana · gaffe ("
    )
    reason = page.locator(".review-moments .reason").first.inner_text()
    # the reason's kind and params, worded in French
    assert reason == run_js(STATIC / "review.js", "mod.reasonWords(input)", worst, saved="fr")
    assert reason != worst["reason"]
    assert page.evaluate("window.scrollY") > 0  # the panel is below the board
    button.click()
    page.wait_for_selector(".card.review-better")
    top = page.evaluate("document.querySelector('#main > .board').getBoundingClientRect().top")
    assert abs(top) < 2, top  # back up to the board, its better move in view
    assert "Mieux\u00a0: " in page.inner_text("[data-key=review-note]")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page scrolls sideways ({width} px)"


def finished_room(server: Server) -> str:
    """A room of two bots played to its end (to 20, watched over a WebSocket)."""
    room = server.post(
        "/api/rooms",
        {"seats": [{"bot": "greedy"}, {"bot": "basic"}], "rules": {"target_score": 20},
         "host_seat": None, "title": "Bots at play"},
    )  # fmt: skip
    watcher = server.conn(room["code"])
    watcher.hello()
    watcher.until(lambda m: m.get("observation", {}).get("phase") == "game_over")
    watcher.close()
    return str(room["code"])


def test_a_finished_room_offers_its_review(
    server: Server, browser: Browser, problems: list[str], reviewed: dict
) -> None:
    code = finished_room(server)
    page = open_page(browser, DESKTOP, problems)
    stub = Stub(page, [progress(0, 10), done(reviewed)])
    page.goto(f"{server.base}/r/{code}")
    page.wait_for_selector(".game-over [data-key=review-game]")
    assert page.get_attribute("[data-key=review-game]", "href") == f"/r/{code}/replay?review"
    page.click("[data-key=review-game]")
    page.wait_for_selector(".review-players")
    assert stub.asked == ["POST", "GET"]
    assert re.search(rf"/r/{code}/replay\?step=0&review$", page.url), page.url


def test_a_busy_server_is_said_and_asked_again(
    server: Server, browser: Browser, problems: list[str], uploaded: dict, reviewed: dict
) -> None:
    message = "the server is busy with 8 reviews: try again in a while"
    params = {"waiting": 8, "retry_after": 30}
    busy = {
        "error": {
            "code": "unavailable",
            "kind": "reviews_busy",
            "params": params,
            "message": message,
        }
    }
    page = open_page(browser, DESKTOP, problems)
    stub = Stub(page, [(503, busy), done(reviewed)])
    page.goto(f"{server.base}{uploaded['link']}")
    page.click("[data-key=review-toggle]")
    page.wait_for_selector("[data-key=review-error]")
    assert (
        page.inner_text("[data-key=review-error]")
        == "the server is busy with 8 reviews: try again in a while"
    )
    problems[:] = [p for p in problems if "status of 503" not in p]  # the refusal asked for
    page.click("[data-key=review-retry]")
    page.wait_for_selector(".review-players")
    assert stub.asked == ["POST", "POST"]


def test_a_look_that_finds_no_review_looks_again(
    server: Server, browser: Browser, problems: list[str], uploaded: dict, reviewed: dict
) -> None:
    """On a server of several processes a look may reach one that was not asked
    (`no_review`): the page looks again rather than giving up."""
    unknown = {"error": {"code": "no_review", "kind": "no_review", "params": {}, "message": "?"}}
    page = open_page(browser, DESKTOP, problems)
    stub = Stub(page, [progress(1, 2), (404, unknown), done(reviewed)])
    page.goto(f"{server.base}{uploaded['link']}")
    page.click("[data-key=review-toggle]")
    page.wait_for_selector(".review-players")
    assert stub.asked == ["POST", "GET", "GET"]
    assert page.locator("[data-key=review-error]").count() == 0
    problems[:] = [p for p in problems if "status of 404" not in p]  # the look that missed


def test_every_word_of_the_review_is_in_every_language() -> None:
    """review.js's and the replay's new sentences are in the tables (test_client_text.py
    reads the other modules): every key it names has its English sentence."""
    strings = run_js(STATIC / "i18n.js", "mod.STRINGS")
    code = (STATIC / "review.js").read_text("utf-8") + (STATIC / "replay.js").read_text("utf-8")
    used = set(re.findall(r'\bt\("([\w.]+)"', code))
    used |= {f"review.points.{form}" for form in ("one", "other")}
    used |= {
        f"review.label.{label}" for label in ("best", "good", "inaccuracy", "mistake", "blunder")
    }
    used |= {f"review.move.{kind}" for kind in ("deck", "discard", "swap", "flip", "reveal")}
    used |= {
        "review.playedCard",
        "review.betterCard",
        "review.inaccuracies",
        "review.mistakes",
        "review.blunders",
    }
    from skyjo.analysis.reasons import TEMPLATES

    used |= {f"reason.{kind}" for kind in TEMPLATES} | {"reason.noise"}  # every reason's kind
    assert {"review.title", "review.progress", "review.hide"} <= used
    for language in ("en", "es", "fr", "de"):
        assert used <= set(strings[language]), (language, sorted(used - set(strings[language])))


def test_the_server_s_own_review(
    server: Server, browser: Browser, problems: list[str], uploaded: dict, reviewed: dict
) -> None:
    """The real routes: the server reviews the uploaded record in a process of its own,
    the page following it until it is made."""
    path = f"{server.base}/api/replays/{uploaded['id']}/review"
    before = httpx2.get(path, timeout=10)
    assert before.status_code == 404 and before.json()["error"]["code"] == "no_review"
    page = open_page(browser, DESKTOP, problems)
    page.add_init_script(PROGRESS)
    page.goto(f"{server.base}{uploaded['link']}")
    page.click("[data-key=review-toggle]")
    page.wait_for_selector(".review-players", timeout=180_000)
    said = page.evaluate("window.progress")
    assert said[0] == "Asking the server for the review…", said
    total = len(reviewed["decisions"])
    for line in said[1:]:
        assert re.fullmatch(
            rf"Reviewing: \d+ of {total} decisions|Waiting for the server: .*", line
        )
    made = httpx2.get(path, timeout=10).json()["review"]
    shown = page.locator(".review-players tbody tr")
    for i, player in enumerate(made["players"]):
        cells = shown.nth(i).locator("th, td").all_inner_texts()
        assert [cells[0].strip(), cells[1]] == [player["name"], f"{player['accuracy']:.1f}"]
    assert page.locator(".review-chart polyline.series").count() == 2
    costly = [d for d in made["decisions"] if d["label"] in ("inaccuracy", "mistake", "blunder")]
    assert page.locator(".review-moment").count() == min(10, len(costly))


def test_a_costly_decision_is_tried_again(
    server: Server, browser: Browser, problems: list[str], uploaded: dict, reviewed: dict
) -> None:
    """ "Try it again" at a costly decision's table: every legal move as a button, in the
    board's order; the better move is not told until one is picked; the one picked says
    what it is worth against the best, as the review valued it; keyboard throughout."""
    page = open_page(browser, DESKTOP, problems)
    Stub(page, [done(reviewed)])
    worst = costliest(reviewed)[0]
    page.goto(f"{server.base}{uploaded['link']}?step={worst['step'] - 1}&review")
    page.wait_for_selector("[data-key=review-try]")
    page.focus("[data-key=review-try]")
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-key=review-trying]")
    assert focused(page) == "review-try-title"
    assert page.locator(".card.review-better, .pile.review-better").count() == 0  # not told yet
    assert page.locator("[data-key=review-note]").count() == 0
    buttons = page.locator(".review-options button")
    assert buttons.count() == len(worst["options"])  # every legal move
    best = min(o["points"] for o in worst["options"])
    for i in range(buttons.count()):
        words = buttons.nth(i).inner_text()
        option = next(o for o in worst["options"] if words.lower() == move_words(o["move"]))
        page.focus(f"[data-key=review-option-{i}]")
        page.keyboard.press("Enter")
        verdict = page.inner_text("[data-key=review-verdict]")
        assert verdict.startswith(f"{words}: ")
        assert f"{option['points']:.1f} point" in verdict
        assert option["label"] in verdict and f"(the best: {best:.1f})" in verdict
        assert focused(page) == f"review-option-{i}"
        assert page.get_attribute(f"[data-key=review-option-{i}]", "aria-pressed") == "true"
    page.wait_for_selector(".review-better")  # once one is picked, the better move shows
    page.click("[data-key=review-try-done]")
    assert page.locator("[data-key=review-trying]").count() == 0
    assert focused(page) == "review-try"
    # play on from there against bots: a room of the server's, this browser its player
    page.click("[data-key=review-try]")
    page.click("[data-key=review-play-on]")
    page.wait_for_url(re.compile(r".*/r/[A-Z0-9]{6}$"))
    code = page.url.rsplit("/", 1)[1]
    page.wait_for_selector(".table")
    seat = page.evaluate(f"JSON.parse(localStorage.getItem('skyjo:seat:{code}'))")
    assert seat["seat"] == worst["seat"]
    assert page.locator("[data-key=review-trying]").count() == 0


def move_words(move: dict[str, Any]) -> str:
    """A move as the page words it, lower case."""
    (kind, place), = move.items()  # fmt: skip
    if kind == "take":
        return "draw a card" if place == "deck" else "take the discard"
    return f"{kind_words(kind)} row {place[0] + 1}, column {place[1] + 1}"
