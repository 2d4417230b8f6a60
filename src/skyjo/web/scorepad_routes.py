"""The scorepad's page and JSON API (docs/scorepad.md), over `skyjo.scorepad`.

    GET    /scorepad, /scorepad/{id}      the page (static/scorepad.html)
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
`skyjo.scoring`); this module only maps requests onto it and onto the store.

A sheet belongs to the browser that made it (`SheetStore.access`): the browser
keeps a token (its `X-Skyjo-Owner` header; the server keeps its hash, and
issues one with the first sheet of a browser that has none), which lists,
changes and deletes its sheets; a link's secret (`X-Skyjo-Key`) reads, or
changes, the one sheet it was made for. Without either a sheet is unknown
(404 `no_sheet`); a read-only link that tries a change, or an edit link that
tries to delete, is a 403 `forbidden`. Sheets made (new or imported) are
counted per client address (`sheets_rate`, 429).
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
import json
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any, TypeVar

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from skyjo.jsondepth import TooDeep, check_depth
from skyjo.scorepad.entries import check_entry, entry_score, entry_text, grid_explanation
from skyjo.scorepad.exports import export_csv, export_json, import_json
from skyjo.scorepad.sheet import Sheet, SheetError
from skyjo.scorepad.store import (
    DELETING,
    EDIT,
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
from skyjo.web.facts import page as facts_page
from skyjo.web.limits import client_address
from skyjo.web.protocol import ProtocolError
from skyjo.web.settings import Settings

STATIC = Path(__file__).parent / "static"
#: The largest request body of a change, in bytes; an imported file may be larger.
MAX_BODY = 64 * 1024
MAX_IMPORT = 4 * 1024 * 1024
#: The headers of a browser's token (its sheets) and of a link's secret (one sheet).
OWNER_HEADER = "X-Skyjo-Owner"
KEY_HEADER = "X-Skyjo-Key"

T = TypeVar("T")


class Failure(ProtocolError):
    """An HTTP error of the API: `{"error": {"code", "message", "kind", "params",
    ...}}` with `status`; `kind` names the sentence, `params` its values, and
    `where` (round, player) the field a form should point at."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        kind: str | None = None,
        params: dict[str, Any] | None = None,
        **where: Any,
    ) -> None:
        super().__init__(code, message, kind, params)
        self.status = status
        self.where = where

    def response(self) -> JSONResponse:
        headers = {}
        if self.code == "rate_limited":
            headers["Retry-After"] = str(self.params["retry_after"])
        body = {
            "error": {
                "code": self.code,
                "message": self.message,
                "kind": self.kind,
                "params": self.params,
                **self.where,
            }
        }
        return JSONResponse(body, status_code=self.status, headers=headers)


def scorepad_router(settings: Settings) -> APIRouter:
    """The scorepad's routes, on a `SheetStore` of `settings.database_url`
    opened when the app starts and closed when it stops."""
    stores: list[SheetStore] = []

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        stores.append(await asyncio.to_thread(SheetStore, settings.database_url))
        app.state.sheets = stores[0]
        try:
            yield
        finally:
            stores.pop().close()

    router = APIRouter(lifespan=lifespan)

    async def run(work: Callable[[SheetStore], T]) -> T:
        """`work(store)` in a thread, its model and store errors as `Failure`s."""

        def guarded() -> T:
            try:
                return work(stores[0])
            except SheetError as error:
                raise Failure(
                    400,
                    "mistake",
                    str(error),
                    error.kind,
                    error.params,
                    round=error.round,
                    player=error.player,
                ) from error
            except ConflictError as error:
                raise Failure(409, "conflict", str(error), error.kind, error.params) from error
            except StoreError as error:
                status, code = (
                    (404, "no_sheet") if error.kind == "sheet_not_found" else (400, "bad_request")
                )
                raise Failure(status, code, str(error), error.kind, error.params) from error

        return await asyncio.to_thread(guarded)

    def answer(
        work: Callable[..., Any], status: int = 200
    ) -> Callable[..., Any]:  # a route's body, its `Failure` as the response
        async def endpoint(request: Request) -> Any:
            try:
                result = await work(request)
            except Failure as failure:
                return failure.response()
            if isinstance(result, Response):
                return result
            return JSONResponse(result, status_code=status)

        endpoint.__name__ = work.__name__
        return endpoint

    @router.get("/scorepad", include_in_schema=False)
    @router.get("/scorepad/{sheet_id}", include_in_schema=False)
    async def page(sheet_id: str = "") -> HTMLResponse:
        return facts_page(STATIC / "scorepad.html", settings)

    async def allowed(request: Request, wanted: frozenset[str] | None = None) -> str:
        """What the request's holder may do with its sheet (`SheetStore.access`),
        refused when it is nothing (404, as for no sheet) or not in `wanted` (403)."""
        sheet_id = request.path_params["sheet_id"]
        owner, key = _credential(request, OWNER_HEADER), _credential(request, KEY_HEADER)
        access = await run(lambda store: store.access(sheet_id, owner, key))
        if access is None:
            raise Failure(404, "no_sheet", f"there is no scoresheet {sheet_id!r:.40} of yours")
        if wanted is not None and access not in wanted:
            if wanted == DELETING:
                raise Failure(
                    403,
                    "forbidden",
                    "only the browser that made this scoresheet deletes it",
                    "owner_only",
                )
            raise Failure(
                403,
                "forbidden",
                "this link lets you read the scoresheet, not change it",
                "read_only",
            )
        return access

    def counted(request: Request) -> None:
        """One more sheet made by the request's client address (429 over the limit)."""
        try:
            limit(request, "sheets_rate")
        except ProtocolError as failure:
            raise Failure(
                429, failure.code, failure.message, failure.kind, failure.params
            ) from None

    def owned(request: Request) -> tuple[str, str | None]:
        """The hash of the request's owner token, and the token to give the browser
        when it had none (a new one)."""
        owner = _credential(request, OWNER_HEADER)
        if owner is not None:
            return owner, None
        token = new_token()
        return token_hash(token), token

    def made(stored: StoredSheet, issued: str | None) -> dict[str, Any]:
        shown = view(stored, OWNER)
        if issued is not None:
            shown["owner"] = issued  # the browser keeps it: its key to its sheets
        return shown

    async def listed(request: Request) -> dict[str, Any]:
        owner = _credential(request, OWNER_HEADER)
        infos = [] if owner is None else await run(lambda store: store.list(owner))
        return {"sheets": [info.to_dict() for info in infos]}

    async def create(request: Request) -> dict[str, Any]:
        data = _fields(
            await _json(request),
            {"players", "title", "target_score", "ender_penalty"},
            "a new sheet",
        )
        owner, issued = owned(request)

        sheet = await run(
            lambda store: Sheet.new(
                _players(data.get("players")),
                data.get("title", ""),
                data.get("target_score", 100),
                data.get("ender_penalty", "positive"),
            )
        )
        counted(request)  # a sheet the model accepts counts
        return await run(lambda store: made(store.create(sheet, owner), issued))

    async def imported(request: Request) -> dict[str, Any]:
        body = await _body(request, MAX_IMPORT)
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            raise Failure(400, "mistake", "the file is not UTF-8 text", "not_utf8") from None
        owner, issued = owned(request)

        sheet = await run(lambda store: import_json(text))
        counted(request)
        return await run(lambda store: made(store.create(sheet, owner), issued))

    async def get(request: Request) -> dict[str, Any]:
        access = await allowed(request)
        sheet_id = request.path_params["sheet_id"]
        return await run(lambda store: view(store.load(sheet_id), access))

    async def rename(request: Request) -> dict[str, Any]:
        data = _fields(await _json(request), {"revision", "title"}, "a rename")
        access = await allowed(request, EDITING)
        title = data.get("title", "")
        return await run(_change(request, data, lambda o: o.rename(title), access))

    async def delete(request: Request) -> dict[str, Any]:
        await allowed(request, DELETING)
        sheet_id = request.path_params["sheet_id"]

        def gone(store: SheetStore) -> dict[str, Any]:
            store.delete(sheet_id)
            return {"deleted": sheet_id}

        return await run(gone)

    async def share(request: Request) -> dict[str, Any]:
        data = _fields(await _json(request), {"access"}, "a share")
        wanted = data.get("access")
        if wanted not in (READ, EDIT):
            raise Failure(
                400,
                "bad_request",
                'a link lets its holder "read" or "edit" the scoresheet',
                "share_access",
            )
        await allowed(request, None if wanted == READ else EDITING)
        sheet_id = request.path_params["sheet_id"]
        key = await run(lambda store: store.share(sheet_id, wanted))
        link = f"/scorepad/{sheet_id}#key={key}"
        return {"id": sheet_id, "access": wanted, "key": key, "link": link}

    async def preview(request: Request) -> dict[str, Any]:
        data = _fields(await _json(request), {"round", "number"}, "a preview")
        await allowed(request)
        sheet_id = request.path_params["sheet_id"]
        number = data.get("number")
        return await run(
            lambda store: _preview(store.load(sheet_id).sheet, data.get("round"), number)
        )

    async def add(request: Request) -> dict[str, Any]:
        data = _fields(await _json(request), {"revision", "round"}, "a new round")
        access = await allowed(request, EDITING)
        return await run(_change(request, data, lambda o: o.add_round(data.get("round")), access))

    async def edit(request: Request) -> dict[str, Any]:
        data = _fields(await _json(request), {"revision", "round"}, "an edited round")
        number = _number(request.path_params["number"])
        access = await allowed(request, EDITING)
        work = _change(request, data, lambda o: o.edit_round(number, data.get("round")), access)
        return await run(work)

    async def delete_round(request: Request) -> dict[str, Any]:
        number = _number(request.path_params["number"])
        data = {"revision": _number(request.query_params.get("revision", ""), "revision")}
        access = await allowed(request, EDITING)
        return await run(_change(request, data, lambda o: o.delete_round(number), access))

    async def undo(request: Request) -> dict[str, Any]:
        data = _fields(await _json(request), {"revision"}, "an undo")
        access = await allowed(request, EDITING)
        return await run(_change(request, data, lambda o: o.undo(), access))

    async def exported(request: Request) -> Response:
        sheet_id, kind = request.path_params["sheet_id"], request.path_params["kind"]
        if kind not in ("json", "csv"):
            raise Failure(
                404,
                "no_format",
                f"a sheet is exported as json or csv, not {kind!r:.20}",
                params={"format": f"{kind!r:.20}"},
            )
        await allowed(request)
        stored = await run(lambda store: store.load(sheet_id))
        text = export_json(stored.sheet) if kind == "json" else export_csv(stored.sheet)
        media = "application/json" if kind == "json" else "text/csv"
        name = f"scoresheet-{stored.id}.{kind}"
        return Response(
            text,
            media_type=f"{media}; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    base = "/api/scorepad/sheets"
    one = base + "/{sheet_id}"
    routes: list[tuple[str, str, Callable[..., Any], int]] = [
        ("GET", base, listed, 200),
        ("POST", base, create, 201),
        ("POST", "/api/scorepad/import", imported, 201),
        ("GET", one, get, 200),
        ("PATCH", one, rename, 200),
        ("DELETE", one, delete, 200),
        ("POST", one + "/share", share, 201),
        ("POST", one + "/preview", preview, 200),
        ("POST", one + "/rounds", add, 200),
        ("PUT", one + "/rounds/{number}", edit, 200),
        ("DELETE", one + "/rounds/{number}", delete_round, 200),
        ("POST", one + "/undo", undo, 200),
        ("GET", one + "/export.{kind}", exported, 200),
    ]
    for method, path, work, status in routes:
        router.add_api_route(path, answer(work, status), methods=[method], include_in_schema=False)
    return router


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


def _credential(request: Request, header: str) -> str | None:
    """The hash of the token or key of the request's `header` (None: none given)."""
    given = request.headers.get(header, "").strip()
    return token_hash(given[:200]) if given else None


def _change(
    request: Request,
    data: dict[str, Any],
    change: Callable[[OpenSheet], Sheet],
    access: str,
) -> Callable[[SheetStore], dict[str, Any]]:
    """The work of a change to the sheet of the request at `data["revision"]`."""
    sheet_id = request.path_params["sheet_id"]
    revision = data.get("revision")
    if isinstance(revision, bool) or not isinstance(revision, int):
        raise Failure(
            400, "bad_request", "a change names the revision it was made on", "no_revision"
        )

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

    return work


def _preview(sheet: Sheet, data: Any, number: Any) -> dict[str, Any]:
    """Each entry of `data` read alone (its score, grid and explanation, or
    what is wrong with it), then the whole round as round `number` (an edit)
    or as the next one: its scores and the ender's penalty in words, or the
    mistake that would refuse it."""
    if number is not None:
        number = _number(number)
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


def limit(request: Request, kind: str) -> None:
    """Count one `kind` event of the request's client address (`skyjo.web.limits`)."""
    request.app.state.limits.check(kind, client_address(request.scope.get("client")))


def _players(players: Any) -> list[str]:
    """The names of a new sheet's form, its empty fields skipped."""
    if not isinstance(players, list):
        raise SheetError("players must be a list of names", kind="players_missing")
    return [p.strip() if isinstance(p, str) else p for p in players if p not in ("", None)]


def _number(text: Any, what: str = "round number") -> int:
    if isinstance(text, int) and not isinstance(text, bool):
        return text
    if isinstance(text, str) and text.isdigit() and len(text) < 10:
        return int(text)
    raise Failure(
        400,
        "bad_request",
        f"{text!r:.20} is not a {what}",
        "not_a_number",
        {"text": f"{text!r:.20}", "what": what},
    )


def _fields(data: Any, allowed: set[str], what: str) -> dict[str, Any]:
    if not isinstance(data, dict) or set(data) - allowed:
        keys = ", ".join(sorted(allowed))
        raise Failure(
            400,
            "bad_request",
            f"{what} is a JSON object of {keys}",
            "request_fields",
            {"what": what, "keys": keys},
        )
    return data


async def _json(request: Request) -> Any:
    """The request's JSON body (`{}` when empty), refused when it nests deeper
    than `MAX_DEPTH` before it is parsed."""
    body = await _body(request, MAX_BODY)
    _shallow(body)
    try:
        return json.loads(body or b"{}")
    except ValueError:
        raise Failure(400, "bad_request", "the request body is not JSON", "body_not_json") from None


def _shallow(body: bytes) -> None:
    """Refuse (400 `body_too_deep`) a body nesting deeper than `MAX_DEPTH`."""
    try:
        check_depth(body)
    except TooDeep as deep:
        raise Failure(
            400,
            "bad_request",
            f"the request body nests deeper than {deep.limit} levels",
            "body_too_deep",
            {"max": deep.limit},
        ) from None


async def _body(request: Request, limit: int) -> bytes:
    """The request's body, refused (413) as soon as it passes `limit` bytes."""
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise Failure(
                413, "too_large", f"a request has at most {limit} bytes", params={"limit": limit}
            )
    return bytes(body)
