"""The HTTP/1.1 connection under `mjlens serve`: uvicorn's h11 protocol, two gaps closed.

- A request that is not HTTP/1.1 at all (a bad request line, a bad header, headers over
  16 KiB) never reaches the app: uvicorn answers it 400 in text/plain. Here it is a problem
  document like every other error, with h11's status hint (431 for headers too large).
- uvicorn waits forever for a request line and headers that come a byte at a time (the
  classic slowloris: each such connection holds a socket). Here the head of each request
  must arrive within `header_timeout_s` of its first byte (or of the connection opening):
  a connection that sent nothing is closed, one in the middle of a head gets a 408 problem.

The app itself never sees either case, so both answers are written here, in the shapes
api.problems gives every other answer.
"""

from __future__ import annotations

import asyncio
import json
from http import HTTPStatus
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from api.problems import PROBLEM_JSON, kind_for_status

# A few words per status, since h11's own messages ("illegal request line") come only
# with some of them.
WHAT = {
    400: "the request is not valid HTTP/1.1",
    408: "the request line and headers did not come in time",
    431: "the request headers are over the size limit",
    501: "the request uses a transfer coding the server does not support",
}


def problem_bytes(status: int, detail: str) -> tuple[list[tuple[bytes, bytes]], bytes]:
    """Headers and body of a problem answered below the app (no request path is known)."""
    kind = kind_for_status(status)
    document = {"type": kind.type, "title": kind.title, "status": status, "detail": detail}
    body = json.dumps(document).encode()
    headers = [
        (b"content-type", PROBLEM_JSON.encode()),
        (b"content-length", str(len(body)).encode()),
        (b"x-content-type-options", b"nosniff"),
        (b"connection", b"close"),
    ]
    return headers, body


class ProblemH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with problem answers and a deadline on each request head."""

    header_timeout_s = 10.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_timer: asyncio.TimerHandle | None = None
        self._head_started = False
        self._error_status = 400
        self._error_words = ""
        next_event = self.conn.next_event

        def remembering_next_event() -> Any:
            # uvicorn drops the exception; its status hint and words are wanted here.
            try:
                return next_event()
            except h11.RemoteProtocolError as exc:
                self._error_status = exc.error_status_hint
                # h11's words, without the bytes it quotes ("illegal request line: b'...'").
                self._error_words = str(exc).split(":")[0]
                raise

        self.conn.next_event = remembering_next_event  # type: ignore[method-assign]

    # -- the deadline on request heads -----------------------------------------------------

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm_head_timer()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is h11.IDLE:
            self._head_started = self._head_started or bool(data)
            self._arm_head_timer()  # a head is (again) on its way
        else:
            self._cancel_head_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_head_timer()
        super().connection_lost(exc)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._head_started = False  # the next head's time starts with its first byte

    def _arm_head_timer(self) -> None:
        if self._head_timer is None:
            self._head_timer = self.loop.call_later(self.header_timeout_s, self._head_too_slow)

    def _cancel_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_too_slow(self) -> None:
        self._head_timer = None
        if self.transport.is_closing() or self.conn.their_state is not h11.IDLE:
            return
        if self._head_started:
            headers, body = problem_bytes(
                408, f"{WHAT[408]} ({self.header_timeout_s:.0f} s); send the request again"
            )
            head = b"HTTP/1.1 408 Request Timeout\r\n"
            head += b"".join(name + b": " + value + b"\r\n" for name, value in headers)
            self.transport.write(head + b"\r\n" + body)
        self.transport.close()

    # -- malformed requests ----------------------------------------------------------------

    def send_400_response(self, msg: str) -> None:
        self._cancel_head_timer()
        status = self._error_status if self._error_status in WHAT else 400
        words = WHAT[status]
        detail = f"{words}: {self._error_words}" if self._error_words else words
        headers, body = problem_bytes(status, detail)
        reason = HTTPStatus(status).phrase.encode()
        for event in (
            h11.Response(status_code=status, headers=headers, reason=reason),
            h11.Data(data=body),
            h11.EndOfMessage(),
        ):
            self.transport.write(self.conn.send(event) or b"")
        self.transport.close()
