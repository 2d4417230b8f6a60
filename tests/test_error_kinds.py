"""Every kind of every error the core raises (`skyjo.errors`), collected from the
code: each class's `KINDS` table. Every language of the web client has a sentence
for each kind, naming the same params; every raise site in src/ names a declared
kind with the declared params; and a kind or params a class does not declare is
refused where it is raised."""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

import pytest
from i18n_js import OMITTABLE, sentence_tables

import skyjo
from skyjo.engine import EngineError, IllegalActionError
from skyjo.errors import SkyjoError
from skyjo.match import NAME_KINDS, MatchError, MatchOver, NotYourTurn
from skyjo.names import NameRefused
from skyjo.observation import ObservationError
from skyjo.record import RecordError
from skyjo.rules import VARIANTS, RulesError
from skyjo.scorepad.sheet import SheetError
from skyjo.scorepad.store import ConflictError, StoreError
from skyjo.scoring import GRID_KINDS, ScoringError
from skyjo.tui.lineup import LineupError

SRC = Path(skyjo.__file__).parent
STATIC = SRC / "web" / "static"
GAME, SCOREPAD = STATIC / "i18n.js", STATIC / "scorepad-i18n.js"
LANGUAGES = ("en", "es", "fr", "de")

#: Where the web client writes each class's kinds: the game's page (static/i18n.js,
#: "kind.<kind>", the rooms pass them on; "illegal.<kind>" for an illegal move) or the
#: scorepad's (static/scorepad-i18n.js, "mistake.<kind>"). `ScoringError` reaches a page
#: only as a `SheetError` (the grid kinds it carries on, naming the player: checked with
#: the sheet's); its other kinds are refused by the sheet before scoring, and the command
#: line writes them in English.
TABLES: dict[type[SkyjoError], tuple[Path, str] | None] = {
    RulesError: (GAME, "kind"),
    MatchError: (GAME, "kind"),
    NotYourTurn: (GAME, "kind"),
    MatchOver: (GAME, "kind"),
    NameRefused: (GAME, "kind"),
    SheetError: (SCOREPAD, "mistake"),
    StoreError: (SCOREPAD, "mistake"),
    ConflictError: (SCOREPAD, "mistake"),
    ScoringError: None,
    LineupError: None,  # the terminal's own refusals of `skyjo play`'s options, in English
    # an illegal move (the rooms' code `illegal`): "illegal.<kind>", apart from "kind.<kind>"
    # (its `game_over` names the action, MatchOver's does not)
    IllegalActionError: (GAME, "illegal"),
    # no page shows one: a room's moves are integers the protocol checked, and the
    # engine's arguments in an uploaded record are refused as a `RecordError`'s kinds
    EngineError: None,
    # a refused replay upload (`bad_record`, with the record's kind, params and where): its
    # own kinds' "record.<kind>"; the kinds it carries on (the rules', the names', an illegal
    # move's) may be written by their own sentences instead (LOOKUP)
    RecordError: (GAME, "record"),
    # an observation's JSON form a program outside reads back (the bot protocol's `act`)
    ObservationError: None,
}

#: The prefixes a class's kinds are looked up under, in order, where the page looks further
#: than its own table: a game record's refusal (static/text.js, `recordErrorText`) takes the
#: record's own sentence, else an illegal move's, else the rules' and the names'.
LOOKUP: dict[type[SkyjoError], tuple[str, ...]] = {RecordError: ("record", "illegal", "kind")}


def every_error_class() -> set[type[SkyjoError]]:
    found: set[type[SkyjoError]] = set()
    todo = [SkyjoError]
    while todo:
        for sub in todo.pop().__subclasses__():
            if sub.__module__.startswith("skyjo.") and sub not in found:
                found.add(sub)
                todo.append(sub)
    return found


def placeholders(sentence: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", sentence))


def test_every_error_class_of_the_core_says_where_the_client_writes_its_kinds() -> None:
    classes = every_error_class()
    assert set(TABLES) <= classes
    # a new SkyjoError (engine's IllegalActionError, record's RecordError...) needs its
    # place here, and its kinds their sentences in the client's tables
    assert classes <= set(TABLES), sorted(c.__name__ for c in classes - set(TABLES))
    for error in classes:
        assert error.__dict__.get("KINDS"), f"{error.__name__} declares no kind"
        for kind, params in error.KINDS.items():
            assert re.fullmatch("[a-z][a-z0-9_]*", kind), (error.__name__, kind)
            assert len(set(params)) == len(params), (error.__name__, kind)


def test_every_kind_has_a_sentence_in_every_language_with_its_params() -> None:
    places = {place for place in TABLES.values() if place}
    places |= {(GAME, prefix) for prefixes in LOOKUP.values() for prefix in prefixes}
    tables = {place: sentence_tables(*place) for place in places}
    checked = 0
    for error, place in TABLES.items():
        if place is None:
            continue
        path, own = place
        prefixes = LOOKUP.get(error, (own,))
        assert prefixes[0] == own, error.__name__
        for prefix in prefixes:
            assert set(tables[path, prefix]) == set(LANGUAGES), (path, prefix)
        for kind, params in error.KINDS.items():
            # the first table that has the kind in English is the page's sentence for it:
            # every language has it there, naming the params
            found = [p for p in prefixes if kind in tables[path, p]["en"]]
            assert found, (f"{own}.{kind}", error.__name__)
            prefix = found[0]
            table, key = tables[path, prefix], f"{prefix}.{kind}"
            for language in LANGUAGES:
                assert kind in table[language], (language, key, error.__name__)
                theirs = placeholders(table[language][kind])
                if language == "en":
                    assert theirs == set(params), (key, error.__name__, theirs, params)
                else:
                    assert theirs <= set(params), (language, key, theirs - set(params))
                    missing = set(params) - theirs
                    assert missing <= OMITTABLE.get(key, set()), (language, key, missing)
            checked += 1
    assert checked >= 190, checked
    for language in LANGUAGES:  # and no record sentence is left of a kind no longer raised
        stale = set(tables[GAME, "record"][language]) - set(RecordError.kinds())
        assert not stale, (language, sorted(stale))


def test_the_sheet_carries_on_the_kinds_of_the_grid_the_names_and_the_rules() -> None:
    kinds = SheetError.kinds()
    for kind in GRID_KINDS:
        assert kinds[kind] == ("player", *ScoringError.KINDS[kind])
    for kind in NAME_KINDS:
        assert kinds[kind] == MatchError.KINDS[kind]
    assert set(GRID_KINDS) <= set(ScoringError.KINDS)
    assert SheetError.extra() == {"round"}


def _called(node: ast.Call) -> str | None:
    func = node.func
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)


#: Calls that build an error of a class without naming it, by module: the name
#: called -> the class, and where its kind and params are among the arguments.
#: `_At.error(reason, kind, params)` builds the record's `RecordError`s, and
#: `_refused(at, error, fallback)` one with another error's kind, or the fallback
#: with the sentence as `detail` (its params, not written out, go unchecked); an
#: engine's `Reason(kind, params, sentence)` becomes an `IllegalActionError`.
BUILDERS: dict[str, dict[str, tuple[type[SkyjoError], int, int]]] = {
    "record.py": {"error": (RecordError, 1, 2), "_refused": (RecordError, 2, 1)},
    "replayer.py": {"error": (RecordError, 1, 2), "_refused": (RecordError, 2, 1)},
    "engine.py": {"Reason": (IllegalActionError, 0, 1)},
}


def _site(
    node: ast.Call, module: str, classes: dict[str, type[SkyjoError]]
) -> tuple[type[SkyjoError], ast.expr | None, ast.expr | None] | None:
    """The class a call builds, and its kind and params as written (None: not given);
    `Class.of(kind, **params)` (a sentence of the class's catalogue) gives its
    params as a dict of its keywords, but those of `of` itself (a sheet's `round`)."""
    name = _called(node)
    given = {k.arg: k.value for k in node.keywords}
    func = node.func
    if name == "of" and isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        error = classes.get(func.value.id)
        if error is None:
            return None
        own = set(inspect.signature(error.of).parameters) - {"kind", "params"}
        keywords = [k for k in node.keywords if k.arg not in own]
        keys: list[ast.expr | None] = [
            None if k.arg is None else ast.Constant(k.arg) for k in keywords
        ]
        params = ast.Dict(keys=keys, values=[k.value for k in keywords])
        return error, node.args[0] if node.args else None, params
    if name in BUILDERS.get(module, {}):
        error, at_kind, at_params = BUILDERS[module][name]  # type: ignore[index]
    elif name in classes:
        error, at_kind, at_params = classes[name], 1, 2
    else:
        return None
    if "kind" in given or "params" in given:  # RecordError(reason, round, ..., kind=)
        return error, given.get("kind"), given.get("params")
    args = node.args
    kind = args[at_kind] if len(args) > at_kind else None
    return error, kind, args[at_params] if len(args) > at_params else None


def _carried(kind: ast.expr) -> bool:
    """Whether `kind` is another error's kind carried on (checked where raised):
    `error.kind`, a `kind` unpacked from `why_illegal`, `getattr(error, "kind", ...)`,
    or `_refused`'s `fallback` (checked where `_refused` is called)."""
    if isinstance(kind, ast.Attribute):
        return kind.attr == "kind"
    if isinstance(kind, ast.Name):
        return kind.id in ("kind", "fallback")
    return isinstance(kind, ast.Call) and _called(kind) == "getattr"


def _variant_kind(kind: ast.expr) -> bool:
    """Whether `kind` is a rule variant's (`skyjo.rules.Variant.kinds`): its key and
    a constant suffix, `f"{variant.key}_unknown"`."""
    return (
        isinstance(kind, ast.JoinedStr)
        and len(kind.values) == 2
        and isinstance(kind.values[0], ast.FormattedValue)
        and ast.unparse(kind.values[0].value) in ("variant.key", "key")
        and isinstance(kind.values[1], ast.Constant)
    )


def test_every_raise_site_names_a_declared_kind_with_its_params() -> None:
    classes = {error.__name__: error for error in every_error_class()}
    sites = 0
    for path in sorted(SRC.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            site = _site(node, path.name, classes)
            if site is None:
                continue
            error, kind, params = site
            where = f"{path.relative_to(SRC)}:{node.lineno}"
            if any(isinstance(arg, ast.Starred) for arg in node.args):
                # IllegalActionError(*_reason_args(...)): the kinds of `Reason`s
                assert error is IllegalActionError, f"{where}: {ast.unparse(node)}"
                continue
            if kind is None and error is RecordError and params is None:
                kind = ast.Constant("record_invalid")  # its default
            assert kind is not None, f"{where}: {ast.unparse(node)} names no kind"
            sites += 1
            declared = error.kinds()
            if _carried(kind):  # another error's kind carried on: checked when raised
                if isinstance(kind, ast.Call):  # getattr(error, "kind", fallback)
                    fallback = kind.args[2] if len(kind.args) > 2 else None
                    assert isinstance(fallback, ast.Constant), where
                    assert fallback.value in declared, (where, fallback.value)
                continue
            if _variant_kind(kind):  # f"{variant.key}_too_low": a kind of each variant
                suffix = kind.values[1].value  # type: ignore[attr-defined]
                assert any(f"{v.key}{suffix}" in declared for v in VARIANTS), (where, suffix)
                continue
            named = [
                n.value
                for n in ast.walk(kind)
                if isinstance(n, ast.Constant) and re.fullmatch("[a-z][a-z0-9_]*", str(n.value))
            ]
            assert named, f"{where}: {ast.unparse(kind)}"
            for one in named:
                assert one in declared, f"{where}: {error.__name__} declares no kind {one!r}"
            if len(named) == 1 and (params is None or isinstance(params, ast.Dict)):
                keys = [] if params is None else params.keys
                if all(isinstance(k, ast.Constant) for k in keys):
                    shown = {k.value for k in keys}  # type: ignore[union-attr]
                    expected = set(declared[named[0]])
                    assert expected <= shown <= expected | error.extra(), (where, shown)
    assert sites >= 150, sites


def test_a_kind_or_params_a_class_does_not_declare_are_refused_where_raised() -> None:
    with pytest.raises(TypeError, match="declares no kind 'nope'"):
        MatchError("no", "nope")
    with pytest.raises(TypeError, match="takes params"):
        NotYourTurn("it is Ana's turn, not Ben's", "not_your_turn", {"player": "Ana"})
    with pytest.raises(TypeError, match="takes params"):
        RulesError("x", "rules_shape", {"type": "list", "more": 1})
    with pytest.raises(TypeError):
        MatchOver("the game is over", "not_your_turn", {"player": "Ana", "you": "Ben"})
    with pytest.raises(TypeError):  # a round only where the class allows one
        ScoringError("x", "game_over", {"target": 100, "round": 1})
    error = SheetError("round 2: no ender", kind="no_ender", params={"round": 2}, round=2)
    assert (error.kind, error.params, error.round) == ("no_ender", {"round": 2}, 2)
    assert isinstance(error, ValueError) and str(error) == "round 2: no ender"


def test_a_catalogue_writes_the_sentences_of_the_page_s_english_table() -> None:
    """The sentences a class keeps (`MESSAGES`, which `Class.of` writes) are the
    client's English ones, placeholder for placeholder: the command line and
    the page say the same."""
    checked = 0
    for error, place in TABLES.items():
        own = error.__dict__.get("MESSAGES", {})
        if not own or place is None:  # no page shows it (ObservationError): its own words
            continue
        english = sentence_tables(*place)["en"]
        for kind, sentence in own.items():
            template = sentence.format(**{name: "{" + name + "}" for name in error.KINDS[kind]})
            assert template == english[kind], (error.__name__, kind)
            checked += 1
    assert checked >= 40, checked


def test_of_writes_a_kind_s_sentence_from_its_params() -> None:
    error = SheetError.of("title_too_long", max=100, length=120)
    assert str(error) == "the title has at most 100 characters, not 120"
    assert (error.kind, error.params) == ("title_too_long", {"max": 100, "length": 120})
    assert SheetError.of("round_shape").args == (
        'a round is {"ender": name, "entries": {name: entry}}',
    )
    entry = SheetError.of("no_entry", player="Ana")
    assert (entry.player, entry.round) == ("Ana", None)  # a form points at the field
    over = SheetError.of("over_before_round", round=2, after=2, next=3)
    assert over.round == 2 and over.params == {"after": 2, "next": 3}
    gone = StoreError.of("sheet_not_found", sheet="'x'")
    assert str(gone) == "there is no scoresheet 'x'" and type(gone) is StoreError
    with pytest.raises(TypeError, match="takes params"):
        SheetError.of("title_too_long", max=100)  # a param missing
    with pytest.raises(TypeError, match="takes params"):
        SheetError.of("no_ender", player="Ana")  # one it does not declare
    with pytest.raises(TypeError, match="no sentence for 'player_count'"):
        SheetError.of("player_count", min=2, max=8, count=9)  # carried on, not its own
