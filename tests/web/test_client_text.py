"""The client's sentences of what happened (static/text.js), run by node in each
language: the viewer's own moves in the second person ("You drew a 5",
"Robaste un 5", "Tu as pioché un 5", "Du hast eine 5 gezogen"), everyone else's by
name; the round's end likewise."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from i18n_js import run_js

from skyjo.engine import (
    DRAW,
    FLIP,
    REVEAL,
    SWAP,
    TAKE_DISCARD,
    IllegalActionError,
    State,
    current_player,
    new_game,
    step,
)
from skyjo.scoring import round_facts, round_scores
from skyjo.web import app as web_app
from skyjo.web.protocol import refusal, refused

TEXT = Path(web_app.__file__).parent / "static" / "text.js"
SEATS = [{"name": "Ana"}, {"name": "Ben"}]


def said(language: str, calls: list[list]) -> list:
    """Each `[function, *arguments]` of text.js called in `language` (by node)."""
    return run_js(TEXT, "input.map(([f, ...a]) => mod[f](...a))", calls, saved=language)


EVENTS = [
    {"kind": "drew", "player": 0, "card": 5},
    {"kind": "exchanged", "player": 0, "card": 5, "position": [1, 2], "cards": [9]},
    {"kind": "revealed", "player": 0, "cards": [3, 4]},
    {"kind": "column_cleared", "player": 0, "card": 7},
]


def summary(raw: list[int], ender: int, penalty: str = "positive") -> dict[str, object]:
    """A round's summary as the server sends it (`skyjo.web.rooms.round_summaries`):
    the scores, and why as facts (`explain`), which the client words."""
    scores, doubled = round_scores(raw, ender, penalty)
    facts = round_facts(raw, ender, penalty)
    return {
        "round": 1,
        "ender": ender,
        "raw": raw,
        "scores": scores,
        "doubled": doubled,
        "explain": facts,
    }


DOUBLED = summary([14, 9], 0)
LOWEST = summary([5, 9], 0)


def test_the_viewer_s_own_moves_are_told_in_the_second_person() -> None:
    calls = [
        ["describeEvents", EVENTS, SEATS, 0],  # Ana's view of her own moves
        ["describeEvents", EVENTS, SEATS, 1],  # Ben's view of them
        ["explainRound", DOUBLED, SEATS, 0],
        ["explainRound", DOUBLED, SEATS, 1],
        ["explainRound", LOWEST, SEATS, 0],
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
        "You ended with 14 but Ben had 9, so your 14 is doubled to 28",
        "Ana ended with 14 but you had 9, so Ana's 14 is doubled to 28",
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
        "Cerraste con 14 pero Ben tenía 9, así que tu puntuación se dobla: 14 pasa a 28",
        "Ana cerró con 14 pero tú tenías 9, así que la puntuación de Ana se dobla: 14 pasa a 28",
        "Cerraste con 5, la puntuación más baja: no se dobla",
        "¡Has ganado!",
        "¡Gana Ana!",
    ]
    nb = "\u00a0"  # French puts a no-break space before ":" and "!"
    assert said("fr", calls) == [
        [
            "Tu as pioché un 5",
            "Tu as posé le 5 en ligne 2, colonne 3 et défaussé le 9",
            f"Tes dernières cartes ont été retournées{nb}: 3, 4",
            "Tu as éliminé une colonne de 7",
        ],
        [
            "Ana a pioché un 5",
            "Ana a posé le 5 en ligne 2, colonne 3 et défaussé le 9",
            f"Les dernières cartes d'Ana ont été retournées{nb}: 3, 4",
            "Ana a éliminé une colonne de 7",
        ],
        f"Tu as terminé avec 14 mais Ben avait 9, donc ton score est doublé{nb}: 14 devient 28",
        f"Ana a terminé avec 14 mais tu avais 9, donc le score d'Ana est doublé{nb}: 14 devient 28",
        f"Tu as terminé avec 5, le score le plus bas{nb}: pas doublé",
        f"Tu as gagné{nb}!",
        f"Ana gagne{nb}!",
    ]
    assert said("de", calls) == [
        [
            "Du hast eine 5 gezogen",
            "Du hast die 5 in Zeile 2, Spalte 3 hingelegt und die 9 abgelegt",
            "Deine letzten Karten wurden aufgedeckt: 3, 4",
            "Du hast eine 7er-Spalte abgeräumt",
        ],
        [
            "Ana hat eine 5 gezogen",
            "Ana hat die 5 in Zeile 2, Spalte 3 hingelegt und die 9 abgelegt",
            "Die letzten Karten von Ana wurden aufgedeckt: 3, 4",
            "Ana hat eine 7er-Spalte abgeräumt",
        ],
        "Du hast die Runde mit 14 beendet, aber Ben hatte 9, also wird dein Ergebnis verdoppelt:"
        " Aus 14 wird 28",
        "Ana hat die Runde mit 14 beendet, aber du hattest 9, also wird das Ergebnis von Ana"
        " verdoppelt: Aus 14 wird 28",
        "Du hast die Runde mit 5 beendet, dem niedrigsten Wert: nicht verdoppelt",
        "Du hast gewonnen!",
        "Ana gewinnt!",
    ]


#: A turn of Ben's seen by Ana (seat 0), by Ben (seat 1) and by a spectator (None): he
#: takes the discard, then draws, discards it and turns up a card; Ana's timer runs out.
TURN = [
    {"kind": "took_discard", "player": 1, "card": 11},
    {"kind": "drew", "player": 1, "card": 8},
    {"kind": "discarded", "player": 1, "card": 12},
    {"kind": "flipped", "player": 1, "card": -2, "position": [2, 3]},
    {"kind": "final_turns", "player": 1},
    {"kind": "timed_out", "player": 0},
]


def test_french_and_german_tell_a_turn_with_the_cards_articles() -> None:
    """French "un 8"/"le 11", German "eine 8"/"die 11" (die Karte); French elides
    "de" before a name with a vowel ("d'Ana")."""
    calls = [
        ["describeEvents", TURN, SEATS, 1],
        ["describeEvents", TURN, SEATS, None],
        ["explainRound", summary([9, 5], 1, "none"), SEATS, 0],
        ["winnersText", [0, 1], SEATS, None],
    ]
    nb = "\u00a0"
    assert said("fr", calls) == [
        [
            "Tu as pris le 11 de la défausse",
            "Tu as pioché un 8",
            "Tu as défaussé le 12 et retourné un -2 en ligne 3, colonne 4",
            f"Tu as retourné toutes tes cartes{nb}: les autres jouent encore une fois",
            f"Temps écoulé{nb}: un bot a joué pour Ana",
        ],
        [
            "Ben a pris le 11 de la défausse",
            "Ben a pioché un 8",
            "Ben a défaussé le 12 et retourné un -2 en ligne 3, colonne 4",
            f"Ben a retourné toutes ses cartes{nb}: les autres jouent encore une fois",
            f"Temps écoulé{nb}: un bot a joué pour Ana",
        ],
        f"Ben a terminé avec 5{nb}: dans cette partie, qui termine n'est jamais doublé",
        f"Victoire partagée{nb}: Ana et Ben{nb}!",
    ]
    assert said("de", calls) == [
        [
            "Du hast die 11 vom Ablagestapel genommen",
            "Du hast eine 8 gezogen",
            "Du hast die 12 abgelegt und eine -2 in Zeile 3, Spalte 4 aufgedeckt",
            "Du hast alle Karten aufgedeckt: Alle anderen sind noch einmal dran",
            "Zeit abgelaufen: Ein Bot hat für Ana gespielt",
        ],
        [
            "Ben hat die 11 vom Ablagestapel genommen",
            "Ben hat eine 8 gezogen",
            "Ben hat die 12 abgelegt und eine -2 in Zeile 3, Spalte 4 aufgedeckt",
            "Ben hat alle Karten aufgedeckt: Alle anderen sind noch einmal dran",
            "Zeit abgelaufen: Ein Bot hat für Ana gespielt",
        ],
        "Ben hat die Runde mit 5 beendet: In diesem Spiel wird nie verdoppelt",
        "Geteilter Sieg: Ana und Ben!",
    ]


#: A doubled round (Ana ended with 71, Ben had 26) as each viewer reads it: Ana, Ben, a
#: spectator. Issue 46: the sentence says that the score is doubled, and to what.
DOUBLED_71 = summary([71, 26], 0)
SAID_DOUBLED = {
    "en": [
        "You ended with 71 but Ben had 26, so your 71 is doubled to 142",
        "Ana ended with 71 but you had 26, so Ana's 71 is doubled to 142",
        "Ana ended with 71 but Ben had 26, so Ana's 71 is doubled to 142",
    ],
    "es": [
        "Cerraste con 71 pero Ben tenía 26, así que tu puntuación se dobla: 71 pasa a 142",
        "Ana cerró con 71 pero tú tenías 26, así que la puntuación de Ana se dobla: 71 pasa a 142",
        "Ana cerró con 71 pero Ben tenía 26, así que la puntuación de Ana se dobla: 71 pasa a 142",
    ],
    "fr": [
        "Tu as terminé avec 71 mais Ben avait 26, donc ton score est doublé\u00a0: 71 devient 142",
        "Ana a terminé avec 71 mais tu avais 26, donc le score d'Ana est doublé\u00a0: 71 devient"
        " 142",
        "Ana a terminé avec 71 mais Ben avait 26, donc le score d'Ana est doublé\u00a0: 71 devient"
        " 142",
    ],
    "de": [
        "Du hast die Runde mit 71 beendet, aber Ben hatte 26, also wird dein Ergebnis verdoppelt:"
        " Aus 71 wird 142",
        "Ana hat die Runde mit 71 beendet, aber du hattest 26, also wird das Ergebnis von Ana"
        " verdoppelt: Aus 71 wird 142",
        "Ana hat die Runde mit 71 beendet, aber Ben hatte 26, also wird das Ergebnis von Ana"
        " verdoppelt: Aus 71 wird 142",
    ],
}


@pytest.mark.parametrize("language", SAID_DOUBLED)
def test_a_doubled_score_is_said_doubled_in_words_in_every_language(language: str) -> None:
    """The round's end (the live region's message and the panel's line: both are
    `explainRound`) says why 142: the ender's 71 doubled, not "71 but Ben had 26: 142"."""
    calls = [["explainRound", DOUBLED_71, SEATS, viewer] for viewer in (0, 1, None)]
    assert said(language, calls) == SAID_DOUBLED[language]


#: A bot's turns as its events come (Ana, seat 0, watches Ben): he draws a 7 and exchanges
#: it, draws a 12 and discards it to turn up a 3, takes the 4 from the discard pile.
BEN_TURNS = [
    {"kind": "drew", "player": 1},
    {"kind": "exchanged", "player": 1, "card": 7, "position": [1, 2], "cards": [9]},
    {"kind": "drew", "player": 1},
    {"kind": "discarded", "player": 1, "card": 12},
    {"kind": "flipped", "player": 1, "card": 3, "position": [0, 0]},
    {"kind": "took_discard", "player": 1, "card": 4},
    {"kind": "exchanged", "player": 1, "card": 4, "position": [2, 3], "cards": [11]},
    {"kind": "column_cleared", "player": 1, "card": 4},
]
SAID_TURNS = {
    "en": [
        "Ben drew a 7 and put it at row 2, column 3, discarding the 9",
        "Ben drew a 12, discarded it and turned up a 3 at row 1, column 1",
        "Ben took the 4 from the discard pile and put it at row 3, column 4, discarding the 11",
        "Ben cleared a column of 4s",
    ],
    "es": [
        "Ben robó un 7, lo puso en la fila 2, columna 3 y descartó el 9",
        "Ben robó un 12, lo descartó y descubrió un 3 en la fila 1, columna 1",
        "Ben cogió el 4 del descarte, lo puso en la fila 3, columna 4 y descartó el 11",
        "Ben eliminó una columna de 4",
    ],
    "fr": [
        "Ben a pioché un 7, l'a posé en ligne 2, colonne 3 et a défaussé le 9",
        "Ben a pioché un 12, l'a défaussé et a retourné un 3 en ligne 1, colonne 1",
        "Ben a pris le 4 de la défausse, l'a posé en ligne 3, colonne 4 et a défaussé le 11",
        "Ben a éliminé une colonne de 4",
    ],
    "de": [
        "Ben hat eine 7 gezogen, in Zeile 2, Spalte 3 hingelegt und die 9 abgelegt",
        "Ben hat eine 12 gezogen, abgelegt und eine 3 in Zeile 1, Spalte 1 aufgedeckt",
        "Ben hat die 4 vom Ablagestapel genommen, in Zeile 3, Spalte 4 hingelegt und die 11"
        " abgelegt",
        "Ben hat eine 4er-Spalte abgeräumt",
    ],
}


@pytest.mark.parametrize("language", SAID_TURNS)
def test_another_player_s_whole_turn_is_one_sentence_in_every_language(language: str) -> None:
    """The live region's words (`whole`): a draw (or take) and its placement in one
    sentence; the log's (without) keeps a line a step, and your own moves too."""
    whole = {"whole": True}
    calls = [
        ["describeEvents", BEN_TURNS, SEATS, 0, whole],
        ["describeEvents", BEN_TURNS, SEATS, 0],
    ]
    calls.append(["describeEvents", BEN_TURNS, SEATS, 1, whole])
    merged, stepwise, own = said(language, calls)
    assert merged == SAID_TURNS[language]
    assert len(stepwise) == 7 and len(own) == 7  # drew, exchanged, drew, flipped, took, ...


def _sentence_keys(language: str) -> set[str]:
    """The keys of one language's table of static/i18n.js, read as text."""
    text = TEXT.with_name("i18n.js").read_text(encoding="utf-8")
    start = text.index(f"\n  {language}: {{")
    end = text.index("\n  },", start)
    return set(re.findall(r'^ {4}"?([\w.]+)"?: ', text[start:end], re.M))


def test_every_sentence_the_client_writes_is_in_every_language() -> None:
    english = _sentence_keys("en")
    assert len(english) > 200
    for language in ("es", "fr", "de"):
        theirs = _sentence_keys(language)
        assert english == theirs, (language, english ^ theirs)
    used: set[str] = set()
    counted: set[str] = set()
    for module in (
        "board.js",
        "ending.js",
        "front.js",
        "game.js",
        "hint.js",
        "hotseat.js",
        "levels.js",
        "main.js",
        "moves.js",
        "replay.js",
        "lobby.js",
        "text.js",
        "tour.js",
    ):
        code = TEXT.with_name(module).read_text("utf-8")
        used |= set(re.findall(r'\bt\("([\w.]+)"', code))
        counted |= set(re.findall(r'\bplural\("([\w.]+)"', code))
    assert {"pile.draw", "chat.unread", "ev.reshuffled", "front.seats"} <= counted
    used |= {f"{key}.{form}" for key in counted for form in ("one", "other")}
    board = TEXT.with_name("board.js").read_text(encoding="utf-8")
    tabs = re.search(r"const TABS = \[([^\]]*)\]", board)
    assert tabs, "board.js names its drawer's tabs in TABS"
    used |= {f"tab.{tab}" for tab in re.findall(r'"(\w+)"', tabs.group(1))}
    assert {"tab.scores", "round.waiting", "act.next", "hint.ask", "tour.next", "end.you"} <= used
    assert used <= english, sorted(used - english)


def _illegal(state: State, action: int) -> dict:
    """The `error` message a room sends for `action` in `state`: the engine's own
    `IllegalActionError`, passed on with its kind and params (`protocol.refused`)."""
    with pytest.raises(IllegalActionError) as raised:
        step(state, action)
    return refusal(refused("illegal", raised.value))


def _illegal_moves() -> list[dict]:
    """Illegal moves of a real game: Ana (seat 0) draws before turning up her two
    cards, then turns up row 2, column 2 twice; after the reveals Ben (seat 1)
    exchanges row 1, column 4 before drawing, draws twice, puts the discard back;
    and an action the engine does not have."""
    reveals = new_game(2, seed=3)
    second = step(reveals, REVEAL + 5)
    turns = step(step(step(second, REVEAL + 6), REVEAL + 0), REVEAL + 1)
    assert current_player(turns) == 1
    return [
        _illegal(reveals, DRAW),
        _illegal(second, REVEAL + 5),
        _illegal(turns, SWAP + 3),
        _illegal(step(turns, DRAW), DRAW),
        _illegal(step(turns, TAKE_DISCARD), FLIP + 2),
        _illegal(turns, 99),
    ]


def test_an_illegal_move_is_told_in_the_cards_words_in_every_language() -> None:
    """The engine's kind of an illegal move, worded by the page: the seat by name (the
    second person for the viewer's own), the position from 1 as the cards' labels
    count, the action by name; unlike the engine's English (`seat 0`, `[1, 1]`)."""
    moves = _illegal_moves()
    assert [m["kind"] for m in moves] == [
        "reveal_first",
        "reveal_face_up",
        "take_first",
        "must_place",
        "discard_not_put_back",
        "action_unknown",
    ]
    assert moves[1]["message"] == "seat 0 cannot reveal [1, 1]: that card is already face up"
    calls = [["refusalText", move, SEATS, viewer] for move in moves for viewer in (None, 0, 1)]

    assert said("en", calls)[::3] == [  # a spectator's page
        "Ana must first turn up two cards, not draw a card",
        "Ana cannot turn up the card at row 2, column 2: it is face up already",
        "Ben must first draw a card or take the discard, not exchange the card at row 1, column 4",
        "Ben already holds a card and must place it, not draw a card",
        "Ben took the discard and must exchange it: it may not be put back",
        "there is no action 99: actions are 0 to 38",
    ]
    nb = "\u00a0"
    mine = {  # the player's own page (Ana's first two moves, then Ben's)
        "en": [
            "you must first turn up two cards, not draw a card",
            "you cannot turn up the card at row 2, column 2: it is face up already",
            "you must first draw a card or take the discard, not exchange the card at row 1,"
            " column 4",
            "you already hold a card and must place it, not draw a card",
            "you took the discard and must exchange it: it may not be put back",
        ],
        "es": [
            "Primero debes descubrir dos cartas, no robar una carta",
            "No puedes descubrir la carta de la fila 2, columna 2: ya está boca arriba",
            "Primero debes robar una carta o coger la del descarte, no cambiar la carta de"
            " la fila 1, columna 4",
            "Ya tienes una carta en la mano y debes colocarla, no robar una carta",
            "Cogiste la carta del descarte y debes cambiarla: no puedes devolverla",
        ],
        "fr": [
            "Tu dois d'abord retourner deux cartes, pas piocher une carte",
            f"Tu ne peux pas retourner la carte en ligne 2, colonne 2{nb}: elle est déjà face"
            " visible",
            "Tu dois d'abord piocher une carte ou prendre celle de la défausse, pas échanger la"
            " carte en ligne 1, colonne 4",
            "Tu as déjà une carte en main et dois la poser, pas piocher une carte",
            f"Tu as pris la carte de la défausse et dois l'échanger{nb}: impossible de la remettre",
        ],
        "de": [
            "Du musst zuerst zwei Karten aufdecken und kannst nicht eine Karte ziehen",
            "Du kannst die Karte in Zeile 2, Spalte 2 nicht aufdecken: Sie liegt schon offen",
            "Du musst zuerst eine Karte ziehen oder die Karte vom Ablagestapel nehmen und"
            " kannst nicht die Karte in Zeile 1, Spalte 4 tauschen",
            "Du hast schon eine Karte in der Hand, musst sie hinlegen und kannst nicht eine"
            " Karte ziehen",
            "Du hast die Karte vom Ablagestapel genommen und musst sie tauschen: Zurücklegen"
            " geht nicht",
        ],
    }
    for language, sentences in mine.items():
        said_all = said(language, calls)
        own = [said_all[1], said_all[4], said_all[8], said_all[11], said_all[14]]
        assert own == sentences, language
        # the other player's page names the one who tried
        assert "Ben" in said_all[6] and "Ana" in said_all[2]
        assert not any("{" in s or "seat 0" in s or "[1, 1]" in s for s in said_all), language
    french = said("fr", calls)
    assert french[0] == "Ana doit d'abord retourner deux cartes, pas piocher une carte"
    assert french[12] == (
        f"Ben a pris la carte de la défausse et doit l'échanger{nb}: impossible de la remettre"
    )
    german = said("de", calls)
    assert german[3] == (
        "Ana kann die Karte in Zeile 2, Spalte 2 nicht aufdecken: Sie liegt schon offen"
    )


def test_an_illegal_move_of_a_kind_the_page_does_not_know_is_told_in_english() -> None:
    unknown = {"code": "illegal", "kind": "new_rule", "params": {"seat": 0}, "message": "EN"}
    lost = {"code": "illegal", "kind": "must_place", "params": {"seat": 0}, "message": "EN"}
    calls = [["refusalText", unknown, SEATS, 0], ["refusalText", lost, SEATS, 0]]
    # a kind with no sentence, or a sentence whose params did not come: the server's English
    assert said("de", calls) == ["EN", "EN"]
    # MatchOver's `game_over` (no params) and the engine's (an action) are apart
    over = {"code": "game_over", "kind": "game_over", "params": {}, "message": "EN"}
    engine_over = {"code": "illegal", "kind": "game_over", "params": {"action": 12}}
    engine_over["message"] = "EN"
    calls = [["refusalText", over, SEATS, 0], ["refusalText", engine_over, SEATS, 0]]
    assert said("fr", calls) == [
        "La partie est terminée",
        "La partie est terminée\u00a0: plus personne ne peut piocher une carte",
    ]


#: A game's end as the live region says it, the winner a bot, by language: each heading
#: with the language's colon (French: a no-break space before it), each line with its
#: own mark ("!" kept, with its French no-break space and its Spanish "¡").
GAME_END_SAID = {
    "en": "Round 1 over: You ended with 5, the lowest score: not doubled. "
    "Game over: Ben wins! row 1, column 2.",
    "es": "Fin de la ronda 1: Cerraste con 5, la puntuación más baja: no se dobla. "
    "Fin de la partida: ¡Gana Ben! la fila 1, columna 2.",
    "fr": "Manche 1 terminée\u00a0: Tu as terminé avec 5, le score le plus bas\u00a0: pas doublé. "
    "Partie terminée\u00a0: Ben gagne\u00a0! ligne 1, colonne 2.",
    "de": "Runde 1 vorbei: Du hast die Runde mit 5 beendet, dem niedrigsten Wert: "
    "nicht verdoppelt. Spiel vorbei: Ben gewinnt! Zeile 1, Spalte 2.",
}


@pytest.mark.parametrize("language", list(GAME_END_SAID))
def test_the_game_s_end_is_said_with_the_language_s_colons_and_marks(language: str) -> None:
    """What the live region says at a game's end (`spoken(endLines(...))`, board.js),
    then a line without a mark: the lines' own "!" are kept, the last gets a full stop."""
    told = run_js(
        TEXT,
        "mod.spoken([...mod.endLines(...input), mod.where([0, 1])])",
        [LOWEST, [1], SEATS, 0, True],
        saved=language,
    )
    assert told == GAME_END_SAID[language]
