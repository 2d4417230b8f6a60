"""Scoresheets kept in the games' database with SQLAlchemy 2 (SQLite by default, any URL).

The tables live beside the web app's in the database of
`skyjo.persistence.location.database_url`, declared with them
(`skyjo.persistence.tables`) and versioned with them (`skyjo.persistence.schema`):

- `scorepad_sheets`: one row a sheet: its id, title, players, rules, first
  rounds (an imported sheet's), a revision, and what a list shows (rounds,
  finished, when created and changed);
- `scorepad_changes`: the sheet's changes in order (add a round, edit or
  delete round n; `skyjo.scorepad.sheet`), one row each;
- `scorepad_keys`: the secrets of the links that share a sheet, read-only or
  for editing, kept as SHA-256 hashes.

Every change is written in one transaction (the new change rows, the dropped
ones after an undo, the sheet's row), and only once the model has accepted
it: a process killed at any moment leaves each sheet as it was after its last
change. A save names the revision it started from; when another process
changed the sheet in between, it is refused (`ConflictError`) rather than
lost.

Owners: a sheet belongs to whoever made it, as a seat belongs to
its token's holder (`skyjo.web.rooms`): the row keeps the SHA-256 of the
maker's token (`owner`), never the token. `access` says what a holder of a
token or of a link's secret may do with a sheet: `owner` everything, `edit`
everything but delete it, `read` read it; a sheet made before owners existed
has none (`owner` NULL) and stays `open` to anyone holding its id, as it was
(docs/scorepad.md). The terminal app reads the database directly and may do
anything.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from dataclasses import dataclass
from typing import Any, ClassVar

from sqlalchemy import delete as sql_delete
from sqlalchemy import select as sql_select
from sqlalchemy import update as sql_update
from sqlalchemy.orm import Session

from skyjo.errors import SkyjoError, params_of
from skyjo.persistence.engine import Source, engine_of
from skyjo.persistence.schema import SCHEMA_VERSION, migrate, schema_version
from skyjo.persistence.tables import ChangeRow, KeyRow, SheetRow
from skyjo.scorepad.sheet import Round, Sheet, make_rules

#: What a holder may do with a sheet, from most to least (`SheetStore.access`).
OWNER, OPEN, EDIT, READ = "owner", "open", "edit", "read"
#: The accesses that may change a sheet, and those that may delete it.
EDITING = frozenset({OWNER, OPEN, EDIT})
DELETING = frozenset({OWNER, OPEN})


#: The letters of a sheet's id (no 0/o, 1/l/i to misread).
ID_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
ID_LENGTH = 8


class StoreError(SkyjoError):
    """A sheet that cannot be found or shared, or a database this code cannot use
    (`skyjo.errors`: `kind` names the sentence, `params` its values)."""

    MESSAGES: ClassVar[dict[str, str]] = {
        "sheet_not_found": "there is no scoresheet {sheet}",
        "share_access": f'a link lets its holder "{READ}" or "{EDIT}" the scoresheet',
        "database_too_new": (
            "the database's scorepad tables have version {version}, newer than "
            "this skyjo's {supported}: upgrade skyjo"
        ),
        "database_unusable": "cannot use the database {database}: {reason}",
    }
    KINDS: ClassVar[dict[str, tuple[str, ...]]] = params_of(MESSAGES)


class ConflictError(StoreError):
    """The sheet was changed by someone else since it was opened (`revision`:
    the sheet's now, `given`: the one the change was made on)."""

    MESSAGES: ClassVar[dict[str, str]] = {
        "changed_elsewhere": "the scoresheet {sheet} was changed elsewhere: open it again",
        "stale_revision": (
            "the scoresheet {sheet} was changed elsewhere (revision {revision}, "
            "not {given}): open it again"
        ),
    }
    KINDS: ClassVar[dict[str, tuple[str, ...]]] = params_of(MESSAGES)


def _too_new(version: int) -> StoreError:
    return StoreError.of("database_too_new", version=version, supported=SCHEMA_VERSION)


def _not_found(sheet_id: str) -> StoreError:
    return StoreError.of("sheet_not_found", sheet=f"{sheet_id!r:.40}")


@dataclass(frozen=True, slots=True)
class StoredSheet:
    """A sheet as read from or written to the database, at a revision."""

    id: str
    sheet: Sheet
    revision: int
    created_at: float
    updated_at: float


@dataclass(frozen=True, slots=True)
class SheetInfo:
    """A line of the list of sheets."""

    id: str
    title: str
    players: tuple[str, ...]
    rounds: int
    finished: bool
    created_at: float
    updated_at: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "players": list(self.players),
            "rounds": self.rounds,
            "finished": self.finished,
            "created_at": self.created_at,
            "updated_at": self.updated_at,
        }


class SheetStore:
    """The scoresheets of a database: create, list, load, save, rename, delete.
    Opened on the process's engine, or on a URL (an engine of its own, disposed of
    by `close`: `engine_of`)."""

    def __init__(self, source: Source) -> None:
        self.engine, self._owned = engine_of(source)
        #: The database's URL, as errors name it (`skyjo.scorepad.command.guarded`).
        self.url = self.engine.url.render_as_string(hide_password=False)
        migrate(self.engine, _too_new)

    def create(self, sheet: Sheet, owner: str | None = None) -> StoredSheet:
        """Write a new sheet (with its changes, if any) under a fresh id, owned by
        the holder of the token whose hash is `owner` (None: by nobody, reachable
        on the web only through the links `share` makes: the terminal's sheets)."""
        now = time.time()
        owner = owner or token_hash(new_token())
        with Session(self.engine) as session, session.begin():
            sheet_id = _fresh_id(session)
            session.add(_sheet_row(sheet_id, sheet, 1, now, now, owner))
            session.add_all(_change_rows(sheet_id, sheet.changes, 0, now))
        return StoredSheet(sheet_id, sheet, 1, now, now)

    def load(self, sheet_id: str) -> StoredSheet:
        """The sheet with this id, or a `StoreError`."""
        with Session(self.engine) as session:
            row = session.get(SheetRow, sheet_id)
            if row is None:
                raise _not_found(sheet_id)
            query = (
                sql_select(ChangeRow.change)
                .where(ChangeRow.sheet_id == sheet_id)
                .order_by(ChangeRow.seq)
            )
            changes = tuple(json.loads(text) for text in session.scalars(query))
            return _stored(row, changes)

    def list(self, owner: str | None = None) -> list[SheetInfo]:
        """The sheets owned by the token whose hash is `owner` (None: every
        sheet, for the terminal), the last changed first."""
        query = sql_select(SheetRow).order_by(SheetRow.updated_at.desc(), SheetRow.id)
        if owner is not None:
            query = query.where(SheetRow.owner == owner)
        with Session(self.engine) as session:
            return [_info(row) for row in session.scalars(query)]

    def access(self, sheet_id: str, owner: str | None, key: str | None) -> str | None:
        """What the holder of the token hashed `owner` and of the link's secret
        hashed `key` may do with the sheet: `OWNER`, `EDIT`, `READ`, `OPEN` (a
        sheet made before owners, open to whoever has its id), or None (nothing:
        the sheet is not theirs, or there is no such sheet)."""
        with Session(self.engine) as session:
            row = session.get(SheetRow, sheet_id)
            if row is None:
                return None
            if row.owner is None:
                return OPEN
            if owner is not None and secrets.compare_digest(row.owner, owner):
                return OWNER
            held = session.get(KeyRow, key) if key is not None else None
            return held.access if held is not None and held.sheet_id == sheet_id else None

    def share(self, sheet_id: str, access: str) -> str:
        """A new secret for a link to the sheet with `access` (`READ` or `EDIT`);
        only its hash is kept. Every link made stays valid until the sheet goes."""
        if access not in (READ, EDIT):
            raise StoreError.of("share_access")
        secret = new_token()
        with Session(self.engine) as session, session.begin():
            if session.get(SheetRow, sheet_id) is None:
                raise _not_found(sheet_id)
            session.add(
                KeyRow(
                    digest=token_hash(secret),
                    sheet_id=sheet_id,
                    access=access,
                    created_at=time.time(),
                )
            )
        return secret

    def save(self, stored: StoredSheet, sheet: Sheet) -> StoredSheet:
        """Write `sheet`, the new state of `stored`, in one transaction: the
        changes it added, the ones it dropped (undo), its title. Refused with
        `ConflictError` if the sheet is no longer at `stored.revision`."""
        old, new = stored.sheet.changes, sheet.changes
        kept = _common_prefix(old, new)
        now = time.time()
        revision = stored.revision + 1
        with Session(self.engine) as session, session.begin():
            done = session.execute(
                sql_update(SheetRow)
                .where(SheetRow.id == stored.id, SheetRow.revision == stored.revision)
                .values(
                    title=sheet.title,
                    revision=revision,
                    rounds=len(sheet.rounds),
                    finished=sheet.finished,
                    updated_at=now,
                )
            )
            if done.rowcount != 1:  # type: ignore[attr-defined]
                raise ConflictError.of("changed_elsewhere", sheet=stored.id)
            session.execute(
                sql_delete(ChangeRow).where(ChangeRow.sheet_id == stored.id, ChangeRow.seq > kept)
            )
            session.add_all(_change_rows(stored.id, new[kept:], kept, now))
        return StoredSheet(stored.id, sheet, revision, stored.created_at, now)

    def rename(self, sheet_id: str, title: str) -> StoredSheet:
        """Give the sheet another title."""
        stored = self.load(sheet_id)
        return self.save(stored, stored.sheet.renamed(title))

    def delete(self, sheet_id: str) -> None:
        """Delete the sheet and its changes, in one transaction."""
        with Session(self.engine) as session, session.begin():
            gone = session.execute(sql_delete(SheetRow).where(SheetRow.id == sheet_id))
            if gone.rowcount != 1:  # type: ignore[attr-defined]
                raise _not_found(sheet_id)
            session.execute(sql_delete(ChangeRow).where(ChangeRow.sheet_id == sheet_id))
            session.execute(sql_delete(KeyRow).where(KeyRow.sheet_id == sheet_id))

    def version(self) -> int:
        """The database's schema version (`skyjo.persistence.schema`)."""
        return schema_version(self.engine)

    def close(self) -> None:
        """Let go of the engine if it is the store's own (a shared one is its maker's)."""
        if self._owned:
            self.engine.dispose()


class OpenSheet:
    """A stored sheet being worked on: each change is checked by the model,
    then saved at once; a refused change saves nothing."""

    def __init__(self, store: SheetStore, stored: StoredSheet) -> None:
        self.store = store
        self.stored = stored
        #: The changes undone since the last other change, the latest last: what redo makes again.
        self.undone: list[dict[str, Any]] = []

    @property
    def id(self) -> str:
        return self.stored.id

    @property
    def sheet(self) -> Sheet:
        return self.stored.sheet

    def apply(self, changed: Sheet) -> Sheet:
        """Save `changed`, the new state of this sheet."""
        self.stored = self.store.save(self.stored, changed)
        return changed

    def add_round(self, data: Any) -> Sheet:
        return self._new(self.sheet.add_round(data))

    def edit_round(self, number: int, data: Any) -> Sheet:
        return self._new(self.sheet.edit_round(number, data))

    def delete_round(self, number: int) -> Sheet:
        return self._new(self.sheet.delete_round(number))

    def _new(self, changed: Sheet) -> Sheet:
        """A change of the user's own: what was undone can no longer be redone."""
        self.apply(changed)
        self.undone.clear()
        return changed

    def undo(self) -> Sheet:
        changes = self.sheet.changes
        undone = self.apply(self.sheet.undo())
        self.undone.append(changes[-1])
        return undone

    @property
    def can_redo(self) -> bool:
        return bool(self.undone)

    def redo(self) -> Sheet:
        """Make the last undone change again (`can_redo` says whether there is one)."""
        redone = self.apply(self.sheet.redo(self.undone[-1]))
        self.undone.pop()
        return redone

    def rename(self, title: str) -> Sheet:
        return self.apply(self.sheet.renamed(title))


# --------------------------------------------------------------------------
# Rows
# --------------------------------------------------------------------------


def _sheet_row(
    sheet_id: str, sheet: Sheet, revision: int, created: float, now: float, owner: str
) -> SheetRow:
    return SheetRow(
        owner=owner,
        id=sheet_id,
        title=sheet.title,
        players=json.dumps(list(sheet.players)),
        rules=json.dumps(sheet.rules.to_dict()),
        base=json.dumps([one.to_dict() for one in sheet.base]),
        revision=revision,
        rounds=len(sheet.rounds),
        finished=sheet.finished,
        created_at=created,
        updated_at=now,
    )


def _change_rows(
    sheet_id: str, changes: tuple[dict[str, Any], ...], after: int, now: float
) -> list[ChangeRow]:
    return [
        ChangeRow(sheet_id=sheet_id, seq=after + n, change=json.dumps(change), made_at=now)
        for n, change in enumerate(changes, start=1)
    ]


def _stored(row: SheetRow, changes: tuple[dict[str, Any], ...]) -> StoredSheet:
    rules = json.loads(row.rules)
    base = tuple(Round(one["ender"], one["entries"]) for one in json.loads(row.base))
    sheet = Sheet(
        tuple(json.loads(row.players)),
        make_rules(**rules),
        row.title,
        base,
        changes,
        saved=True,
    )
    return StoredSheet(row.id, sheet, row.revision, row.created_at, row.updated_at)


def _info(row: SheetRow) -> SheetInfo:
    return SheetInfo(
        id=row.id,
        title=row.title,
        players=tuple(json.loads(row.players)),
        rounds=row.rounds,
        finished=row.finished,
        created_at=row.created_at,
        updated_at=row.updated_at,
    )


def _common_prefix(old: tuple[Any, ...], new: tuple[Any, ...]) -> int:
    """How many first changes `old` and `new` share."""
    kept = 0
    for a, b in zip(old, new, strict=False):
        if a != b:
            break
        kept += 1
    return kept


def new_token() -> str:
    """A fresh, unguessable secret (192 bits): a browser's token, a link's key."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    """What the database keeps of a token: its SHA-256, so a leak gives no sheet away."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _fresh_id(session: Session) -> str:
    """An id no sheet has: 8 letters and digits, unguessable."""
    while True:
        sheet_id = "".join(secrets.choice(ID_ALPHABET) for _ in range(ID_LENGTH))
        if session.get(SheetRow, sheet_id) is None:
            return sheet_id
