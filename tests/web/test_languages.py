"""The client's four languages (static/i18n.js, static/scorepad-i18n.js and the rules
page's static/rules-i18n.js), read by
node from the modules themselves: every language has every English key, with the
same {placeholders}, none empty, and French and German are translated; the
browser's language picks one; the grammar helpers speak each of them."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from i18n_js import OMITTABLE, render, run_js

from skyjo.scoring import score_round
from skyjo.web import app as web_app

STATIC = Path(web_app.__file__).parent / "static"
I18N = STATIC / "i18n.js"
SCOREPAD = STATIC / "scorepad-i18n.js"
RULES = STATIC / "rules-i18n.js"
LANGUAGES = {"en": "English", "es": "Español", "fr": "Français", "de": "Deutsch"}
DICTIONARIES = [
    pytest.param(I18N, id="i18n.js"),
    pytest.param(SCOREPAD, id="scorepad-i18n.js"),
    pytest.param(RULES, id="rules-i18n.js"),
]
#: The fewest keys each module's English has (a table read wrong would have none).
FEWEST = {I18N: 150, SCOREPAD: 150, RULES: 50}

#: Words French or German write as English does.
SAME_WORDS = {
    "fr": {"Chat", "Total", "total {n}", "CSV", "JSON", "Pause", "Skyjo"},
    "de": {"Chat", "CSV", "JSON", "Pause", "Minus", "R{n}", "Skyjo"},
}


def node(module: Path, expression: str, **browser: Any) -> Any:
    """The JSON value of `expression` over the imported module `mod`, run by node in a
    browser whose saved choice is `saved` and languages `languages`/`language`."""
    return run_js(module, expression, **browser)


def placeholders(sentence: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", sentence))


@pytest.fixture(scope="module", params=DICTIONARIES)
def strings(request: pytest.FixtureRequest) -> dict[str, dict[str, str]]:
    """One module's STRINGS: its table per language."""
    return node(request.param, "mod.STRINGS")


def test_the_client_speaks_four_languages() -> None:
    assert node(I18N, "mod.LANGUAGES") == LANGUAGES
    assert set(node(SCOREPAD, "Object.keys(mod.STRINGS)")) == set(LANGUAGES)
    assert set(node(RULES, "Object.keys(mod.STRINGS)")) == set(LANGUAGES)


def test_every_language_has_every_key_of_english(
    strings: dict[str, dict[str, str]], request: pytest.FixtureRequest
) -> None:
    assert set(strings) == set(LANGUAGES)
    english = set(strings["en"])
    assert len(english) > FEWEST[request.node.callspec.params["strings"]]
    for language, table in strings.items():
        assert set(table) == english, (language, sorted(english ^ set(table)))


def test_every_sentence_has_the_placeholders_of_english(
    strings: dict[str, dict[str, str]],
) -> None:
    for language, table in strings.items():
        for key, english in strings["en"].items():
            theirs, ours = placeholders(table[key]), placeholders(english)
            assert theirs <= ours, (language, key, theirs - ours)
            assert ours - theirs <= OMITTABLE.get(key, set()), (language, key, ours - theirs)


def test_no_sentence_is_empty(strings: dict[str, dict[str, str]]) -> None:
    for language, table in strings.items():
        for key, sentence in table.items():
            assert isinstance(sentence, str) and sentence.strip(), (language, key)


def test_french_and_german_are_translated(strings: dict[str, dict[str, str]]) -> None:
    for language in ("fr", "de"):
        for key, sentence in strings[language].items():
            english = strings["en"][key]
            letters = re.sub(r"\{\w+\}", "", english)
            if sentence == english and re.search(r"[A-Za-z]", letters):
                assert sentence in SAME_WORDS[language], (language, key, sentence)


def test_french_puts_a_no_break_space_before_colons_and_marks(
    strings: dict[str, dict[str, str]],
) -> None:
    for key, sentence in strings["fr"].items():
        if '"' in sentence:  # a JSON shape quoted as such: {"ender": ...}
            continue
        assert not re.search(r"[^\u00a0][:;!?](\s|$)", sentence), (key, sentence)
        assert "« " not in sentence and " »" not in sentence, (key, sentence)


@pytest.mark.parametrize(
    ("setup", "chosen"),
    [
        ({"language": "fr-CA"}, "fr"),
        ({"language": "de-AT"}, "de"),
        ({"languages": ["de-CH", "en"], "language": "de-CH"}, "de"),
        ({"languages": ["it-IT", "fr-FR"], "language": "it-IT"}, "fr"),
        ({"language": "es-MX"}, "es"),
        ({"language": "it-IT"}, "en"),
        ({"saved": "de", "language": "fr-FR"}, "de"),
        ({"saved": "xx", "language": "fr-FR"}, "fr"),
    ],
)
def test_the_browser_s_language_picks_the_client_s(setup: dict, chosen: str) -> None:
    assert node(I18N, "mod.language()", **setup) == chosen


def test_the_grammar_helpers_speak_french_and_german() -> None:
    calls = "[8, 11, -2].map(mod.aCard).concat([mod.joinNames(['Ana', 'Ben', 'Cleo'])])"
    assert node(I18N, calls, saved="fr") == ["un 8", "un 11", "un -2", "Ana, Ben et Cleo"]
    assert node(I18N, calls, saved="de") == ["eine 8", "eine 11", "eine -2", "Ana, Ben und Cleo"]
    assert node(I18N, calls, saved="es") == ["un 8", "un 11", "un -2", "Ana, Ben y Cleo"]
    assert node(I18N, calls, saved="en") == ["an 8", "an 11", "a -2", "Ana, Ben and Cleo"]


GRID = {
    "columns": [
        {"cards": [None, None, None], "cleared": True, "score": 0, "explanation": "cleared"},
        {"cards": [7, 7, 7], "cleared": True, "score": 0, "explanation": "three 7s, so 0"},
        {"cards": [1, 2, -2], "cleared": False, "score": 1, "explanation": "1 + 2 + -2 = 1"},
    ],
    "total": 1,
}


def scored(raw: dict[str, int], ender: str, penalty: str) -> dict[str, Any]:
    """A round as the scorepad's API sends it: why the ender scored what they did as the
    server's facts (`explain`, skyjo.scoring.round_facts) and in English (`reason`)."""
    score = score_round(raw, ender, penalty)
    return {
        "ender": ender,
        "doubled": score.doubled,
        "explain": score.facts,
        "reason": score.reason,
    }


PAIR = ["Ana", "Ben"]
DOUBLED = scored({"Ana": 14, "Ben": 9}, "Ana", "positive")
LOWEST = scored({"Ana": 5, "Ben": 9}, "Ana", "positive")
NONE = scored({"Ana": 5, "Ben": 9}, "Ana", "none")
EXPLAINED = (
    f"[mod.gridText({json.dumps(GRID)}),"
    f" mod.reasonText({json.dumps(DOUBLED)}, {json.dumps(PAIR)}),"
    f" mod.reasonText({json.dumps(LOWEST)}, {json.dumps(PAIR)}),"
    f" mod.reasonText({json.dumps(NONE)}, {json.dumps(PAIR)}),"
    " mod.mistakeText({kind: 'name_repeated', params: {names: ['Ana', 'Ben']}, message: 'EN'})]"
)


def test_the_scorepad_explains_rounds_in_french_and_german() -> None:
    nb = "\u00a0"
    assert node(SCOREPAD, EXPLAINED, saved="fr") == [
        f"éliminée avant{nb}: 0{nb}; trois 7, éliminée{nb}: 0{nb}; 1 + 2 + -2 = 1{nb}: 1",
        f"Ana a terminé avec 14 mais Ben a 9{nb}: doublé à 28",
        f"Ana a terminé avec 5, le score le plus bas{nb}: pas doublé",
        f"Ana a terminé avec 5{nb}: avec la variante «{nb}jamais{nb}», pas de doublement",
        f"Chaque joueur a son propre nom, mais en double{nb}: Ana et Ben",
    ]
    assert node(SCOREPAD, EXPLAINED, saved="de") == [
        "vorher abgeräumt: 0; drei 7, abgeräumt: 0; 1 + 2 + -2 = 1: 1",
        "Ana hat die Runde mit 14 beendet, aber Ben hat 9: verdoppelt auf 28",
        "Ana hat die Runde mit 5 beendet, dem niedrigsten Wert: nicht verdoppelt",
        "Ana hat die Runde mit 5 beendet: Mit der Variante „nie“ wird nicht verdoppelt",
        "Jeder Spieler hat seinen eigenen Namen, aber mehrfach vergeben: Ana und Ben",
    ]
    # English words the same facts as the model's own sentences
    assert node(SCOREPAD, EXPLAINED, saved="en")[1:4] == [
        DOUBLED["reason"],
        LOWEST["reason"],
        NONE["reason"],
    ]


#: Rounds of three, each way the ender's penalty may go under each variant: doubled
#: (Cleo ended, Ana lowest), the single lowest, a tie with the lowest (doubled), a
#: score of 0 or below (never doubled under "positive", doubled under "always").
TRIO = ["Ana", "Ben", "Cleo"]
ROUNDS = [
    scored(raw, "Cleo", penalty)
    for penalty in ("positive", "always", "none")
    for raw in (
        {"Ana": 9, "Ben": 20, "Cleo": 14},
        {"Ana": 9, "Ben": 20, "Cleo": 4},
        {"Ana": 9, "Ben": 5, "Cleo": 5},
        {"Ana": -3, "Ben": 20, "Cleo": -1},
    )
]


def test_the_scorepad_words_the_server_s_facts_of_every_penalty_in_every_language() -> None:
    """The page says why from the server's facts (`explain`): in English the model's own
    sentence, word for word, for every kind under every variant; in each language a
    sentence naming the ender, the rival and the numbers the facts give."""
    kinds = {one["explain"]["kind"] for one in ROUNDS}
    assert kinds == {"doubled", "lowest", "not_positive", "no_penalty"}
    calls = f"input.map((round) => mod.reasonText(round, {json.dumps(TRIO)}))"
    english = run_js(SCOREPAD, calls, ROUNDS, saved="en")
    assert english == [one["reason"] for one in ROUNDS]
    for language in ("es", "fr", "de"):
        said = run_js(SCOREPAD, calls, ROUNDS, saved=language)
        for one, sentence in zip(ROUNDS, said, strict=True):
            facts = one["explain"]
            assert sentence.startswith("Cleo ") and "{" not in sentence, (language, sentence)
            assert str(facts["raw"]) in sentence and sentence != one["reason"], (language, sentence)
            if facts["kind"] == "doubled":
                rival = TRIO[facts["rival"]]
                assert f"{rival} " in sentence and str(facts["score"]) in sentence, sentence
    spanish = run_js(SCOREPAD, calls, ROUNDS[:2] + ROUNDS[7:8], saved="es")
    assert spanish == [
        "Cleo cerró con 14 y Ana tiene 9, que no es más: se dobla a 28",
        "Cleo cerró con 4, la puntuación más baja: no se dobla",
        "Cleo cerró con -1 y Ana tiene -3, que no es más: se dobla a -2, sea cual sea su"
        " signo (la variante «siempre»)",
    ]


def test_the_scorepad_says_what_the_facts_say_and_decides_nothing() -> None:
    """Facts that the page could not have worked out from the scores (an ender told
    "lowest" with the higher score) are worded as given: the rule is the server's."""
    told = {**DOUBLED, "explain": {**DOUBLED["explain"], "kind": "lowest"}}
    unknown = {**DOUBLED, "explain": {**DOUBLED["explain"], "kind": "new_rule"}}
    calls = f"input.map((round) => mod.reasonText(round, {json.dumps(PAIR)}))"
    assert run_js(SCOREPAD, calls, [told, unknown], saved="de") == [
        "Ana hat die Runde mit 14 beendet, dem niedrigsten Wert: nicht verdoppelt",
        DOUBLED["reason"],  # a kind this page cannot word: the server's English
    ]


#: Counted words, in the form each language gives 0, 1, 2 and 5 of them (issue 46): French
#: puts 0 with 1 ("0 carte"); English, Spanish and German say "0 cards". One sentence of
#: each kind: the draw pile's label, the chat's unread count, the open games' free seats,
#: the log's reshuffle; the scorepad's rounds, a grid's cards typed and the points to go.
COUNTED = {
    "en": [
        ["Draw pile: 0 cards", "Draw pile: 1 card", "Draw pile: 2 cards", "Draw pile: 5 cards"],
        ["0 new messages", "1 new message", "2 new messages", "5 new messages"],
        ["0 free of 6 seats", "1 free of 6 seats", "2 free of 6 seats", "5 free of 6 seats"],
        [
            "The draw pile was empty: 1 card reshuffled",
            "The draw pile was empty: 5 cards reshuffled",
        ],
        ["0 rounds", "1 round", "2 rounds", "5 rounds"],
        ["0 of 12 cards", "1 of 12 cards", "2 of 12 cards", "5 of 12 cards"],
        ["Ana: 0 to go", "Ana: 1 to go", "Ana: 2 to go", "Ana: 5 to go"],
    ],
    "es": [
        ["Mazo: 0 cartas", "Mazo: 1 carta", "Mazo: 2 cartas", "Mazo: 5 cartas"],
        ["0 mensajes nuevos", "1 mensaje nuevo", "2 mensajes nuevos", "5 mensajes nuevos"],
        [
            "0 libres de 6 asientos",
            "1 libre de 6 asientos",
            "2 libres de 6 asientos",
            "5 libres de 6 asientos",
        ],
        ["El mazo se acabó: se barajó 1 carta", "El mazo se acabó: se barajaron 5 cartas"],
        ["0 rondas", "1 ronda", "2 rondas", "5 rondas"],
        ["0 de 12 cartas", "1 de 12 cartas", "2 de 12 cartas", "5 de 12 cartas"],
        ["Ana: faltan 0", "Ana: falta 1", "Ana: faltan 2", "Ana: faltan 5"],
    ],
    "fr": [
        [
            "Pioche\u00a0: 0 carte",
            "Pioche\u00a0: 1 carte",
            "Pioche\u00a0: 2 cartes",
            "Pioche\u00a0: 5 cartes",
        ],
        ["0 message non lu", "1 message non lu", "2 messages non lus", "5 messages non lus"],
        [
            "0 place libre sur 6",
            "1 place libre sur 6",
            "2 places libres sur 6",
            "5 places libres sur 6",
        ],
        [
            "La pioche était vide\u00a0: 1 carte remélangée",
            "La pioche était vide\u00a0: 5 cartes remélangées",
        ],
        ["0 manche", "1 manche", "2 manches", "5 manches"],
        ["0 carte sur 12", "1 carte sur 12", "2 cartes sur 12", "5 cartes sur 12"],
        [
            "Ana\u00a0: encore 0",
            "Ana\u00a0: encore 1",
            "Ana\u00a0: encore 2",
            "Ana\u00a0: encore 5",
        ],
    ],
    "de": [
        [
            "Nachziehstapel: 0 Karten",
            "Nachziehstapel: 1 Karte",
            "Nachziehstapel: 2 Karten",
            "Nachziehstapel: 5 Karten",
        ],
        ["0 neue Nachrichten", "1 neue Nachricht", "2 neue Nachrichten", "5 neue Nachrichten"],
        [
            "0 von 6 Plätzen frei",
            "1 von 6 Plätzen frei",
            "2 von 6 Plätzen frei",
            "5 von 6 Plätzen frei",
        ],
        [
            "Der Nachziehstapel war leer: 1 Karte neu gemischt",
            "Der Nachziehstapel war leer: 5 Karten neu gemischt",
        ],
        ["0 Runden", "1 Runde", "2 Runden", "5 Runden"],
        ["0 von 12 Karten", "1 von 12 Karten", "2 von 12 Karten", "5 von 12 Karten"],
        ["Ana: noch 0", "Ana: noch 1", "Ana: noch 2", "Ana: noch 5"],
    ],
}
GAME_COUNTS = (
    "[[0, 1, 2, 5].map((n) => mod.plural('pile.draw', n)),"
    " [0, 1, 2, 5].map((n) => mod.plural('chat.unread', n)),"
    " [0, 1, 2, 5].map((n) => mod.plural('front.seats', n, { free: n, n: 6 })),"
    " [1, 5].map((n) => mod.plural('ev.reshuffled', n))]"
)
PAD_COUNTS = (
    "[[0, 1, 2, 5].map((n) => mod.stn('pad.rounds', n)),"
    " [0, 1, 2, 5].map((n) => mod.stn('pad.progress', n, { written: n, size: 12 })),"
    " [0, 1, 2, 5].map((n) => mod.stn('pad.toGo', n, { name: 'Ana' }))]"
)


#: A refusal with a count, at 1 and 2 cards in a row (issue 46: "row 2 has 1 cards").
ROW_OF = {
    "en": [
        "Ana's cards: row 2 has 1 card instead of 4",
        "Ana's cards: row 2 has 2 cards instead of 4",
    ],
    "es": [
        "Cartas de Ana: la fila 2 tiene 1 carta en vez de 4",
        "Cartas de Ana: la fila 2 tiene 2 cartas en vez de 4",
    ],
    "fr": [
        "Cartes d'Ana\u00a0: la ligne 2 a 1 carte au lieu de 4",
        "Cartes d'Ana\u00a0: la ligne 2 a 2 cartes au lieu de 4",
    ],
    "de": [
        "Karten von Ana: Zeile 2 hat 1 Karte statt 4",
        "Karten von Ana: Zeile 2 hat 2 Karten statt 4",
    ],
}


@pytest.mark.parametrize("language", ROW_OF)
def test_a_refusal_with_a_count_takes_its_plural_form(language: str) -> None:
    errors = [
        {"kind": "row_length", "params": {"player": "Ana", "row": 1, "count": n, "size": 4},
         "message": "EN"}
        for n in (1, 2)
    ]  # fmt: skip
    assert render(SCOREPAD, "mistakeText", language, errors) == ROW_OF[language]


#: An illegal move's refusal with a count, at 1 and 3 cards in the draw pile.
PILE_OF = {
    "en": [
        "the draw pile still holds 1 card: there is nothing to reshuffle",
        "the draw pile still holds 3 cards: there is nothing to reshuffle",
    ],
    "es": [
        "Al mazo le queda 1 carta: no hay nada que barajar",
        "Al mazo le quedan 3 cartas: no hay nada que barajar",
    ],
    "fr": [
        "La pioche a encore 1 carte\u00a0: il n'y a rien à remélanger",
        "La pioche a encore 3 cartes\u00a0: il n'y a rien à remélanger",
    ],
    "de": [
        "Der Nachziehstapel hat noch 1 Karte: Es gibt nichts zu mischen",
        "Der Nachziehstapel hat noch 3 Karten: Es gibt nichts zu mischen",
    ],
}


@pytest.mark.parametrize("language", PILE_OF)
def test_an_illegal_moves_refusal_with_a_count_takes_its_plural_form(language: str) -> None:
    errors = [
        {"code": "illegal", "kind": "draw_pile_not_empty", "params": {"draw_pile_size": n},
         "message": "EN"}
        for n in (1, 3)
    ]  # fmt: skip
    assert render(I18N, "errorText", language, errors) == PILE_OF[language]


#: A refused deck's sentence ends in its count: "(1 card; ...)" and "(3 cards; ...)".
DECK_OF = {
    "en": ["(1 card; 1 of 5)", "(3 cards; 1 of 5)"],
    "es": ["(1 carta; 1 of 5)", "(3 cartas; 1 of 5)"],
    "fr": ["(1 carte\u00a0; 1 of 5)", "(3 cartes\u00a0; 1 of 5)"],
    "de": ["(1 Karte; 1 of 5)", "(3 Karten; 1 of 5)"],
}


@pytest.mark.parametrize("language", DECK_OF)
def test_a_refused_decks_count_takes_its_plural_form(language: str) -> None:
    errors = [
        {"code": "bad_request", "kind": "deck_wrong",
         "params": {"size": 150, "count": n, "wrong": "1 of 5"}, "message": "EN"}
        for n in (1, 3)
    ]  # fmt: skip
    said = render(I18N, "errorText", language, errors)
    assert [text[text.index("(") :] for text in said] == DECK_OF[language]


@pytest.mark.parametrize("language", COUNTED)
def test_counted_words_take_their_language_s_plural_form(language: str) -> None:
    said = node(I18N, GAME_COUNTS, saved=language) + node(SCOREPAD, PAD_COUNTS, saved=language)
    assert said == COUNTED[language]


def test_every_counted_word_has_its_forms_and_the_form_follows_cldr(
    strings: dict[str, dict[str, str]], request: pytest.FixtureRequest
) -> None:
    """A counted word's sentence is "<key>.one" and "<key>.other" in every table (the
    CLDR categories of the four languages for whole numbers; "many", a million in French
    and Spanish, falls back to "other"), and no sentence says one/many itself any more.
    (The rules page counts nothing: its numbers are the rules', in words.)"""
    counted = {key.rsplit(".", 1)[0] for key in strings["en"] if key.endswith((".one", ".other"))}
    assert len(counted) >= (0 if request.node.callspec.params["strings"] == RULES else 5)
    for language, table in strings.items():
        for key in counted:
            # a refusal's counted sentence: its "one" form beside the kind's own sentence
            refusal = key.startswith(("mistake.", "illegal.", "kind."))
            other = key if refusal else f"{key}.other"
            assert {f"{key}.one", other} <= set(table), (language, key)
        assert not [k for k in table if re.search(r"(One|Many)$", k)], language
    rules = "[0, 1, 2, 5, 1000000].map((n) => mod.pluralCategory(n, input))"
    categories = {code: run_js(I18N, rules, code) for code in LANGUAGES}
    assert categories == {
        "en": ["other", "one", "other", "other", "other"],
        "es": ["other", "one", "other", "other", "many"],
        "fr": ["one", "one", "other", "other", "many"],
        "de": ["other", "one", "other", "other", "other"],
    }


#: Controls named (aria-label) otherwise than by their visible words: the visible words'
#: key and the name's key.
LABELLED = {
    "lobby.drop": "lobby.dropWho",
    "lobby.free": "lobby.freeWho",
    "host.remove": "host.removeWho",
}


def test_an_accessible_name_begins_with_the_visible_words_in_every_language() -> None:
    """WCAG 2.5.3 (axe's label-content-name-mismatch): a speech user says what they see.
    German's "Platz entfernen" was named "Den Platz von Ben vom Tisch entfernen"."""
    tables = node(I18N, "mod.STRINGS")
    for language, table in tables.items():
        for shown, named in LABELLED.items():
            assert table[named].lower().startswith(table[shown].lower()), (language, named)
        assert table["room.home"].startswith("Skyjo"), language  # the logo link's name


def test_the_page_words_the_server_s_names_in_its_language() -> None:
    """A bot's name the server gave from its level, and a room's default title, in the
    page's language; a name or a title someone chose stays as it is."""
    seats = [
        {"name": "Ana", "bot": None, "human": True, "host": True},
        {"name": "Greedy bot", "bot": "greedy"},
        {"name": "Greedy bot 2", "bot": "greedy"},
        {"name": "Search bot", "bot": "search"},
        {"name": "Greedy bot two", "bot": "greedy"},  # not a name the server gives: kept
    ]
    calls = (
        "[input.seats.map(mod.seatName),"
        ' mod.roomTitle({title: "Ana\'s table", default_title: true}, input.seats),'
        " mod.roomTitle({title: 'Bots', default_title: true}, []),"
        " mod.roomTitle({title: 'Friday', default_title: false}, input.seats)]"
    )
    said = {code: run_js(I18N, calls, {"seats": seats}, saved=code) for code in LANGUAGES}
    assert said == {
        "en": [
            ["Ana", "Greedy bot", "Greedy bot 2", "Search bot", "Greedy bot two"],
            "Ana's table",
            "Bots",
            "Friday",
        ],
        "es": [
            ["Ana", "Bot codicioso", "Bot codicioso 2", "Bot búsqueda", "Greedy bot two"],
            "La mesa de Ana",
            "Mesa de bots",
            "Friday",
        ],
        "fr": [
            ["Ana", "Bot glouton", "Bot glouton 2", "Bot recherche", "Greedy bot two"],
            "Chez Ana",
            "Table des bots",
            "Friday",
        ],
        "de": [
            ["Ana", "Bot Gierig", "Bot Gierig 2", "Bot Suche", "Greedy bot two"],
            "Bei Ana",
            "Bot-Tisch",
            "Friday",
        ],
    }
