"""The scorepad's JSON API (docs/scorepad.md), over `skyjo.scorepad` (its page:
`page_routes`).

    GET    /api/scorepad/sheets           your sheets, the last changed first
    POST   /api/scorepad/sheets           a new sheet: {players, title, target_score, ender_penalty}
    POST   /api/scorepad/import           store an exported JSON sheet (the body)
    POST   .../sheets/{id}/share          a link: {access: "read" | "edit"} -> {link, key}
    GET    .../sheets/{id}                a sheet: revision, summary, rounds as typed, can_undo
    PATCH  .../sheets/{id}                rename: {revision, title}
    DELETE .../sheets/{id}                delete the sheet
    POST   .../sheets/{id}/preview        {round, number}: checked and scored, nothing saved
    POST   .../sheets/{id}/rounds         add a round: {revision, round}
    PUT    .../sheets/{id}/rounds/{n}     replace round n: {revision, round}
    DELETE .../sheets/{id}/rounds/{n}?revision=r   delete round n
    POST   .../sheets/{id}/undo           undo the last change: {revision}
    GET    .../sheets/{id}/export.json, export.csv   downloads

Every number comes from the model (`skyjo.scorepad.sheet`, scored by
`skyjo.scoring`); this module only maps requests onto it and onto the store. The
bodies are pydantic models of their shape (an object of these fields, a revision,
a link's access); the values the sheet reads (names, title, rules, a round as typed)
are the sheet's to check, whose mistakes name the round and the player for the form.

A sheet belongs to the browser that made it (`SheetStore.access`): the browser
keeps a token (its `X-Skyjo-Owner` header; the server keeps its hash, and
issues one with the first sheet of a browser that has none), which lists,
changes and deletes its sheets; a link's secret (`X-Skyjo-Key`) reads, or
changes, the one sheet it was made for. Without either a sheet is unknown
(404 `no_sheet`); a read-only link that tries a change, or an edit link that
tries to delete, is a 403 `forbidden` (`access`, the routes' dependency). Sheets
made (new or imported) are counted per client address (`sheets_rate`, 429).
A change names the revision the page shows: another revision is a 409
(`conflict`) and nothing is saved. A mistake the model refuses is a 400
`{"error": {"code": "mistake", "message", "round", "player", "kind", "params"}}`
and nothing is saved either. Every error has a `kind` (one per sentence) and
the `params` its sentence names, for the page to write it in its language
(docs/scorepad.md); `message` is the English sentence.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated, Any, Literal, TypeVar

from fastapi import APIRouter, Body, Depends, FastAPI, Header, Path, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field, PlainValidator, create_model

from skyjo.names import MAX_NAME
from skyjo.rules import VARIANTS
from skyjo.scorepad.entries import check_entry, entry_score, entry_text, grid_explanation
from skyjo.scorepad.exports import export_csv, export_json, import_json
from skyjo.scorepad.sheet import Sheet, SheetError
from skyjo.scorepad.store import (
    DELETING,
    EDITING,
    OWNER,
    READ,
    ConflictError,
    OpenSheet,
    SheetStore,
    StoredSheet,
    StoreError,
    new_token,
    token_hash,
)
from skyjo.web.api import bounded, count, errors
from skyjo.web.protocol import ProtocolError
from skyjo.web.room_config import variant_shape
from skyjo.web.validation import ANSWER, STRICT, Error, Invalid, Refuse, refusing

#: The largest request body of a change, in bytes; an imported file may be larger.
MAX_BODY = 64 * 1024
MAX_IMPORT = 4 * 1024 * 1024
#: The headers of a browser's token (its sheets) and of a link's secret (one sheet).
OWNER_HEADER = "X-Skyjo-Owner"
KEY_HEADER = "X-Skyjo-Key"

T = TypeVar("T")


class Mistake(ProtocolError):
    """A mistake the sheet model refuses: 400 `mistake`, with `round` and `player`
    beside `kind` and `params`, the field a form should point at."""

    def __init__(self, error: SheetError) -> None:
        super().__init__("mistake", str(error), error.kind, error.params)
        self.round = error.round
        self.player = error.player

    def fields(self) -> dict[str, Any]:
        return {**super().fields(), "round": self.round, "player": self.player}


def sheet_too_large(limit: int) -> ProtocolError:
    """413 `too_large`: a body over `limit` bytes."""
    return ProtocolError(
        "too_large", f"a request has at most {limit} bytes", params={"limit": limit}
    )


# --- requests ----------------------------------------------------------------------


def _as_given(value: Any) -> Any:
    return value


class TypedRound(BaseModel):
    """A round as typed: who ended it, and each player's entry: the 12 cards of their
    grid ("7 5 2 4 / 7 -1 3 1 / 7 0 -2 2", an x for a cleared card), their raw score,
    or `{"total": 9}` (docs/scorepad.md)."""

    ender: str | None
    entries: dict[str, Any]


def _given(shape: Any) -> PlainValidator:
    """A field the sheet model checks, not pydantic: its mistakes (`SheetError`) name
    the round and the player for the form. /openapi.json shows `shape`, what it takes."""
    return PlainValidator(_as_given, json_schema_input_type=shape)


#: A person's name, as the sheet reads it.
Name = Annotated[str, Field(min_length=1, max_length=MAX_NAME)]
Names = Annotated[Any, _given(Annotated[list[Name], Field(min_length=2, max_length=8)])]
Title = Annotated[Any, _given(Annotated[str, Field(max_length=100)])]
RoundAsTyped = Annotated[Any, _given(TypedRound)]


def _needs(*fields: str) -> Callable[[dict[str, Any]], None]:
    """For /openapi.json: the fields a body needs, though pydantic lets them pass
    (`_given`): the sheet model refuses a body without them, in its own words."""

    def required(schema: dict[str, Any]) -> None:
        schema["required"] = sorted({*schema.get("required", ()), *fields})
        for field in fields:
            schema["properties"][field].pop("default", None)

    return required


def _number(text: Any, what: str = "round number") -> int:
    """A number a request names: an integer, or its decimal digits (a path's)."""
    if isinstance(text, int) and not isinstance(text, bool):
        return text
    if isinstance(text, str) and text.isascii() and text.isdigit() and len(text) < 10:
        return int(text)
    raise Invalid(
        ProtocolError(
            "bad_request",
            f"{text!r:.20} is not a {what}",
            "not_a_number",
            {"text": f"{text!r:.20}", "what": what},
        )
    )


#: What a number of a path or a query is: its digits.
Digits = Annotated[int, Field(ge=0)]
#: A round's number (from 1), in a path or a preview.
RoundNumber = Annotated[int, PlainValidator(_number, json_schema_input_type=Digits)]
#: The revision of a sheet a deletion of a round was made on (a query's).
QueryRevision = Annotated[
    int, PlainValidator(lambda text: _number(text, "revision"), json_schema_input_type=Digits)
]
#: An export's format.
Format = Literal["json", "csv"]


class _Request(BaseModel):
    """A body of the scorepad's API: a JSON object of these fields, all but the
    revision optional."""

    model_config = STRICT


class _NewSheet(_Request):
    model_config = ConfigDict(json_schema_extra=_needs("players"))
    players: Names = None
    title: Title = ""


#: A new sheet: 2 to 8 different names, a title, the rules (the sheet's checks), a
#: field a rule variant (`skyjo.rules.VARIANTS`).
NewSheet: type[_NewSheet] = create_model(
    "NewSheet",
    __base__=_NewSheet,
    __doc__="A new sheet: 2 to 8 different names, a title, the rules (the sheet's checks).",
    **{
        variant.name: (Annotated[Any, _given(variant_shape(variant))], variant.default)
        for variant in VARIANTS
    },
)


class Rename(_Request):
    """A new title, on the revision the page shows."""

    revision: int
    title: Title = ""


class Share(_Request):
    """A link that lets its holder read, or change, the sheet."""

    access: Literal["read", "edit"]


class Preview(_Request):
    """A round as typed, checked and scored, nothing saved: as round `number` (an
    edit) or as the next one. Whatever `round` holds is answered (what is wrong
    with it, each entry alone and the whole), never refused."""

    round: Any = None
    number: RoundNumber | None = None


class RoundChange(_Request):
    """A round added or replaced (`{ender, entries}`), on the revision the page shows."""

    model_config = ConfigDict(json_schema_extra=_needs("round"))
    revision: int
    round: RoundAsTyped = None


class Undo(_Request):
    """Undo the last change, on the revision the page shows."""

    revision: int


class ExportedSheet(BaseModel):
    """A sheet as a file (`export.json`), as `import` reads it back: its `summary` is
    computed again, not read (docs/scorepad.md)."""

    model_config = ANSWER
    format: Literal["skyjo-scoresheet"]
    version: Literal[1]
    title: str = ""
    players: Annotated[list[Name], Field(min_length=2, max_length=8)]
    rules: dict[str, Any] = {}
    rounds: list[TypedRound] = []
    summary: dict[str, Any] | None = None


def _no_revision() -> ProtocolError:
    """The refusal of a change that names no revision (its body's or its query's)."""
    return ProtocolError("bad_request", "a change names the revision it was made on", "no_revision")


def _fields(what: str, model: type[_Request]) -> Refuse:
    """The refusals of a body `model` (`what`, in words): its shape
    (`request_fields`), a revision (`no_revision`), a link's access (`share_access`)."""
    keys = ", ".join(sorted(model.model_fields))

    def refuse(error: Error) -> ProtocolError:
        match tuple(error["loc"]):
            case ("revision", *_) if error["type"] != "extra_forbidden":
                return _no_revision()
            case ("access", *_) if error["type"] != "extra_forbidden":
                return ProtocolError(
                    "bad_request",
                    'a link lets its holder "read" or "edit" the scoresheet',
                    "share_access",
                )
        return ProtocolError(  # not an object, or a field it has not
            "bad_request",
            f"{what} is a JSON object of {keys}",
            "request_fields",
            {"what": what, "keys": keys},
        )

    return refuse


NewSheetBody = Annotated[NewSheet, refusing(_fields("a new sheet", NewSheet)), Body()]
RenameBody = Annotated[Rename, refusing(_fields("a rename", Rename)), Body()]
ShareBody = Annotated[Share, refusing(_fields("a share", Share)), Body()]
PreviewBody = Annotated[Preview, refusing(_fields("a preview", Preview)), Body()]
NewRoundBody = Annotated[RoundChange, refusing(_fields("a new round", RoundChange)), Body()]
EditBody = Annotated[RoundChange, refusing(_fields("an edited round", RoundChange)), Body()]
UndoBody = Annotated[Undo, refusing(_fields("an undo", Undo)), Body()]


# --- answers -----------------------------------------------------------------------


class Typed(BaseModel):
    """A round as typed: its ender and each player's entry as text."""

    model_config = ANSWER
    ender: str | None
    entries: dict[str, str]


class SheetView(BaseModel):
    """A sheet as the page shows it (`view`): its summary (every score, from the
    model), each round as typed, and what the viewer may do with it."""

    model_config = ANSWER
    id: str
    access: Literal["owner", "open", "edit", "read"]
    revision: int
    title: str
    players: list[str]
    rules: dict[str, Any]
    summary: dict[str, Any] = Field(description="Sheet.summary(): rounds, totals, winners...")
    typed: list[Typed]
    can_undo: bool
    updated_at: float
    owner: str | None = Field(
        None, description=f"a new browser's token, to send as {OWNER_HEADER}: only once"
    )


class SheetLine(BaseModel):
    """A line of the list of sheets."""

    model_config = ANSWER
    id: str
    title: str
    players: list[str]
    rounds: int
    finished: bool
    created_at: float
    updated_at: float


class SheetList(BaseModel):
    """The browser's sheets, the last changed first."""

    model_config = ANSWER
    sheets: list[SheetLine]


class Deleted(BaseModel):
    model_config = ANSWER
    deleted: str


class Link(BaseModel):
    """A link to the sheet: its `key` (a secret, sent as `X-Skyjo-Key`) in its fragment."""

    model_config = ANSWER
    id: str
    access: Literal["read", "edit"]
    key: str
    link: str


class PreviewRound(BaseModel):
    model_config = ANSWER
    number: int
    ender: str | None
    doubled: bool
    reason: str
    explain: dict[str, Any]
    raw: dict[str, int]
    scores: dict[str, int]


class PreviewMistake(BaseModel):
    model_config = ANSWER
    message: str
    round: int | None
    player: str | None
    kind: str
    params: dict[str, Any]


class PreviewAnswer(BaseModel):
    """Each entry read alone (its score, grid and explanation, or what is wrong with
    it), then the whole round scored, or the mistake that would refuse it."""

    model_config = ANSWER
    entries: dict[str, dict[str, Any] | None]
    round: PreviewRound | None
    error: PreviewMistake | None


# --- dependencies ------------------------------------------------------------------


def _store(request: Request) -> SheetStore:
    return request.app.state.sheets  # type: ignore[no-any-return]


StoreOf = Annotated[SheetStore, Depends(_store)]


async def run(store: SheetStore, work: Callable[[SheetStore], T]) -> T:
    """`work(store)` in a thread, its model and store errors as the API's refusals."""

    def guarded() -> T:
        try:
            return work(store)
        except SheetError as error:
            raise Mistake(error) from error
        except ConflictError as error:
            raise ProtocolError("conflict", str(error), error.kind, error.params) from error
        except StoreError as error:
            code = "no_sheet" if error.kind == "sheet_not_found" else "bad_request"
            raise ProtocolError(code, str(error), error.kind, error.params) from error

    return await asyncio.to_thread(guarded)


@dataclass(frozen=True, slots=True)
class Holder:
    """What a request holds: the hashes of its browser's token and of its link's
    secret (None: not given)."""

    owner: str | None
    key: str | None


def _hashed(given: str | None) -> str | None:
    """The hash of a token or key as a header gives it (None: none given)."""
    given = (given or "").strip()
    return token_hash(given[:200]) if given else None


def _holder(
    x_skyjo_owner: Annotated[str | None, Header(description="the browser's token")] = None,
    x_skyjo_key: Annotated[str | None, Header(description="a link's secret")] = None,
) -> Holder:
    return Holder(_hashed(x_skyjo_owner), _hashed(x_skyjo_key))


HolderOf = Annotated[Holder, Depends(_holder)]


async def allowed(
    store: SheetStore, sheet_id: str, holder: Holder, wanted: frozenset[str] | None
) -> str:
    """What `holder` may do with the sheet (`SheetStore.access`), refused when it is
    nothing (404, as for no sheet) or not in `wanted` (403)."""
    access = await run(store, lambda store: store.access(sheet_id, holder.owner, holder.key))
    if access is None:
        raise ProtocolError("no_sheet", f"there is no scoresheet {sheet_id!r:.40} of yours")
    if wanted is not None and access not in wanted:
        if wanted == DELETING:
            raise ProtocolError(
                "forbidden", "only the browser that made this scoresheet deletes it", "owner_only"
            )
        raise ProtocolError(
            "forbidden", "this link lets you read the scoresheet, not change it", "read_only"
        )
    return access


def access(wanted: frozenset[str] | None = None) -> Callable[..., Awaitable[str]]:
    """A dependency: what the request may do with the path's sheet (`allowed`)."""

    async def access_of(sheet_id: str, holder: HolderOf, store: StoreOf) -> str:
        return await allowed(store, sheet_id, holder, wanted)

    return access_of


def _owned(holder: HolderOf) -> tuple[str, str | None]:
    """The hash of the request's owner token, and the token to give the browser
    when it had none (a new one)."""
    if holder.owner is not None:
        return holder.owner, None
    token = new_token()
    return token_hash(token), token


Owned = Annotated[tuple[str, str | None], Depends(_owned)]
#: What the request may do with the path's sheet: read it, at least.
Seen = Annotated[str, Depends(access())]
#: ... change it.
Changing = Annotated[str, Depends(access(EDITING))]


async def _new_sheet(asked: NewSheetBody, store: StoreOf) -> Sheet:
    """The sheet a request asks for, made by the model (its mistakes)."""
    players = asked.players
    if not isinstance(players, list):
        raise Mistake(SheetError("players must be a list of names", kind="players_missing"))
    names = [p.strip() if isinstance(p, str) else p for p in players if p not in ("", None)]
    title, variants = (
        asked.title,
        {variant.name: getattr(asked, variant.name) for variant in VARIANTS},
    )
    return await run(store, lambda store: Sheet.new(names, title, **variants))


async def _imported_sheet(request: Request, store: StoreOf) -> Sheet:
    """The sheet of an exported file (the body, its text), read by the model."""
    body = await request.body()
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise ProtocolError("mistake", "the file is not UTF-8 text", "not_utf8") from None
    return await run(store, lambda store: import_json(text))


async def _new_counted(request: Request, sheet: Annotated[Sheet, Depends(_new_sheet)]) -> Sheet:
    """A new sheet the model accepts, counted as one more sheet made by the client
    address (`sheets_rate`, 429 over the limit)."""
    await count(request, "sheets_rate")
    return sheet


async def _imported_counted(
    request: Request, sheet: Annotated[Sheet, Depends(_imported_sheet)]
) -> Sheet:
    """An imported sheet the model accepts, counted as `_new_counted` is."""
    await count(request, "sheets_rate")
    return sheet


# --- helpers of the routes ---------------------------------------------------------


def _no_format(error: Error) -> ProtocolError:
    """An export's format that is neither json nor csv (404)."""
    kind = f"{error['input']!r:.20}"
    return ProtocolError(
        "no_format", f"a sheet is exported as json or csv, not {kind}", params={"format": kind}
    )


def _made(stored: StoredSheet, issued: str | None) -> SheetView:
    """A sheet made, as its maker sees it (with its new token, if one was issued)."""
    shown = SheetView(**view(stored, OWNER))
    if issued is not None:
        shown.owner = issued  # the browser keeps it: its key to its sheets
    return shown


async def _change(
    store: SheetStore,
    sheet_id: str,
    revision: int,
    change: Callable[[OpenSheet], Sheet],
    access: str,
) -> SheetView:
    """A change to the sheet made on `revision` (a 409 `conflict` on another)."""

    def work(store: SheetStore) -> dict[str, Any]:
        stored = store.load(sheet_id)
        if stored.revision != revision:
            raise ConflictError(
                f"the scoresheet {sheet_id} was changed elsewhere (revision {stored.revision}, "
                f"not {revision}): open it again",
                "stale_revision",
                {"sheet": sheet_id, "revision": stored.revision, "given": revision},
            )
        open_sheet = OpenSheet(store, stored)
        change(open_sheet)
        return view(open_sheet.stored, access)

    return SheetView(**await run(store, work))


def view(stored: StoredSheet, access: str) -> dict[str, Any]:
    """A sheet as the page shows it: the summary, each round's entries as typed,
    and what the viewer may do with it (`access`: owner, open, edit or read)."""
    sheet = stored.sheet
    return {
        "id": stored.id,
        "access": access,
        "revision": stored.revision,
        "title": sheet.title,
        "players": list(sheet.players),
        "rules": sheet.rules.to_dict(),
        "summary": sheet.summary(),
        "typed": [
            {"ender": one.ender, "entries": {p: entry_text(e) for p, e in one.entries.items()}}
            for one in sheet.rounds
        ],
        "can_undo": sheet.can_undo,
        "updated_at": stored.updated_at,
    }


def _preview(sheet: Sheet, data: Any, number: Any) -> dict[str, Any]:
    """Each entry of `data` read alone (its score, grid and explanation, or
    what is wrong with it), then the whole round as round `number` (an edit)
    or as the next one: its scores and the ender's penalty in words, or the
    mistake that would refuse it."""
    given = data.get("entries") if isinstance(data, dict) else None
    entries: dict[str, Any] = {}
    for player in sheet.players:
        value = given.get(player) if isinstance(given, dict) else None
        try:
            entry = check_entry(value, player)
        except SheetError as error:
            entries[player] = {"error": str(error), "kind": error.kind, "params": error.params}
            continue
        if entry is None:
            entries[player] = None
            continue
        raw, grid = entry_score(entry, player)
        entries[player] = {
            "entry": entry,
            "raw": raw,
            "grid": None if grid is None else grid.to_dict(),
            "explanation": "" if grid is None else grid_explanation(grid),
        }
    at = number or len(sheet.rounds) + 1
    try:
        scored = sheet.preview(data, at)
    except SheetError as error:
        mistake = {
            "message": str(error),
            "round": error.round,
            "player": error.player,
            "kind": error.kind,
            "params": error.params,
        }
        return {"entries": entries, "round": None, "error": mistake}
    score = scored.score
    one = {
        "number": at,
        "ender": score.ender,
        "doubled": score.doubled,
        "reason": score.reason,
        "explain": score.facts,
        "raw": score.raw,
        "scores": score.scores,
    }
    return {"entries": entries, "round": one, "error": None}


# --- routes ------------------------------------------------------------------------


@contextlib.asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """The app's `SheetStore`, on the process's engine (`app.state.engine`, which the
    app's lifespan opens before this one), opened when the app starts and closed when
    it stops."""
    app.state.sheets = await asyncio.to_thread(SheetStore, app.state.engine)
    try:
        yield
    finally:
        app.state.sheets.close()


#: The scorepad's API, on the app's `SheetStore` (its page: `page_routes`).
router = APIRouter(
    lifespan=lifespan, route_class=bounded(MAX_BODY, sheet_too_large), tags=["scorepad"]
)
SHEETS = "/api/scorepad/sheets"
ONE_SHEET = SHEETS + "/{sheet_id}"
#: How a route that makes a sheet answers: 201, and the new browser's token if any.
MADE: dict[str, Any] = {
    "status_code": 201,
    "responses": errors(400, 413, 429),
    "response_model_exclude_unset": True,
}


@router.get(SHEETS, responses=errors())
async def listed(holder: HolderOf, store: StoreOf) -> SheetList:
    """The sheets of the browser whose token is given (none without one)."""
    owner = holder.owner
    infos = [] if owner is None else await run(store, lambda store: store.list(owner))
    return SheetList(sheets=[SheetLine(**info.to_dict()) for info in infos])


@router.post(SHEETS, **MADE)  # type: ignore[arg-type]
async def create(
    sheet: Annotated[Sheet, Depends(_new_counted)], owned: Owned, store: StoreOf
) -> SheetView:
    """A new sheet, the browser's (a browser with no token gets one: `owner`)."""
    return await run(store, lambda store: _made(store.create(sheet, owned[0]), owned[1]))


async def imported(
    sheet: Annotated[Sheet, Depends(_imported_counted)], owned: Owned, store: StoreOf
) -> SheetView:
    """Store an exported sheet (`export.json`) as a new sheet of the browser's."""
    return await run(store, lambda store: _made(store.create(sheet, owned[0]), owned[1]))


router.add_api_route(
    "/api/scorepad/import",
    imported,
    methods=["POST"],
    route_class_override=bounded(MAX_IMPORT, sheet_too_large),
    openapi_extra={
        "requestBody": {
            "required": True,
            "description": "an exported sheet's JSON text (export.json)",
            "content": {
                "application/json": {"schema": {"$ref": "#/components/schemas/ExportedSheet"}}
            },
        }
    },
    **MADE,  # type: ignore[arg-type]
)


@router.get(ONE_SHEET, responses=errors(404))
async def get(sheet_id: str, seen: Seen, store: StoreOf) -> SheetView:
    """A sheet: its revision, summary, rounds as typed and whether one can undo."""
    return SheetView(**await run(store, lambda store: view(store.load(sheet_id), seen)))


@router.patch(ONE_SHEET, responses=errors(400, 403, 404, 409, 413))
async def rename(
    sheet_id: str,
    asked: RenameBody,
    seen: Changing,
    store: StoreOf,
) -> SheetView:
    """Rename the sheet."""
    title = asked.title
    return await _change(store, sheet_id, asked.revision, lambda o: o.rename(title), seen)


@router.delete(ONE_SHEET, responses=errors(403, 404))
async def delete(
    sheet_id: str, seen: Annotated[str, Depends(access(DELETING))], store: StoreOf
) -> Deleted:
    """Delete the sheet (its owner only)."""
    await run(store, lambda store: store.delete(sheet_id))
    return Deleted(deleted=sheet_id)


@router.post(ONE_SHEET + "/share", status_code=201, responses=errors(400, 403, 404, 413))
async def share(
    sheet_id: str,
    asked: ShareBody,
    holder: HolderOf,
    store: StoreOf,
) -> Link:
    """A link to read the sheet (anyone who may read it) or change it (who may)."""
    wanted = asked.access
    await allowed(store, sheet_id, holder, None if wanted == READ else EDITING)
    key = await run(store, lambda store: store.share(sheet_id, wanted))
    link = f"/scorepad/{sheet_id}#key={key}"
    return Link(id=sheet_id, access=wanted, key=key, link=link)


@router.post(ONE_SHEET + "/preview", responses=errors(400, 404, 413))
async def preview(
    sheet_id: str,
    asked: PreviewBody,
    seen: Seen,
    store: StoreOf,
) -> PreviewAnswer:
    """A round as typed, checked and scored: nothing is saved."""
    data, number = asked.round, asked.number
    shown = await run(store, lambda store: _preview(store.load(sheet_id).sheet, data, number))
    return PreviewAnswer.model_validate(shown)


@router.post(ONE_SHEET + "/rounds", responses=errors(400, 403, 404, 409, 413))
async def add(
    sheet_id: str,
    asked: NewRoundBody,
    seen: Changing,
    store: StoreOf,
) -> SheetView:
    """Add a round."""
    data = asked.round
    return await _change(store, sheet_id, asked.revision, lambda o: o.add_round(data), seen)


@router.put(ONE_SHEET + "/rounds/{number}", responses=errors(400, 403, 404, 409, 413))
async def edit(
    sheet_id: str,
    number: Annotated[RoundNumber, Path()],
    asked: EditBody,
    seen: Changing,
    store: StoreOf,
) -> SheetView:
    """Replace round `number`."""
    data = asked.round
    work = lambda o: o.edit_round(number, data)  # noqa: E731
    return await _change(store, sheet_id, asked.revision, work, seen)


@router.delete(ONE_SHEET + "/rounds/{number}", responses=errors(400, 403, 404, 409))
async def delete_round(
    sheet_id: str,
    number: Annotated[RoundNumber, Path()],
    seen: Changing,
    store: StoreOf,
    revision: Annotated[QueryRevision | None, Query()] = None,
) -> SheetView:
    """Delete round `number`, on the revision the page shows (`?revision=`, which a
    deletion must name as every change does: `no_revision` without it)."""
    if revision is None:
        raise _no_revision()
    return await _change(store, sheet_id, revision, lambda o: o.delete_round(number), seen)


@router.post(ONE_SHEET + "/undo", responses=errors(400, 403, 404, 409, 413))
async def undo(
    sheet_id: str,
    asked: UndoBody,
    seen: Changing,
    store: StoreOf,
) -> SheetView:
    """Undo the last change."""
    return await _change(store, sheet_id, asked.revision, lambda o: o.undo(), seen)


@router.get(
    ONE_SHEET + "/export.{kind}",
    response_class=Response,
    responses={
        200: {
            "model": ExportedSheet,
            "description": "The sheet as a file (Content-Disposition: attachment)",
            "content": {"text/csv": {"schema": {"type": "string"}}},
        },
        **errors(404),
    },
)
async def exported(
    sheet_id: str,
    kind: Annotated[Format, Path(), refusing(_no_format)],
    seen: Seen,
    store: StoreOf,
) -> Response:
    """The sheet as JSON (what import reads back) or CSV."""
    stored = await run(store, lambda store: store.load(sheet_id))
    text = export_json(stored.sheet) if kind == "json" else export_csv(stored.sheet)
    media = "application/json" if kind == "json" else "text/csv"
    name = f"scoresheet-{stored.id}.{kind}"
    return Response(
        text,
        media_type=f"{media}; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )
