"""Request limits applied before any route runs (pure ASGI: no per-request task or copy)."""
from __future__ import annotations

import re

from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

from api.problems import problem, request_lang
from i18n.catalog import t

_STRINGS = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(rb"[\[\]{}]")


def json_depth(body: bytes) -> int:
    """How deep the brackets of a JSON text nest (strings skipped), without parsing it: Python's
    parser would hit its recursion limit on a deep enough body and answer 500."""
    depth = deepest = 0
    for bracket in _BRACKETS.findall(_STRINGS.sub(b"", body)):
        depth += 1 if bracket in b"[{" else -1
        deepest = max(deepest, depth)
    return deepest


class RequestLimits:
    """413 for a body over `max_bytes` (by Content-Length, or counted while it streams in); 415 for
    a body that says it is not JSON; 400 for a JSON body nesting deeper than `max_depth`."""

    def __init__(self, app: ASGIApp, max_bytes: int, max_depth: int):
        self.app, self.max_bytes, self.max_depth = app, max_bytes, max_depth

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS", "DELETE"):
            return await self.app(scope, receive, send)
        request = Request(scope)
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_bytes):
            return await self._refuse(scope, receive, send, 413)
        body, more = b"", True
        while more:  # bodies here are small: read it all (up to the limit) before the app runs
            message = await receive()
            if message["type"] != "http.request":
                return await self.app(scope, _replay([message]), send)
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > self.max_bytes:
                return await self._refuse(scope, receive, send, 413)
        kind = request.headers.get("content-type")
        if body and kind is not None and "json" not in kind:  # every body the API takes is JSON
            return await self._refuse(scope, receive, send, 415)
        if kind and "json" in kind and json_depth(body) > self.max_depth:
            return await self._refuse(scope, receive, send, 400)
        await self.app(scope, _replay([{"type": "http.request", "body": body, "more_body": False}], receive), send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send, status: int) -> None:
        lang = request_lang(Request(scope))
        if status == 413:
            detail = t(lang, "A request body may hold at most %(n)d bytes.", n=self.max_bytes)
        elif status == 415:
            detail = t(lang, "The request body must be JSON (Content-Type: application/json).")
        else:
            detail = t(lang, "The JSON body nests deeper than %(n)d levels.", n=self.max_depth)
        await problem(status, detail, lang)(scope, receive, send)


def _replay(messages, then=None):
    """An ASGI receive that first returns the given messages, then waits on the real one."""
    queue = list(messages)

    async def receive():
        if queue:
            return queue.pop(0)
        if then is not None:
            return await then()
        return {"type": "http.disconnect"}

    return receive
