"""Every error the HTTP API answers is an RFC 9457 problem: `application/problem+json`.

One exception type (`Problem`) carries a catalogued problem kind to the handlers installed
here; the handlers also turn FastAPI's own errors (validation, 404, 405) and anything
unforeseen into problems, so a client never has to parse two error shapes.
"""

from __future__ import annotations

import json
import logging
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

log = logging.getLogger("mjlens.api")

PROBLEM_JSON = "application/problem+json"


@dataclass(frozen=True)
class Kind:
    """A catalogued problem type: its URI slug, title and HTTP status."""

    slug: str
    title: str
    status: int

    @property
    def type(self) -> str:
        # Relative URI (RFC 9457 3.1.1): resolves against the API's own base, where
        # GET /problems/<slug> describes it.
        return f"/problems/{self.slug}"


# The catalogue: docs/api.md lists the same kinds.
BAD_REQUEST = Kind("bad-request", "Malformed request", 400)
BAD_JSON = Kind("bad-json", "The body is not valid JSON", 400)
BAD_MULTIPART = Kind("bad-multipart", "The multipart form is malformed", 400)
NOT_FOUND = Kind("not-found", "No such resource", 404)
METHOD_NOT_ALLOWED = Kind("method-not-allowed", "Method not allowed on this resource", 405)
REQUEST_TIMEOUT = Kind("request-timeout", "The request did not come in time", 408)
TOO_LARGE = Kind("too-large", "Content too large", 413)
UNSUPPORTED_MEDIA = Kind("unsupported-media-type", "Unsupported media type", 415)
HEADERS_TOO_LARGE = Kind("headers-too-large", "Request headers too large", 431)
INVALID_HAND = Kind("invalid-hand", "The hand is not valid Hand JSON", 422)
INVALID_FIELD = Kind("invalid-field", "A request field is invalid", 422)
BAD_PHOTO = Kind("bad-photo", "The photo cannot be decoded", 422)
UNKNOWN_SET = Kind("unknown-set", "No tile set of that name", 404)
SET_DAMAGED = Kind("set-damaged", "The tile set cannot be used", 409)
CANNOT_TEACH = Kind("cannot-teach", "The photos cannot teach the tile set", 422)
BUSY = Kind("busy", "The recognizer is busy", 503)
NOT_READY = Kind("models-not-ready", "The recognition models are not loaded", 503)
NO_SCORING = Kind("scoring-unavailable", "Scoring is not available in this build", 503)
INTERNAL = Kind("internal", "Internal error", 500)

CATALOGUE: tuple[Kind, ...] = (
    BAD_REQUEST,
    BAD_JSON,
    BAD_MULTIPART,
    NOT_FOUND,
    METHOD_NOT_ALLOWED,
    REQUEST_TIMEOUT,
    TOO_LARGE,
    UNSUPPORTED_MEDIA,
    HEADERS_TOO_LARGE,
    INVALID_HAND,
    INVALID_FIELD,
    BAD_PHOTO,
    UNKNOWN_SET,
    SET_DAMAGED,
    CANNOT_TEACH,
    BUSY,
    NOT_READY,
    NO_SCORING,
    INTERNAL,
)

_KIND_BY_STATUS = {
    400: BAD_REQUEST,
    404: NOT_FOUND,
    405: METHOD_NOT_ALLOWED,
    408: REQUEST_TIMEOUT,
    413: TOO_LARGE,
    415: UNSUPPORTED_MEDIA,
    431: HEADERS_TOO_LARGE,
    422: INVALID_FIELD,
}


class PlainJSONResponse(JSONResponse):
    """JSON that survives what clients send back at us: lone surrogates from a JSON body
    (valid JSON escapes, invalid UTF-8) and numpy scalars a recognizer may leave behind."""

    def render(self, content: Any) -> bytes:
        try:
            return json.dumps(content, ensure_ascii=False, default=_plain).encode("utf-8")
        except UnicodeEncodeError:
            return json.dumps(content, ensure_ascii=True, default=_plain).encode("ascii")


def _plain(value: Any) -> Any:
    for method in ("tolist", "item"):
        if hasattr(value, method):
            return getattr(value, method)()
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


class Problem(Exception):
    """Raised anywhere in a request to answer with a problem document.

    Args:
        kind: the catalogued problem type.
        detail: what exactly is wrong with this request, in words a user can act on.
        pointer: RFC 6901 JSON pointer to the offending body field (422 only).
        headers: extra response headers (e.g. Retry-After for 503).
    """

    def __init__(
        self,
        kind: Kind,
        detail: str,
        *,
        pointer: str | None = None,
        headers: Mapping[str, str] | None = None,
        status: int | None = None,
    ) -> None:
        super().__init__(detail)
        self.kind = kind
        self.detail = detail
        self.pointer = pointer
        self.headers = dict(headers or {})
        self.status = status or kind.status


def problem_response(
    request: Request,
    kind: Kind,
    detail: str,
    *,
    status: int | None = None,
    pointer: str | None = None,
    headers: Mapping[str, str] | None = None,
    extra: Mapping[str, Any] | None = None,
) -> JSONResponse:
    status = status or kind.status
    body: dict[str, Any] = {
        "type": kind.type,
        "title": kind.title,
        "status": status,
        "detail": detail,
        "instance": request.url.path,
    }
    if pointer is not None:
        body["pointer"] = pointer
    body.update(extra or {})
    return PlainJSONResponse(body, status_code=status, media_type=PROBLEM_JSON, headers=headers)


def kind_for_status(status: int) -> Kind:
    if status in _KIND_BY_STATUS:
        return _KIND_BY_STATUS[status]
    try:
        phrase = HTTPStatus(status).phrase
    except ValueError:
        phrase = "Error"
    return Kind(phrase.lower().replace(" ", "-"), phrase, status)


def pointer_from_loc(loc: Sequence[int | str]) -> str:
    """FastAPI's error location ("body", "melds", 0) as a JSON pointer ("/melds/0")."""
    parts = list(loc[1:] if loc and loc[0] == "body" else loc)
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


async def _on_problem(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, Problem)
    return problem_response(
        request, exc.kind, exc.detail, status=exc.status, pointer=exc.pointer, headers=exc.headers
    )


async def _on_validation(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = list(exc.errors())
    first = errors[0] if errors else {"loc": (), "msg": "invalid request"}
    loc = tuple(first.get("loc", ()))
    where = loc[0] if loc else "body"
    pointer = pointer_from_loc(loc)
    detail = f"{where} {pointer or ''}: {first.get('msg', 'invalid')}".replace("  ", " ")
    return problem_response(request, INVALID_FIELD, detail, pointer=pointer or None)


async def _on_http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    kind = kind_for_status(exc.status_code)
    if exc.status_code == 404:
        detail = f"no resource at {request.url.path}"
    elif exc.status_code == 405:
        detail = f"{request.method} is not allowed on {request.url.path}"
    else:
        detail = str(exc.detail)
    return problem_response(request, kind, detail, headers=getattr(exc, "headers", None))


async def _on_unhandled(request: Request, exc: Exception) -> JSONResponse:
    # A bug, never an input problem: log the traceback under an id the client also sees.
    incident = uuid.uuid4().hex[:12]
    log.exception("unhandled error %s on %s %s", incident, request.method, request.url.path)
    return problem_response(
        request,
        INTERNAL,
        f"an internal error occurred (incident {incident}); it has been logged",
        extra={"incident": incident},
    )


def install_problem_handlers(app: FastAPI) -> None:
    app.add_exception_handler(Problem, _on_problem)
    app.add_exception_handler(RequestValidationError, _on_validation)
    app.add_exception_handler(StarletteHTTPException, _on_http_error)
    app.add_exception_handler(Exception, _on_unhandled)
