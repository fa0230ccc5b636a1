"""The request head: headers within a size, and HEAD answered as GET is, without the body.

- A request target and headers over `header_bytes` in all are refused with a 431 problem
  whatever way they arrived (the HTTP layer refuses only a head still incomplete past its
  buffer).
- FastAPI routes declared with GET refuse HEAD (405); monitors and link checkers send HEAD.
  The request runs as GET and the body it would have sent is dropped, keeping the status
  and headers (Content-Length included), as RFC 9110 9.3.2 asks.

Pure ASGI middlewares: nothing is buffered.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.problems import HEADERS_TOO_LARGE, problem_response


class HeaderCap:
    def __init__(self, app: ASGIApp, header_bytes: int) -> None:
        self.app = app
        self.header_bytes = header_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            size = sum(len(name) + len(value) + 4 for name, value in scope["headers"])
            size += len(scope.get("raw_path") or b"") + len(scope.get("query_string", b""))
            if size > self.header_bytes:
                detail = (
                    f"the request target and headers are {size // 1024} KiB, over the limit "
                    f"of {self.header_bytes // 1024} KiB"
                )
                response = problem_response(Request(scope), HEADERS_TOO_LARGE, detail)
                response.headers["connection"] = "close"
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


class HeadAsGet:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def send_headers_only(message: Message) -> None:
            if message["type"] == "http.response.body":
                if message.get("more_body", False):
                    return  # the rest follows; only the last (empty) part is sent
                message = {**message, "body": b""}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, send_headers_only)
