"""The scorepad's page and JSON API (docs/scorepad.md), over `skyjo.scorepad`.

    GET    /scorepad, /scorepad/{id}      the page (static/scorepad.html)
    GET    /api/scorepad/sheets           the sheets, the last changed first
    POST   /api/scorepad/sheets           a new sheet: {players, title, target_score, ender_penalty}
    POST   /api/scorepad/import           store an exported JSON sheet (the body)
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
from fastapi.responses import FileResponse, JSONResponse, Response

from skyjo.jsondepth import TooDeep, check_depth
from skyjo.scorepad.sheet import (
    Sheet,
    SheetError,
    check_entry,
    entry_score,
    entry_text,
    export_csv,
    export_json,
    grid_explanation,
    import_json,
)
from skyjo.scorepad.store import ConflictError, OpenSheet, SheetStore, StoredSheet, StoreError
from skyjo.web.protocol import ProtocolError
from skyjo.web.settings import Settings

STATIC = Path(__file__).parent / "static"
#: The largest request body of a change, in bytes; an imported file may be larger.
MAX_BODY = 64 * 1024
MAX_IMPORT = 4 * 1024 * 1024

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
        body = {
            "error": {
                "code": self.code,
                "message": self.message,
                "kind": self.kind,
                "params": self.params,
                **self.where,
            }
        }
        return JSONResponse(body, status_code=self.status)


def scorepad_router(settings: Settings) -> APIRouter:
    """The scorepad's routes, on a `SheetStore` of `settings.database_url`
    opened when the app starts and closed when it stops."""
    stores: list[SheetStore] = []

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        stores.append(await asyncio.to_thread(SheetStore, settings.database_url))
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
                raise Failure(409, "conflict", str(error)) from error
            except StoreError as error:
                raise Failure(404, "no_sheet", str(error)) from error

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
    async def page(sheet_id: str = "") -> FileResponse:
        return FileResponse(STATIC / "scorepad.html", headers={"Cache-Control": "no-cache"})

    async def listed(request: Request) -> dict[str, Any]:
        infos = await run(lambda store: store.list())
        return {"sheets": [info.to_dict() for info in infos]}

    async def create(request: Request) -> dict[str, Any]:
        data = _fields(
            await _json(request),
            {"players", "title", "target_score", "ender_penalty"},
            "a new sheet",
        )

        def make(store: SheetStore) -> dict[str, Any]:
            sheet = Sheet.new(
                _players(data.get("players")),
                data.get("title", ""),
                data.get("target_score", 100),
                data.get("ender_penalty", "positive"),
            )
            return view(store.create(sheet))

        return await run(make)

    async def imported(request: Request) -> dict[str, Any]:
        body = await _body(request, MAX_IMPORT)
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            raise Failure(400, "mistake", "the file is not UTF-8 text", "not_utf8") from None
        return await run(lambda store: view(store.create(import_json(text))))

    async def get(request: Request) -> dict[str, Any]:
        sheet_id = request.path_params["sheet_id"]
        return await run(lambda store: view(store.load(sheet_id)))

    async def rename(request: Request) -> dict[str, Any]:
        data = _fields(await _json(request), {"revision", "title"}, "a rename")
        title = data.get("title", "")
        return await run(_change(request, data, lambda open_sheet: open_sheet.rename(title)))

    async def delete(request: Request) -> dict[str, Any]:
        sheet_id = request.path_params["sheet_id"]

        def gone(store: SheetStore) -> dict[str, Any]:
            store.delete(sheet_id)
            return {"deleted": sheet_id}

        return await run(gone)

    async def preview(request: Request) -> dict[str, Any]:
        data = _fields(await _json(request), {"round", "number"}, "a preview")
        sheet_id = request.path_params["sheet_id"]
        number = data.get("number")
        return await run(
            lambda store: _preview(store.load(sheet_id).sheet, data.get("round"), number)
        )

    async def add(request: Request) -> dict[str, Any]:
        data = _fields(await _json(request), {"revision", "round"}, "a new round")
        return await run(_change(request, data, lambda o: o.add_round(data.get("round"))))

    async def edit(request: Request) -> dict[str, Any]:
        data = _fields(await _json(request), {"revision", "round"}, "an edited round")
        number = _number(request.path_params["number"])
        return await run(_change(request, data, lambda o: o.edit_round(number, data.get("round"))))

    async def delete_round(request: Request) -> dict[str, Any]:
        number = _number(request.path_params["number"])
        data = {"revision": _number(request.query_params.get("revision", ""), "revision")}
        return await run(_change(request, data, lambda o: o.delete_round(number)))

    async def undo(request: Request) -> dict[str, Any]:
        data = _fields(await _json(request), {"revision"}, "an undo")
        return await run(_change(request, data, lambda o: o.undo()))

    async def exported(request: Request) -> Response:
        sheet_id, kind = request.path_params["sheet_id"], request.path_params["kind"]
        if kind not in ("json", "csv"):
            raise Failure(
                404,
                "no_format",
                f"a sheet is exported as json or csv, not {kind!r:.20}",
                params={"format": f"{kind!r:.20}"},
            )
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


def view(stored: StoredSheet) -> dict[str, Any]:
    """A sheet as the page shows it: the summary, and each round's entries as typed."""
    sheet = stored.sheet
    return {
        "id": stored.id,
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


def _change(
    request: Request, data: dict[str, Any], change: Callable[[OpenSheet], Sheet]
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
                f"not {revision}): open it again"
            )
        open_sheet = OpenSheet(store, stored)
        change(open_sheet)
        return view(open_sheet.stored)

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
        "raw": score.raw,
        "scores": score.scores,
    }
    return {"entries": entries, "round": one, "error": None}


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
