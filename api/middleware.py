"""Request limits applied before any route runs (pure ASGI: no per-request task or copy)."""
from __future__ import annotations

import re
import threading
import time

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


class TokenBuckets:
    """A token bucket per client address: `burst` at once, then `per_minute` (0: no limit). Kept in
    this process: each worker of `rulekb serve --workers N` has its own, so N of them allow N times it."""
    MAX_ADDRESSES = 50_000

    def __init__(self, burst: int, per_minute: int):
        self.burst, self.rate = max(1, burst), per_minute / 60
        self.buckets: dict[str, tuple[float, float]] = {}  # address -> (tokens, when counted)
        self.lock = threading.Lock()

    def take(self, address: str) -> float:
        """0 when the address may go ahead (a token is taken), else the seconds until it may."""
        if self.rate <= 0:
            return 0.0
        now = time.monotonic()
        with self.lock:
            tokens, at = self.buckets.get(address, (self.burst, now))
            tokens = min(self.burst, tokens + (now - at) * self.rate)
            if tokens < 1:
                return (1 - tokens) / self.rate
            self.buckets[address] = (tokens - 1, now)
            if len(self.buckets) > self.MAX_ADDRESSES:  # forget the addresses whose bucket is full again
                full = now - self.burst / self.rate
                self.buckets = {a: b for a, b in self.buckets.items() if b[1] > full}
            return 0.0


class HeadAsGet:
    """HEAD on every GET route (RFC 9110 9.3.2): the GET's status and headers, no body. Routes
    declare GET only; without this, HEAD was 405 unless the response cache already held the path."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            return await self.app(scope, receive, send)

        async def headers_only(message) -> None:
            if message["type"] == "http.response.body":
                if message.get("more_body"):
                    return
                message = {"type": "http.response.body", "body": b"", "more_body": False}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, headers_only)
