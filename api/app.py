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

from i18n.catalog import t
from i18n.locale import negotiate
from kb import queries
from kb.db import open_engine
from kb.search import search as run_search

PROBLEM = "application/problem+json"
Lang = Literal["pl", "cs", "en"]
DEFAULT_SITE_DIR = Path(__file__).resolve().parent.parent / "build" / "site"


def problem(status: int, title: str, detail: str, lang: str = "en", **extra: Any) -> JSONResponse:
    return JSONResponse({"type": "about:blank", "title": title, "status": status, "detail": detail,
                         "lang": lang, **extra}, status_code=status, media_type=PROBLEM,
                        headers={"Content-Language": lang})


def request_lang(request: Request) -> str:
    """Language of interface messages: ?lang= when valid, else Accept-Language."""
    lang = request.query_params.get("lang")
    return lang if lang in ("pl", "cs", "en") else negotiate(request.headers.get("accept-language"))


def pick_lang(request: Request, lang: Optional[str]) -> str:
    """An explicit ?lang= wins; else the client's Accept-Language (q-values, regions); else en."""
    return lang or negotiate(request.headers.get("accept-language"))


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
    async def _http_error(request: Request, exc: StarletteHTTPException):
        lang = request_lang(request)
        if exc.status_code == 404:
            return problem(404, t(lang, "Not found"), t(lang, "There is no such path: %(path)s. The API is described "
                                                          "at /api/v1/openapi.json.", path=request.url.path), lang)
        if exc.status_code == 405:
            return problem(405, t(lang, "Method not allowed"),
                           t(lang, "%(method)s is not allowed on %(path)s.", method=request.method,
                             path=request.url.path), lang)
        return problem(exc.status_code, t(lang, "Error"), str(exc.detail), lang)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request: Request, exc: RequestValidationError):
        lang = request_lang(request)
        errors = [{"where": ".".join(str(p) for p in e["loc"]), "message": e["msg"]} for e in exc.errors()]
        detail = "; ".join(f"{e['where']}: {e['message']}" for e in errors)
        return problem(422, t(lang, "Invalid request"), detail, lang, errors=errors)

    @app.exception_handler(FileNotFoundError)
    async def _no_database(request: Request, exc: FileNotFoundError):
        lang = request_lang(request)
        return problem(503, t(lang, "Knowledge base not built"),
                       t(lang, "The knowledge base has not been built yet: run `rulekb build`."), lang)

    @app.exception_handler(queries.NotFound)
    async def _not_found(request: Request, exc: queries.NotFound):
        lang = request_lang(request)
        messages = {
            "game": t(lang, "There is no game with the id %(id)s.", id=exc.ident),
            "entity": t(lang, "There is no entry with the id %(id)s.", id=exc.ident),
            "source": t(lang, "There is no source with the id %(id)s.", id=exc.ident),
        }
        return problem(404, t(lang, "Not found"), messages[exc.what], lang)

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
        request: Request,
        q: Annotated[str, Query(max_length=500)],
        game: Optional[str] = None,
        lang: Optional[Lang] = None,
        kind: Optional[str] = None,
        limit: Annotated[int, Query(ge=1, le=100)] = 20,
        offset: Annotated[int, Query(ge=0, le=10_000)] = 0,
    ) -> dict[str, Any]:
        res = run_search(engine(), q, game=game, lang=lang, kind=kind, limit=limit, offset=offset)
        language = pick_lang(request, lang)
        return {"query": res.query, "tokens": res.tokens, "total": res.total, "limit": limit, "offset": offset,
                "warnings": [t(language, w) for w in res.warnings], "hits": [h.__dict__ for h in res.hits]}

    @v1.get("/compare/{entity_id:path}", summary="An entity's texts side by side per source, with findings")
    def compare(
        entity_id: str,
        langs: Annotated[Optional[str], Query(pattern=r"^(pl|cs|en),(pl|cs|en)$", examples=["pl,cs"])] = None,
        editions: Annotated[Optional[str], Query(pattern=r"^[0-9a-z-]+,[0-9a-z-]+$", examples=["2007,2017"])] = None,
    ) -> dict[str, Any]:
        game = queries.get_entity(engine(), entity_id)["game"]
        sources = queries.get_game(engine(), game)["sources"]
        chosen = None
        if langs or editions:
            key, wanted = ("lang", langs.split(",")) if langs else ("edition", editions.split(","))
            chosen = [s["id"] for s in sources if s[key] in wanted]
            have = sorted({s[key] for s in sources})
            missing = [w for w in wanted if w not in {s[key] for s in sources}]
            if missing:
                raise RequestValidationError([{
                    "loc": ("query", "langs" if langs else "editions"),
                    "msg": f"{game} has no source for {', '.join(missing)}; it has {', '.join(have)}",
                    "type": "value_error"}])
        return queries.compare_entity(engine(), entity_id, chosen)

    @v1.get("/discrepancies", summary="Findings of the translation and edition checker")
    def discrepancies(
        request: Request,
        game: Optional[str] = None,
        check: Optional[str] = None,
        severity: Literal["high", "medium", "low"] = "low",
        assessment: Optional[Literal["rules-difference", "artefact", "unclear", "curated"]] = None,
        limit: Annotated[int, Query(ge=1, le=200)] = 50,
        offset: Annotated[int, Query(ge=0)] = 0,
    ) -> dict[str, Any]:
        items, total = queries.list_findings(engine(), game=game, check=check, min_severity=severity,
                                             assessment=assessment, limit=limit, offset=offset)
        nxt = None
        if offset + limit < total:
            nxt = str(request.url.include_query_params(offset=offset + limit))
        return {"items": items, "total": total, "limit": limit, "offset": offset, "next": nxt}

    app.include_router(v1)

    @app.api_route("/api/{rest:path}", methods=["GET", "POST", "PUT", "PATCH", "DELETE"], include_in_schema=False)
    def _unknown_api(rest: str):
        raise HTTPException(404)

    if site_dir is not None and site_dir.is_dir():
        app.mount("/", StaticFiles(directory=site_dir, html=True), name="site")
    return app
