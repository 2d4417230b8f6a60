"""Finished games and uploaded records, as records and as replays (`replays.frames`).

    GET  /api/rooms/{code}/record the game record (RULES.md 5), once the game is over
    GET  /api/rooms/{code}/replay the frames of a finished game
    POST /api/replays             check and keep an uploaded record -> its frames, id, link
    GET  /api/replays/{id}        the frames of an uploaded record (its stable link)
    GET  /api/replays/{id}/record the uploaded record as kept, as a download
    POST /api/rooms/{code}/review, /api/replays/{id}/review   start the game's review
    GET  /api/rooms/{code}/review, /api/replays/{id}/review   its progress, or the review
    POST /api/rooms/{code}/practice, /api/replays/{id}/practice   a room that plays on
                                  from a step of the game (`skyjo.practice`)

An uploaded record is read by the record format's own reader (`skyjo.record`, which
says where in the record it went wrong), not by a model of this module: the body is
its JSON text, of at most `MAX_UPLOAD` bytes and 32 levels, every attempt counted
against the client address's uploads an hour. `GameRecord` documents its shape.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Depends, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from skyjo.record import FORMAT, RecordError
from skyjo.web.api import LobbyOf, Seated, bounded, codes_counted, errors, limited, shallow
from skyjo.web.protocol import ProtocolError, record_refused, unreadable
from skyjo.web.replays import MAX_UPLOAD
from skyjo.web.room_config import RulesSettings
from skyjo.web.validation import ANSWER, STRICT, Error, refusing

Position = Annotated[list[int], Field(min_length=2, max_length=2, description="[row, column]")]


class Turn(BaseModel):
    """A turn: the card taken (`deck` or `discard`), then where it went: `swap` (the
    card exchanged) or `flip` (the drawn card discarded, that card turned up); a
    half turn, the last of a record in progress, has neither."""

    model_config = ANSWER
    player: str | None = Field(None, description="checked against the seat to play")
    take: str
    swap: Position | None = None
    flip: Position | None = None


class RoundRecord(BaseModel):
    """A round: its deck (150 cards, top first), the opening reveals in seat order,
    the turns in play order and each new draw pile, top first."""

    model_config = ANSWER
    deck: list[int] | None = None
    reveals: list[list[Position]]
    turns: list[Turn]
    reshuffles: list[list[int]] = []


class GameRecord(BaseModel):
    """A game record (docs/RULES.md 5): it replays a game exactly."""

    model_config = ANSWER
    format: Literal[FORMAT]  # type: ignore[valid-type]
    players: Annotated[list[Annotated[str, Field(min_length=1)]], Field(min_length=2, max_length=8)]
    rules: RulesSettings | None = None
    seed: int | None = None
    rounds: list[RoundRecord]


class Frame(BaseModel):
    """The table after step `number` (0: the first deal), as a spectator saw it, the
    drawn card shown: the step's seat and action, its events and the observation."""

    model_config = ANSWER
    number: int
    seat: int | None
    action: int | None
    events: list[dict[str, Any]]
    observation: dict[str, Any]


class Replay(BaseModel):
    """A game step by step (`replays.frames`)."""

    model_config = ANSWER
    players: list[str]
    rules: RulesSettings
    frames: list[Frame]
    rounds: list[int] = Field(description="the first frame of each round")
    explained: list[dict[str, Any]] = Field(description="why each round's ender scored so")
    finished: bool
    winners: list[int]


class SeatName(BaseModel):
    model_config = ANSWER
    name: str
    bot: str | None
    host: bool = False  # the seat of the room's host (a room's replay)


class RoomReplay(Replay):
    """A finished room's game: with the room's code, title and seats."""

    code: str
    title: str
    default_title: bool = Field(
        description="the title is the server's default for the host's seat (a page words it)"
    )
    seats: list[SeatName]


class UploadedReplay(Replay):
    """An uploaded record's game: with its id and stable link (`/replay/ID`)."""

    id: str
    link: str


class ReviewProgress(BaseModel):
    """A review being made (202): `queued` behind others, or `running`, with the
    decisions rated so far of all (`total` 0 until it starts)."""

    model_config = ANSWER
    status: Literal["queued", "running"]
    done: int
    total: int


class ReviewDone(BaseModel):
    """A game's review (200): the document of `skyjo review --json` (RULES.md 6,
    docs/review.md): each player's summary and every decision rated."""

    model_config = ANSWER
    status: Literal["done"]
    review: dict[str, Any]


def reviewed(answer: dict[str, Any]) -> JSONResponse:
    """A review's answer: 200 with the review once made, 202 with its progress."""
    if answer["status"] == "done":
        return JSONResponse(ReviewDone.model_validate(answer).model_dump())
    return JSONResponse(ReviewProgress.model_validate(answer).model_dump(), status_code=202)


REVIEW_ANSWERS: dict[int | str, dict[str, Any]] = {
    **errors(404, 409, 429, 503),
    200: {"model": ReviewDone, "description": "the review"},
    202: {"model": ReviewProgress, "description": "the review is being made"},
}


class PracticeRequest(BaseModel):
    """`POST .../practice`: the step of the replay (its frame) to play on from."""

    model_config = STRICT
    step: int = Field(ge=0, description="a frame of the replay where a seat takes or places")


def _practice_refusal(error: Error) -> ProtocolError:
    """Any error of a practice request's body: its one kind."""
    shape = 'a practice request is {"step": N}, N from 0'
    return ProtocolError("bad_request", shape, "practice_shape")


PracticeBody = Annotated[PracticeRequest, refusing(_practice_refusal), Body()]


def record_too_large(limit: int) -> ProtocolError:
    """413 `too_large`: an uploaded record over `limit` bytes."""
    return ProtocolError(
        "too_large",
        f"a game record has at most {limit} bytes ({limit // 2**20} MB)",
        "record_too_large",
        {"max": limit, "mb": limit // 2**20},
    )


#: The replays' routes (an upload of at most `MAX_UPLOAD` bytes).
router = APIRouter(route_class=bounded(MAX_UPLOAD, record_too_large), tags=["replays"])


@router.get(
    "/api/rooms/{code}/record",
    dependencies=[Depends(codes_counted)],
    response_model=GameRecord,
    response_class=JSONResponse,
    responses=errors(404, 409, 429),
)
async def game_record(code: str, lobby: LobbyOf) -> JSONResponse:
    """A finished game's record, as a download; `not_over` while it is played
    (a record holds every deck)."""
    game = await lobby.finished(code)
    name = f"skyjo-{code.strip().upper()}.json"
    disposition = {"Content-Disposition": f'attachment; filename="{name}"'}
    return JSONResponse(game["record"], headers=disposition)


@router.get(
    "/api/rooms/{code}/replay",
    dependencies=[Depends(codes_counted)],
    responses=errors(404, 409, 429),
)
async def room_replay(code: str, lobby: LobbyOf) -> RoomReplay:
    """A finished game's replay; `not_over` while it is played."""
    try:
        shown = await lobby.replay(code)
    except ProtocolError:
        raise
    except ValueError as failure:  # RecordError: a record saved under older rules
        raise unreadable(code, failure) from None
    return RoomReplay.model_validate(shown)


@router.post(
    "/api/replays",
    status_code=201,
    dependencies=[Depends(limited("replays_rate"))],
    responses=errors(400, 413, 429),
    openapi_extra={
        "requestBody": {
            "required": True,
            "description": "a game record's JSON text",
            "content": {
                "application/json": {"schema": {"$ref": "#/components/schemas/GameRecord"}}
            },
        }
    },
)
async def upload_replay(request: Request, lobby: LobbyOf) -> UploadedReplay:
    """Check and keep an uploaded record (`bad_record`: where in it it went wrong)."""
    body = await request.body()
    shallow(body)
    try:
        shown = await lobby.upload(body)
    except RecordError as failure:
        raise record_refused(failure) from None
    return UploadedReplay.model_validate(shown)


@router.get("/api/replays/{key}", responses=errors(404))
async def uploaded_replay(key: str, lobby: LobbyOf) -> UploadedReplay:
    """An uploaded record's replay, at its stable link."""
    return UploadedReplay.model_validate(await lobby.uploaded(key))


@router.get(
    "/api/replays/{key}/record",
    response_model=GameRecord,
    response_class=JSONResponse,
    responses=errors(404),
)
async def uploaded_record(key: str, lobby: LobbyOf) -> JSONResponse:
    """An uploaded record as kept (`Record.to_dict()`), as a download: whoever has its
    link has the game, decks included (its replay's client shows the face-down cards)."""
    record = await lobby.record_of("upload", key)
    disposition = {"Content-Disposition": f'attachment; filename="skyjo-{key}.json"'}
    return JSONResponse(record, headers=disposition)


@router.post(
    "/api/rooms/{code}/review",
    dependencies=[Depends(codes_counted), Depends(limited("reviews_rate"))],
    responses=REVIEW_ANSWERS,
)
async def start_room_review(code: str, lobby: LobbyOf) -> JSONResponse:
    """Start the review of a finished game (once: it is kept); `not_over` while
    it is played. Counts against the address's reviews an hour (`reviews_rate`)."""
    return reviewed(await lobby.room_review(code, start=True))


@router.get(
    "/api/rooms/{code}/review", dependencies=[Depends(codes_counted)], responses=REVIEW_ANSWERS
)
async def room_review(code: str, lobby: LobbyOf) -> JSONResponse:
    """A finished game's review, or its progress; `no_review` before one is asked for."""
    return reviewed(await lobby.room_review(code, start=False))


@router.post(
    "/api/replays/{key}/review",
    dependencies=[Depends(limited("reviews_rate"))],
    responses=REVIEW_ANSWERS,
)
async def start_upload_review(key: str, lobby: LobbyOf) -> JSONResponse:
    """Start the review of an uploaded record's game (once: it is kept)."""
    return reviewed(await lobby.upload_review(key, start=True))


@router.post(
    "/api/rooms/{code}/practice",
    status_code=201,
    dependencies=[Depends(codes_counted), Depends(limited("rooms_rate"))],
    responses=errors(400, 404, 409, 429),
)
async def practice_room(code: str, asked: PracticeBody, lobby: LobbyOf) -> Seated:
    """A new room that plays on from a step of a finished game, the unseen cards
    dealt afresh: its host the seat to act there, `expected` bots the others."""
    record = await lobby.record_of("room", code)
    room, token, seat = await lobby.practice(record, asked.step)
    return Seated(code=room.code, seat=seat, token=token, host=True)


@router.post(
    "/api/replays/{key}/practice",
    status_code=201,
    dependencies=[Depends(limited("rooms_rate"))],
    responses=errors(400, 404, 429),
)
async def practice_upload(key: str, asked: PracticeBody, lobby: LobbyOf) -> Seated:
    """A new room that plays on from a step of an uploaded record's game."""
    record = await lobby.record_of("upload", key)
    room, token, seat = await lobby.practice(record, asked.step)
    return Seated(code=room.code, seat=seat, token=token, host=True)


@router.get("/api/replays/{key}/review", responses=REVIEW_ANSWERS)
async def upload_review(key: str, lobby: LobbyOf) -> JSONResponse:
    """An uploaded record's review, or its progress; `no_review` before one is asked for."""
    return reviewed(await lobby.upload_review(key, start=False))
