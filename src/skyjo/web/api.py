"""What the routes of the web API share: their errors, how their bodies are read, and
the dependencies that give them the lobby and count them against their limits.

- Every refusal is `{"error": {"code", "message", "kind", "params", ...}}`
  (`ErrorResponse`, the one error model /openapi.json names for every error
  status), with the status of its code (`STATUS`): a `ProtocolError` raised by a
  route or a dependency, a validation error of a request (a pydantic model's,
  read as the protocol's kind: `skyjo.web.validation`), Starlette's own (no such
  route, a method a route does not take). Never pydantic's 422.
- A route's body is read within its limit (`bounded`: the route class of a
  router whose routes take a body), refused by its `Content-Length` before it is
  read; a JSON body is measured (`skyjo.jsondepth`) and parsed before FastAPI
  validates it, so no parser ever recurses into a deep one. (Starlette's own
  body limit answers in plain text, and in place of any answer given before the
  body is read: a refused upload's 429, say.)
- `LobbyOf`, `limited` and `codes_counted` are the routes' dependencies: the
  server's rooms, one more event of a client address's hourly allowance
  (`skyjo.web.limits`), and a room code looked up in vain.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from typing import Annotated, Any, ClassVar

from fastapi import Depends, FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from pydantic import BaseModel, Field
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import BaseRoute, Route

from skyjo.jsondepth import TooDeep, check_depth
from skyjo.web.faults import logged, storage_refusal
from skyjo.web.limits import Limits, client_address
from skyjo.web.lobby import Lobby
from skyjo.web.protocol import ProtocolError
from skyjo.web.settings import Settings
from skyjo.web.validation import ANSWER, carried

#: The status of each error code an HTTP answer may carry (400 for any other).
STATUS = {
    "bad_request": 400,
    "bad_name": 400,
    "bad_record": 400,
    "mistake": 400,
    "forbidden": 403,
    "no_room": 404,
    "no_replay": 404,
    "no_review": 404,
    "no_sheet": 404,
    "no_format": 404,
    "not_found": 404,
    "method_not_allowed": 405,
    "bad_seat": 409,
    "room_full": 409,
    "not_over": 409,
    "room_unreadable": 409,
    "conflict": 409,
    "too_large": 413,
    "unsupported_media_type": 415,
    "rate_limited": 429,
    "unavailable": 503,
}


class Where(BaseModel):
    """Where in a game record it went wrong (a refused upload's, a room's saved record)."""

    model_config = ANSWER

    round: int | None = Field(description="from 1; null: the record as a whole")
    turn: int | str | None = Field(description='from 1 within the round, or "reveals"')
    player: str | None = Field(description="the name of the player concerned")


class Cause(BaseModel):
    """The core's refusal another refusal names as its `detail` (`room_unreadable`)."""

    model_config = ANSWER

    kind: str
    params: dict[str, Any]
    where: Where | None = None


class ErrorDetail(BaseModel):
    """A refusal (docs/web-protocol.md): `code` names what was wrong, `message` says it
    in English, `kind` names its sentence and `params` the values the sentence names,
    for a page to write it in its language."""

    model_config = ANSWER

    code: str
    message: str
    kind: str
    params: dict[str, Any]
    where: Where | None = Field(None, description="a game record refused: where in it")
    cause: Cause | None = Field(None, description="room_unreadable: the core's refusal")
    round: int | None = Field(None, description="a scoresheet's mistake: its round")
    player: str | None = Field(None, description="a scoresheet's mistake: its player")


class ErrorResponse(BaseModel):
    """Every error answer of the API."""

    model_config = ANSWER

    error: ErrorDetail


class Seated(BaseModel):
    """A seat taken: the room, the seat (null: the host only watches), its token (the
    seat's key and the host's: keep it, send it in `hello`), whether it is the host's."""

    model_config = ANSWER
    code: str
    seat: int | None
    token: str
    host: bool


#: An error answer's content: the one error model (`documented` puts it in /openapi.json).
_ERROR = {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorResponse"}}}


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """A route's error answers for its `responses`: each status it may answer, and
    any other 4xx (a request another site made: 403, 415; a method it does not take:
    405), all in the one error shape. (A reference, not a `model`: FastAPI would
    build a validator of the model for each, and never use it.)"""
    answers: dict[int | str, dict[str, Any]] = {
        status: {"description": _DESCRIPTIONS[status], "content": _ERROR} for status in statuses
    }
    answers["4XX"] = {"description": "Any other refusal, in the same shape", "content": _ERROR}
    return answers


def documented(app: FastAPI) -> None:
    """Have `app`'s /openapi.json hold the error model that `errors` refers to."""
    build = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = build()
            model = ErrorResponse.model_json_schema(
                ref_template="#/components/schemas/{model}", mode="serialization"
            )
            components = schema.setdefault("components", {}).setdefault("schemas", {})
            components.update(model.pop("$defs"), ErrorResponse=model)
        return app.openapi_schema  # type: ignore[return-value]

    app.openapi = openapi  # type: ignore[method-assign]


_DESCRIPTIONS = {
    400: "The request is wrong (bad_request, bad_name, bad_record, mistake)",
    403: "Not yours to do (forbidden)",
    404: "No such thing (no_room, no_replay, no_review, no_sheet, no_format)",
    409: "Not now (room_full, bad_seat, not_over, room_unreadable, conflict)",
    413: "The body is too large (too_large)",
    429: "Over a limit of the client's address (rate_limited; Retry-After)",
    503: "Not now, come back later (unavailable; Retry-After when it says when)",
}


def answer(failure: ProtocolError) -> JSONResponse:
    """The HTTP answer of `failure`: its status, and a `Retry-After` header (seconds)
    when it is a rate limit's or says when to come back."""
    headers = {}
    if failure.code == "rate_limited" or "retry_after" in failure.params:
        headers["Retry-After"] = str(failure.params["retry_after"])
    body = {"error": failure.fields()}
    return JSONResponse(body, status_code=STATUS.get(failure.code, 400), headers=headers)


def install(app: FastAPI) -> None:
    """Answer every refusal of `app`'s routes in the one error shape (and document it)."""
    documented(app)
    app.add_exception_handler(ProtocolError, _refused)
    app.add_exception_handler(RequestValidationError, _invalid)
    app.add_exception_handler(StarletteHTTPException, http_error)
    app.add_exception_handler(SQLAlchemyError, _storage_failed)
    app.add_exception_handler(Exception, _internal)


async def _refused(request: Request, failure: Exception) -> Response:
    assert isinstance(failure, ProtocolError)
    return answer(failure)


async def _storage_failed(request: Request, failure: Exception) -> Response:
    """A request the database failed: 503 `unavailable` with its kind (`skyjo.web.faults`),
    one line in the log."""
    logged(failure, f"{request.method} {request.url.path:.200}")
    return answer(storage_refusal(failure))


async def _internal(request: Request, failure: Exception) -> Response:
    """A fault of the server's own (a bug): 500 in the one error shape, never a bare
    text (the traceback goes to the log, as Starlette writes it)."""
    refused = ProtocolError("internal", "the server failed: the fault is logged", "internal")
    return JSONResponse({"error": refused.fields()}, status_code=500)


async def _invalid(request: Request, failure: Exception) -> Response:
    """A request its models refuse: the refusal their validators carry (every input
    of a route is annotated with `skyjo.web.validation.refusing`)."""
    assert isinstance(failure, RequestValidationError)
    refused = carried(failure.errors())
    if refused is None:  # an input no catalogue reads: a bug, never the client's
        raise TypeError(f"a refusal without a kind: {failure.errors()}") from failure
    return answer(refused)


async def http_error(request: Request, failure: Exception) -> Response:
    """Starlette's own refusals (no such route, a method a route does not take) in
    the documented error shape: 404 `not_found` (kind `no_route`, path), 405
    `method_not_allowed` (method, path), other statuses `http_<status>`."""
    assert isinstance(failure, StarletteHTTPException)
    path = f"{request.url.path:.200}"
    if failure.status_code == 404:
        refused = ProtocolError(
            "not_found", f"there is nothing at {path}", "no_route", {"path": path}
        )
    elif failure.status_code == 405:
        method = request.method
        refused = ProtocolError(
            "method_not_allowed",
            f"{path} does not take {method} requests",
            "method_not_allowed",
            {"method": method, "path": path},
        )
        allowed = _methods(request.app.router.routes, request.url.path)
        headers = {**(failure.headers or {}), "Allow": ", ".join(sorted(allowed))}
        return JSONResponse({"error": refused.fields()}, status_code=405, headers=headers)
    else:
        code = f"http_{failure.status_code}"
        refused = ProtocolError(code, str(failure.detail), code)
    return JSONResponse(
        {"error": refused.fields()}, status_code=failure.status_code, headers=failure.headers
    )


def _methods(routes: Iterable[BaseRoute], path: str) -> set[str]:
    """The methods the routes of `path` take (a 405's `Allow`: Starlette names only
    those of the first route of the path, one route a method here)."""
    methods: set[str] = set()
    for route in routes:
        inner = getattr(route, "original_router", None)  # an included router
        if inner is not None:
            methods |= _methods(inner.routes, path)
        elif isinstance(route, Route) and route.path_regex.fullmatch(path):
            methods |= route.methods or set()
    return methods


# --- bodies ------------------------------------------------------------------------


def body_too_large(limit: int) -> ProtocolError:
    """413 `too_large`: a request's body over `limit` bytes."""
    return ProtocolError(
        "too_large", f"a request has at most {limit} bytes", "body_too_large", {"max": limit}
    )


def shallow(body: bytes) -> None:
    """Refuse a body nesting deeper than `MAX_DEPTH` (400 `body_too_deep`) before
    any parser recurses into it."""
    try:
        check_depth(body)
    except TooDeep as deep:
        raise ProtocolError(
            "bad_request",
            f"the request body nests deeper than {deep.limit} levels",
            "body_too_deep",
            {"max": deep.limit},
        ) from None


class BoundedRequest(Request):
    """A request whose body is read within its route's `limit` of bytes (`too_large`
    past it: by its Content-Length before it is read, else as soon as it passes),
    and whose JSON is measured before it is parsed (`shallow`); an empty JSON
    body is `{}`."""

    def __init__(self, request: Request, route: BoundedRoute) -> None:
        super().__init__(request.scope, request.receive)
        self.route = route
        self._read: bytes | None = None
        self._parsed: Any = None

    async def body(self) -> bytes:
        if self._read is None:
            limit = self.route.limit
            declared = self.headers.get("content-length", "")
            if declared.isdigit() and int(declared) > limit:
                raise self.route.too_large(limit)
            read = bytearray()
            async for chunk in self.stream():
                read += chunk
                if len(read) > limit:
                    raise self.route.too_large(limit)
            self._read = bytes(read)
            if not read and self.route.body_field is not None:
                self._read = b"{}"
        return self._read

    async def json(self) -> Any:
        if self._parsed is None:
            body = await self.body()
            shallow(body)
            try:
                self._parsed = (json.loads(body),)
            except ValueError:  # not JSON, not UTF-8, an integer of over 4,300 digits
                raise ProtocolError(
                    "bad_request", "the request body is not JSON", "body_not_json"
                ) from None
        return self._parsed[0]


class BoundedRoute(APIRoute):
    """A route whose body is a `BoundedRequest`'s: a JSON body (a route with a body
    model) is read, measured and parsed before FastAPI validates it, so that its
    refusals are the protocol's (FastAPI answers a parser's other errors with a
    bare 400). Made by `bounded`."""

    limit: ClassVar[int]
    too_large: ClassVar[Callable[[int], ProtocolError]]

    def __init__(self, *args: Any, **options: Any) -> None:
        options["strict_content_type"] = False  # an empty body ({}), sent without a type
        super().__init__(*args, **options)

    def get_route_handler(self) -> Callable[[Request], Awaitable[Response]]:
        handle = super().get_route_handler()

        async def read_first(request: Request) -> Response:
            bounded = BoundedRequest(request, self)
            if self.body_field is not None:
                await bounded.json()
            return await handle(bounded)

        return read_first


def bounded(limit: int, too_large: Callable[[int], ProtocolError]) -> type[BoundedRoute]:
    """The route class of routes whose bodies have at most `limit` bytes, refused
    past it with `too_large(limit)`."""
    return type(
        f"Bounded{limit}", (BoundedRoute,), {"limit": limit, "too_large": staticmethod(too_large)}
    )


# --- dependencies ------------------------------------------------------------------


def _lobby(request: Request) -> Lobby:
    return request.app.state.lobby  # type: ignore[no-any-return]


#: The server's rooms (`Lobby`), as a route's parameter.
LobbyOf = Annotated[Lobby, Depends(_lobby)]


def _settings(request: Request) -> Settings:
    return request.app.state.settings  # type: ignore[no-any-return]


#: The app's settings (`create_app`'s), as a route's parameter.
SettingsOf = Annotated[Settings, Depends(_settings)]


async def count(request: Request, kind: str) -> None:
    """Count one `kind` event (`limits.Limits`) of the request's client address: a
    `ProtocolError` (429 `rate_limited`) over the limit."""
    limits: Limits = request.app.state.limits
    await limits.check(kind, client_address(request.scope.get("client")))


async def refund(request: Request, kind: str) -> None:
    """Give back the `kind` event `count` counted for the request (it did not happen)."""
    limits: Limits = request.app.state.limits
    await limits.refund(kind, client_address(request.scope.get("client")))


async def codes_counted(request: Request) -> AsyncIterator[None]:
    """A dependency of a route that looks a room's code up: refused (429) while its
    address waits after its unknown codes were (`codes_rate`), a room found too; a
    `no_room` the route raises counts one more (429 past the limit). A found room
    counts nothing. (The WebSocket's: `room_routes.look_up`.)"""
    limits: Limits = request.app.state.limits
    address = client_address(request.scope.get("client"))
    limits.check_waiting("codes_rate", address)
    try:
        yield
    except ProtocolError as failure:
        if failure.code == "no_room":
            await limits.check("codes_rate", address)
        raise


def limited(kind: str) -> Callable[[Request], Awaitable[None]]:
    """A dependency that counts its request against the hourly limit `kind`."""

    async def counted(request: Request) -> None:
        await count(request, kind)

    return counted
