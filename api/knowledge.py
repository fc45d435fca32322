"""The read-only knowledge base as the API serves it.

The knowledge base changes only when `rulekb build` replaces it, so every answer about it is a
function of (build, request): the reader notices a new build (the SQLite file replaced, or a new
build id on PostgreSQL) within a second, and the response cache keeps finished answers — body,
ETag and, once an answer is asked for again, a gzipped copy — until then. A cached lookup skips the
database, the response models and JSON encoding: the costs that made lookups several times slower
than a trivial endpoint.
"""
from __future__ import annotations

import gzip
import hashlib
import os
import threading
import time
from collections import OrderedDict
from typing import Any, Callable

from sqlalchemy import select
from sqlalchemy.engine import Engine
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers, MutableHeaders
from starlette.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from i18n.locale import negotiate
from kb import models as m
from kb.db import RECHECK_SECONDS, database_url, is_sqlite, open_engine, sqlite_path

KB_CACHE_CONTROL = "public, max-age=300"
GZIP_MIN_BYTES = 1024  # smaller answers are sent as they are
GZIP_LEVEL = 6  # zlib's default: on a session's answer level 9 took 40-80% longer for 3-7% fewer bytes
UNCACHED_PREFIXES = ("/api/v1/sessions", "/api/v1/health", "/api/v1/ready", "/api/v1/bulk", "/api/v1/docs",
                     "/api/v1/openapi.json")


class KbReader:
    """One pooled read-only engine per process, reopened when the database is rebuilt."""

    def __init__(self, url: str | None = None):
        self.url = database_url(url)
        self.local = is_sqlite(self.url)  # a file on this machine, not a database server
        self._engine: Engine | None = None
        self._generation: Any = None
        self._checked = float("-inf")
        self._lock = threading.Lock()
        self._derived: dict[str, Any] = {}  # values computed from this build (cleared with it)
        self.responses = ResponseCache()

    def engine(self) -> Engine:
        self.generation()
        assert self._engine is not None
        return self._engine

    def generation(self) -> Any:
        """An opaque value that changes with every build; raises when the base cannot be read."""
        if self._due():
            with self._lock:
                if self._due():
                    self._refresh()
        return self._generation

    async def current(self) -> Any:
        """`generation()` for async code: on a database server a due check waits in the thread pool,
        not on the event loop."""
        if self.local or not self._due():
            return self.generation()
        return await run_in_threadpool(self.generation)

    def _due(self) -> bool:
        return time.monotonic() - self._checked > RECHECK_SECONDS or self._engine is None

    def _refresh(self) -> None:
        if self.local:
            info = os.stat(sqlite_path(self.url))  # FileNotFoundError: not built (503)
            generation: Any = (info.st_ino, info.st_mtime_ns)
        if self._engine is None:
            self._engine = open_engine(self.url, readonly=True)
        if not self.local:
            with self._engine.connect() as conn:
                generation = conn.execute(select(m.BuildInfo.value).where(m.BuildInfo.key == "build")).scalar()
        if generation != self._generation:
            if self._generation is not None and self.local:
                self._engine.dispose()  # pooled connections still read the replaced file
                self._engine = open_engine(self.url, readonly=True)
            self._generation = generation
            self._derived.clear()
            self.responses.clear()
        self._checked = time.monotonic()

    def derived(self, name: str, compute: Callable[[Engine], Any]) -> Any:
        """A value computed once per build (e.g. the valid filter values)."""
        generation = self.generation()
        key = (name, generation)
        if key not in self._derived:
            self._derived[key] = compute(self.engine())
        return self._derived[key]

    def holds(self, *names: str) -> bool:
        """Whether a read that needs only these derived values would touch no database now: each is
        computed for the current build, and the next "is there a new build?" is not yet due."""
        generation = self._generation
        return not self._due() and all((name, generation) in self._derived for name in names)

    async def run(self, read: Callable[[], Any], uses: tuple[str, ...] = ()) -> Any:
        """Run a read of the knowledge base from an `async` route. Inline on SQLite (the file is local,
        the work is Python holding the GIL, and at 32 clients the hop to a worker thread cost a search
        more CPU than its ranking) and, on a database server, when the read needs only derived values
        it `holds`. Otherwise in the thread pool: a network wait must not stall the event loop (and
        /health with it)."""
        if self.local or (uses and self.holds(*uses)):
            return read()
        return await run_in_threadpool(read)

    def close(self) -> None:
        if self._engine is not None:
            self._engine.dispose()


class ResponseCache:
    """Finished 200 answers by request, least recently used dropped first."""

    def __init__(self, size: int = 4096):
        self.size = size
        self._items: OrderedDict[tuple, tuple[bytes, bytes | None, list[tuple[bytes, bytes]]]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple):
        with self._lock:
            item = self._items.get(key)
            if item is not None:
                self._items.move_to_end(key)
            return item

    def put(self, key: tuple, value) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


def is_cached(scope: Scope) -> bool:
    """Whether the request is a knowledge-base read that the response cache answers."""
    path = scope.get("path", "")
    return (scope["type"] == "http" and scope["method"] in ("GET", "HEAD") and path.startswith("/api/v1/")
            and not path.startswith(UNCACHED_PREFIXES))


class GZipUncached(GZipMiddleware):
    """Starlette's gzip for everything but the cached knowledge-base reads, which choose their own
    encoding (CachedKbResponses)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if is_cached(scope):
            return await self.app(scope, receive, send)
        await super().__call__(scope, receive, send)


class CachedKbResponses:
    """ASGI middleware: answers knowledge-base GETs from the response cache, with ETag/304,
    Cache-Control, and a gzipped body for clients that accept it.

    An answer is compressed the second time it is asked for, and the copy kept: most search answers
    are asked for once, and compressing each of those (inside Starlette's gzip wrapper) cost a cold
    search about a fifth of its time in the server."""

    def __init__(self, app: ASGIApp, reader: Callable[[], KbReader]):
        self.app, self.reader = app, reader

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not is_cached(scope):
            return await self.app(scope, receive, send)
        headers = Headers(scope=scope)
        try:
            reader = self.reader()
            generation = await reader.current()
        except Exception:  # not built or not readable: the route answers with the right problem
            return await self.app(scope, receive, send)
        language = headers.get("accept-language")
        key = (generation, scope["path"], scope.get("query_string", b""), negotiate(language) if language else None)
        gzip_ok = "gzip" in headers.get("accept-encoding", "")
        cached = reader.responses.get(key)
        asked_before = cached is not None
        if not asked_before:
            cached = await self._fill(scope, receive, send, reader, key)
            if cached is None:
                return
        body, zipped, extra = cached
        if gzip_ok and zipped is None and asked_before and len(body) >= GZIP_MIN_BYTES:
            zipped = gzip.compress(body, compresslevel=GZIP_LEVEL)
            reader.responses.put(key, (body, zipped, extra))
        etag = dict(extra)[b"etag"].decode()
        if etag in [e.strip() for e in headers.get("if-none-match", "").split(",")]:
            return await _send(send, 304, extra, b"")
        if gzip_ok and zipped is not None:
            return await _send(send, 200, extra + [(b"content-encoding", b"gzip")], zipped, scope["method"])
        await _send(send, 200, extra, body, scope["method"])

    async def _fill(self, scope, receive, send, reader: KbReader, key):
        """Run the route; keep a 200 JSON answer, pass anything else through unchanged."""
        start: Message = {}
        chunks: list[bytes] = []

        async def capture(message: Message) -> None:
            if message["type"] == "http.response.start":
                start.update(message)
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        await self.app(scope, receive, capture)
        body = b"".join(chunks)
        headers = MutableHeaders(raw=list(start.get("headers", [])))
        if start.get("status") != 200 or not headers.get("content-type", "").startswith("application/json"):
            await send(start)
            await send({"type": "http.response.body", "body": body})
            return None
        etag = '"' + hashlib.sha256(body + headers.get("content-language", "").encode()).hexdigest()[:32] + '"'
        keep = [(k, v) for k, v in headers.raw if k not in (b"content-length", b"etag", b"cache-control", b"vary")]
        extra = keep + [(b"etag", etag.encode()), (b"cache-control", KB_CACHE_CONTROL.encode()),
                        (b"vary", b"Accept-Language, Accept-Encoding")]
        value = (body, None, extra)
        reader.responses.put(key, value)
        return value


async def _send(send: Send, status: int, headers: list[tuple[bytes, bytes]], body: bytes, method: str = "GET"):
    out = [(k, v) for k, v in headers if k != b"content-length" and not (status == 304 and k == b"content-type")]
    if status != 304:
        out.append((b"content-length", str(len(body)).encode()))
    await send({"type": "http.response.start", "status": status, "headers": out})
    await send({"type": "http.response.body", "body": b"" if method == "HEAD" or status == 304 else body})
