"""`skyjo scorepad --list / --export / --import`: output for scripts, the one-line errors."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from helpers import assert_bad_input
from typer.testing import CliRunner, Result

from skyjo.cli import app
from skyjo.scorepad.exports import export_json
from skyjo.scorepad.sheet import Sheet
from skyjo.scorepad.store import SheetStore


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'skyjo.db'}"


def run(*args: str, env: dict[str, str | None] | None = None) -> Result:
    return CliRunner().invoke(app, ["scorepad", *args], env=env)


def a_sheet(db: str) -> tuple[str, Sheet]:
    sheet = Sheet.new(["Ana", "[bold]Ben"], "Friday", target_score=30)
    sheet = sheet.add_round({"ender": "Ana", "entries": {"Ana": 14, "[bold]Ben": 9}})
    sheet = sheet.add_round(
        {"ender": "[bold]Ben", "entries": {"Ana": 3, "[bold]Ben": "x 1 2 3 x 1 2 3 x 1 2 3"}}
    )
    return SheetStore(db).create(sheet).id, sheet


def test_export_json_is_the_sheet_and_imports_back(db: str, tmp_path: Path) -> None:
    sheet_id, sheet = a_sheet(db)
    exported = run("--db", db, "--export", sheet_id)
    assert exported.exit_code == 0 and exported.stderr == ""
    assert exported.stdout == export_json(sheet)
    document = json.loads(exported.stdout)
    assert document["summary"]["winners"] == ["[bold]Ben"]
    path = tmp_path / "sheet.json"
    path.write_text(exported.stdout)
    imported = run("--db", db, "--import", str(path), "--json")
    new_id = json.loads(imported.stdout)["id"]
    assert new_id != sheet_id
    assert run("--db", db, "--export", new_id).stdout == exported.stdout


def test_export_csv(db: str) -> None:
    sheet_id, _ = a_sheet(db)
    result = run("--db", db, "--export", sheet_id, "--format", "csv")
    rows = list(csv.reader(io.StringIO(result.stdout)))
    assert rows[1] == ["1", "Ana", "", "14", "28", "28", "yes", "yes"]
    assert rows[4] == ["2", "[bold]Ben", "x 1 2 3 / x 1 2 3 / x 1 2 3", "0", "0", "9", "yes", ""]


def test_list_in_text_and_json_on_the_database_of_skyjo_db(db: str) -> None:
    sheet_id, _ = a_sheet(db)
    listed = run("--list", env={"SKYJO_DB": db})
    assert listed.stdout == f"{sheet_id}    2 rounds  game over  Friday: Ana, [bold]Ben\n"
    document = json.loads(run("--list", "--json", env={"SKYJO_DB": db}).stdout)
    assert [s["id"] for s in document["sheets"]] == [sheet_id]


def test_an_empty_list(db: str) -> None:
    assert run("--db", db, "--list").stdout == "No scoresheet yet: skyjo scorepad starts one.\n"


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("--export", "nosuchid"), "there is no scoresheet 'nosuchid'"),
        (("--export", "{id}", "--format", "xml"), "--format is csv or json, not 'xml'"),
        (("--list", "--export", "{id}"), "--list and --export do not go together"),
        (("--format", "csv"), "--format goes with --export ID"),
        (("--export", "{id}", "--json"), "--json goes with --list, --import or --share"),
        (("--sheet", "nosuchid"), "there is no scoresheet 'nosuchid'"),
        (("--import", "/nonexistent/sheet.json"), "cannot read /nonexistent/sheet.json"),
        (("--unknown",), "No such option: --unknown"),
    ],
)
def test_bad_input_is_one_line_on_stderr(db: str, args: tuple[str, ...], fragment: str) -> None:
    sheet_id, _ = a_sheet(db)
    result = run("--db", db, *(arg.replace("{id}", sheet_id) for arg in args))
    assert_bad_input(result, fragment)


def test_a_bad_import_is_refused_and_stores_nothing(db: str, tmp_path: Path) -> None:
    a_sheet(db)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"format": "skyjo-scoresheet", "version": 1, "players": ["A"]}))
    assert_bad_input(run("--db", db, "--import", str(path)), "Skyjo takes 2 to 8 players")
    assert len(SheetStore(db).list()) == 1


def test_an_imported_card_that_is_wrong_is_named_by_row_and_column_from_1(
    db: str, tmp_path: Path
) -> None:
    """The file's grid is 0-based lists; the message counts as people do: the 13
    at index [0][1] is the card at row 1, column 2."""
    sheet = Sheet.new(["Ana", "Ben"]).to_dict()
    cards = [[7, 13, 2, 4], [7, -1, 3, 1], [7, 0, -2, 2]]
    sheet["rounds"] = [{"ender": "Ben", "entries": {"Ana": {"cards": cards}, "Ben": {"total": 5}}}]
    path = tmp_path / "bad-card.json"
    path.write_text(json.dumps(sheet))
    result = run("--db", db, "--import", str(path))
    assert_bad_input(result, "round 1: Ana's cards: the card at row 1, column 2 is 13")
    assert SheetStore(db).list() == []


def test_a_database_that_cannot_be_used_is_one_line(tmp_path: Path) -> None:
    result = run("--db", "nosuchdialect://user:secret@host/db", "--list")
    assert_bad_input(result, "cannot use the database nosuchdialect://user:***@host/db")
    assert "secret" not in result.stderr


def test_share_prints_links_that_open_a_terminal_sheet_in_a_browser(db: str) -> None:
    from starlette.testclient import TestClient

    from skyjo.web.app import create_app
    from skyjo.web.settings import Settings

    sheet_id, _ = a_sheet(db)  # made in the terminal: no browser owns it
    shared = run("--db", db, "--share", sheet_id, "--json")
    assert shared.exit_code == 0, shared.stderr
    links = json.loads(shared.stdout)
    assert links["read"].startswith(f"/scorepad/{sheet_id}#key=") and links["edit"] != links["read"]
    told = run("--db", db, "--share", sheet_id).stdout
    assert "read only: /scorepad/" in told and "to edit:   /scorepad/" in told
    app = create_app(Settings(database_url=db, rooms_per_hour=0))
    with TestClient(app, base_url="http://localhost") as client:  # a name it answers to
        api = f"/api/scorepad/sheets/{sheet_id}"
        assert client.get(api).status_code == 404  # nobody's without a link
        for access in ("read", "edit"):
            key = links[access].split("#key=")[1]
            seen = client.get(api, headers={"X-Skyjo-Key": key}).json()
            assert (seen["access"], seen["summary"]["winners"]) == (access, ["[bold]Ben"])
    assert_bad_input(run("--db", db, "--share", "nosuchid"), "there is no scoresheet")
