"""Scoresheets in the games' database: tables, migrations, transactions, a killed process."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from sqlalchemy import text

from skyjo.persistence.schema import SCHEMA_VERSION
from skyjo.scorepad import store as store_module
from skyjo.scorepad.exports import export_json, import_json
from skyjo.scorepad.sheet import Sheet, SheetError
from skyjo.scorepad.store import ConflictError, OpenSheet, SheetStore, StoreError

ROUND_1 = {"ender": "Cleo", "entries": {"Ana": 9, "Ben": 20, "Cleo": 14}}
ROUND_2 = {"ender": "Ben", "entries": {"Ana": "7 5 2 4 / 7 -1 3 1 / 7 0 -2 2", "Ben": 5, "Cleo": 5}}


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database: a SQLite file, then a database of a real PostgreSQL server."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'skyjo.db'}"
    return request.getfixturevalue("postgres").database()


def new_pad(store: SheetStore) -> OpenSheet:
    return OpenSheet(store, store.create(Sheet.new(["Ana", "Ben", "Cleo"], "Friday")))


def test_a_sheet_is_saved_change_by_change_and_reopened(url: str) -> None:
    store = SheetStore(url)
    pad = new_pad(store)
    pad.add_round(ROUND_1)
    pad.add_round(ROUND_2)
    pad.edit_round(1, {**ROUND_1, "entries": {"Ana": 9, "Ben": 20, "Cleo": 8}})
    store.close()
    again = SheetStore(url).load(pad.id)
    assert again.sheet == pad.sheet
    assert again.sheet.totals == {"Ana": 23, "Ben": 30, "Cleo": 13}
    assert again.revision == pad.stored.revision == 4


def test_undo_is_saved_too(url: str) -> None:
    store = SheetStore(url)
    pad = new_pad(store)
    pad.add_round(ROUND_1)
    pad.add_round(ROUND_2)
    pad.undo()
    loaded = SheetStore(url).load(pad.id).sheet
    assert len(loaded.rounds) == 1 and len(loaded.changes) == 1
    pad.add_round(ROUND_2)  # the undone change's row is replaced, not kept
    assert SheetStore(url).load(pad.id).sheet == pad.sheet


def test_redo_makes_undone_changes_again_until_another_change(url: str) -> None:
    store = SheetStore(url)
    pad = new_pad(store)
    pad.add_round(ROUND_1)
    pad.add_round(ROUND_2)
    two = pad.sheet
    pad.undo()
    pad.undo()
    assert pad.can_redo and not pad.sheet.rounds
    pad.redo()
    pad.redo()
    assert pad.sheet == two and not pad.can_redo
    assert SheetStore(url).load(pad.id).sheet == two  # saved as any change
    pad.undo()
    pad.add_round(ROUND_1)  # a change of one's own: the undone one is gone
    assert not pad.can_redo


def test_a_refused_change_saves_nothing(url: str) -> None:
    store = SheetStore(url)
    pad = new_pad(store)
    pad.add_round(ROUND_1)
    before = store.load(pad.id)
    with pytest.raises(SheetError, match="no ender is marked"):
        pad.add_round({"ender": None, "entries": {"Ana": 1, "Ben": 2, "Cleo": 3}})
    with pytest.raises(SheetError, match="13"):
        pad.add_round({"ender": "Ana", "entries": {"Ana": [13] + [1] * 11, "Ben": 2, "Cleo": 3}})
    after = store.load(pad.id)
    assert after == before and pad.stored == before


def test_list_rename_and_delete(url: str) -> None:
    store = SheetStore(url)
    first = new_pad(store)
    second = new_pad(store)
    second.add_round(ROUND_1)
    listed = store.list()
    assert [info.id for info in listed] == [second.id, first.id]  # the last changed first
    assert listed[0].rounds == 1 and listed[0].players == ("Ana", "Ben", "Cleo")
    store.rename(first.id, "  Saturday [bold]x  ")
    assert store.load(first.id).sheet.title == "Saturday [bold]x"
    store.delete(second.id)
    assert [info.id for info in store.list()] == [first.id]
    with pytest.raises(StoreError, match="no scoresheet"):
        store.load(second.id)
    with pytest.raises(StoreError, match="no scoresheet"):
        store.delete(second.id)
    count = store.engine.connect().execute(text("SELECT count(*) FROM scorepad_changes"))
    assert count.scalar() == 0  # the deleted sheet's changes went with it


def test_a_change_made_elsewhere_meanwhile_is_not_overwritten(url: str) -> None:
    store = SheetStore(url)
    here = new_pad(store)
    there = OpenSheet(store, store.load(here.id))
    here.add_round(ROUND_1)
    with pytest.raises(ConflictError, match="changed elsewhere"):
        there.add_round(ROUND_2)
    assert store.load(here.id).sheet.rounds == here.sheet.rounds


def test_an_imported_sheet_is_stored_with_its_rounds(url: str) -> None:
    store = SheetStore(url)
    pad = new_pad(store)
    pad.add_round(ROUND_1)
    pad.add_round(ROUND_2)
    imported = store.create(import_json(export_json(pad.sheet)))
    loaded = store.load(imported.id).sheet
    assert export_json(loaded) == export_json(pad.sheet)
    assert not loaded.can_undo


def test_sheets_made_before_owners_are_kept_open_to_whoever_has_their_id(url: str) -> None:
    """A database of the scorepad's version 1 (no owners, no links; a target
    over today's bound and names today's rules refuse) upgraded: every sheet
    still loads, none is listed as anyone's, each stays open to whoever holds
    its id. (tests/test_database.py: the upgrades of the other old databases.)"""
    made = SheetStore(url)
    old = made.create(Sheet.new(["Ana", "Ben"], "Old", target_score=900))
    made.close()
    engine = SheetStore(url).engine
    with engine.begin() as db:  # back to the scorepad's version 1, as an old skyjo left it
        db.execute(text("DROP INDEX ix_scorepad_sheets_owner"))
        db.execute(text("ALTER TABLE scorepad_sheets DROP COLUMN owner"))
        db.execute(text("DROP TABLE scorepad_keys"))
        db.execute(text("DROP TABLE schema_version"))
        db.execute(text("CREATE TABLE scorepad_schema_version (version INTEGER PRIMARY KEY)"))
        db.execute(text("INSERT INTO scorepad_schema_version VALUES (1)"))
        players, rules = '["Ana", "ana\\u200b"]', '{"target_score": 5000, "ender_penalty": "none"}'
        db.execute(
            text("UPDATE scorepad_sheets SET players = :p, rules = :r WHERE id = :id"),
            {"p": players, "r": rules, "id": old.id},
        )
    engine.dispose()
    store = SheetStore(url)
    assert store.version() == SCHEMA_VERSION  # the whole chain, to the latest
    loaded = store.load(old.id)
    assert loaded.sheet.players == ("Ana", "ana\u200b")  # as written, though refused today
    assert loaded.sheet.rules.target_score == 1000  # brought down to the bound
    assert store.access(old.id, None, None) == store_module.OPEN
    assert store.list(owner="x" * 64) == [] and [i.id for i in store.list()] == [old.id]
    pad = OpenSheet(store, loaded)
    pad.add_round({"ender": "Ana", "entries": {"Ana": 3, "ana\u200b": 5}})  # goes on
    assert store.load(old.id).sheet.rounds[0].entries["ana\u200b"] == {"total": 5}


def test_a_sheet_is_its_owner_s_and_links_give_read_or_edit_access(url: str) -> None:
    store = SheetStore(url)
    mine = store_module.token_hash("mine")
    pad = store.create(Sheet.new(["Ana", "Ben"]), owner=mine)
    terminal = store.create(Sheet.new(["Ana", "Ben"]))  # nobody's: reached by links only
    assert [info.id for info in store.list(owner=mine)] == [pad.id]
    assert store.access(pad.id, mine, None) == "owner"
    assert store.access(pad.id, store_module.token_hash("yours"), None) is None
    assert store.access(terminal.id, mine, None) is None
    read, edit = store.share(pad.id, "read"), store.share(pad.id, "edit")
    assert store.access(pad.id, None, store_module.token_hash(read)) == "read"
    assert store.access(pad.id, None, store_module.token_hash(edit)) == "edit"
    assert store.access(terminal.id, None, store_module.token_hash(edit)) is None
    with pytest.raises(ValueError):
        store.share(pad.id, "owner")
    store.delete(pad.id)
    assert store.access(pad.id, mine, store_module.token_hash(read)) is None


SAVER = textwrap.dedent(
    """
    import sys, time
    from skyjo.scorepad.store import OpenSheet, SheetStore
    store = SheetStore(sys.argv[1])
    pad = OpenSheet(store, store.load(sys.argv[2]))
    pad.add_round({"ender": "Ana", "entries": {"Ana": 3, "Ben": -2, "Cleo": 12}})
    print("saved", flush=True)
    time.sleep(60)
    """
)


def test_a_round_saved_just_before_sigkill_is_there_afterwards(url: str) -> None:
    sheet_id = new_pad(SheetStore(url)).id
    saver = subprocess.Popen(
        [sys.executable, "-c", SAVER, url, sheet_id], stdout=subprocess.PIPE, text=True
    )
    try:
        assert saver.stdout is not None and saver.stdout.readline() == "saved\n"
        saver.send_signal(signal.SIGKILL)
        assert saver.wait(timeout=30) == -signal.SIGKILL
    finally:
        saver.kill()
    loaded = SheetStore(url).load(sheet_id).sheet
    assert loaded.totals == {"Ana": 6, "Ben": -2, "Cleo": 12}  # Ana doubled: Ben had less
