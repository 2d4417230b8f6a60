"""`HEAD` where `GET` is (RFC 9110 9.3.2): the GET's status and headers, no body.

FastAPI's routes take only the methods they declare, so a `HEAD` (a link
checker's, a load balancer's, `curl -I`) answered 405. This ASGI middleware
runs a `HEAD` request as its `GET` and sends the answer's start (status and
headers, `Content-Length` included) with an empty body."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send


class HeadAsGet:
    """See the module."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def headers_only(message: Message) -> None:
            if message["type"] == "http.response.body":
                if message.get("more_body", False):
                    return
                message = {"type": "http.response.body", "body": b"", "more_body": False}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, headers_only)
