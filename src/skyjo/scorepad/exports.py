"""A scoresheet exported and imported: one JSON document (`Sheet.to_dict`, read
back by `Sheet.from_dict`) or a CSV table of every player's every round."""

from __future__ import annotations

import csv
import io
import json

from skyjo.jsondepth import TooDeep, check_depth
from skyjo.scorepad.entries import SheetError, entry_text
from skyjo.scorepad.sheet import Sheet


def export_json(sheet: Sheet) -> str:
    """The sheet as one JSON document (`Sheet.to_dict`), as `Sheet.from_dict` reads it."""
    return json.dumps(sheet.to_dict(), ensure_ascii=False, indent=1) + "\n"


def import_json(text: str) -> Sheet:
    """The sheet of an exported JSON document (refused, `too_deep`, when it nests
    deeper than `skyjo.jsondepth.MAX_DEPTH` levels: measured before parsing)."""
    try:
        check_depth(text)
    except TooDeep as deep:
        raise SheetError.of("too_deep", max=deep.limit) from None
    try:
        data = json.loads(text)
    except ValueError as error:  # JSONDecodeError, or an integer of over 4,300 digits
        raise SheetError.of("not_json", detail=str(error)) from error
    return Sheet.from_dict(data)


CSV_HEADER = ("round", "player", "cards", "raw", "score", "total", "ender", "doubled")


def export_csv(sheet: Sheet) -> str:
    """One line per player per round: the cards (if entered), raw and final
    score, running total, whether the player ended the round and was doubled."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_HEADER)
    for one in sheet.summary()["rounds"]:
        for player, row in one["players"].items():
            written = entry_text(row["entry"]) if "cards" in row["entry"] else ""
            ender = player == one["ender"]
            writer.writerow(
                (
                    one["number"],
                    player,
                    written,
                    row["raw"],
                    row["score"],
                    one["totals"][player],
                    "yes" if ender else "",
                    "yes" if ender and one["doubled"] else "",
                )
            )
    return out.getvalue()
