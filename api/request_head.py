"""HEAD answers as GET does, without the body (RFC 9110 9.3.2), on every GET route.

FastAPI routes declared with GET refuse HEAD (405); monitors and link checkers send HEAD.
A pure ASGI middleware runs the request as GET and drops the body it would have sent,
keeping the status and headers (Content-Length included).
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send


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
