"""Request bodies must keep coming: a slow or stalled client cannot hold the upload capacity.

A pure ASGI middleware (it never buffers) watches every request that carries a body. Each
body takes one of `bodies` places (at most `client_bodies` for one client address) from
its first byte to its last, and must keep pace while it streams in: no gap over
`body_idle_s`, at least `body_min_rate` bytes a second on average once `body_grace_s` has
passed, all of it within `body_total_s`. A body that falls behind is cut off with a 408
problem. When the places are full, a newcomer takes the place of the oldest body that
lags under the rate (it is cut off the same way); only bodies that all keep pace make a
newcomer wait (503 with Retry-After). So clients trickling a byte now and then hold
nothing a real photo needs.

A response that starts before its request's body has all come closes the connection, so
the server never reads (and discards) the rest of a refused or cut-off upload.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.limits import Limits
from api.problems import BUSY, REQUEST_TIMEOUT, Problem, problem_response

CLOSE = (b"connection", b"close")


class Lag:
    """Why a body was cut off, in the words the 408 detail uses."""

    STALLED = "no byte of the body came for {idle:.0f} s"
    SLOW = "the body came slower than {rate} bytes a second"
    TOO_LONG = "the body took longer than {total:.0f} s"
    DISPLACED = "the body came slower than {rate} bytes a second while other uploads waited"


@dataclass(eq=False)
class Body:
    """One request body in flight: who sends it and how far it has come."""

    client: str
    started: float
    last: float
    received: int = 0
    done: bool = False
    cut: str | None = None  # why it was cut off, once it was
    evicted: asyncio.Future[Any] = field(default_factory=lambda: _future())

    def rate(self, now: float) -> float:
        # Over at least a second: a body a moment old is judged by what a second allows.
        return self.received / max(now - self.started, 1.0)

    def lagging(self, now: float, limits: Limits) -> bool:
        return not self.done and self.rate(now) < limits.body_min_rate

    def deadline(self, limits: Limits) -> tuple[float, str]:
        """When this body is cut off if no more bytes come, and why."""
        keep_pace = self.started + max(limits.body_grace_s, self.received / limits.body_min_rate)
        return min(
            (self.last + limits.body_idle_s, Lag.STALLED),
            (keep_pace, Lag.SLOW),
            (self.started + limits.body_total_s, Lag.TOO_LONG),
        )

    def displace(self) -> None:
        self.cut = Lag.DISPLACED
        if not self.evicted.done():
            self.evicted.set_result(None)


def _future() -> asyncio.Future[Any]:
    return asyncio.get_running_loop().create_future()


class BodySlots:
    """The places for bodies in flight, in all and per client address."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._bodies: list[Body] = []

    def __len__(self) -> int:
        return len(self._bodies)

    def take(self, client: str) -> Body:
        """A place for a new body from `client`, displacing the oldest body that lags if
        the places are full; a 503 problem if every body in the way keeps pace."""
        now = time.monotonic()
        mine = [b for b in self._bodies if b.client == client]
        if len(mine) >= self.limits.client_bodies:
            self._displace_oldest_lagging(
                mine, now, f"this address already sends {len(mine)} uploads"
            )
        elif len(self._bodies) >= self.limits.bodies:
            self._displace_oldest_lagging(
                self._bodies, now, f"{len(self._bodies)} uploads are arriving"
            )
        body = Body(client=client, started=now, last=now)
        self._bodies.append(body)
        return body

    def release(self, body: Body) -> None:
        if body in self._bodies:
            self._bodies.remove(body)

    def saturated(self) -> bool:
        """Every place is taken by a body that keeps pace: a new upload would get 503."""
        now = time.monotonic()
        return len(self._bodies) >= self.limits.bodies and not any(
            b.lagging(now, self.limits) for b in self._bodies
        )

    def _displace_oldest_lagging(self, bodies: list[Body], now: float, why: str) -> None:
        lagging = [b for b in bodies if b.lagging(now, self.limits)]
        if not lagging:
            raise Problem(
                BUSY,
                f"{why} at once; try again shortly",
                headers={"Retry-After": str(self.limits.retry_after_s)},
            )
        # The oldest: it had the longest to keep pace, and a body that has only just begun
        # (no byte read yet, so "lagging") is never the one to go while an older one lags.
        oldest = min(lagging, key=lambda b: b.started)
        oldest.displace()
        self.release(oldest)


def has_body(scope: Scope) -> bool:
    headers = dict(scope.get("headers", []))
    length: bytes = headers.get(b"content-length", b"").strip()
    if length:
        return length != b"0"
    return b"transfer-encoding" in headers


class BodyGuard:
    """The middleware: a place and a pace for every request body (see the module)."""

    def __init__(self, app: ASGIApp, slots: BodySlots) -> None:
        self.app = app
        self.slots = slots

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not has_body(scope):
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        started = False

        async def send_closing(message: Message) -> None:
            # Answering before the body has all come: close rather than read the rest.
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                if not body.done:
                    message = {**message, "headers": [*message.get("headers", []), CLOSE]}
            await send(message)

        try:
            body = self.slots.take(client[0] if client else "")
        except Problem as problem:
            await _answer(scope, send, problem, closing=True)
            return
        try:
            await self.app(scope, self._paced(body, receive), send_closing)
        except Problem as problem:  # a cut-off body raised where no handler answers it
            if started:
                raise
            await _answer(scope, send, problem, closing=True)
        finally:
            self.slots.release(body)

    def _paced(self, body: Body, receive: Receive) -> Receive:
        limits = self.slots.limits

        async def paced_receive() -> Message:
            if body.done:
                return await receive()
            deadline, lag = body.deadline(limits)
            reading: asyncio.Future[Any] = asyncio.ensure_future(receive())
            finished, _ = await asyncio.wait(
                [reading, body.evicted],
                timeout=max(0.0, deadline - time.monotonic()),
                return_when=asyncio.FIRST_COMPLETED,
            )
            if reading not in finished:
                reading.cancel()
                self.slots.release(body)
                body.cut = body.cut or lag
                raise Problem(REQUEST_TIMEOUT, _cut_detail(body, limits))
            message: Message = reading.result()
            now = time.monotonic()
            if message["type"] == "http.request":
                body.received += len(message.get("body", b""))
                body.last = now
                if not message.get("more_body", False):
                    body.done = True
                    self.slots.release(body)
            else:  # http.disconnect
                self.slots.release(body)
            return message

        return paced_receive


def _cut_detail(body: Body, limits: Limits) -> str:
    reason = (body.cut or Lag.STALLED).format(
        idle=limits.body_idle_s, rate=limits.body_min_rate, total=limits.body_total_s
    )
    return f"the upload was cut off after {body.received} bytes: {reason}; send it again"


async def _answer(scope: Scope, send: Send, problem: Problem, *, closing: bool) -> None:
    response = problem_response(
        Request(scope), problem.kind, problem.detail, status=problem.status, headers=problem.headers
    )
    if closing:
        response.headers["connection"] = "close"
    await response(scope, _no_receive, send)


async def _no_receive() -> Message:
    return {"type": "http.disconnect"}
