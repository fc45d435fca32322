"""The HTTP API (under /api/v1) and the built docs site (at /), served by one application.

Errors are RFC 9457 problem documents (application/problem+json). The knowledge base is opened
read-only: the API never writes to it.
"""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal, Optional

from fastapi import APIRouter, FastAPI, HTTPException, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from kb import queries
from kb.db import open_engine
from kb.search import search as run_search

PROBLEM = "application/problem+json"
Lang = Literal["pl", "cs", "en"]
DEFAULT_SITE_DIR = Path(__file__).resolve().parent.parent / "build" / "site"


def problem(status: int, title: str, detail: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"type": "about:blank", "title": title, "status": status, "detail": detail, **extra},
                        status_code=status, media_type=PROBLEM)


def pick_lang(request: Request, lang: Optional[str]) -> str:
    """An explicit ?lang= wins; else the first supported language in Accept-Language; else en."""
    if lang:
        return lang
    header = request.headers.get("accept-language", "")
    ranked = []
    for n, part in enumerate(header.split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        for p in params.split(";"):
            k, _, v = p.strip().partition("=")
            if k == "q":
                try:
                    q = float(v)
                except ValueError:
                    q = 0.0
        base = tag.strip().lower().split("-")[0]
        if base in ("pl", "cs", "en") and q > 0:
            ranked.append((-q, n, base))
    return min(ranked)[2] if ranked else "en"


def create_app(database_url: str | None = None, site_dir: Path | None = DEFAULT_SITE_DIR) -> FastAPI:
    app = FastAPI(
        title="rulekb API",
        version="1",
        description="Rules, components, card texts and worked examples of Gugong, In the Year of the Dragon "
                    "and ZhanGuo, in Polish, Czech and English, each text with its origin and source lines.",
        openapi_url="/api/v1/openapi.json",
        docs_url="/api/v1/docs",
        redoc_url=None,
    )
    state: dict[str, Any] = {}

    def engine():
        if "engine" not in state:
            state["engine"] = open_engine(database_url, readonly=True)
        return state["engine"]

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_request: Request, exc: StarletteHTTPException):
        titles = {404: "Not Found", 405: "Method Not Allowed", 413: "Payload Too Large"}
        return problem(exc.status_code, titles.get(exc.status_code, "Error"), str(exc.detail))

    @app.exception_handler(RequestValidationError)
    async def _validation_error(_request: Request, exc: RequestValidationError):
        errors = [{"where": ".".join(str(p) for p in e["loc"]), "message": e["msg"]} for e in exc.errors()]
        detail = "; ".join(f"{e['where']}: {e['message']}" for e in errors)
        return problem(422, "Invalid request", detail, errors=errors)

    @app.exception_handler(FileNotFoundError)
    async def _no_database(_request: Request, exc: FileNotFoundError):
        return problem(503, "Knowledge base not built", str(exc))

    @app.exception_handler(queries.NotFound)
    async def _not_found(_request: Request, exc: queries.NotFound):
        return problem(404, "Not Found", str(exc))

    v1 = APIRouter(prefix="/api/v1")

    @v1.get("/games", summary="All games with editions, sources and counts")
    def games() -> list[dict[str, Any]]:
        return queries.list_games(engine())

    @v1.get("/games/{game}", summary="One game")
    def game(game: str) -> dict[str, Any]:
        return queries.get_game(engine(), game)

    @v1.get("/entities", summary="List entities, filtered by game and kind")
    def entities(
        request: Request,
        game: Optional[str] = None,
        kind: Optional[str] = None,
        lang: Optional[Lang] = None,
        limit: Annotated[int, Query(ge=1, le=200)] = 50,
        offset: Annotated[int, Query(ge=0)] = 0,
    ) -> dict[str, Any]:
        language = pick_lang(request, lang)
        items, total = queries.list_entities(engine(), game=game, kind=kind, lang=language, limit=limit, offset=offset)
        return {"items": items, "total": total, "limit": limit, "offset": offset, "lang": language}

    @v1.get("/entities/{entity_id:path}", summary="One entity with texts, attributes and provenance")
    def entity(request: Request, entity_id: str, lang: Optional[Lang] = None) -> dict[str, Any]:
        explicit = lang or (pick_lang(request, None) if request.headers.get("accept-language") else None)
        return queries.get_entity(engine(), entity_id, explicit)

    @v1.get("/search", summary="Ranked, diacritic-insensitive search")
    def search(
        q: Annotated[str, Query(max_length=500)],
        game: Optional[str] = None,
        lang: Optional[Lang] = None,
        kind: Optional[str] = None,
        limit: Annotated[int, Query(ge=1, le=100)] = 20,
        offset: Annotated[int, Query(ge=0, le=10_000)] = 0,
    ) -> dict[str, Any]:
        res = run_search(engine(), q, game=game, lang=lang, kind=kind, limit=limit, offset=offset)
        return {"query": res.query, "tokens": res.tokens, "total": res.total, "limit": limit, "offset": offset,
                "warnings": res.warnings, "hits": [h.__dict__ for h in res.hits]}

    app.include_router(v1)

    @app.api_route("/api/{rest:path}", methods=["GET", "POST", "PUT", "PATCH", "DELETE"], include_in_schema=False)
    def _unknown_api(rest: str):
        raise HTTPException(404, f"no API path /api/{rest}; see /api/v1/openapi.json")

    if site_dir is not None and site_dir.is_dir():
        app.mount("/", StaticFiles(directory=site_dir, html=True), name="site")
    return app
