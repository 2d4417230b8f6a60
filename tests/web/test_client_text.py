"""The client's sentences of what happened (static/text.js), run by node in both
languages: the viewer's own moves in the second person ("You drew a 5",
"Robaste un 5"), everyone else's by name; the round's end likewise."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

from skyjo.web import app as web_app

TEXT = Path(web_app.__file__).parent / "static" / "text.js"
SEATS = [{"name": "Ana"}, {"name": "Ben"}]


def said(language: str, calls: list[list]) -> list:
    """Each `[function, *arguments]` of text.js called in `language` (by node)."""
    assert shutil.which("node"), "node is not installed (.ci/run installs nodejs)"
    script = (
        "const [lang, module] = process.argv.slice(1);"
        "globalThis.localStorage = { getItem: () => lang, setItem() {} };"
        "globalThis.document = { documentElement: {} };"
        "const text = await import(module);"
        "let input = ''; for await (const chunk of process.stdin) input += chunk;"
        "const calls = JSON.parse(input);"
        "process.stdout.write(JSON.stringify(calls.map(([f, ...a]) => text[f](...a))));"
    )
    done = subprocess.run(
        ["node", "--input-type=module", "-e", script, language, TEXT.as_uri()],
        input=json.dumps(calls),
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


EVENTS = [
    {"kind": "drew", "player": 0, "card": 5},
    {"kind": "exchanged", "player": 0, "card": 5, "position": [1, 2], "cards": [9]},
    {"kind": "revealed", "player": 0, "cards": [3, 4]},
    {"kind": "column_cleared", "player": 0, "card": 7},
]
DOUBLED = {"round": 1, "ender": 0, "raw": [14, 9], "scores": [28, 9], "doubled": True}
LOWEST = {"round": 1, "ender": 0, "raw": [5, 9], "scores": [5, 9], "doubled": False}


def test_the_viewer_s_own_moves_are_told_in_the_second_person() -> None:
    calls = [
        ["describeEvents", EVENTS, SEATS, 0],  # Ana's view of her own moves
        ["describeEvents", EVENTS, SEATS, 1],  # Ben's view of them
        ["explainRound", DOUBLED, SEATS, 0, "positive"],
        ["explainRound", DOUBLED, SEATS, 1, "positive"],
        ["explainRound", LOWEST, SEATS, 0, "positive"],
        ["winnersText", [0], SEATS, 0],
        ["winnersText", [0], SEATS, 1],
    ]
    assert said("en", calls) == [
        [
            "You drew a 5",
            "You put the 5 at row 2, column 3 and discarded the 9",
            "Your last cards were turned up: 3, 4",
            "You cleared a column of 7s",
        ],
        [
            "Ana drew a 5",
            "Ana put the 5 at row 2, column 3 and discarded the 9",
            "Ana's last cards were turned up: 3, 4",
            "Ana cleared a column of 7s",
        ],
        "You ended with 14 but Ben had 9: 28",
        "Ana ended with 14 but you had 9: 28",
        "You ended with 5, the lowest score: not doubled",
        "You win!",
        "Ana wins!",
    ]
    assert said("es", calls) == [
        [
            "Robaste un 5",
            "Pusiste el 5 en la fila 2, columna 3 y descartaste el 9",
            "Se descubrieron tus últimas cartas: 3, 4",
            "Eliminaste una columna de 7",
        ],
        [
            "Ana robó un 5",
            "Ana puso el 5 en la fila 2, columna 3 y descartó el 9",
            "Se descubrieron las últimas cartas de Ana: 3, 4",
            "Ana eliminó una columna de 7",
        ],
        "Cerraste con 14 pero Ben tenía 9: 28",
        "Ana cerró con 14 pero tú tenías 9: 28",
        "Cerraste con 5, la puntuación más baja: no se dobla",
        "¡Has ganado!",
        "¡Gana Ana!",
    ]


def _sentence_keys(language: str) -> set[str]:
    """The keys of one language's table of static/i18n.js, read as text."""
    text = TEXT.with_name("i18n.js").read_text(encoding="utf-8")
    start = text.index(f"\n  {language}: {{")
    end = text.index("\n  },", start)
    return set(re.findall(r'^ {4}"?([\w.]+)"?: ', text[start:end], re.M))


def test_every_sentence_the_client_writes_is_in_both_languages() -> None:
    english, spanish = _sentence_keys("en"), _sentence_keys("es")
    assert len(english) > 200
    assert english == spanish, english ^ spanish
    used: set[str] = set()
    for module in ("board.js", "front.js", "game.js", "hotseat.js", "main.js", "replay.js"):
        used |= set(re.findall(r'\bt\("([\w.]+)"', TEXT.with_name(module).read_text("utf-8")))
    board = TEXT.with_name("board.js").read_text(encoding="utf-8")
    tabs = re.search(r"const TABS = \[([^\]]*)\]", board)
    assert tabs, "board.js names its drawer's tabs in TABS"
    used |= {f"tab.{tab}" for tab in re.findall(r'"(\w+)"', tabs.group(1))}
    assert {"tab.scores", "round.waiting", "act.next"} <= used
    assert used <= english, sorted(used - english)
