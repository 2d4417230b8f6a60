"""The client's four languages (static/i18n.js and static/scorepad-i18n.js), read by
node from the modules themselves: every language has every English key, with the
same {placeholders}, none empty, and French and German are translated; the
browser's language picks one; the grammar helpers speak each of them."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from i18n_js import OMITTABLE, run_js

from skyjo.web import app as web_app

STATIC = Path(web_app.__file__).parent / "static"
I18N = STATIC / "i18n.js"
SCOREPAD = STATIC / "scorepad-i18n.js"
LANGUAGES = {"en": "English", "es": "Español", "fr": "Français", "de": "Deutsch"}
DICTIONARIES = [pytest.param(I18N, id="i18n.js"), pytest.param(SCOREPAD, id="scorepad-i18n.js")]

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


def test_every_language_has_every_key_of_english(strings: dict[str, dict[str, str]]) -> None:
    assert set(strings) == set(LANGUAGES)
    english = set(strings["en"])
    assert len(english) > 150
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
DOUBLED = {"ender": "Ana", "raw": {"Ana": 14, "Ben": 9}, "scores": {"Ana": 28, "Ben": 9}}
LOWEST = {"ender": "Ana", "raw": {"Ana": 5, "Ben": 9}, "scores": {"Ana": 5, "Ben": 9}}
EXPLAINED = (
    f"[mod.gridText({json.dumps(GRID)}),"
    f" mod.reasonText({json.dumps({**DOUBLED, 'doubled': True, 'reason': 'EN'})}, 'positive'),"
    f" mod.reasonText({json.dumps({**LOWEST, 'doubled': False, 'reason': 'EN'})}, 'positive'),"
    f" mod.reasonText({json.dumps({**LOWEST, 'doubled': False, 'reason': 'EN'})}, 'none'),"
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
    # English shows the model's own sentences as the server sent them
    assert node(SCOREPAD, EXPLAINED, saved="en")[1:4] == ["EN", "EN", "EN"]
