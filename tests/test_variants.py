"""The rule variants are declared once (`skyjo.rules.VARIANTS`): every part that
takes them, the rules, the kernel, the encoders, the web room's request, the
scorepad's API, the client's facts and wording, and the command line, reads its
list from that table or is checked against it here, so that a variant added to
the table and forgotten by one part fails a test that names the part."""

from __future__ import annotations

import dataclasses
import inspect
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import typer
from i18n_js import sentence_tables

from skyjo.kernel import RULE_SLOTS, new_tables, rule_codes, start_game
from skyjo.kernel import vector as kv
from skyjo.kernel.layout import FLOAT_SCALES, Layout, variant_values
from skyjo.rules import VARIANTS, Rules, RulesError, Variant
from skyjo.scorepad.sheet import SheetError, make_rules
from skyjo.tui.cli import VARIANT_OPTIONS, commands, game_rules
from skyjo.web.facts import client_facts
from skyjo.web.room_config import RulesSettings
from skyjo.web.scorepad_routes import NewSheet
from skyjo.web.settings import Settings

STATIC = Path(__file__).resolve().parents[1] / "src" / "skyjo" / "web" / "static"
NAMES = [variant.name for variant in VARIANTS]


def values_of(variant: Variant) -> list[Any]:
    """Every choice of a variant, or its bounds and default."""
    return list(variant.choices) or [variant.low, variant.default, variant.high]


def test_rules_fields_are_the_tables_variants_with_their_defaults() -> None:
    fields = dataclasses.fields(Rules)
    assert [f.name for f in fields] == NAMES
    assert [f.default for f in fields] == [variant.default for variant in VARIANTS]
    assert list(Rules().to_dict()) == NAMES


@pytest.mark.parametrize("variant", VARIANTS, ids=NAMES)
def test_rules_take_each_value_of_a_variant_and_refuse_others_in_its_kinds(
    variant: Variant,
) -> None:
    for value in values_of(variant):
        assert getattr(Rules.from_dict({variant.name: value}), variant.name) == value
    wrong = ["sometimes"] if variant.choices else [variant.low - 1, variant.high + 1, "12"]
    for value in wrong:
        with pytest.raises(RulesError) as refused:
            Rules.from_dict({variant.name: value})
        assert refused.value.kind in variant.kinds
        assert variant.name in str(refused.value)


def test_the_web_room_and_the_scorepad_api_take_every_variant() -> None:
    assert list(RulesSettings.model_fields) == NAMES
    assert set(NAMES) <= set(NewSheet.model_fields)
    for variant in VARIANTS:
        assert RulesSettings.model_fields[variant.name].default == variant.default
        assert NewSheet.model_fields[variant.name].default == variant.default
        for value in values_of(variant):
            assert getattr(RulesSettings(**{variant.name: value}), variant.name) == value


def test_the_clients_facts_hold_every_variant() -> None:
    facts = client_facts(Settings())
    assert [one["name"] for one in facts["variants"]] == NAMES
    for one, variant in zip(facts["variants"], VARIANTS, strict=True):
        assert one["default"] == variant.default
        assert one.get("choices", []) == list(variant.choices)


@pytest.mark.parametrize(
    ("path", "label"), [("i18n.js", "front"), ("scorepad-i18n.js", "pad")], ids=["game", "pad"]
)
def test_every_language_words_every_variant_by_its_key(path: str, label: str) -> None:
    """The options the pages build (static/variants.js) are labelled `PAGE.KEY` and a
    choice worded `KEY.CHOICE`, in each of the four languages."""
    for variant in VARIANTS:
        labels = sentence_tables(STATIC / path, label)
        assert set(labels) == {"en", "es", "fr", "de"}
        for lang, table in labels.items():
            assert variant.key in table, f"{path} {lang}: no {label}.{variant.key}"
        for lang, table in sentence_tables(STATIC / path, variant.key).items():
            missing = set(variant.choices) - set(table)
            assert not missing, f"{path} {lang}: no {variant.key}.{sorted(missing)[0]}"


def test_the_kernel_keeps_every_variant_in_a_slot_and_starts_a_game_with_it() -> None:
    assert set(RULE_SLOTS) == set(NAMES)
    assert set(kv.RULE_CONF) == set(NAMES)
    params = list(inspect.signature(start_game.py_func).parameters)
    assert len(params) == 3 + len(VARIANTS)  # t, b, players, then a code a variant
    for variant in VARIANTS:
        for value in values_of(variant):
            rules = Rules.from_dict({variant.name: value})
            tables = new_tables(1, 2, 2, rules)
            assert tables.slots[0, RULE_SLOTS[variant.name]] == variant.code(value)
            assert rule_codes(rules)[list(RULE_SLOTS).index(variant.name)] == variant.code(value)


def test_the_observation_has_a_field_and_a_scale_for_every_variant() -> None:
    layout = Layout(2)
    assert set(NAMES) <= set(layout.offsets) and set(NAMES) <= set(FLOAT_SCALES)
    start, end = layout.start(NAMES[0]), layout.offsets[NAMES[-1]].stop
    assert end == layout.size  # the variants are the array's last fields, in the table's order
    for variant in VARIANTS:
        for value in values_of(variant):
            values = variant_values(Rules.from_dict({variant.name: value}))
            assert len(values) == end - start
            field = layout.offsets[variant.name]
            written = values[field.start - start : field.stop - start]
            if variant.choices:
                assert np.flatnonzero(written).tolist() == [variant.code(value)]
            else:
                assert written.tolist() == [value]


def test_the_scorepad_makes_rules_of_every_variant_by_name() -> None:
    for variant in VARIANTS:
        for value in values_of(variant):
            assert make_rules(**{variant.name: value}) == Rules.from_dict({variant.name: value})
    assert make_rules(*(variant.default for variant in VARIANTS)) == Rules()
    with pytest.raises(SheetError) as refused:
        make_rules(**{VARIANTS[-1].name: "sometimes" if VARIANTS[-1].choices else 0})
    assert refused.value.kind in VARIANTS[-1].kinds


def test_every_command_that_takes_the_rules_has_an_option_for_every_variant() -> None:
    """`play` and `watch` take the rules: each has every variant's option (a command
    with one of them and not another has forgotten it)."""
    assert list(VARIANT_OPTIONS) == NAMES
    group = typer.main.get_group(commands)
    taking = 0
    for name, command in group.commands.items():
        options = {o for param in command.params for o in param.opts if o.startswith("--")}
        if options & set(VARIANT_OPTIONS.values()):
            taking += 1
            missing = set(VARIANT_OPTIONS.values()) - options
            assert not missing, f"skyjo {name} has no {sorted(missing)[0]}"
    assert taking == 2
    for variant in VARIANTS:
        for value in values_of(variant):
            assert game_rules(**{variant.name: value}) == Rules.from_dict({variant.name: value})
    assert game_rules(**dict.fromkeys(NAMES)) == Rules()
