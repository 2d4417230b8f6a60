"""The protocol's refusals (`ProtocolError`), and pydantic's validation errors read
as those (docs/web-protocol.md).

The web API's inputs are pydantic models (a room request, a join, a scoresheet's
change, every WebSocket message), but a client is answered as the protocol says:
one error, with its `code`, its English `message`, its `kind` (one per sentence,
for the page to write in its language) and the `params` the sentence names, never
pydantic's own list of English errors. So:

- a validator that refuses a value raises `Invalid`, a `ValueError` (which
  pydantic collects with the input's other errors) carrying that `ProtocolError`;
- each input as a whole (a request's body, a path or query value, a message) is
  annotated with `refusing(refuse)`, which turns the `ValidationError` of
  everything inside it into one `Invalid`: the error the hand checks of old met
  first (`first_error`), read as a `ProtocolError` by `refuse`, the input's own
  catalogue of pydantic's error types, or the `Invalid` a validator raised;
- `carried` finds that refusal again in the errors pydantic (or FastAPI's
  `RequestValidationError`) reports.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeAlias

from pydantic import ConfigDict, ValidationError, ValidatorFunctionWrapHandler, WrapValidator


class ProtocolError(Exception):
    """A message or request the server refuses: `code` names what was wrong,
    `kind` which sentence `message` is (the code itself when it has only one)
    and `params` the values the sentence names; `where`, for a game record
    refused (`bad_record`), where in the record (`record_refused`); `cause`, for
    a refusal that names another's sentence as its `detail` (`room_unreadable`),
    that refusal's `kind`, `params` and `where` (`cause_of`)."""

    def __init__(
        self,
        code: str,
        message: str,
        kind: str | None = None,
        params: dict[str, Any] | None = None,
        where: dict[str, Any] | None = None,
        cause: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.kind = kind or code
        self.params = params or {}
        self.where = where
        self.cause = cause

    def fields(self) -> dict[str, Any]:
        """What an answer says of it: `{code, message, kind, params}`, and `where` and
        `cause` when it has them (docs/web-protocol.md)."""
        said: dict[str, Any] = {
            "code": self.code,
            "message": self.message,
            "kind": self.kind,
            "params": self.params,
        }
        if self.where is not None:
            said["where"] = self.where
        if self.cause is not None:
            said["cause"] = self.cause
        return said


#: A request's model: strict JSON types (no "1" for 1, no 1 for true), no unknown field.
STRICT = ConfigDict(extra="forbid", strict=True)
#: An answer's model: the fields it declares and none other (FastAPI validates every
#: answer: a drift fails the tests), built when first used rather than as the server starts.
ANSWER = ConfigDict(extra="forbid", defer_build=True)

#: pydantic's error types of a container whose shape is wrong: not an object (a model,
#: a dict, a tagged union's tag), not a list, or a list of too few or too many items.
SHAPES = frozenset(
    {
        "model_type",
        "model_attributes_type",
        "dict_type",
        "union_tag_invalid",
        "union_tag_not_found",
        "list_type",
        "too_short",
        "too_long",
    }
)


#: One of pydantic's errors (`ValidationError.errors()`): type, loc, msg, input, ctx.
Error: TypeAlias = dict[str, Any]
#: An input's catalogue: the refusal of one of pydantic's errors of it.
Refuse: TypeAlias = Callable[[Error], ProtocolError]


class Invalid(ValueError):
    """A refusal raised in a validator: `failure` is the `ProtocolError` to answer.
    A `ValueError`, so that pydantic reports it among the input's other errors."""

    def __init__(self, failure: ProtocolError) -> None:
        super().__init__(failure.message)
        self.failure = failure


def shape_of(error: Error) -> tuple[Any, ...] | None:
    """Where the container is whose shape `error` is about: its own location when it
    is not the object or list it should be, its parent's for an unknown field (None:
    the error is about a value, not a shape)."""
    if error["type"] == "extra_forbidden":
        return tuple(error["loc"][:-1])
    if error["type"] in SHAPES:
        return tuple(error["loc"])
    return None


def first_error(errors: Sequence[Error]) -> Error:
    """The error the hand checks of old met first: each container's shape (not an
    object, an unknown field: the first of them by name; not a list, too short or
    long) before anything inside it, outermost first; else the first error in the
    order of the fields (pydantic reports them so)."""
    first = errors[0]
    location = tuple(first["loc"])
    for depth in range(len(location) + 1):
        shapes = [error for error in errors if shape_of(error) == location[:depth]]
        if shapes:
            return min(shapes, key=lambda error: str(error["loc"][-1:]))
    return first


def carried(errors: Iterable[Error]) -> ProtocolError | None:
    """The refusal an `Invalid` carries in `errors`: the first one (None: none does)."""
    for error in errors:
        found = (error.get("ctx") or {}).get("error")
        if isinstance(found, Invalid):
            return found.failure
    return None


def refusal(errors: Sequence[Error], refuse: Refuse) -> ProtocolError:
    """The one refusal of an input's `errors`: the first (`first_error`), as an
    `Invalid` raised within says it or as `refuse` reads it."""
    error = first_error(errors)
    return carried([error]) or refuse(error)


def refusing(refuse: Refuse) -> WrapValidator:
    """An annotation of an input (a model, a path value): every error of its
    validation becomes one `Invalid` (`refusal`, read by `refuse`)."""

    def validate(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        try:
            return handler(value)
        except ValidationError as failure:
            raise Invalid(refusal(failure.errors(), refuse)) from None

    return WrapValidator(validate)


def shown(value: Any, width: int = 40) -> str:
    """A value as a refusal quotes it: Python's `repr`, cut to `width` characters."""
    return f"{value!r:.{width}}"
