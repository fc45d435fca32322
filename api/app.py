"""The HTTP API (under /api/v1) and the built docs site (at /), served by one application.

One router module per resource (api/routes), dependencies in api/deps.py, errors in
api/problems.py; see ARCHITECTURE.md. The knowledge base is opened read-only: the API never writes
to it. Game sessions live in their own database (api/store.py).
"""
from __future__ import annotations

import gc
import re
import threading
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.middleware.cors import CORSMiddleware
from fastapi.openapi.utils import get_openapi
from fastapi.staticfiles import StaticFiles

from api import problems
from api.deps import ENTITIES, filter_values, search_index
from api.knowledge import GZIP_LEVEL, GZIP_MIN_BYTES, CachedKbResponses, GZipUncached, KbReader
from api.middleware import HeadAsGet, RequestLimits, TokenBuckets
from api.routes import bulk, compare, entities, examples, games, health, search, sessions
from api.settings import DEFAULT_SITE_DIR, Settings, from_environment
from api.store import Store, open_store
from kb.queries import entity_jsons
from kb.search import search as run_search

ROUTERS = (games, entities, search, compare, examples, sessions, health)


def create_app(database_url: str | None = None, site_dir: Path | None = DEFAULT_SITE_DIR,
               sessions_url: str | None = None, settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings(database_url=database_url, sessions_url=sessions_url, site_dir=site_dir)
    reader = KbReader(settings.database_url)
    store_lock = threading.Lock()
    stores: list[Store] = []

    def store() -> Store:
        """The session store, opened on first use (creating its tables) by one thread."""
        with store_lock:
            if not stores:
                stores.append(Store(open_store(settings.sessions_url), rules_url=reader.url,
                                    idle_seconds=settings.session_idle_seconds, max_sessions=settings.max_sessions,
                                    unplayed_seconds=settings.session_unplayed_seconds))
            return stores[0]

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        # each game's rules are read once per process: start now, so the first session need not wait
        app.state.warm_up.start()
        yield
        reader.close()
        for opened in stores:
            opened.engine.dispose()

    app = FastAPI(
        title="rulekb API",
        version="1",
        description="Rules, components, card texts and worked examples of Gugong, In the Year of the Dragon "
                    "and ZhanGuo, in Polish, Czech and English, each text with its origin and source lines; "
                    "game sessions with a token per seat.",
        openapi_url="/api/v1/openapi.json",
        docs_url=None,  # served from the vendored assets below (_docs), not from a CDN
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.settings, app.state.kb, app.state.store = settings, reader, store
    app.state.warm_up = WarmUp(reader)
    app.state.creations = TokenBuckets(settings.create_burst, settings.create_per_minute)
    problems.install(app)
    for module in ROUTERS:
        app.include_router(module.router, prefix="/api/v1",
                           responses=problems.responses(413, 422, 503) if module is not health else {})
    app.include_router(bulk.router, prefix="/api/v1")
    app.openapi = lambda: _openapi(app)
    _docs(app)

    # outermost last: HEAD as GET, gzip, CORS, request limits, the knowledge-base response cache, the routes
    app.add_middleware(CachedKbResponses, reader=lambda: reader)
    app.add_middleware(RequestLimits, max_bytes=settings.max_body_bytes, max_depth=settings.max_json_depth)
    app.add_middleware(CORSMiddleware, allow_origins=["*"], allow_methods=["GET", "POST", "DELETE", "OPTIONS"],
                       allow_headers=["*"], expose_headers=["ETag", "Content-Language", "Retry-After", "Allow"])
    app.add_middleware(GZipUncached, minimum_size=GZIP_MIN_BYTES, compresslevel=GZIP_LEVEL)
    app.add_middleware(HeadAsGet)

    if settings.site_dir is not None and settings.site_dir.is_dir():
        app.mount("/", SiteFiles(directory=settings.site_dir, html=True), name="site")
    return app


class SiteFiles(StaticFiles):
    """The built site, with how long a browser may keep each file: pages are checked on every visit (a
    rebuild changes them under the same address), assets for a day; Material's own bundles carry their
    hash in the name and never change under it."""

    async def get_response(self, path: str, scope):
        response = await super().get_response(path, scope)
        if response.status_code == 200:
            asset = path.startswith("assets/")
            response.headers["Cache-Control"] = (
                "public, max-age=31536000, immutable" if asset and HASHED_NAME.search(path)
                else "public, max-age=86400" if asset else "no-cache")
        return response


HASHED_NAME = re.compile(r"\.[0-9a-f]{8,}\.(?:min\.)?(?:js|css)$")  # bundle.5cf3e710.min.js


DOCS_ASSETS = Path(__file__).resolve().parent / "static" / "docs"  # swagger-ui-dist and redoc, with licences


def _docs(app: FastAPI) -> None:
    """Swagger UI at /api/v1/docs and ReDoc at /api/v1/redoc, from files served here: they work with
    no network (the defaults load from a CDN)."""
    from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html

    app.mount("/api/v1/docs/assets", StaticFiles(directory=DOCS_ASSETS), name="docs-assets")

    def urls(request: Request) -> tuple[str, str]:
        root = request.scope.get("root_path", "").rstrip("/")
        return root + (app.openapi_url or ""), root + "/api/v1/docs/assets"

    @app.get("/api/v1/docs", include_in_schema=False)
    async def swagger_ui(request: Request):
        openapi, assets = urls(request)
        return get_swagger_ui_html(openapi_url=openapi, title=f"{app.title}: Swagger UI",
                                   swagger_js_url=f"{assets}/swagger-ui-bundle.js",
                                   swagger_css_url=f"{assets}/swagger-ui.css",
                                   swagger_favicon_url=f"{assets}/favicon-32x32.png",
                                   # no badge from validator.swagger.io
                                   swagger_ui_parameters={"validatorUrl": None})

    @app.get("/api/v1/redoc", include_in_schema=False)
    async def redoc(request: Request):
        openapi, assets = urls(request)
        return get_redoc_html(openapi_url=openapi, title=f"{app.title}: ReDoc",
                              redoc_js_url=f"{assets}/redoc.standalone.js", redoc_favicon_url=f"{assets}/favicon-32x32.png", with_google_fonts=False)


class WarmUp:
    """Reads every game's rules, the entity documents, the filter values and the search index, and
    runs one search per language, in the background once per process (the search loads its Polish,
    Czech and English lemmatizers on first use: seconds that the first searches of every client would
    otherwise wait for together). Neither the first session nor the first lookup waits; GET /ready
    answers 503 until it is done."""

    # one word per language the lemmatizers know (pl, cs, en)
    SEARCHES = ("służących", "cestování", "travelling")

    def __init__(self, reader: KbReader):
        self.reader = reader
        self.done = threading.Event()
        self._started = False
        self._lock = threading.Lock()

    def start(self) -> None:
        with self._lock:
            if not self._started:
                self._started = True
                threading.Thread(target=self._run, daemon=True, name="rulekb-warm-up").start()

    def _run(self) -> None:
        from engine.core import EngineError, get_game
        from engine.core.game import ENGINES

        try:
            for key in list(ENGINES):
                try:
                    get_game(key, self.reader.url)
                except EngineError:  # reported when a request needs it
                    pass
            try:
                self.reader.derived(ENTITIES, entity_jsons)
                filter_values(self.reader)
                for query in self.SEARCHES:
                    run_search(self.reader.engine(), query, limit=1, index=search_index(self.reader))
            except Exception:  # noqa: BLE001 - an unreadable knowledge base is /ready's to report
                pass
        finally:
            # What is loaded now lives as long as the process (rule sets, entity and search documents, the
            # search index): out of the collector's sight, a full collection no longer walks it. Those
            # walks took 40-60 ms, paused every request meanwhile and were most of the slowest moves.
            # Garbage is collected first, so none of it is kept for good.
            gc.collect()
            gc.freeze()
            self.done.set()


def create_app_from_environment() -> FastAPI:
    """The factory `rulekb serve --workers N` gives uvicorn: each worker builds its own app."""
    return create_app(settings=from_environment())


def _openapi(app: FastAPI) -> dict[str, Any]:
    """FastAPI describes every response as application/json; errors are application/problem+json."""
    if app.openapi_schema is None:
        doc = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
        for ops in doc["paths"].values():
            for op in ops.values():
                for code, resp in op.get("responses", {}).items():
                    if int(code) >= 400 and "application/json" in resp.get("content", {}):
                        resp["content"] = {problems.PROBLEM: resp["content"].pop("application/json")}
        doc.setdefault("components", {})["securitySchemes"] = {"sessionToken": {
            "type": "http", "scheme": "bearer",
            "description": "a game session's token from POST /api/v1/sessions: the owner_token, or a seat's token"}}
        app.openapi_schema = doc
    return app.openapi_schema
